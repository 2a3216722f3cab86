//! e1m1's legs: its nailgun lift door, rocket launcher, super shotguns and quad.

use super::*;

/// e1m1's rocket launcher leg, which no seed of 1–40 got within 10 % of its prediction
/// before 2026-11-26 (0 of 39; 37 of 39 after): the bot stood at the corner of a ledge for
/// seconds because the forecast guarding it read the 32-unit step down onto the route's
/// next floor as leaving every floor; a lift the bot had been carried off the centre of
/// jammed against its shaft and went up and down for good; a swimmer turned back for a
/// swim reachability's start once past it, and one that drifted into the narrow column
/// beside the one it followed was sent back 100 units. Seeds 1–2, within 10 %. On seed 1
/// the lift-door on the way stands open when the leg starts and has shut again when the
/// bot gets there: the prediction has it fired again (with swims timed at swimming speed
/// and the door taken as open, seed 1 was predicted 1.14 short).
#[test]
fn e1m1s_rocket_launcher_leg_arrives_on_time() {
    let Some(tours) = e1m1_tours() else {
        return;
    };
    leg_within(tours, "weapon_rocketlauncher");
}

/// e1m1's first super shotgun, from the foot of the sloped hall: the route goes round the
/// slime tunnel (it swam it before 2026-11-26) and up the barrier jump to the ledge at
/// (1148, 2420), which the bot reaches across its way at speed; a stand on its start
/// does not fit the jump (it is 41 units up, near the top of a jump), so the bot goes
/// round to back off and run in at once rather than first stand there (seeds 1-2: 1.08
/// and 1.09, were 1.18 and 1.20; seeds 1-40, 38 of 39 legs within 10 %, were 15).
#[test]
fn e1m1s_first_super_shotgun_leg_arrives_on_time() {
    let Some(tours) = e1m1_tours() else {
        return;
    };
    leg_within(tours, "weapon_supershotgun#1");
}

/// e1m1's second super shotgun lies behind a secret door that only a trigger with health
/// opens from outside, and that trigger is seen only from the bridge a button slides out:
/// the bot fires the bridge's button, walks out on the bridge (its place to shoot from is
/// the nearest standing point that sees the trigger, in the middle of the narrow bridge,
/// where a bot guarded against momentum does not fall off), shoots it, and goes through.
/// Before, no place to shoot from was found and the bot waited at the door for good.
#[test]
fn e1m1s_second_super_shotgun_is_reached_by_shooting_its_trigger_from_the_bridge() {
    let (Some(tours), Some((_, _, mesh))) = (e1m1_tours(), e1m1_compiled()) else {
        return;
    };
    for (seed, stops) in tours {
        let stop = stops
            .iter()
            .find(|s| s.item.label == "weapon_supershotgun#2")
            .expect("toured");
        // Timed unless the leg set off in the air, over no area (seed 1 since 2026-11-26:
        // the leg before ends with a jump onto the ridge at (781, 2128)).
        assert!(
            stop.reached_after.is_some()
                && (stop.predicted.is_some() || mesh.area_at(stop.from).is_none()),
            "seed {seed}: from {}, took {:?} s, predicted {:?} s",
            stop.from,
            stop.reached_after,
            stop.predicted
        );
    }
}

/// Quake holds a raised plat up while a player is in its trigger, which spans the shaft
/// (plats.qc's `plat_center_touch`): e1m1's lift east of the quad damage. The compile keeps
/// no way down onto it from above (the plat would come up to meet the faller), and a bot
/// that waits for a plat to come down waits off its trigger. The quad's leg from the
/// lift's top (seed 2; seed 1 goes from elsewhere) arrives within 10 %; before, the bot
/// stood on the raised plat until it was killed as stuck.
#[test]
fn e1m1s_quad_leg_from_the_raised_lift_arrives_on_time() {
    let Some(tours) = e1m1_tours() else {
        return;
    };
    leg_within(tours, "item_artifact_super_damage");
}

/// A plat nothing targets rests at its bottom and rises once a player touches its trigger
/// (plats.qc's `plat_center_touch`): on dm4, dm6 and e1m1 every ride up from such a plat
/// at rest starts where the rider's box touches that trigger. Before, a ride's start was
/// the middle of where the plat and the area at the top overlap: on e1m1's plat at (-544,
/// 2656) one started on its east edge, off the trigger, and a bot stood there 1.4 s until
/// the ride was given up (seed 29's first leg: 7.0 s for 5.0 predicted).
#[test]
fn a_ride_up_from_a_plat_at_rest_starts_in_its_trigger() {
    use botarena::aas::ReachKind;
    use botarena::map::level::{MoverKind, TriggerKind};
    let Some(dir) = quake_maps() else {
        return;
    };
    for name in ["dm4", "dm6", "e1m1"] {
        let (level, cmap) =
            build_level(MapData::load(&dir.join(format!("{name}.map"))).expect("id map loads"));
        let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
        let mut rides = 0;
        for r in mesh
            .reaches()
            .iter()
            .filter(|r| r.kind == ReachKind::Elevator)
        {
            let from = &mesh.areas()[r.from as usize];
            let Some(k) = level.movers.iter().position(|m| {
                Some(m.id.0) == from.mover
                    && matches!(m.kind, MoverKind::Plat { .. })
                    && m.targetname.is_none()
            }) else {
                continue;
            };
            if from.moved.is_some() {
                continue;
            }
            let Some(t) = level
                .triggers
                .iter()
                .find(|t| matches!(t.kind, TriggerKind::PlatRaise { mover } if mover == k))
            else {
                continue;
            };
            rides += 1;
            let half = 16.0;
            let touches = r.start.x + half > t.mins.x
                && r.start.x - half < t.maxs.x
                && r.start.y + half > t.mins.y
                && r.start.y - half < t.maxs.y;
            assert!(
                touches,
                "{name}: a ride up from {} off the trigger {}..{} of the plat at rest",
                r.start, t.mins, t.maxs
            );
        }
        println!("{name}: {rides} rides up from plats at rest");
    }
}
