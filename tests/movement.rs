//! The movement stage on the shipped proving ground (lane i at y = 256 i + 96, features from
//! x = 512) with goto controllers, and movement prediction against the real physics.

mod common;

use botarena::bot::control::ControllerConfig;
use botarena::bot::control::ScriptStep;
use botarena::bot::movement::{
    BlockReason, MoveParams, MoveRequest, MoveStatus, MoveTarget, SteerCtx,
};
use botarena::map::Contents;
use botarena::physics::PhysicsParams;
use botarena::physics::pmove::{PlayerState, UserCmd};
use botarena::physics::predict::{PredictParams, StopEvent, predict, run_toward};
use botarena::tick::Match;
use common::{match_on, scripted, shipped};
use glam::Vec3;

/// The movement stage's context on `map` with `params`: default physics, 20 Hz, no body of
/// its own.
fn steer_ctx(map: &botarena::map::CollisionMap, params: MoveParams) -> SteerCtx<'_> {
    SteerCtx {
        map,
        physics: PhysicsParams::default(),
        params,
        dt: 0.05,
        me: None,
    }
}

/// A request to run at `p`.
fn run_at(p: Vec3, known: bool, wade: bool) -> MoveRequest {
    MoveRequest {
        target: MoveTarget::Point(p),
        speed: 320.0,
        known,
        wade,
        to_target: false,
    }
}

fn lane(i: usize) -> f32 {
    256.0 * i as f32 + 96.0
}

struct Run {
    end: PlayerState,
    statuses: Vec<MoveStatus>,
    touched_hazard: bool,
    min_z: f32,
    arrived_tick: Option<usize>,
}

/// A goto bot from x = 64 on lane `i` to `(x, lane, z + 24)`, for at most `ticks`.
fn goto(i: usize, x: f32, z: f32, ticks: usize) -> Run {
    let target = Vec3::new(x, lane(i), z + 24.03125);
    let mut m = match_on(
        "proving",
        7,
        vec![scripted(
            "mover",
            Vec3::new(64., lane(i), 25.),
            0.,
            ControllerConfig::Goto(target),
        )],
    );
    drive(&mut m, ticks)
}

fn drive(m: &mut Match, ticks: usize) -> Run {
    let mut statuses = Vec::new();
    let mut touched_hazard = false;
    let mut min_z = f32::MAX;
    let mut arrived_tick = None;
    for t in 0..ticks {
        m.step();
        let s = m.sim.player_state(0).unwrap();
        let st = m.player_move_status(0).unwrap();
        touched_hazard |= s.water_type.intersects(Contents::LAVA | Contents::SLIME);
        min_z = min_z.min(s.origin.z);
        if st == MoveStatus::Arrived && arrived_tick.is_none() {
            arrived_tick = Some(t);
        }
        statuses.push(st);
    }
    Run {
        end: m.sim.player_state(0).unwrap(),
        statuses,
        touched_hazard,
        min_z,
        arrived_tick,
    }
}

fn assert_arrives(name: &str, r: &Run) {
    assert!(
        r.arrived_tick.is_some(),
        "{name}: did not arrive; ended at {:?}, last statuses {:?}",
        r.end.origin,
        &r.statuses[r.statuses.len().saturating_sub(5)..]
    );
    assert!(!r.touched_hazard, "{name}: touched lava or slime");
}

#[test]
fn walks_around_a_pillar() {
    let r = goto(8, 800., 0., 120);
    assert_arrives("pillar", &r);
    assert!(
        r.statuses
            .iter()
            .all(|s| !matches!(s, MoveStatus::Blocked(_)))
    );
}

#[test]
fn walks_up_stairs() {
    let r = goto(0, 1200., 128., 120);
    assert_arrives("stairs", &r);
    assert!((r.end.origin.z - 152.0).abs() < 1.0);
}

#[test]
fn jumps_onto_a_barrier() {
    let r = goto(2, 800., 19., 120);
    assert_arrives("19-unit barrier", &r);
    assert!((r.end.origin.z - 43.0).abs() < 1.0, "{:?}", r.end.origin);
}

#[test]
fn jumps_a_200_gap() {
    let r = goto(3, 1000., 0., 120);
    assert_arrives("200 gap", &r);
    assert!(r.min_z > 0.0, "never dropped into the pit");
}

