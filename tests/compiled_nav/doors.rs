//! Doors and buttons on a compiled route: buttons pressed, floor plates stood on, ceiling
//! buttons jumped at, doors seen before the first tick, secret doors shot open, bridges
//! slid out from their trigger.

use super::*;

/// A compiled bot started in the first of [`gated_rooms`] and routed to the second: the
/// tick it is past the gate (x > 700), within 20 s.
fn through_the_gate(b: botarena::map::builder::MapBuilder) -> Option<usize> {
    use botarena::bot::control::ControllerConfig;
    use botarena::tick::{Match, MatchConfig, PlayerConfig};
    let v = glam::Vec3::new;
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let mut cfg = MatchConfig::new(
        1,
        vec![PlayerConfig {
            name: "opener".into(),
            controller: ControllerConfig::Route(v(800., 256., 24.03125)),
            spawn: None,
            start: Some((v(300., 100., 40.), 0.0)),
            senses: Default::default(),
            navigation: Navigation::Compiled,
        }],
    );
    cfg.nav = Some(Arc::new(mesh));
    let mut m = Match::new(Arc::new(level), cmap, &cfg).unwrap();
    (0..400).find(|_| {
        m.step();
        m.sim.player_state(0).unwrap().origin.x > 700.0
    })
}

/// A compiled bot whose only way on is through a door a button opens (as e1m1's doors
/// are: a tour bot stood before such a door for the whole minute) goes to the button,
/// presses it, and goes through; with the button's target renamed, nothing fires the door
/// and the bot does not get through.
#[test]
fn a_compiled_bot_presses_the_button_that_opens_its_way() {
    let run = |target: &str| through_the_gate(gated_rooms(target));
    // To the button (about 450 units), to the doorway (about 560), the gate's rise.
    let through = run("gate").expect("through the gate within 20 s");
    assert!(through < 120, "{through} ticks");
    assert_eq!(run("elsewhere"), None, "nothing fires the gate");
}

/// A gate that a button pushed down (a floor plate, pressed by standing on it) or up (a
/// ceiling button, pressed by jumping into it from below) opens: a compiled bot whose only
/// way on is through the gate goes to the button, presses it as a player would, and gets
/// through (before, such buttons were not counted as openers and the bot stood at the
/// gate).
#[test]
fn a_compiled_bot_stands_on_a_floor_plate_and_jumps_at_a_ceiling_button() {
    let v = glam::Vec3::new;
    let run = |lo, hi, angle: &str| through_the_gate(gated_rooms_with((lo, hi), angle, "gate"));
    // A plate 8 units high on the floor, pushed down.
    let plate = run(v(200., 400., 0.), v(264., 464., 8.), "-2");
    assert!(
        plate.is_some_and(|t| t < 160),
        "through by the plate: {plate:?}"
    );
    // A button in the air 80 units up (a standing player's head is at 56, a jump's at
    // about 101), pushed up.
    let ceiling = run(v(200., 424., 80.), v(216., 440., 96.), "-1");
    assert!(
        ceiling.is_some_and(|t| t < 160),
        "through by the ceiling button: {ceiling:?}"
    );
}

