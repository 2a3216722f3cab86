//! Places where bots used to get stuck or lose the way, each as small as it can be made: a
//! teleporter drawn as a thin slab under a lintel (dm4's), a grate over lava, a drop to a
//! target below with lava under the edge, a crowd of waypoints around the bot, waypoints on a
//! staircase's edge, a way that exists only as a running jump. Where dm4 is at hand
//! (../shared/quake-maps or $BOTARENA_QUAKE_MAPS) the same is checked at the spots on dm4
//! where it was found; those parts are skipped, with the reason printed, where it is absent.

mod common;

use glam::Vec3;

use botarena::bot::control::ControllerConfig;
use botarena::bot::control::ScriptStep;
use botarena::bot::movement::{MoveMemory, MoveParams, MoveRequest, MoveStatus, MoveTarget};
use botarena::bot::movement::{SteerCtx, steer};
use botarena::map::builder::MapBuilder;
use botarena::map::{CollisionMap, Contents, Level};
use botarena::nav::routing::{RouteCaches, TravelFlags};
use botarena::nav::waypoints::{Travel, WaypointGraph, WaypointKind};
use botarena::physics::PhysicsParams;
use botarena::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PlayerState, pmove};
use common::scripted;

/// A closed room 1024 × 1024, floor top at z 0, ceiling at 256.
fn room() -> MapBuilder {
    let mut b = MapBuilder::new();
    let (lo, hi) = (-512.0, 512.0);
    b.solid(Vec3::new(lo, lo, 256.0), Vec3::new(hi, hi, 272.0), "C");
    b.solid(
        Vec3::new(lo - 16.0, lo, -128.0),
        Vec3::new(lo, hi, 256.0),
        "W",
    );
    b.solid(
        Vec3::new(hi, lo, -128.0),
        Vec3::new(hi + 16.0, hi, 256.0),
        "W",
    );
    b.solid(
        Vec3::new(lo, lo - 16.0, -128.0),
        Vec3::new(hi, lo, 256.0),
        "W",
    );
    b.solid(
        Vec3::new(lo, hi, -128.0),
        Vec3::new(hi, hi + 16.0, 256.0),
        "W",
    );
    b.point(
        "info_player_deathmatch",
        Vec3::new(-400.0, -400.0, 25.0),
        &[],
    );
    b
}

/// Steps `m` until player 0 is within 24 units of `goal` across (at most `ticks` ticks);
/// the tick it got there.
fn steps_to_arrive(m: &mut botarena::Match, goal: Vec3, ticks: usize) -> Option<usize> {
    (0..ticks).find(|_| {
        m.step();
        (m.sim.player_state(0).unwrap().origin - goal)
            .truncate()
            .length()
            < 24.0
    })
}

/// [`room`] with its floor.
fn floored_room() -> MapBuilder {
    let mut b = room();
    b.solid(
        Vec3::new(-512., -512., -16.),
        Vec3::new(512., 512., 0.),
        "F",
    );
    b
}

/// Steers a lone player from `start` toward `target` with the movement stage and the real
/// physics for `ticks` ticks; every state and status.
fn steer_run(
    cmap: &CollisionMap,
    start: Vec3,
    target: Vec3,
    ticks: usize,
) -> Vec<(PlayerState, MoveStatus)> {
    let physics = PhysicsParams::default();
    let ctx = SteerCtx {
        map: cmap,
        physics,
        params: MoveParams::default(),
        dt: 0.05,
        me: None,
    };
    let req = MoveRequest {
        target: MoveTarget::Point(target),
        speed: 320.0,
        known: false,
        wade: false,
        to_target: false,
    };
    // Settled on the floor first, as a bot that has been standing there.
    let mut s = botarena::nav::sample::stand_still(cmap, &physics, start);
    let mut mem = MoveMemory::default();
    let mut out = Vec::new();
    for _ in 0..ticks {
        let (cmd, status) = steer(&ctx, &s, &req, &mut mem);
        s = pmove(&s, &cmd, cmap, &physics, 0.05, None).0;
        out.push((s, status));
    }
    out
}