#[test]
fn jumps_a_lava_pit() {
    let r = goto(6, 1000., 0., 120);
    assert_arrives("lava pit", &r);
    assert!(r.statuses.contains(&MoveStatus::InAir));
}

#[test]
fn swims_through_a_pool_with_a_submerged_block() {
    let r = goto(5, 1300., 0., 300);
    assert_arrives("pool", &r);
    assert!(r.statuses.contains(&MoveStatus::Swimming));
    assert!(
        (r.end.origin.z - 24.0).abs() < 1.0,
        "climbed out: {:?}",
        r.end.origin
    );
}

#[test]
fn reports_blocked_at_a_260_gap_and_stays_out() {
    let r = goto(4, 1000., 0., 120);
    assert_eq!(
        *r.statuses.last().unwrap(),
        MoveStatus::Blocked(BlockReason::Gap)
    );
    assert!(r.min_z > 0.0, "stopped before the edge");
    assert!(r.end.origin.x < 512.0 + 16.0, "{:?}", r.end.origin);
}

#[test]
fn reports_blocked_at_a_wall() {
    let r = goto(8, 1800., 0., 200);
    assert_eq!(
        *r.statuses.last().unwrap(),
        MoveStatus::Blocked(BlockReason::Wall)
    );
    assert!(r.end.origin.x < 1536.0);
}

#[test]
fn never_walks_into_lava_or_slime_it_cannot_cross() {
    // The slime pool (lane 7) is 256 wide: too wide to jump, so the bot stops.
    let r = goto(7, 1000., 0., 120);
    assert!(!r.touched_hazard);
    assert_eq!(
        *r.statuses.last().unwrap(),
        MoveStatus::Blocked(BlockReason::Hazard)
    );
}

#[test]
fn predicted_landing_equals_the_physics_landing() {
    let (_, map) = shipped("proving");
    let physics = PhysicsParams::default();
    let dt = 0.05;
    // Running at full speed a tick before the 200 gap's edge (x = 512) on lane 3, then jump.
    let mut s = PlayerState::at(Vec3::new(496., lane(3), 24.03125), 0.0);
    s.velocity = Vec3::new(320., 0., 0.);
    s.on_ground = Some(botarena::EntId::WORLD);
    let cmds = [
        run_toward(Vec3::X, 320., true),
        run_toward(Vec3::X, 320., false),
    ];
    let pred = predict(
        &map,
        &s,
        &cmds,
        &physics,
        &PredictParams {
            step: dt,
            ..Default::default()
        },
        None,
    );
    assert_eq!(pred.stop, StopEvent::Landed);
    let landing = pred.end().unwrap().origin;
    let real = common::simulate(&map, s, 1.0 / dt, pred.states.len(), |t, _| {
        if t == 0 { cmds[0] } else { cmds[1] }
    });
    let real_landing = real.last().unwrap().0.origin;
    assert!(
        (landing - real_landing).length() < 0.01,
        "{landing:?} vs {real_landing:?}"
    );
    assert!(
        landing.x > 712.0 - 16.0 && (landing.z - 24.03).abs() < 0.1,
        "{landing:?}"
    );
    // The reference's 0.1 s steps land at the same height and within a tick's run.
    let coarse = predict(&map, &s, &cmds, &physics, &PredictParams::default(), None);
    assert_eq!(coarse.stop, StopEvent::Landed);
    assert!((coarse.end().unwrap().origin.x - landing.x).abs() <= 32.0);
}

