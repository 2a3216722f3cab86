//! Following a route: swimming out of slime, corners run round, borders strayed over,
//! steps taken head on, slime gone round or swum through only where survivable.

use super::*;

/// A match on e1m1 with one compiled bot at `start` (facing east) routed to `goal`;
/// `None` where e1m1 is absent.
fn e1m1_routed(start: glam::Vec3, goal: glam::Vec3) -> Option<botarena::tick::Match> {
    let (level, cmap, mesh) = e1m1_compiled()?;
    let mut m = one_compiled_bot(level, cmap, Arc::new(mesh), None, Some((start, 0.0)));
    route_to(&mut m, goal);
    Some(m)
}

/// A bot in the slime under e1m1's bridge swims out onto the ledge at (140, 2900), north,
/// at the first go. The swim out was measured from lower in the slime; come at higher, its
/// commands end short of the ledge, still in the slime: the bot keeps on at it a few
/// ticks. Before, it turned back for the swim's start and tried again (here 6 units back
/// and out after 11 ticks, now 8; seed 20's tour: twice, 0.8 s lost, in slime).
#[test]
fn a_swim_out_of_the_slime_that_ends_short_keeps_on_at_it() {
    let v = glam::Vec3::new;
    let Some(mut m) = e1m1_routed(v(160.0, 2840.0, -140.0), v(116.0, 2930.0, -120.0)) else {
        return;
    };
    let mut furthest: f32 = f32::MIN;
    let mut fell_back: f32 = 0.0;
    let out = (0..200).find(|_| {
        m.step();
        let s = m.sim.player_state(0).unwrap();
        if s.origin.z < -138.0 {
            furthest = furthest.max(s.origin.y);
            fell_back = fell_back.max(furthest - s.origin.y);
        }
        s.on_ground.is_some() && s.origin.y > 2900.0
    });
    println!("out after {out:?} ticks; swam back {fell_back:.0} units");
    let ticks = out.expect("out of the slime within 10 s");
    assert!(
        fell_back < 3.0,
        "swam back {fell_back} units toward the start"
    );
    assert!(ticks <= 9, "{ticks} ticks");
}

/// A bot running east along e1m1's bridge, slid out, routed to the super nailgun over the
/// strip along the hall's south wall, comes within 4 units of the strip a little east of
/// where the border onto it from the bridge's west part ends, and runs on east round that
/// corner. Before, it headed back for the corner, read the run as going off the strip's
/// far edge into the slime, braked, and so to and fro (1.4 s in seed 16's tour; here
/// still there after 2 s).
#[test]
fn a_bot_just_past_a_corner_of_its_way_runs_on_round_it() {
    let v = glam::Vec3::new;
    let Some(mut m) = e1m1_placed(
        v(84.1, 2878.4, -55.97),
        v(322.0, -40.0, 0.0),
        v(832.0, 2448.0, -343.0),
        true,
    ) else {
        return;
    };
    let on = (0..40).find(|_| {
        m.step();
        m.sim.player_state(0).unwrap().origin.x > 300.0
    });
    println!("past x 300 after {on:?} ticks");
    let ticks = on.expect("past x 300 within 2 s");
    // 200 units at running speed: 13 ticks.
    assert!(ticks <= 16, "{ticks} ticks to x 300");
}

/// A bot come up e1m1's steps out of the slime at a run, at their top (6, 2937) on the
/// 16-unit strip where its way turns south (onto the bridge, slid out, to the super
/// nailgun), goes on a few units west over the strip's long border onto the strip beside
/// it, whose one walk back lies 113 units south. It comes back over the border beside it
/// and runs on over the bridge. Before, it took that strip's way round by the north and
/// went to and fro between the two (1.3 s in seed 65's tour).
#[test]
fn a_bot_strayed_over_a_long_border_comes_back_over_it() {
    let v = glam::Vec3::new;
    let Some(mut m) = e1m1_placed(
        v(6.6, 2937.2, -55.97),
        v(-300.0, -160.0, 0.0),
        v(832.0, 2448.0, -343.0),
        true,
    ) else {
        return;
    };
    let mut north = f32::MIN;
    let on = (0..40).find(|_| {
        m.step();
        let s = m.sim.player_state(0).unwrap();
        north = north.max(s.origin.y);
        s.origin.x > 150.0
    });
    println!("past x 150 after {on:?} ticks; furthest north y {north:.0}");
    let ticks = on.expect("over the bridge past x 150 within 2 s");
    assert!(
        north < 2945.0,
        "went north to y {north:.0}, round by the north"
    );
    // About 170 units of turn and run: 13 ticks or so.
    assert!(ticks <= 18, "{ticks} ticks to x 150");
}