fn in_hazard(s: &PlayerState) -> bool {
    s.water_type.intersects(Contents::LAVA | Contents::SLIME)
}

#[test]
fn a_teleporter_slab_under_a_lintel_gets_its_waypoint_on_the_floor_with_ways_in() {
    // dm4's teleporters: the trigger is an 8-unit slab 40 units above the floor, right under
    // the doorway's lintel; a player walking up to the doorway touches it. The waypoint
    // used to hang at the slab's bottom (mid-air) and no link could lead into it.
    let mut b = floored_room();
    b.solid(
        Vec3::new(216., -32., 48.),
        Vec3::new(280., 32., 256.),
        "LINTEL",
    );
    b.solid(
        Vec3::new(280., -32., 0.),
        Vec3::new(296., 32., 256.),
        "BACK",
    );
    b.brush_entity(
        &[("classname", "trigger_teleport"), ("target", "t1")],
        &[(
            Vec3::new(200., -32., 40.),
            Vec3::new(264., 32., 48.),
            "TRIGGER",
        )],
    );
    b.point(
        "info_teleport_destination",
        Vec3::new(-300., 300., 24.),
        &[("targetname", "t1"), ("angle", "0")],
    );
    let (level, cmap) = b.build();
    let trigger = (level.triggers[0].mins, level.triggers[0].maxs);
    let run = vec![ScriptStep {
        ticks: 60,
        forward: 320.,
        ..Default::default()
    }];
    let mut m = common::match_of(
        level,
        cmap,
        3,
        vec![scripted(
            "walker",
            Vec3::new(-100., 0., 25.),
            0.,
            ControllerConfig::Script(run),
        )],
    );
    for _ in 0..60 {
        m.step();
    }
    assert!(
        m.sim.player_state(0).unwrap().origin.y > 250.0,
        "the walker went through the teleporter"
    );
    let g = &m.learned.waypoints;
    let t = g
        .find_kind(|k| matches!(k, WaypointKind::Teleporter { .. }))
        .expect("a teleporter waypoint");
    let at = g.get(t).unwrap().origin;
    println!("teleporter waypoint at {at}");
    assert!((at.z - 24.03125).abs() < 0.1, "on the floor: {at}");
    let (bmin, bmax) = (at + PLAYER_MINS, at + PLAYER_MAXS);
    assert!(
        bmin.cmple(trigger.1).all() && bmax.cmpge(trigger.0).all(),
        "a player standing there touches the trigger: {at}"
    );
    assert!(
        !g.get(t).unwrap().links.is_empty(),
        "a link leads into the teleporter waypoint"
    );
}

/// A floor of 16-unit bars 16 units apart over lava from x = 0 to 256, solid floor on both
/// sides (all tops at z 0); lava's surface 32 units below; a tunnel's ceiling 58 units up
/// over the grate, too low to jump across it.
fn grate() -> (Level, CollisionMap) {
    let mut b = room();
    b.solid(
        Vec3::new(-64., -512., 58.),
        Vec3::new(320., 512., 256.),
        "LOW",
    );
    b.solid(Vec3::new(-512., -512., -16.), Vec3::new(0., 512., 0.), "F");
    b.solid(Vec3::new(256., -512., -16.), Vec3::new(512., 512., 0.), "F");
    b.solid(
        Vec3::new(0., -512., -128.),
        Vec3::new(256., 512., -64.),
        "PIT",
    );
    b.solid(
        Vec3::new(0., -512., -64.),
        Vec3::new(256., 512., -32.),
        "*lava1",
    );
    for k in 0..8 {
        let x = 32.0 * k as f32 + 8.0;
        b.solid(
            Vec3::new(x, -512., -16.),
            Vec3::new(x + 16., 512., 0.),
            "BAR",
        );
    }
    b.build()
}