#[test]
fn prediction_stops_on_hazard_water_wall_and_fall() {
    let (_, map) = shipped("proving");
    let physics = PhysicsParams::default();
    let run = |i: usize, x: f32| {
        let s = PlayerState::at(Vec3::new(x, lane(i), 24.03125), 0.0);
        predict(
            &map,
            &s,
            &[run_toward(Vec3::X, 320., false)],
            &physics,
            &PredictParams {
                stop_on_land: false,
                ..Default::default()
            },
            None,
        )
        .stop
    };
    assert_eq!(run(6, 400.), StopEvent::EnteredHazard);
    assert_eq!(run(5, 400.), StopEvent::EnteredWater);
    assert_eq!(run(2, 400.), StopEvent::HitWall);
    let deep = PredictParams {
        max_fall: 100.0,
        stop_on_land: false,
        ..Default::default()
    };
    let s = PlayerState::at(Vec3::new(400., lane(4), 24.03125), 0.0);
    assert_eq!(
        predict(
            &map,
            &s,
            &[run_toward(Vec3::X, 320., false)],
            &physics,
            &deep,
            None
        )
        .stop,
        StopEvent::Fell
    );
    let s = PlayerState::at(Vec3::new(64., lane(0), 24.03125), 0.0);
    let idle = predict(
        &map,
        &s,
        &[UserCmd::default()],
        &physics,
        &PredictParams {
            horizon: 1.0,
            ..Default::default()
        },
        None,
    );
    assert_eq!(idle.stop, StopEvent::TimeUp);
    assert_eq!(idle.states.len(), 10);
}

#[test]
fn enemy_prediction_matches_a_straight_run_for_a_second() {
    // "runner" runs along +X across the arena hall; "watcher" stands and tracks it.
    let run = vec![ScriptStep {
        ticks: 200,
        forward: 320.,
        side: 0.,
        up: 0.,
        yaw: 0.,
        pitch: 0.,
        jump: false,
        fire: false,
        weapon: None,
    }];
    let mut m = match_on(
        "arena",
        3,
        vec![
            scripted(
                "watcher",
                Vec3::new(-200., -150., 25.),
                0.,
                ControllerConfig::Idle,
            ),
            scripted(
                "runner",
                Vec3::new(-480., -300., 25.),
                0.,
                ControllerConfig::Script(run),
            ),
        ],
    );
    // Let the runner reach full speed and the watcher refresh its tracking.
    let mut tracked = None;
    let mut history: Vec<Vec3> = Vec::new();
    for _ in 0..40 {
        m.step();
        history.push(m.sim.player_state(1).unwrap().origin);
        if let Some(t) = m.player_tracking(0).unwrap().enemies.first()
            && t.seen_tick >= 6
            && tracked.is_none()
        {
            // Predicted when asked for, here as soon as it is tracked.
            tracked = Some((t.clone(), t.path(&m.sim.cmap, &m.sim.params)));
        }
    }
    let (t, path) = tracked.expect("the runner was tracked");
    assert_eq!(path.len(), 10);
    // The state it predicted from is the one at the start of tick `seen_tick` (the end of the
    // tick before), and every 0.1 s is two ticks.
    for (k, p) in path.iter().enumerate() {
        let actual = history[t.seen_tick as usize - 1 + 2 * (k + 1)];
        assert!(
            (*p - actual).length() < 1.0,
            "step {k}: predicted {p:?}, actual {actual:?}"
        );
    }
    assert!((path[9] - t.state.origin).x > 300.0);
    // A point on the way is the path's, predicted alone (its first steps only).
    for (seconds, k) in [(0.05, 0), (0.1, 0), (0.5, 4), (0.55, 5), (1.0, 9), (3.0, 9)] {
        assert_eq!(
            t.predicted_at(&m.sim.cmap, &m.sim.params, seconds),
            path[k],
            "{seconds} s"
        );
    }
    assert_eq!(
        t.predicted_at(&m.sim.cmap, &m.sim.params, 0.0),
        t.state.origin
    );
}

