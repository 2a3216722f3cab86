/// Braking ([`super::brake`], as an explorer settling before it plans a run does) stops a
/// bot on flat floor from any speed over [`super::SETTLE_SPEED`] in a few ticks, and
/// never sends it back the other way faster than that: wishing full speed against a
/// motion slower than about 160 u/s overshot it every tick, and the bot rocked at
/// 80-100 u/s until given up as stuck.
#[test]
fn braking_stops_a_bot_from_any_speed_without_rocking() {
    use super::planned::{SETTLE_SPEED, brake, coming_at_a_run};
    use crate::bot::movement::{MoveMemory, MoveParams, SteerCtx, steer};
    use crate::map::builder::MapBuilder;
    use crate::physics::pmove::{PhysicsParams, pmove};
    use glam::Vec3;
    let v = Vec3::new;
    let (_, map) = MapBuilder::sealed_room(v(-1024., -1024., 0.), v(1024., 1024., 256.)).build();
    let ctx = SteerCtx {
        map: &map,
        physics: PhysicsParams::default(),
        params: MoveParams::default(),
        dt: 0.05,
        me: None,
    };
    let still = crate::nav::sample::stand_still(&map, &ctx.physics, v(0., 0., 25.));
    for speed in (65..=320).step_by(5) {
        for dir in [v(1., 0., 0.), v(0.6, -0.8, 0.)] {
            let mut s = still;
            s.velocity = dir * speed as f32;
            let mut mem = MoveMemory::default();
            let mut ticks = 0;
            while coming_at_a_run(&s) {
                assert!(
                    ticks < 6,
                    "{speed} u/s: still at {} after {ticks} ticks",
                    s.velocity
                );
                let (cmd, _) = steer(&ctx, &s, &brake(s.velocity.truncate()), &mut mem);
                s = pmove(&s, &cmd, &map, &ctx.physics, ctx.dt, None).0;
                assert!(
                    s.velocity.dot(dir) > -SETTLE_SPEED,
                    "{speed} u/s: sent back at {}",
                    s.velocity
                );
                ticks += 1;
            }
        }
    }
}

/// A plat try ([`super::Explorer::lift`]): a bot stopped on the plat's edge outside the
/// field that starts it walks on to the middle (standing there, it waited the try out with
/// the plat down), and one in the field or still moving stands.
#[test]
fn a_bot_stopped_on_a_plats_edge_walks_into_its_field() {
    use super::{Activity, ButtonGo, Explorer, LiftView, VisitMap};
    use crate::bot::movement::MoveTarget;
    use crate::map::EntId;
    use crate::map::builder::MapBuilder;
    use crate::physics::pmove::PhysicsParams;
    use glam::Vec3;
    let v = Vec3::new;
    let (_, map) = MapBuilder::sealed_room(v(-512., -512., 0.), v(512., 512., 256.)).build();
    let plat = EntId(7);
    let lift = LiftView {
        index: 3,
        id: plat,
        top: v(0., 0., 8.),
        high_top: v(0., 0., 192.),
        waiting: true,
        up: false,
        half: v(64., 64., 0.),
    };
    let visits = VisitMap::default();
    let still = crate::nav::sample::stand_still(&map, &PhysicsParams::default(), v(0., -300., 25.));
    let ask = |at: Vec3, speed: f32| {
        let mut s = still;
        s.origin = at;
        s.on_ground = Some(plat);
        s.velocity = v(0., speed, 0.);
        let mut e = Explorer::new(at);
        e.activity = Activity::Lift(lift.index, 10.0);
        let go = e.lift(&map, &visits, &[lift], &s, 0.05);
        (go, matches!(e.activity, Activity::Lift(..)))
    };
    let walks_to_middle = |go: &Option<ButtonGo>| {
        matches!(go, Some(ButtonGo::Walk(r))
            if matches!(r.target, MoveTarget::Point(p) if p.truncate().length() < 1e-3))
    };
    // On the south edge, 4 units of the box over it: outside the field (inset 25).
    let edge = v(0., -76., 32.);
    let (go, trying) = ask(edge, 0.0);
    assert!(
        walks_to_middle(&go) && trying,
        "stopped on the edge: {go:?}"
    );
    // Still moving in, or in the field: it stands and rides.
    for (at, speed) in [(edge, 100.0), (v(0., -20., 32.), 0.0)] {
        let (go, trying) = ask(at, speed);
        assert!(
            matches!(go, Some(ButtonGo::Press(_))) && trying,
            "{at} at {speed}: {go:?}"
        );
    }
}