#[test]
fn a_bot_walks_over_a_grate_above_lava() {
    // The floor samples look straight down through the holes and see lava; the player's box
    // rests on the bars (and Quake hurts by the contents at the feet's centre, which stays in
    // the air between the bars).
    let (_, cmap) = grate();
    let run = steer_run(
        &cmap,
        Vec3::new(-100., 0., 24.03125),
        Vec3::new(400., 0., 24.03125),
        60,
    );
    let end = run.last().unwrap();
    assert!(
        run.iter()
            .all(|(_, st)| !matches!(st, MoveStatus::Blocked(_))),
        "never blocked"
    );
    assert!(run.iter().all(|(s, _)| !in_hazard(s)), "never in lava");
    assert_eq!(end.1, MoveStatus::Arrived, "arrived: {}", end.0.origin);
}

#[test]
fn a_bot_walks_to_a_point_short_of_a_wall_it_cannot_get_over() {
    // e1m1's bridge button: the bot sent to the button's front (29 units off, the button's
    // face 37 beyond the box) felt the button a full stride (a tick's run plus 24) ahead,
    // found it neither jumpable nor to be walked round, and stood blocked until killed as
    // stuck. A request that feels no farther than its target (a compiled bot's) walks
    // there; one that feels a full stride (an explorer's) is blocked, as before.
    let mut b = floored_room();
    b.solid(
        Vec3::new(-512., 53., 0.),
        Vec3::new(512., 69., 256.),
        "WALL",
    );
    let (_, cmap) = b.build();
    let physics = PhysicsParams::default();
    let ctx = SteerCtx {
        map: &cmap,
        physics,
        params: MoveParams::default(),
        dt: 0.05,
        me: None,
    };
    for to_target in [true, false] {
        let req = MoveRequest {
            target: MoveTarget::Point(Vec3::new(0., 29., 24.03125)),
            speed: 320.0,
            known: false,
            wade: false,
            to_target,
        };
        let mut s =
            botarena::nav::sample::stand_still(&cmap, &physics, Vec3::new(0., 0., 24.03125));
        let mut mem = MoveMemory::default();
        let mut statuses = Vec::new();
        for _ in 0..20 {
            let (cmd, status) = steer(&ctx, &s, &req, &mut mem);
            s = pmove(&s, &cmd, &cmap, &physics, 0.05, None).0;
            statuses.push(status);
        }
        let blocked = statuses
            .iter()
            .any(|st| matches!(st, MoveStatus::Blocked(_)));
        if to_target {
            assert!(!blocked, "never blocked: {statuses:?}");
            assert_eq!(
                statuses.last(),
                Some(&MoveStatus::Arrived),
                "at {}",
                s.origin
            );
        } else {
            assert!(blocked, "a full stride feels the wall: {statuses:?}");
        }
    }
}

#[test]
fn a_bot_drops_off_a_ledge_to_a_target_below_past_lava_at_its_foot() {
    // A ledge 192 units high with a lava moat 64 wide at its foot, a strip of floor beyond
    // and lava again from x 300: the samples under the edge see lava and a running jump lands
    // in the far lava, but a player running off the edge lands on the strip (≈ 220 out).
    let mut b = floored_room();
    b.solid(
        Vec3::new(-512., -512., 0.),
        Vec3::new(0., 512., 192.),
        "LEDGE",
    );
    b.solid(Vec3::new(0., -512., 0.), Vec3::new(64., 512., 8.), "*lava1");
    b.solid(
        Vec3::new(300., -512., 0.),
        Vec3::new(512., 512., 8.),
        "*lava1",
    );
    let (_, cmap) = b.build();
    let run = steer_run(
        &cmap,
        Vec3::new(-150., 0., 216.03125),
        Vec3::new(200., 0., 24.03125),
        80,
    );
    assert!(run.iter().all(|(s, _)| !in_hazard(s)), "never in lava");
    let end = run.last().unwrap();
    assert_eq!(end.1, MoveStatus::Arrived, "arrived: {}", end.0.origin);
}