/// A bot running east at full speed along a ledge (top z 192, y 0..64, over a floor at
/// z 0) where it turns north onto a second ledge (x 448..512): its target lies up the
/// north ledge, and wishing straight for it the run would carry it over the east edge
/// (a fifth of its speed goes a tick). The movement stage of an exploring bot wishes
/// against the motion that carries it off instead, and keeps its footing.
#[test]
fn a_bot_turning_at_a_ledges_edge_is_not_carried_over_it() {
    use botarena::bot::movement::steer;
    use botarena::map::builder::MapBuilder;
    use botarena::physics::pmove::pmove;
    let v = Vec3::new;
    let mut b = MapBuilder::sealed_room(v(-512., -512., 0.), v(1024., 1024., 512.));
    b.solid(v(0., 0., 0.), v(512., 64., 192.), "ledge")
        .solid(v(448., 64., 0.), v(512., 512., 192.), "ledge")
        .point("info_player_deathmatch", v(64., 32., 217.), &[]);
    let (_level, cmap) = b.build();
    let physics = PhysicsParams::default();
    let dt = 0.05;
    // On the corner, the box's east side 4 units short of hanging off.
    let mut s = PlayerState::at(v(524., 32., 216.03125), 0.0);
    s.velocity = v(320., 0., 0.);
    s = pmove(&s, &UserCmd::default(), &cmap, &physics, 0.0, None).0;
    assert!(s.on_ground.is_some(), "standing on the corner");
    let target = v(480., 400., 216.03125);
    let heading = (target - s.origin).truncate().normalize().extend(0.0);
    let naive = run_toward(heading, 320.0, false);
    let off = pmove(&s, &naive, &cmap, &physics, dt, None).0;
    assert!(
        off.on_ground.is_none(),
        "wishing straight for it falls: {off:?}"
    );
    let ctx = steer_ctx(
        &cmap,
        MoveParams {
            hold_edges: true,
            ..Default::default()
        },
    );
    let req = run_at(target, false, false);
    let mut mem = Default::default();
    let mut p = s;
    for tick in 0..20 {
        let (cmd, _) = steer(&ctx, &p, &req, &mut mem);
        p = pmove(&p, &cmd, &cmap, &physics, dt, None).0;
        assert!(
            p.on_ground.is_some() && p.origin.z > 200.0,
            "tick {tick}: off the ledge at {:?}",
            p.origin
        );
    }
    assert!(
        p.origin.y > 150.0,
        "on its way up the north ledge: {:?}",
        p.origin
    );
}

/// A ledge (top z 192, y 0..256) with a pad 4 units high on it (y 0..224) and, across a
/// 64-unit gap, a second ledge at the same height (y 320..512), over a floor at z 0. A bot
/// coming off the pad at running speed is in the air from the pad's edge on (a drop of 4
/// units takes 2 ticks), so it never stands at the gap's edge to jump there, and meets the
/// far ledge's side below its top. An exploring bot
/// going for a target on the far ledge jumps on its last tick on the ground, where the
/// jump lands on its level (e1m3's teleporter to the super nailgun sets players down so);
/// a match bot runs on and drops to the floor.
#[test]
fn an_explorer_jumps_a_gap_from_its_last_tick_on_the_ground() {
    use botarena::bot::movement::steer;
    use botarena::map::builder::MapBuilder;
    use botarena::physics::pmove::pmove;
    let v = Vec3::new;
    let mut b = MapBuilder::sealed_room(v(-256., -256., 0.), v(384., 768., 512.));
    b.solid(v(0., 0., 0.), v(128., 256., 192.), "ledge")
        .solid(v(0., 0., 192.), v(128., 224., 196.), "pad")
        .solid(v(0., 320., 0.), v(128., 512., 192.), "ledge")
        .point("info_player_deathmatch", v(64., 32., 221.), &[]);
    let (_level, cmap) = b.build();
    let physics = PhysicsParams::default();
    let dt = 0.05;
    let mut start = PlayerState::at(v(64., 150., 220.03125), 90.0);
    start.velocity = v(0., 300., 0.);
    start = pmove(&start, &UserCmd::default(), &cmap, &physics, 0.0, None).0;
    assert!(start.on_ground.is_some(), "on the pad");
    let req = run_at(v(64., 450., 216.), false, false);
    let run = |hold_edges: bool, max_drop: f32| {
        let ctx = steer_ctx(
            &cmap,
            MoveParams {
                hold_edges,
                max_drop,
                ..Default::default()
            },
        );
        let mut mem = Default::default();
        let mut p = start;
        for _ in 0..30 {
            let (cmd, _) = steer(&ctx, &p, &req, &mut mem);
            p = pmove(&p, &cmd, &cmap, &physics, dt, None).0;
        }
        p
    };
    let explorer = run(true, botarena::bot::explore::MAX_DROP);
    assert!(
        explorer.origin.z > 200.0 && explorer.origin.y > 320.0,
        "on the far ledge: {}",
        explorer.origin
    );
    let bot = run(false, MoveParams::default().max_drop);
    assert!(bot.origin.z < 100.0, "dropped to the floor: {}", bot.origin);
}