/// e4m3's jump west from the ledge at (487 913 152) passes through a door that opens as a
/// player comes near, and its start lies outside the door's trigger field: a compiled bot
/// sent over the jump goes into the field first, then takes the jump while the door stands
/// open (before, it waited at the start for the door until it was taken for stuck).
#[test]
fn e4m3s_jump_through_a_door_that_opens_nearby_is_taken_after_opening_it() {
    use botarena::bot::control::ControllerConfig;
    use botarena::tick::{Match, MatchConfig, PlayerConfig};
    use glam::Vec3;
    let Some(dir) = quake_maps() else {
        return;
    };
    let (level, cmap) = build_level(MapData::load(&dir.join("e4m3.map")).expect("e4m3 loads"));
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let (start, end) = (Vec3::new(487., 913., 152.), Vec3::new(208., 1076., 163.));
    let jump = mesh
        .reaches()
        .iter()
        .find(|r| r.start.distance(start) < 8.0 && r.end.distance(end) < 8.0)
        .expect("the jump through the door");
    assert!(
        jump.needs
            .iter()
            .any(|n| matches!(n, botarena::aas::MoverNeed::Open(_))),
        "it needs the door open: {jump:?}"
    );
    let mut cfg = MatchConfig::new(
        1,
        vec![PlayerConfig {
            name: "jumper".into(),
            controller: ControllerConfig::Route(end + Vec3::Z),
            spawn: None,
            start: Some((Vec3::new(487., 940., 153.), -90.0)),
            senses: Default::default(),
            navigation: Navigation::Compiled,
        }],
    );
    cfg.nav = Some(Arc::new(mesh));
    let mut m = Match::new(Arc::new(level), cmap, &cfg).unwrap();
    let there = (0..300).find(|_| {
        m.step();
        (m.sim.player_state(0).unwrap().origin - end)
            .truncate()
            .length()
            < 48.0
    });
    assert!(there.is_some(), "over the jump within 15 s");
}

/// Two rooms and a gate a button on the far side of the first opens, a nailgun beyond:
/// the tour's prediction goes by way of the button (there, pressed, then through the gate
/// as it opens) and the bot, setting off for the button at once, arrives within 10 % of
/// it; with the button's target renamed nothing fires the gate, and the graph predicts no
/// way (before, both were timed as if the gate would open where the bot stood).
#[test]
fn a_way_through_a_door_a_button_opens_is_predicted_by_way_of_the_button() {
    use glam::Vec3;
    let v = Vec3::new;
    let run = |target: &str| {
        let mut b = gated_rooms(target);
        b.point("weapon_nailgun", v(800., 256., 24.), &[]);
        let (level, cmap) = b.build();
        tour_the_one_item(level, cmap, "the nailgun")
    };
    let stop = run("gate");
    let (predicted, took) = (
        stop.predicted.expect("a way"),
        stop.reached_after.expect("reached"),
    );
    // To the button (about 450 units), pressed, back to the gate and through (about 600).
    assert!(
        predicted > 3.0,
        "predicted {predicted} s: the button's way is counted"
    );
    let ratio = took / predicted;
    assert!(
        (0.9..=1.1).contains(&ratio),
        "took {took} s, predicted {predicted} s"
    );
    let stop = run("elsewhere");
    assert_eq!(stop.predicted, None, "nothing fires the gate");
    assert_eq!(stop.reached_after, None);
}

/// Two pools joined only by a tunnel under the wall between them (its ceiling far below
/// the surface): a compiled bot swims down into the tunnel, through and up to the nailgun
/// on the far landing. A crossing aimed at the very top of the depth pool and tunnel share
/// kept the swimmer's head against the wall above the tunnel.
#[test]
fn a_swimmer_dives_into_a_tunnel_whose_ceiling_is_below_the_surface() {
    use glam::Vec3;
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 512., 256.));
    // Landings at both ends, water between, a wall across it with a tunnel at the bottom.
    b.solid(v(0., 0., 0.), v(128., 512., 192.), "L")
        .solid(v(896., 0., 0.), v(1024., 512., 192.), "L")
        .solid(v(504., 0., 72.), v(520., 512., 256.), "WALL")
        .solid(v(504., 0., 0.), v(520., 200., 72.), "WALL")
        .solid(v(504., 312., 0.), v(520., 512., 72.), "WALL")
        .solid(v(128., 0., 0.), v(504., 512., 192.), "*water0")
        .solid(v(520., 0., 0.), v(896., 512., 192.), "*water0")
        .solid(v(504., 200., 0.), v(520., 312., 72.), "*water0")
        .point("info_player_deathmatch", v(64., 256., 216.), &[])
        .point("weapon_nailgun", v(960., 256., 200.), &[]);
    let (level, cmap) = b.build();
    let stop = tour_the_one_item(level, cmap, "the nailgun");
    let predicted = stop.predicted.expect("a way through the tunnel");
    let took = stop.reached_after.expect("through the tunnel");
    assert!(
        took <= 1.5 * predicted,
        "took {took} s, predicted {predicted} s"
    );
}