#[test]
fn a_routing_bot_in_a_crowd_of_waypoints_takes_the_next_hop_and_gets_out() {
    // Twelve waypoints within 40 units of the start and a chain out to the goal whose first
    // hop is not among the eight nearest: the pick used to go back and forth between two of
    // the crowd, each "arrived at" on the spot.
    let (level, cmap) = floored_room().build();
    let mut g = WaypointGraph::new();
    let z = 24.03125;
    let crowd: Vec<u32> = (0..12)
        .map(|k| {
            let a = k as f32 * 30f32.to_radians();
            let r = if k % 2 == 0 { 12.0 } else { 36.0 };
            g.add(
                Vec3::new(-300. + r * a.cos(), r * a.sin(), z),
                WaypointKind::Normal,
            )
        })
        .collect();
    let chain: Vec<u32> = (1..=5)
        .map(|k| {
            g.add(
                Vec3::new(-300. + 120. * k as f32, 0., z),
                WaypointKind::Normal,
            )
        })
        .collect();
    for (i, &a) in crowd.iter().enumerate() {
        for &c in &crowd[i + 1..] {
            let d = g.get(a).unwrap().origin.distance(g.get(c).unwrap().origin);
            g.link(a, c, d, Travel::Walk, 1.0);
            g.link(c, a, d, Travel::Walk, 1.0);
        }
    }
    // Only crowd waypoint 0 leads out.
    let mut prev = crowd[0];
    for &c in &chain {
        let d = g
            .get(prev)
            .unwrap()
            .origin
            .distance(g.get(c).unwrap().origin);
        g.link(prev, c, d, Travel::Walk, 1.0);
        g.link(c, prev, d, Travel::Walk, 1.0);
        prev = c;
    }
    let goal = g.get(*chain.last().unwrap()).unwrap().origin;
    // The pick itself: standing at the crowd's exit, the next hop is taken although eight
    // crowd waypoints are nearer.
    let mut caches = RouteCaches::new(1 << 20, Default::default());
    let at_exit = g.get(crowd[0]).unwrap().origin;
    let pick = botarena::bot::routing::pick_next(
        &cmap,
        &g,
        &mut caches,
        at_exit,
        *chain.last().unwrap(),
        TravelFlags::ALL,
        Some(crowd[0]),
        None,
    );
    assert_eq!(pick, Some(chain[0]), "the next hop out of the crowd");
    // And a routing bot started in the crowd's middle gets to the goal.
    let mut m = common::match_of(
        level,
        cmap,
        3,
        vec![scripted(
            "router",
            Vec3::new(-300., 0., 25.),
            0.,
            ControllerConfig::Route(goal),
        )],
    );
    m.set_waypoints(g);
    let arrived = steps_to_arrive(&mut m, goal, 200);
    assert!(
        arrived.is_some(),
        "stuck at {}",
        m.sim.player_state(0).unwrap().origin
    );
}

#[test]
fn grid_waypoints_are_not_laid_on_a_ledge_edge() {
    // The arena's staircase: a box resting on a step's edge has its centre over the floor
    // below; such spots sent routing bots along the stairs' side, off which they fell.
    let (_, cmap) = common::shipped("arena");
    let g = botarena::nav::grid::seed_grid(&cmap, &Default::default());
    for w in g.waypoints() {
        let t = cmap.trace_ray(
            w.origin,
            w.origin - Vec3::new(0., 0., 24.0 + 19.0),
            Contents::MASK_PLAYER_NO_BODIES,
            None,
        );
        assert!(t.fraction < 1.0, "floor under the centre of {}", w.origin);
    }
}

#[test]
fn the_routable_part_is_the_largest_strongly_connected_component() {
    let mut g = WaypointGraph::new();
    let p: Vec<u32> = (0..5)
        .map(|k| g.add(Vec3::new(100. * k as f32, 0., 0.), WaypointKind::Normal))
        .collect();
    // 0 <-> 1 <-> 2 form a cycle; 2 -> 3 only (a drop), 4 alone.
    for (a, b) in [(0, 1), (1, 0), (1, 2), (2, 1), (2, 3)] {
        g.link(p[a], p[b], 100., Travel::Walk, 1.0);
    }
    assert_eq!(g.strong_component_sizes(), vec![3, 1, 1]);
    assert_eq!(g.stats().largest_strong, 3);
    assert_eq!(g.components(), 2);
}