/// An id map's collision world, and a player settled onto its floor at `origin` facing
/// `yaw`, then given `velocity` (asserted on the ground: `floor` names it).
fn running_on(
    map: &str,
    origin: Vec3,
    yaw: f32,
    velocity: Vec3,
    floor: &str,
) -> Option<(botarena::map::CollisionMap, PlayerState)> {
    use botarena::physics::pmove::pmove;
    let dir = common::quake_maps()?;
    let (_level, cmap) = botarena::map::load_level(&dir.join(map)).expect("the map loads");
    let s = PlayerState::at(origin, yaw);
    let mut s = pmove(
        &s,
        &UserCmd::default(),
        &cmap,
        &PhysicsParams::default(),
        0.0,
        None,
    )
    .0;
    s.velocity = velocity;
    assert!(s.on_ground.is_some(), "{floor}");
    Some((cmap, s))
}

/// Whether the movement stage jumps this tick for a bot in state `s` running at `target`
/// (on a known way or not).
fn jumps_at(ctx: &SteerCtx, s: &PlayerState, target: Vec3, known: bool) -> bool {
    let req = run_at(target, known, false);
    botarena::bot::movement::steer(ctx, s, &req, &mut Default::default())
        .0
        .jump
}

/// On a compiled route's known line, a blocked feel at a corner is stepped round, not
/// jumped: dm6's route from the big room east into the corridor a step up at (304, -1096)
/// turns there beside a raised floor 19 units up; a bot running north along that floor's
/// face, heading for the corner, read the raised floor north of the corridor as a wall
/// and jumped it, flying on into the wall past it (0.4 s lost on the nailgun legs). A
/// request not known (a learned bot's) still jumps there.
#[test]
fn a_known_way_rounds_a_corner_it_would_jump_unknown() {
    let Some((cmap, s)) = running_on(
        "dm6.map",
        Vec3::new(303.96875, -1112.5471, 112.03125),
        90.0,
        Vec3::new(0.0, 307.0, 0.0),
        "on the big room's floor",
    ) else {
        return;
    };
    let ctx = steer_ctx(&cmap, MoveParams::default());
    let target = Vec3::new(304.0, -1096.0, 128.0);
    assert!(
        !jumps_at(&ctx, &s, target, true),
        "a known way steps round the corner"
    );
    assert!(
        jumps_at(&ctx, &s, target, false),
        "an unknown one jumps what it feels"
    );
}

/// On a known way, a bot running fast across the way it wishes (turning a corner) does not
/// jump what it feels there: the jump carries it on along its motion. e1m1's turn north into
/// the sloped hall at (865, 2096), come at from the east at 320 u/s: the jump flew the bot
/// west over the ledge into the pit 220 units below (10 s lost on a super shotgun leg). Run
/// on, it stays on its floor; a request not known still jumps there.
#[test]
fn a_known_way_turning_at_a_run_slides_round_a_corner_it_would_jump() {
    use botarena::bot::movement::steer;
    use botarena::physics::pmove::pmove;
    let Some((cmap, s)) = running_on(
        "e1m1.map",
        Vec3::new(880.743, 2095.903, -151.969),
        170.0,
        Vec3::new(-315.5, 57.0, 0.0),
        "on the floor east of the hall",
    ) else {
        return;
    };
    let ctx = steer_ctx(&cmap, MoveParams::default());
    let target = Vec3::new(870.0, 2120.0, -151.0);
    assert!(
        jumps_at(&ctx, &s, target, false),
        "an unknown way jumps what it feels"
    );
    assert!(
        !jumps_at(&ctx, &s, target, true),
        "a known way does not jump at a run across it"
    );
    let physics = PhysicsParams::default();
    let mut q = s;
    let mut mem = Default::default();
    for _ in 0..10 {
        let (c, _) = steer(&ctx, &q, &run_at(target, true, false), &mut mem);
        q = pmove(&q, &c, &cmap, &physics, 0.05, None).0;
    }
    assert!(
        q.origin.z > -160.0 && q.origin.x > 780.0,
        "still on the floor by the hall: {}",
        q.origin
    );
}

