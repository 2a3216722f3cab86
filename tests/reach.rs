//! Straight-line reachability on small maps that rebuild the reference's illustrations
//! (002 §10.1), plus the shipped proving ground, and a property test against the physics.

mod common;

use botarena::map::builder::MapBuilder;
use botarena::nav::{Blocked, ReachParams, Reachability, reachable};
use botarena::physics::pmove::{PhysicsParams, PlayerState, UserCmd, pmove};
use botarena::{CollisionMap, Contents};
use glam::Vec3;
use proptest::prelude::*;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// A long room (x -512..1536, y -128..128, floor top at 0) with extra boxes.
fn world(extra: &[(Vec3, Vec3, &str)]) -> CollisionMap {
    let mut b = MapBuilder::new();
    b.solid(v(-528., -144., -400.), v(1552., -128., 600.), "W")
        .solid(v(-528., 128., -400.), v(1552., 144., 600.), "W")
        .solid(v(-528., -128., -400.), v(-512., 128., 600.), "W")
        .solid(v(1536., -128., -400.), v(1552., 128., 600.), "W")
        .solid(v(-512., -128., 584.), v(1536., 128., 600.), "W");
    for (a, c, t) in extra {
        b.solid(*a, *c, t);
    }
    common::from_text(&b.to_map_text("reach")).1
}

/// Floor top at 0 everywhere except the x ranges given as holes (pits 300 deep).
fn floor_except(holes: &[(f32, f32)]) -> Vec<(Vec3, Vec3, &'static str)> {
    let mut out = vec![(v(-512., -128., -400.), v(1536., 128., -300.), "PIT")];
    let mut x = -512.0;
    let mut hs = holes.to_vec();
    hs.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (a, b) in hs {
        if a > x {
            out.push((v(x, -128., -300.), v(a, 128., 0.), "F"));
        }
        x = b;
    }
    if x < 1536.0 {
        out.push((v(x, -128., -300.), v(1536., 128., 0.), "F"));
    }
    out
}

fn stand(x: f32, z: f32) -> Vec3 {
    v(x, 0., z + 24.03125)
}

fn r(map: &CollisionMap, from: Vec3, to: Vec3) -> Reachability {
    reachable(map, from, to, &ReachParams::default())
}

#[test]
fn flat_floor_is_walkable() {
    let m = world(&floor_except(&[]));
    assert_eq!(
        r(&m, stand(-400., 0.), stand(1000., 0.)),
        Reachability::Walk
    );
}

#[test]
fn wall_too_high_to_jump_blocks() {
    let mut w = floor_except(&[]);
    w.push((v(200., -128., 0.), v(216., 128., 64.), "WALL"));
    let m = world(&w);
    assert_eq!(
        r(&m, stand(-400., 0.), stand(600., 0.)),
        Reachability::Unreachable(Blocked::Wall)
    );
    // A barrier of 40 is jumped onto, and walked off the far side.
    let mut w = floor_except(&[]);
    w.push((v(200., -128., 0.), v(400., 128., 40.), "BLOCK"));
    let m = world(&w);
    assert_eq!(
        r(&m, stand(-400., 0.), stand(300., 40.)),
        Reachability::Jump
    );
    assert_eq!(r(&m, stand(-400., 0.), stand(600., 0.)), Reachability::Jump);
}

#[test]
fn entity_in_a_trench_is_reachable() {
    // A trench 64 deep and 128 wide; the target lies on its bottom.
    let w = vec![
        (v(-512., -128., -300.), v(300., 128., 0.), "F"),
        (v(300., -128., -300.), v(428., 128., -64.), "TRENCH"),
        (v(428., -128., -300.), v(1536., 128., 0.), "F"),
    ];
    let m = world(&w);
    assert_eq!(
        r(&m, stand(-400., 0.), stand(364., -64.)),
        Reachability::Fall
    );
}

#[test]
fn ledge_above_jump_height_is_reachable_down_only() {
    let mut w = floor_except(&[]);
    w.push((v(300., -128., 0.), v(1536., 128., 96.), "LEDGE"));
    let m = world(&w);
    assert_eq!(
        r(&m, stand(-100., 0.), stand(600., 96.)),
        Reachability::Unreachable(Blocked::Wall)
    );
    assert_eq!(
        r(&m, stand(600., 96.), stand(-100., 0.)),
        Reachability::Fall
    );
}