/// A bot running north-east onto the 16-unit landing at (704, 2200) in e1m1's pit, water
/// north of it, routed up the 16-unit ramp north to the super nailgun: the step up east
/// onto the ramp is a step high only at its south end, and the line's corner onto the
/// ramp and the point round it both lie north-east, where the riser is higher. It takes
/// the step head on, as measured, and runs up the ramp. Before, it bounced off the riser
/// and stood before it for good (every speed toward the line's point went off the floor).
#[test]
fn a_bot_before_a_step_it_can_take_only_head_on_takes_it() {
    let v = glam::Vec3::new;
    let Some(mut m) = e1m1_placed(
        v(698.4, 2193.2, -375.97),
        v(340.0, 168.0, 0.0),
        v(832.0, 2448.0, -343.0),
        false,
    ) else {
        return;
    };
    let mut lowest = f32::MAX;
    let up = (0..40).find(|_| {
        m.step();
        let s = m.sim.player_state(0).unwrap();
        lowest = lowest.min(s.origin.z);
        s.origin.y > 2300.0 && s.on_ground.is_some()
    });
    println!("up the ramp after {up:?} ticks; lowest z {lowest:.0}");
    up.expect("up the ramp within 2 s");
    assert!(lowest > -380.0, "down to z {lowest}");
}

/// The way through slime is taken from dry ground only by a bot that lives through it: the
/// wade across the trench costs a few points on the graph's times; a bot with fewer keeps
/// to the dry travel (and has no route: it stands, as it would before a way it cannot
/// take), one already in the slime takes the way out whatever it has. Before, a bot set
/// off on any way through slime where no dry one led: on e1m1 tours they swam 8 s of slime
/// to the invulnerability with less than full health and died there, again and again.
#[test]
fn a_compiled_bot_sets_off_through_slime_only_where_it_lives_through_it() {
    use botarena::aas::route::Travel;
    use botarena::bot::compiled::{CompiledNav, LIQUID_HURT_MARGIN};
    use glam::Vec3;
    let (level, cmap) = common::slime_trench(false);
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let mut nav = CompiledNav::new(Arc::new(mesh), &level, &cmap);
    let mut nav = nav.query();
    let dry = Travel::ALL.dry();
    let (from, to) = (Vec3::new(128., 128., 40.), Vec3::new(896., 128., 40.));
    let hurt = nav
        .liquid_hurt(from, to, Travel::ALL)
        .expect("a way across");
    println!("the wade costs {hurt:.1} health on the graph's times");
    // 128 units of slime at running speed, at 12 a second.
    assert!((2.0..12.0).contains(&hurt), "hurt {hurt}");
    assert_eq!(
        nav.liquid_hurt(from, from + Vec3::X * 64.0, Travel::ALL),
        Some(0.0)
    );
    let wet = nav.or_through_liquids(from, to, dry, 100.0);
    assert_ne!(wet, dry, "full health wades");
    assert!(wet.0 & Travel::SLIME.0 != 0);
    let low = hurt * LIQUID_HURT_MARGIN * 0.9;
    assert_eq!(
        nav.or_through_liquids(from, to, dry, low),
        dry,
        "{low} health stays"
    );
    let in_slime = Vec3::new(512., 128., 24.);
    let out = nav.or_through_liquids(in_slime, to, dry, 1.0);
    assert!(nav.seconds(in_slime, to, out).is_some(), "gets out");
    // e1m1's slime channel: from in it no dry way leads anywhere, and the swim out costs
    // more than a wounded bot has; it swims out all the same. From the nailgun's room the
    // invulnerability is a swim through the channel that costs more than a full health.
    let Some((level, cmap, mesh)) = e1m1_compiled() else {
        println!("skipped e1m1's slime: no quake-maps");
        return;
    };
    let mut nav = CompiledNav::new(Arc::new(mesh), &level, &cmap);
    let mut nav = nav.query();
    let (channel, rl) = (Vec3::new(1252., 1469., -488.), Vec3::new(144., 2352., 41.));
    let hurt = nav
        .liquid_hurt(channel, rl, Travel::ALL)
        .expect("a way out");
    println!("out of e1m1's channel to the rocket launcher costs {hurt:.1}");
    assert!(hurt * LIQUID_HURT_MARGIN > 20.0, "{hurt}");
    let out = nav.or_through_liquids(channel, rl, dry, 20.0);
    assert_ne!(out, dry, "swims out");
    let (nailgun, invulnerability) = (Vec3::new(452., 575., 24.), Vec3::new(256., 1808., -39.));
    let hurt = nav
        .liquid_hurt(nailgun, invulnerability, Travel::ALL)
        .expect("a way");
    println!("to e1m1's invulnerability costs {hurt:.1}");
    assert!(hurt > 100.0, "{hurt}");
    assert_eq!(
        nav.or_through_liquids(nailgun, invulnerability, dry, 100.0),
        dry
    );
}