/// Walking at a point in a pool of slime (x 448..960, level with the floor, too wide to
/// jump): a bot stops at its edge (a hazard), one that wades (an explorer in the biosuit)
/// walks on into it.
#[test]
fn a_bot_stops_at_slime_and_one_that_wades_walks_in() {
    use botarena::bot::movement::steer;
    use botarena::physics::pmove::pmove;
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 256., 256.));
    b.solid(v(0., 0., 0.), v(448., 256., 16.), "FLOOR")
        .solid(v(960., 0., 0.), v(1024., 256., 16.), "FLOOR")
        .solid(v(448., 0., 0.), v(960., 256., 16.), "*slime0")
        .point("info_player_deathmatch", v(128., 128., 40.), &[]);
    let (_, cmap) = b.build();
    let physics = PhysicsParams::default();
    let ctx = steer_ctx(&cmap, MoveParams::default());
    let walk = |wade: bool| {
        let req = run_at(Vec3::new(700.0, 128.0, 40.0), false, wade);
        let mut p = PlayerState::at(Vec3::new(360.0, 128.0, 40.03125), 0.0);
        let mut mem = Default::default();
        let mut status = MoveStatus::Idle;
        for _ in 0..20 {
            let (cmd, st) = steer(&ctx, &p, &req, &mut mem);
            status = st;
            p = pmove(&p, &cmd, &cmap, &physics, 0.05, None).0;
        }
        (p, status)
    };
    let (dry, status) = walk(false);
    assert!(
        dry.origin.x < 448.0 - 16.0,
        "stops short of the slime: {dry:?}"
    );
    assert_eq!(status, MoveStatus::Blocked(BlockReason::Hazard));
    let (wet, _) = walk(true);
    assert!(
        wet.water_type.intersects(Contents::SLIME) && wet.origin.x > 448.0,
        "wades in: {wet:?}"
    );
}

/// A jump over a gap or a hazard is flown along the heading it was predicted on: a bot
/// jumping a lava pit toward a target across it whose target then swings back behind it
/// (a fight's strafe point, recomputed every tick) still lands across. Wishing the new way
/// in the air, Quake's air control brakes the jump: here the bot came back down on the near
/// edge; from dm4's walkways over its lava pool fighting bots fell short into the lava.
#[test]
fn a_jump_over_lava_is_flown_along_its_heading() {
    use botarena::bot::movement::{MoveMemory, steer};
    use botarena::map::builder::MapBuilder;
    use botarena::physics::pmove::pmove;
    let v = Vec3::new;
    let mut b = MapBuilder::sealed_room(v(-256., -256., -64.), v(384., 1024., 512.));
    b.solid(v(-256., -256., -64.), v(384., 256., 64.), "near")
        .solid(v(-256., 256., -64.), v(384., 384., 0.), "pit")
        .solid(v(-256., 256., 0.), v(384., 384., 32.), "*lava1")
        .solid(v(-256., 384., -64.), v(384., 1024., 64.), "far")
        .point("info_player_deathmatch", v(64., 0., 89.), &[]);
    let (_level, cmap) = b.build();
    let physics = PhysicsParams::default();
    let ctx = steer_ctx(&cmap, MoveParams::default());
    let mut s = PlayerState::at(v(64., 0., 88.03125), 90.0);
    s.velocity = v(0., 320., 0.);
    s = pmove(&s, &UserCmd::default(), &cmap, &physics, 0.0, None).0;
    assert!(s.on_ground.is_some(), "on the near floor");
    let (across, behind) = (
        run_at(v(64., 700., 88.), false, false),
        run_at(v(64., -200., 88.), false, false),
    );
    let mut mem = MoveMemory::default();
    let (mut jumped, mut lava) = (false, false);
    for _ in 0..60 {
        // Across until the jump is taken, then the target swings behind.
        let req = if jumped { &behind } else { &across };
        let (cmd, _) = steer(&ctx, &s, req, &mut mem);
        jumped |= cmd.jump;
        s = pmove(&s, &cmd, &cmap, &physics, ctx.dt, None).0;
        lava |= s.water_type.intersects(Contents::LAVA);
        if jumped && s.on_ground.is_some() {
            break;
        }
    }
    assert!(jumped, "the pit was jumped");
    assert!(!lava, "fell into the lava");
    assert!(s.origin.y > 384.0, "landed across: {}", s.origin);
}