#[test]
fn the_closing_pass_ties_stray_waypoints_to_the_routable_part_where_reach_holds() {
    // A floored room split by a wall at x = 0 with a doorway far off: waypoints 0 <-> 1 <-> 2
    // routable on the west side; 3 on the west side with no links (a trail the explorers never
    // walked back); 4 east of the wall, within the radius but behind it.
    let mut b = floored_room();
    b.solid(Vec3::new(0., -512., 0.), Vec3::new(16., 300., 256.), "W");
    let (_level, cmap) = b.build();
    let mut g = WaypointGraph::new();
    let z = 24.03125;
    let p: Vec<u32> = [
        (-300., -300.),
        (-300., -100.),
        (-300., 100.),
        (-100., 0.),
        (150., 0.),
    ]
    .iter()
    .map(|&(x, y)| g.add(Vec3::new(x, y, z), WaypointKind::Normal))
    .collect();
    for (a, c) in [(0, 1), (1, 0), (1, 2), (2, 1)] {
        g.link(p[a], p[c], 200., Travel::Walk, 1.0);
    }
    assert_eq!(g.strong_component_sizes(), vec![3, 1, 1]);
    let added = g.connect_strays(&cmap, 512.0, 6, 4);
    // 3 is linked both ways with each of the three (6 links); 4 is behind the wall.
    assert_eq!(added, 6);
    assert_eq!(g.strong_component_sizes(), vec![4, 1]);
    assert!(g.has_link(p[0], p[3]) && g.has_link(p[3], p[0]));
    assert!(!g.has_link(p[3], p[4]) && !g.has_link(p[4], p[3]));
    // Nothing left to tie: a second pass adds nothing.
    assert_eq!(g.connect_strays(&cmap, 512.0, 6, 4), 0);
}

#[test]
fn a_run_planned_over_the_physics_jumps_a_lava_pit_and_is_played_exactly() {
    // Floor on both sides of a 160-unit pit with lava in it: the planner (over the real
    // physics) finds a running jump; playing its commands one per tick from the same state
    // goes the same way and lands on the far side; pushed off course, the run stops.
    use botarena::bot::explore::{PlannedRun, RunGoal};
    let mut b = room();
    b.solid(
        Vec3::new(-512., -512., -16.),
        Vec3::new(-80., 512., 0.),
        "F",
    );
    b.solid(Vec3::new(80., -512., -16.), Vec3::new(512., 512., 0.), "F");
    b.solid(
        Vec3::new(-80., -512., -128.),
        Vec3::new(80., 512., -64.),
        "PIT",
    );
    b.solid(
        Vec3::new(-80., -512., -64.),
        Vec3::new(80., 512., -40.),
        "*lava1",
    );
    let (level, cmap) = b.build();
    let floor = botarena::nav::sample::floor_points(&level, &cmap, 32.0);
    let physics = PhysicsParams::default();
    let start = botarena::nav::sample::stand_still(&cmap, &physics, Vec3::new(-250., 0., 25.));
    let goal = botarena::planner::Goal {
        mins: Vec3::new(200., -16., 0.),
        maxs: Vec3::new(232., 16., 56.),
    };
    let me = botarena::map::EntId(1);
    let run = (0..4)
        .find_map(|seed| {
            PlannedRun::plan(
                &cmap,
                &floor,
                &start,
                me,
                &RunGoal::touch(goal),
                seed,
                0.05,
                &Default::default(),
            )
        })
        .expect("a running jump over the pit");
    assert_eq!(run.path.len(), run.cmds.len() + 1);
    // Played as the simulation would: a command per tick while on course.
    let mut played = run.clone();
    let mut s = start;
    while let Some(c) = played.next_cmd(&s) {
        s = pmove(&s, &c, &cmap, &physics, 0.05, Some(me)).0;
    }
    assert_eq!(played.next, run.cmds.len(), "played to the end");
    assert!(goal.reached(&s), "ends in the goal: {}", s.origin);
    assert!(
        s.origin.x > 80.0 && s.origin.z > -1.0,
        "on the far floor: {}",
        s.origin
    );
    // Off course: the next command is refused.
    let mut off = run.clone();
    let pushed = PlayerState::at(start.origin + Vec3::new(0., 40., 0.), 0.0);
    assert!(off.next_cmd(&pushed).is_none());
    // A tick that is not the planner's step: no run.
    assert!(
        PlannedRun::plan(
            &cmap,
            &floor,
            &start,
            me,
            &RunGoal::touch(goal),
            0,
            0.1,
            &Default::default()
        )
        .is_none()
    );
}