/// A walk keeps [`super::TELEPORTER_BERTH`] off a teleporter's volume, or the gap it
/// starts at where that is less; a floor over the volume is no nearer.
#[test]
fn walks_keep_off_teleporters() {
    use super::views::{TELEPORTER_BERTH, nears_teleporter};
    use glam::Vec3;
    let v = Vec3::new;
    // A thin trigger 48 wide across x, 8 deep, on the floor (feet at z 0, origin 24).
    let gate = [(v(-24., 100., 0.), v(24., 108., 72.))];
    let z = 24.0;
    // Straight at it, and past its end within the berth: near.
    assert!(nears_teleporter(&gate, v(0., 0., z), v(0., 90., z)));
    assert!(nears_teleporter(&gate, v(-100., 70., z), v(100., 70., z)));
    // A walk ending beside it (12 units off its face) is near; one along it farther
    // off, or away from it, is not.
    assert!(nears_teleporter(&gate, v(0., 0., z), v(-30., 72., z)));
    let off = 100.0 - 16.0 - TELEPORTER_BERTH - 1.0;
    assert!(!nears_teleporter(&gate, v(-100., off, z), v(100., off, z)));
    assert!(!nears_teleporter(&gate, v(0., 60., z), v(0., -200., z)));
    // Started 4 units off its face: along it is no nearer, a slant toward it is.
    assert!(!nears_teleporter(&gate, v(0., 80., z), v(100., 80., z)));
    assert!(nears_teleporter(&gate, v(0., 80., z), v(100., 84., z)));
    // Over it, on a floor 100 units up.
    assert!(!nears_teleporter(&gate, v(0., 0., 124.), v(0., 200., 124.)));
}

/// A run to somewhere past a teleporter with no teleporters of its own in its goal is
/// planned with the level's: it goes round the teleporter, not through it (a strip of
/// two triggers across the south half of a room, the run from east of it to west).
#[test]
fn a_run_goes_round_a_teleporter_it_is_not_for() {
    use super::{Explorer, RunGoal, VisitMap};
    use crate::map::builder::MapBuilder;
    use crate::physics::pmove::{PLAYER_MAXS, PLAYER_MINS, PhysicsParams};
    use glam::Vec3;
    let v = Vec3::new;
    let mut b = MapBuilder::sealed_room(v(0., -256., 0.), v(800., 256., 256.));
    for (x, target) in [(416., "a"), (432., "b")] {
        b.brush_entity(
            &[("classname", "trigger_teleport"), ("target", target)],
            &[(v(x, -256., 0.), v(x + 4., -64., 72.), "trigger")],
        );
    }
    b.point(
        "info_teleport_destination",
        v(100., 200., 0.),
        &[("targetname", "a"), ("angle", "0")],
    )
    .point(
        "info_teleport_destination",
        v(700., 200., 0.),
        &[("targetname", "b"), ("angle", "180")],
    )
    .point("info_player_deathmatch", v(600., -208., 24.), &[]);
    let (level, map) = b.build();
    let triggers: Vec<(Vec3, Vec3)> = level.triggers.iter().map(|t| (t.mins, t.maxs)).collect();
    assert_eq!(triggers.len(), 2);
    let physics = PhysicsParams::default();
    let here = crate::nav::sample::stand_still(&map, &physics, v(600., -208., 25.));
    let goal = RunGoal::touch(crate::planner::Goal {
        mins: v(184., -224., 0.),
        maxs: v(216., -192., 56.),
    });
    let visits = VisitMap::default();
    for seed in 0..3 {
        let mut ex = Explorer::new(here.origin);
        let mut rng = crate::sim::rng::SimRng::new(seed, 0);
        let world = (&map, &level, &visits);
        let me = (crate::map::EntId(1), &physics);
        assert!(
            ex.run_to(world, &here, me, &goal, &mut rng, 0.05),
            "seed {seed}"
        );
        let run = ex.run.as_ref().expect("a run");
        let touches = |p: Vec3| {
            let (lo, hi) = (p + PLAYER_MINS, p + PLAYER_MAXS);
            triggers
                .iter()
                .any(|(a, b)| lo.cmple(*b).all() && hi.cmpge(*a).all())
        };
        let through = run.path.iter().find(|p| touches(**p));
        assert_eq!(
            through, None,
            "seed {seed}: the run goes through a teleporter"
        );
        let end = *run.path.last().unwrap();
        assert!(end.x < 300.0, "seed {seed}: ends at {end}");
    }
}