#[test]
fn stairs_with_steps_only_jumpable_need_a_jump_chain() {
    let mut w = floor_except(&[]);
    for i in 0..4 {
        let x = 200.0 + 64.0 * i as f32;
        w.push((
            v(x, -128., 0.),
            v(1536., 128., 32.0 * (i + 1) as f32),
            "STEP",
        ));
    }
    let m = world(&w);
    assert_eq!(
        r(&m, stand(-100., 0.), stand(600., 128.)),
        Reachability::JumpChain(4)
    );
    // Without halvings the 64-deep steps cannot be landed on from 108 away.
    let p = ReachParams {
        max_halvings: 0,
        ..Default::default()
    };
    assert!(!reachable(&m, stand(-100., 0.), stand(600., 128.), &p).is_reachable());
    // Down the stairs is a fall.
    assert_eq!(
        r(&m, stand(600., 128.), stand(-100., 0.)),
        Reachability::Fall
    );
}

#[test]
fn swimming_to_a_target_in_water() {
    let w = vec![
        (v(-512., -128., -300.), v(200., 128., 0.), "F"),
        (v(200., -128., -300.), v(700., 128., -160.), "POOLBED"),
        (v(200., -128., -160.), v(700., 128., 0.), "*water1"),
        (v(700., -128., -300.), v(1536., 128., 0.), "F"),
    ];
    let m = world(&w);
    assert_eq!(
        r(&m, stand(-400., 0.), v(450., 0., -100.)),
        Reachability::Swim
    );
    assert_eq!(
        r(&m, stand(-400., 0.), stand(1000., 0.)),
        Reachability::Swim
    );
}

#[test]
fn gaps_lava_and_slime_on_the_proving_ground() {
    let (_, m) = common::shipped("proving");
    let lane = |i: usize| 256.0 * i as f32 + 96.0;
    let at = |x: f32, i: usize, z: f32| v(x, lane(i), z + 24.03125);
    assert_eq!(
        r(&m, at(64., 3, 0.), at(1000., 3, 0.)),
        Reachability::Jump,
        "200 gap"
    );
    assert_eq!(
        r(&m, at(64., 4, 0.), at(1000., 4, 0.)),
        Reachability::Unreachable(Blocked::Gap),
        "260 gap"
    );
    assert_eq!(
        r(&m, at(64., 6, 0.), at(1000., 6, 0.)),
        Reachability::Jump,
        "192 lava pit"
    );
    assert_eq!(
        r(&m, at(64., 6, 0.), at(600., 6, -64.)),
        Reachability::Unreachable(Blocked::Hazard),
        "into lava"
    );
    assert_eq!(
        r(&m, at(64., 1, 0.), at(1000., 1, 18.)),
        Reachability::Walk,
        "18 step"
    );
    assert_eq!(
        r(&m, at(64., 2, 0.), at(1000., 2, 19.)),
        Reachability::Jump,
        "19 step"
    );
    assert_eq!(
        r(&m, at(64., 0, 0.), at(1300., 0, 128.)),
        Reachability::Walk,
        "stairs of 16"
    );
    assert_eq!(
        r(&m, at(1300., 0, 128.), at(1900., 0, 0.)),
        Reachability::Fall,
        "off the ledge"
    );
    // Through the water pool (with its submerged block) to the far side.
    assert_eq!(r(&m, at(64., 5, 0.), at(1500., 5, 0.)), Reachability::Swim);
    // Around a corner is not a straight line: lane 0 to lane 1 through the wall.
    assert!(!r(&m, at(64., 0, 0.), at(64., 1, 0.)).is_reachable());
}