/// dm4, where each of these was found.
fn dm4() -> Option<CollisionMap> {
    let dir = common::quake_maps()?;
    Some(common::quake_map(&dir, "dm4").1)
}

#[test]
fn on_dm4_a_bot_crosses_the_grate_and_drops_to_the_nailgun_walkway() {
    let Some(cmap) = dm4() else { return };
    // East of the lava room: bars at z -320 over lava at -384 (was: Blocked(Hazard)).
    let run = steer_run(
        &cmap,
        Vec3::new(431.96875, -302.9008, -295.96875),
        Vec3::new(420.3, -244.0, -295.96875),
        40,
    );
    assert_eq!(run.last().unwrap().1, MoveStatus::Arrived);
    assert!(run.iter().all(|(s, _)| !in_hazard(s)));
    // From the ledge at z -128 down to the walkway with the nailgun, over lava pits (was:
    // Blocked(Gap) at the edge).
    let run = steer_run(
        &cmap,
        Vec3::new(474.09512, -211.40076, -103.96875),
        Vec3::new(352.0, -8.0, -295.9375),
        60,
    );
    assert!(run.iter().all(|(s, _)| !in_hazard(s)));
    assert_eq!(run.last().unwrap().1, MoveStatus::Arrived);
}

#[test]
fn a_link_bots_cannot_follow_is_routed_around_and_blocked_after_failing_twice() {
    // A wall across the room with a way round at its north end; a link straight through
    // the wall (as a stale or wrong link would be) is the shortest way on paper.
    let mut b = floored_room();
    b.solid(
        Vec3::new(-16., -512., 0.),
        Vec3::new(16., 200., 256.),
        "WALL",
    );
    let (level, cmap) = b.build();
    let z = 24.03125;
    let mut g = WaypointGraph::new();
    let a = g.add(Vec3::new(-200., 0., z), WaypointKind::Normal);
    let goal_wp = g.add(Vec3::new(200., 0., z), WaypointKind::Normal);
    let c = g.add(Vec3::new(-200., 350., z), WaypointKind::Normal);
    let d = g.add(Vec3::new(200., 350., z), WaypointKind::Normal);
    for (x, y) in [(a, goal_wp), (a, c), (c, d), (d, goal_wp)] {
        let l = g.get(x).unwrap().origin.distance(g.get(y).unwrap().origin);
        g.link(x, y, l, Travel::Walk, 1.0);
        g.link(y, x, l, Travel::Walk, 1.0);
    }
    // The graph side: a blocked link is routed around, and blocking twice is a no-op.
    let mut caches = RouteCaches::new(1 << 20, Default::default());
    assert_eq!(
        caches.get(&g, goal_wp, TravelFlags::ALL).distance(a),
        Some(400.0)
    );
    let mut h = g.clone();
    assert!(h.block_link(a, goal_wp));
    assert!(!h.block_link(a, goal_wp), "already blocked");
    assert!(!h.block_link(goal_wp, c), "no such link");
    assert!(h.unblock_link(a, goal_wp));
    assert!(!h.unblock_link(a, goal_wp), "not blocked");
    assert_eq!(
        caches.get(&h, goal_wp, TravelFlags::ALL).distance(a),
        Some(400.0),
        "unblocked: the short way again"
    );
    assert!(h.block_link(a, goal_wp));
    assert_eq!(
        caches.get(&h, goal_wp, TravelFlags::ALL).distance(a),
        Some(350.0 + 400.0 + 350.0)
    );
    // The bot side: sent from A, it fails on the link through the wall (blocked by the wall,
    // then no nearer for a while: two failures block the link for good), goes round and gets
    // there; sent again from A, it goes round again.
    let goal = g.get(goal_wp).unwrap().origin;
    let start = g.get(a).unwrap().origin;
    let mut m = common::match_of(
        level,
        cmap,
        3,
        vec![scripted(
            "router",
            start + Vec3::Z,
            0.,
            ControllerConfig::Route(goal),
        )],
    );
    m.set_waypoints(g);
    for round in 0..2 {
        let arrived = steps_to_arrive(&mut m, goal, 400);
        assert!(
            arrived.is_some(),
            "round {round}: stuck at {}",
            m.sim.player_state(0).unwrap().origin
        );
        let b = m
            .learned
            .waypoints
            .get(goal_wp)
            .unwrap()
            .links
            .iter()
            .find(|l| l.from == a)
            .unwrap()
            .blocked;
        assert!(b > 0, "round {round}: the link through the wall is blocked");
        let e = m.sim.players[0].entity;
        m.sim
            .world
            .get::<&mut botarena::sim::components::Motion>(e)
            .unwrap()
            .0 = PlayerState::at(start + Vec3::Z, 0.0);
        m.sim
            .world
            .insert_one(e, botarena::bot::control::Controller::Idle)
            .unwrap();
        m.step();
        m.sim
            .world
            .insert_one(e, botarena::bot::control::Controller::Route { goal })
            .unwrap();
    }
}