#[test]
fn an_explorer_only_where_the_team_has_long_been_is_bored_once_a_while() {
    use super::{BORED_SECONDS, Explorer, FRESH_VISITS, VisitMap};
    use crate::physics::pmove::PlayerState;
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map");
    let m = crate::bench::bench_match(&map, 1, 1, 1).expect("the shipped arena");
    let (sim, graph) = (&m.sim, &m.learned.waypoints);
    let here = sim.level.spawns[0].origin;
    let s = PlayerState::at(here, 0.0);
    let mut visits = VisitMap::default();
    let mut ex = Explorer::new(here);
    let mut rng = crate::sim::rng::SimRng::new(1, 2);
    let dt = 0.05;
    let mut step = |ex: &mut Explorer, visits: &VisitMap| {
        ex.step(
            &sim.cmap,
            graph,
            visits,
            &sim.level,
            &s,
            &Default::default(),
            &Default::default(),
            &mut rng,
            dt,
            None,
        );
    };
    // A barely known cell keeps the count at nought, however long.
    for _ in 0..FRESH_VISITS {
        visits.visit(here);
    }
    for _ in 0..(2.0 * BORED_SECONDS / dt) as usize {
        step(&mut ex, &visits);
    }
    assert!(!ex.take_bored());
    // A well known one: bored after BORED_SECONDS, asked once, then counting again.
    visits.visit(here);
    let ticks = (BORED_SECONDS / dt) as usize + 2;
    for _ in 0..ticks {
        step(&mut ex, &visits);
    }
    assert!(ex.take_bored());
    assert!(!ex.take_bored());
    for _ in 0..ticks / 2 {
        step(&mut ex, &visits);
    }
    assert!(!ex.take_bored());
}

#[test]
fn floor_points_are_found_on_first_use_only() {
    // Brain bots explore (so they look for the frontier) but plan no run toward an item
    // in their first second here: the match has not paid for the map's floor points.
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/arena.map");
    let mut m = crate::bench::bench_match(&map, 4, 1, 1).expect("the shipped arena");
    for _ in 0..20 {
        m.step();
    }
    let (visits, sim) = (&m.learned.visits, &m.sim);
    assert!(visits.floor.get().is_none());
    let floor = visits.floor(&sim.level, &sim.cmap).to_vec();
    assert_eq!(
        floor,
        crate::nav::sample::floor_points(&sim.level, &sim.cmap, 32.0)
    );
    let frontier = visits.frontier(&sim.level, &sim.cmap).to_vec();
    assert_eq!(frontier, super::frontier_points(&sim.level, &sim.cmap));
    assert!(!floor.is_empty() && !frontier.is_empty());
}