/// The straight walk/jump a player would do: run at the goal, jump when the floor under the
/// box centre is gone or a barrier higher than a step is just ahead.
fn drive(map: &CollisionMap, from: Vec3, to: Vec3, seconds: f32) -> (bool, bool) {
    let params = PhysicsParams {
        mask: Contents::MASK_PLAYER_NO_BODIES,
        ..Default::default()
    };
    let dt = 0.05;
    let mut s = PlayerState::at(from, 0.0);
    let mut hazard = false;
    for _ in 0..(seconds / dt) as usize {
        let d = to - s.origin;
        let flat = Vec3::new(d.x, d.y, 0.0);
        if flat.length() < 24.0 && d.z.abs() < 40.0 {
            return (true, hazard);
        }
        let dir = flat.normalize_or_zero();
        let yaw = dir.y.atan2(dir.x).to_degrees();
        let mut jump = false;
        if s.on_ground.is_some() {
            let below = map.trace_ray(
                s.origin,
                s.origin - Vec3::new(0., 0., 64.),
                Contents::MASK_PLAYER_NO_BODIES,
                None,
            );
            let ahead = map.trace(
                s.origin,
                s.origin + dir * 20.0,
                botarena::physics::pmove::PLAYER_MINS,
                botarena::physics::pmove::PLAYER_MAXS,
                Contents::MASK_PLAYER_NO_BODIES,
                None,
            );
            let step = map.trace(
                s.origin + Vec3::Z * 18.0,
                s.origin + Vec3::Z * 18.0 + dir * 20.0,
                botarena::physics::pmove::PLAYER_MINS,
                botarena::physics::pmove::PLAYER_MAXS,
                Contents::MASK_PLAYER_NO_BODIES,
                None,
            );
            jump = below.fraction >= 1.0 || (ahead.fraction < 1.0 && step.fraction < 1.0);
        }
        let cmd = UserCmd {
            forward_move: 320.0,
            yaw,
            jump,
            up_move: if s.water_level >= 2 { 100.0 } else { 0.0 },
            ..Default::default()
        };
        s = pmove(&s, &cmd, map, &params, dt, None).0;
        if s.water_type.intersects(Contents::LAVA | Contents::SLIME) {
            hazard = true;
        }
    }
    (false, hazard)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

    /// In generated box worlds (a barrier of random height and depth, or a gap of random
    /// width, maybe with lava in it), whatever `reachable` calls reachable a player running
    /// straight at it (jumping at edges and barriers) does reach, never touching a hazard.
    #[test]
    fn reachable_is_never_optimistic(
        kind in 0u8..3,
        size in 0.0f32..320.0,
        depth in 16.0f32..300.0,
        target_x in 300.0f32..1400.0,
        lava in any::<bool>(),
    ) {
        let gap_x = 200.0;
        let (w, goal) = match kind {
            0 => {
                // A barrier of height `size / 5` (0..64) and depth `depth`.
                let h = (size / 5.0).max(1.0);
                let mut w = floor_except(&[]);
                w.push((v(gap_x, -128., 0.), v(gap_x + depth, 128., h), "BARRIER"));
                let on = target_x >= gap_x && target_x <= gap_x + depth;
                (w, stand(target_x, if on { h } else { 0.0 }))
            }
            1 => {
                // A gap of width `size`, lava at its bottom or not.
                let w_gap = size.max(8.0);
                let mut w = floor_except(&[(gap_x, gap_x + w_gap)]);
                if lava {
                    w.push((v(gap_x, -128., -300.), v(gap_x + w_gap, 128., -200.), "*lava1"));
                }
                let in_gap = target_x > gap_x && target_x < gap_x + w_gap;
                (w, stand(target_x, if in_gap { -300.0 } else { 0.0 }))
            }
            _ => {
                // A ledge up (or a drop down) of `size / 3`.
                let h = size / 3.0;
                let mut w = floor_except(&[]);
                w.push((v(gap_x, -128., 0.), v(1536., 128., h), "LEDGE"));
                (w, stand(target_x, if target_x >= gap_x { h } else { 0.0 }))
            }
        };
        let m = world(&w);
        let from = stand(-300.0, 0.0);
        let verdict = r(&m, from, goal);
        if verdict.is_reachable() {
            let (arrived, hazard) = drive(&m, from, goal, 8.0);
            prop_assert!(arrived, "{verdict:?} but the run did not arrive (kind {kind}, size {size}, depth {depth}, x {target_x})");
            prop_assert!(!hazard, "{verdict:?} but the run touched a hazard");
        }
    }
}