#[test]
fn a_player_pushed_into_a_steep_slope_in_the_air_slides_down_it() {
    // dm6's rail (found at (1110, -1241, 274)): a jump ends against a slope of 80 degrees
    // (normal z 0.17) with no speed left. Wishing on into the slope, the slide move once
    // met the slope again at once (the brush trace stops DIST_EPSILON short of a plane,
    // and a slide along it rounds a hair into it), took it for a second plane, found no
    // way along both and stopped the player dead: it hung in the air for ever. The same
    // plane met again now nudges the motion out of it (Quake III's remedy) and the player
    // slides down, wishing into the slope or steered by the movement stage.
    let text = floored_room().to_map_text("slope");
    let slope = "{\n\"classname\" \"func_wall\"\n{\n\
        ( 64 0 0 ) ( 0 0 0 ) ( 0 45 256 ) S 0 0 0 1 1\n\
        ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) S 0 0 0 1 1\n\
        ( 0 0 256 ) ( 0 1 256 ) ( 1 0 256 ) S 0 0 0 1 1\n\
        ( -256 0 0 ) ( -256 1 0 ) ( -256 0 1 ) S 0 0 0 1 1\n\
        ( 256 0 0 ) ( 256 0 1 ) ( 256 1 0 ) S 0 0 0 1 1\n\
        ( 0 300 0 ) ( 1 300 0 ) ( 0 300 1 ) S 0 0 0 1 1\n}\n}\n";
    let (_, cmap) = common::from_text(&(text + slope));
    let physics = PhysicsParams::default();
    let dt = 1.0 / 72.0;
    // Against the slope at mid height, at rest (its face is 22.5 units out at z 128).
    let start = PlayerState::at(Vec3::new(0.0, 6.4, 152.0), 90.0);
    let into = botarena::physics::pmove::UserCmd {
        forward_move: 320.0,
        yaw: 90.0,
        ..Default::default()
    };
    let mut s = start;
    let mut down = None;
    for t in 0..144 {
        s = pmove(&s, &into, &cmap, &physics, dt, None).0;
        if s.on_ground.is_some() {
            down = Some(t);
            break;
        }
    }
    assert!(down.is_some(), "hanging at {:?}", s.origin);
    assert!(s.origin.z < 30.0, "came down at {:?}", s.origin);
    // Steered toward a point up beyond the slope, the bot comes down to the floor too.
    let ctx = SteerCtx {
        map: &cmap,
        physics,
        params: MoveParams::default(),
        dt,
        me: None,
    };
    let req = MoveRequest {
        target: MoveTarget::Point(Vec3::new(0.0, 200.0, 300.0)),
        speed: 320.0,
        known: false,
        wade: false,
        to_target: false,
    };
    let mut s = start;
    let mut mem = MoveMemory::default();
    let mut landed = None;
    for t in 0..144 {
        let (cmd, _) = steer(&ctx, &s, &req, &mut mem);
        s = pmove(&s, &cmd, &cmap, &physics, dt, None).0;
        if s.on_ground.is_some() {
            landed = Some(t);
            break;
        }
    }
    assert!(landed.is_some(), "still at {:?}", s.origin);
    assert!(s.origin.z < 30.0, "landed at {:?}", s.origin);
}