/// e1m1's secret door at (1112, 1024) stands across the way east; a compiled bot running
/// at it from the south-west shoots it open from the walk's start before it, braking onto
/// that start, and keeps out of the corner north of it that the door swings into. Before,
/// it coasted on (here to y 1045); on seed 4's tour, coming in faster, it slid into the
/// door's first move, was pushed into that corner, where the way on needs the door shut,
/// waited there until the door had closed (10 s), shot it again, and was given up as stuck
/// (a super nailgun leg 2.5 times its prediction). Now it is through within 4 s (the door's
/// opening takes about 2.6 s), alive.
#[test]
fn a_bot_running_at_a_secret_door_brakes_to_shoot_it_open() {
    use glam::Vec3;
    let Some((level, cmap, mesh)) = e1m1_compiled() else {
        return;
    };
    let mesh = Arc::new(mesh);
    let (start, goal) = (
        Vec3::new(1000.0, 980.0, -247.97),
        Vec3::new(1250.0, 1066.0, -255.97),
    );
    let mut m = one_compiled_bot(level, cmap, Arc::clone(&mesh), None, Some((start, 0.0)));
    route_to(&mut m, goal);
    let mut furthest_north: f32 = f32::MIN;
    let ticks = (0..400).find(|_| {
        m.step();
        let s = m.sim.player_state(0).unwrap();
        assert!(
            m.sim.player_vitals(0).unwrap().alive,
            "died at tick {}",
            m.sim.tick
        );
        if s.origin.x < 1100.0 {
            furthest_north = furthest_north.max(s.origin.y);
        }
        (s.origin - goal).truncate().length() < 32.0
    });
    let ticks = ticks.expect("past the door within 20 s");
    println!("past the door after {ticks} ticks; furthest north before it {furthest_north:.0}");
    assert!(ticks <= 80, "{ticks} ticks");
    // Kept out of the corner the door swings into (its open place, y 1056..1120).
    assert!(furthest_north < 1056.0 - 16.0, "{furthest_north}");
}

/// e1m1's second super shotgun from beside the bridge's button (the bridge in): the bot
/// presses the button and, while the bridge slides out, goes straight for the place on it
/// that sees the trigger opening the secret door. Before, while the bridge moved, the
/// route on (through doors as if open) headed west toward the secret door until the bridge
/// was out (seed 10's tour: trigger shot 36 ticks after the press; here 86 before, 25 now).
#[test]
fn a_bot_sliding_the_bridge_out_goes_straight_for_the_trigger() {
    let Some(run) = bridge_run(glam::Vec3::new(-20.0, 2800.0, -55.97), false) else {
        return;
    };
    let pressed = run.pressed.expect("the bridge's button pressed");
    let fired = run.fired.expect("the secret door fired within 20 s");
    // From the button (x -48) east along the bridge's foot: not west toward the door.
    assert!(run.westmost > -60.0, "x {} after the press", run.westmost);
    assert!(
        fired - pressed <= 30,
        "{} ticks from the press to the shot",
        fired - pressed
    );
}

/// With e1m1's bridge out, a bot standing 9 units off the place on it from which the
/// trigger opening the secret door is shot (within the movement stage's arrival radius of
/// it) but not seeing the trigger from there walks onto the place, sees the trigger and
/// hits it with its first shot. Before, it took itself for there and stood unseeing until
/// the detour was given up (no shot in 20 s).
#[test]
fn a_bot_beside_the_place_to_shoot_from_walks_onto_it() {
    let Some(run) = bridge_run(glam::Vec3::new(145.0, 2895.0, -55.97), true) else {
        return;
    };
    let fired = run.fired.expect("the secret door fired within 20 s");
    assert!(fired <= 20, "fired at tick {fired}");
    assert_eq!(run.shots, 1, "the trigger hit with the first shot");
}