#[test]
fn an_answer_asked_again_costs_no_trace_until_a_mover_moves() {
    use botarena::map::{Brush, EntId, collision::memo_traces_on_this_thread};
    use botarena::nav::reach::reachable_counted;
    // A floor and a door-like mover beside the way (not across it).
    let floor = Brush::from_box(v(-512., -128., -64.), v(512., 128., 0.), Contents::SOLID);
    let door = Brush::from_box(v(0., 200., 0.), v(16., 300., 128.), Contents::SOLID);
    let mut map = CollisionMap::new(vec![floor], vec![(EntId(7), vec![door])]);
    let (from, to) = (stand(-300., 0.), stand(300., 0.));
    let p = ReachParams::default();
    let (first, n) = reachable_counted(&map, from, to, &p);
    assert_eq!(first, Reachability::Walk);
    assert!(n > 0, "the first answer is traced");
    let memo = memo_traces_on_this_thread();
    assert_eq!(
        reachable_counted(&map, from, to, &p),
        (first, 0),
        "remembered"
    );
    assert_eq!(
        memo_traces_on_this_thread() - memo,
        n as u64,
        "counted apart"
    );
    // Other parameters are not remembered.
    let other = ReachParams { step: 16.0, ..p };
    assert!(reachable_counted(&map, from, to, &other).1 > 0);
    // The mover moves across the way: the geometry is another, the answer is traced again
    // (and is now a wall).
    map.set_mover_offset(EntId(7), v(0., -228., 0.));
    let (again, n2) = reachable_counted(&map, from, to, &p);
    assert!(n2 > 0, "traced again after the mover moved");
    assert_eq!(again, Reachability::Unreachable(Blocked::Wall));
    // Setting the same offset again changes nothing.
    map.set_mover_offset(EntId(7), v(0., -228., 0.));
    assert_eq!(reachable_counted(&map, from, to, &p), (again, 0));
}

#[test]
fn a_start_asked_again_is_remembered_and_every_answer_counts_its_whole_cost() {
    use botarena::map::{Brush, collision::memo_traces_on_this_thread};
    use botarena::nav::reach::reachable_counted;
    let room = || {
        let floor = Brush::from_box(v(-512., -128., -64.), v(512., 128., 0.), Contents::SOLID);
        CollisionMap::new(vec![floor], Vec::new())
    };
    // Each map is a geometry of its own, and the memo holds one geometry at a time.
    let (map, fresh) = (room(), room());
    let p = ReachParams::default();
    let (from, a, b) = (stand(-300., 0.), stand(300., 0.), v(200., 60., 24.03125));
    // What the question of `b` costs with nothing remembered.
    let (walk, whole) = reachable_counted(&fresh, from, b, &p);
    assert_eq!(walk, Reachability::Walk);
    assert_eq!(reachable_counted(&map, from, a, &p).0, Reachability::Walk);
    // Another target from the same start: the start's traces are the memo's.
    let memo = memo_traces_on_this_thread();
    let (same, made) = reachable_counted(&map, from, b, &p);
    let stood = memo_traces_on_this_thread() - memo;
    assert_eq!(same, walk);
    assert!(stood > 0, "the start was remembered");
    // Made and stood in for together: what it costs with nothing remembered.
    assert_eq!(made as u64 + stood, whole as u64);
    // Asked again, the answer from the memo counts its whole cost.
    let memo = memo_traces_on_this_thread();
    assert_eq!(reachable_counted(&map, from, b, &p), (walk, 0));
    assert_eq!(memo_traces_on_this_thread() - memo, whole as u64);
    // A start in solid is remembered as one no player stands at.
    let buried = v(0., 0., -32.);
    let (r, _) = reachable_counted(&map, buried, a, &p);
    assert_eq!(r, Reachability::Unreachable(Blocked::BadEndpoint));
    assert_eq!(reachable_counted(&map, buried, b, &p), (r, 0));
}

#[test]
fn a_march_that_goes_round_a_loop_gives_up_when_it_stands_where_it_stood() {
    // On dm4 (found in an 8-bot match): from this spot the march toward the target jumps
    // over it, walks back and jumps back over it, landing exactly where it stood before;
    // it went round that loop until its step limit (3,052 traces) for `TooLong`. It now
    // gives up once it lands exactly where it landed before, with the same answer.
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let (_, map) = common::quake_map(&dir, "dm4");
    let from = v(-64.0, 512.0, -295.96875);
    let to = v(-15.39056, 251.27669, -272.96875);
    let (r, n) = botarena::nav::reach::reachable_counted(&map, from, to, &ReachParams::default());
    assert_eq!(r, Reachability::Unreachable(Blocked::TooLong));
    assert!(n < 1500, "gave up at a repeat: {n} traces");
}