#[test]
fn a_runner_down_a_ramp_keeps_its_speed_each_time_it_lands() {
    // e1m1's sloped hall (13 degrees, at (829, 2291)): running down it a player leaves the
    // ramp and comes down on it every few ticks. Landing, the slide along the ramp met the
    // ramp again at once and the player stopped dead (see the steep slope above), losing
    // half a second a landing. Lanes at several offsets and headings, as rounding decides.
    let text = floored_room().to_map_text("ramp");
    // Rising 59 units over 256 toward +y, a floor at its top out to y 400.
    let ramp = "{\n\"classname\" \"func_wall\"\n{\n\
        ( 64 0 0 ) ( 0 0 0 ) ( 0 256 59 ) S 0 0 0 1 1\n\
        ( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) S 0 0 0 1 1\n\
        ( -256 0 0 ) ( -256 1 0 ) ( -256 0 1 ) S 0 0 0 1 1\n\
        ( 256 0 0 ) ( 256 0 1 ) ( 256 1 0 ) S 0 0 0 1 1\n\
        ( 0 256 0 ) ( 1 256 0 ) ( 0 256 1 ) S 0 0 0 1 1\n}\n\
        {\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) S 0 0 0 1 1\n\
        ( 0 0 59 ) ( 0 1 59 ) ( 1 0 59 ) S 0 0 0 1 1\n\
        ( -256 0 0 ) ( -256 1 0 ) ( -256 0 1 ) S 0 0 0 1 1\n\
        ( 256 0 0 ) ( 256 0 1 ) ( 256 1 0 ) S 0 0 0 1 1\n\
        ( 0 256 0 ) ( 0 256 1 ) ( 1 256 0 ) S 0 0 0 1 1\n\
        ( 0 400 0 ) ( 1 400 0 ) ( 0 400 1 ) S 0 0 0 1 1\n}\n}\n";
    let (_, cmap) = common::from_text(&(text + ramp));
    let physics = PhysicsParams::default();
    let dt = 0.05;
    let mut landings = 0;
    for lane in 0..24 {
        let x = -180.0 + 15.3 * lane as f32;
        let yaw = -90.0 + (lane % 5) as f32 * 1.7 - 3.4;
        let mut s = PlayerState::at(Vec3::new(x, 390.0, 59.0 + 24.0 + 1.0), yaw);
        s.velocity = Vec3::new(0.0, -320.0, 0.0);
        let cmd = botarena::physics::pmove::UserCmd {
            forward_move: 320.0,
            yaw,
            ..Default::default()
        };
        let mut was_on_ground = false;
        for t in 0..40 {
            s = pmove(&s, &cmd, &cmap, &physics, dt, None).0;
            let on = s.on_ground.is_some();
            if on && !was_on_ground && s.origin.y > 20.0 && s.origin.y < 240.0 {
                landings += 1;
            }
            was_on_ground = on;
            if s.origin.y < 20.0 {
                break;
            }
            assert!(
                s.velocity.truncate().length() > 280.0,
                "lane {lane} tick {t}: at {:?} speed {:?}",
                s.origin,
                s.velocity
            );
        }
        assert!(s.origin.y < 20.0, "lane {lane} stopped at {:?}", s.origin);
    }
    // It does leave the ramp and land on it: the case is exercised.
    assert!(landings >= 24, "{landings} landings");
}
