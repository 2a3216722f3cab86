//! Route times on the compiled area graph as the player physics runs them: a runner's line
//! round a corner, swims, turns, slime left out, a plat's top, a fall come at running.

mod common;

use botarena::aas::route::{Travel, build_cache, route};
use botarena::aas::{CompileParams, NavMesh, ReachKind, compile};
use glam::Vec3;

/// The runner's route round a block between two halves of a room: the shortest line
/// through the borders its walks cross. It stays over the route's floors, is no longer
/// than the line through the walks' own start and end points, passes the block's corner
/// within a few cells, and its time is its length at running speed plus the physics'
/// turn costs (and getting up to speed from a stand).
#[test]
fn a_runner_takes_the_shortest_line_round_a_corner() {
    use botarena::aas::route::{START_SECONDS, route_moving, turn_seconds};
    let v = Vec3::new;
    // A room 512 x 512, a block filling its middle from the south wall up to y 384: the
    // way from the south-west corner to the south-east one goes round its north end.
    let mut b = common::sealed_room(v(0., 0., 0.), v(512., 512., 128.));
    b.solid(v(192., 0., 0.), v(320., 384., 128.), "BLOCK")
        .point("info_player_deathmatch", v(64., 64., 24.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let (from, to) = (v(64., 64., 24.03125), v(448., 64., 24.03125));
    let goal = mesh.area_at(to).expect("goal area");
    let cache = build_cache(&mesh, goal, Travel::ALL);
    let r = route(&mesh, &cache, from, to).expect("a route");
    assert!(r.reaches.len() >= 2, "{r:?}");
    assert!(
        r.run_seconds < r.seconds,
        "{} vs {}",
        r.run_seconds,
        r.seconds
    );
    // Over floors all the way (every 4 units).
    for w in r.path.windows(2) {
        let n = ((w[1] - w[0]).truncate().length() / 4.0).ceil().max(1.0) as usize;
        for k in 0..=n {
            let p = w[0].lerp(w[1], k as f32 / n as f32);
            assert!(
                mesh.area_at(v(p.x, p.y, 24.03125)).is_some(),
                "off the floor at {p}"
            );
        }
    }
    let length = |pts: &[Vec3]| -> f32 {
        pts.windows(2)
            .map(|w| (w[1] - w[0]).truncate().length())
            .sum()
    };
    let mut through_ends = vec![from];
    for &i in &r.reaches {
        let x = &mesh.reaches()[i as usize];
        through_ends.extend([x.start, x.end]);
    }
    through_ends.push(to);
    assert!(length(&r.path) <= length(&through_ends) + 1e-3);
    // Round the block's north-west and north-east corners (the player's box keeps 16 off
    // the block; the line keeps 8 off the areas' borders' ends).
    for corner in [v(192., 384., 24.), v(320., 384., 24.)] {
        let nearest = r
            .path
            .iter()
            .map(|p| (p.truncate() - corner.truncate()).length())
            .fold(f32::MAX, f32::min);
        assert!(nearest < 48.0, "{corner}: {nearest} ({:?})", r.path);
    }
    // Its time: the length at 320 u/s, the turns, the start.
    let mut want = START_SECONDS;
    let mut heading: Option<glam::Vec2> = None;
    for w in r.path.windows(2) {
        let leg = (w[1] - w[0]).truncate();
        if leg.length() > 1.0 {
            want += heading.map_or(0.0, |h| turn_seconds(h, leg)) + leg.length() / 320.0;
            heading = Some(leg);
        }
    }
    assert!(
        (r.run_seconds - want).abs() < 1e-3,
        "{} vs {want}",
        r.run_seconds
    );
    // Already running the way the route starts, no start-up; running the other way, the
    // reversal's cost on top.
    let first = (r.path[1] - r.path[0]).normalize();
    let running = route_moving(&mesh, &cache, from, first * 320.0, to).unwrap();
    assert!((running.run_seconds - (r.run_seconds - START_SECONDS)).abs() < 1e-3);
    let back = route_moving(&mesh, &cache, from, -first * 320.0, to).unwrap();
    assert!(
        (back.run_seconds
            - running.run_seconds
            - turn_seconds(-first.truncate(), first.truncate()))
        .abs()
            < 1e-3
    );
    // Going the other way faster than full speed (off a landing), the reversal costs in
    // proportion to the speed, as the physics takes it: 400 u/s, a quarter more.
    let faster = route_moving(&mesh, &cache, from, -first * 400.0, to).unwrap();
    let reversal = turn_seconds(-first.truncate(), first.truncate());
    assert!(
        (faster.run_seconds - back.run_seconds - 0.25 * reversal).abs() < 1e-3,
        "{} vs {}",
        faster.run_seconds,
        back.run_seconds
    );
}

/// A swim across a pool cut into several swim areas (walls across it with gaps) is timed
/// at Quake's swimming speed, 0.7 of 320 u/s, along the swimmer's line: each swim from one
/// area into the next was timed as recorded, from still water, and a chain of them across
/// e1m1's pools came to seconds more than a swimmer takes.
#[test]
fn a_swim_across_a_pool_is_timed_at_swimming_speed() {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1536., 512., 256.));
    for k in 1..=10 {
        let x = 128.0 * k as f32 + 64.0;
        b.solid(v(x, 0., 0.), v(x + 16., 192., 256.), "WALL").solid(
            v(x, 320., 0.),
            v(x + 16., 512., 256.),
            "WALL",
        );
    }
    // A dry landing at the west end to stand on.
    b.solid(v(0., 0., 0.), v(128., 512., 192.), "LAND")
        .solid(v(128., 0., 0.), v(1536., 512., 192.), "*water0")
        .point("info_player_deathmatch", v(64., 256., 216.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let (from, to) = (v(192., 256., 96.), v(1472., 256., 96.));
    let goal = mesh.area_at(to).expect("goal area");
    let cache = build_cache(&mesh, goal, Travel::ALL);
    let r = route(&mesh, &cache, from, to).expect("a route");
    let swims = r
        .reaches
        .iter()
        .filter(|&&i| mesh.reaches()[i as usize].kind == ReachKind::Swim)
        .count();
    assert!(swims >= 10, "{swims} swims: {r:?}");
    let length: f32 = r.path.windows(2).map(|w| (w[1] - w[0]).length()).sum();
    let want = length / (0.7 * 320.0);
    assert!(
        (r.run_seconds - want).abs() <= 0.05 * want,
        "{} s for {length} units, {want} s at swimming speed",
        r.run_seconds
    );
}

/// The turn costs a route's runner pays are what the player physics measures: running at
/// 320 u/s and turning toward a point far off in a new direction, the time to get 640
/// units along it beyond 2 s, within 8 ms for every angle; and from a stand.
#[test]
fn turn_costs_are_what_the_physics_measures() {
    use botarena::aas::route::{START_SECONDS, turn_seconds};
    use botarena::physics::pmove::{PhysicsParams, UserCmd, pmove};
    let v = Vec3::new;
    let mut b = botarena::map::builder::MapBuilder::new();
    b.solid(v(-4096., -4096., -16.), v(4096., 4096., 0.), "FLOOR");
    let (_, cmap) = b.build();
    let physics = PhysicsParams::default();
    let start = botarena::nav::sample::stand_still(&cmap, &physics, v(0., 0., 40.));
    // Seconds to get `d` units along `dir` from `s`, heading for a point far along it.
    let time_along = |mut s: botarena::physics::pmove::PlayerState, dir: Vec3, d: f32| {
        let target = start.origin + dir * 4000.0;
        let (mut t, mut prev) = (0u32, 0.0f32);
        while (s.origin - start.origin).dot(dir) < d {
            prev = (s.origin - start.origin).dot(dir);
            let to = target - s.origin;
            let c = UserCmd {
                forward_move: 320.0,
                yaw: to.y.atan2(to.x).to_degrees(),
                ..Default::default()
            };
            s = pmove(&s, &c, &cmap, &physics, 0.05, None).0;
            t += 1;
        }
        let now = (s.origin - start.origin).dot(dir);
        (t as f32 - 1.0 + (d - prev) / (now - prev)) * 0.05
    };
    for deg in [0.0f32, 30.0, 60.0, 90.0, 120.0, 150.0, 180.0] {
        let dir = v(deg.to_radians().cos(), deg.to_radians().sin(), 0.0);
        let mut s = start;
        s.velocity = v(320.0, 0.0, 0.0);
        let lost = time_along(s, dir, 640.0) - 2.0;
        let model = turn_seconds(glam::Vec2::X, dir.truncate());
        assert!(
            (lost - model).abs() < 0.008,
            "{deg}°: physics {lost}, model {model}"
        );
    }
    let lost = time_along(start, Vec3::X, 640.0) - 2.0;
    assert!((lost - START_SECONDS).abs() < 0.008, "from a stand: {lost}");
}

/// Slime and lava are travel flags (Q3's `TFL_SLIME` and `TFL_LAVA`): a route that may go
/// into slime wades straight across a slime trench, one that may not (`dry`) takes the
/// floor round its end, longer; with no floor round, it has no way at all. `all` takes
/// both liquids; `slime` and `lava` parse.
#[test]
fn a_route_that_may_not_go_into_slime_goes_round_it() {
    use botarena::aas::AreaFlags;
    let v = Vec3::new;
    let slimy = |mesh: &NavMesh, r: &botarena::aas::route::Route| {
        r.reaches.iter().any(|&i| {
            mesh.areas()[mesh.reaches()[i as usize].to as usize]
                .flags
                .has(AreaFlags::SLIME)
        })
    };
    let (from, to) = (v(128., 128., 40.), v(896., 128., 40.));
    for bridge in [true, false] {
        let (level, cmap) = common::slime_trench(bridge);
        let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
        let goal = mesh.area_at(to).expect("goal area");
        let wet = route(&mesh, &build_cache(&mesh, goal, Travel::ALL), from, to).expect("wet");
        assert!(slimy(&mesh, &wet), "across the slime: {wet:?}");
        assert!(
            wet.run_seconds < 3.0,
            "{} s straight across",
            wet.run_seconds
        );
        let dry = route(
            &mesh,
            &build_cache(&mesh, goal, Travel::ALL.dry()),
            from,
            to,
        );
        if !bridge {
            assert!(dry.is_none(), "no dry way: {dry:?}");
            continue;
        }
        let dry = dry.expect("round the trench's end");
        assert!(!slimy(&mesh, &dry), "{dry:?}");
        assert!(
            dry.run_seconds > wet.run_seconds + 1.0,
            "round: {} s, across: {} s",
            dry.run_seconds,
            wet.run_seconds
        );
        let slime = Travel::ALL.dry().with(Travel::SLIME);
        let again = route(&mesh, &build_cache(&mesh, goal, slime), from, to).unwrap();
        assert_eq!(again.reaches, wet.reaches);
    }
    assert_eq!(Travel::parse("slime,lava,walk").unwrap(), {
        Travel::SLIME
            .with(Travel::LAVA)
            .with(Travel::parse("walk").unwrap())
    });
    assert_ne!(Travel::ALL.dry(), Travel::ALL);
    assert_eq!(
        Travel::ALL.dry().with(Travel::SLIME).with(Travel::LAVA),
        Travel::ALL
    );
    let e = Travel::parse("walk,acid").unwrap_err();
    assert!(e.contains("slime, lava"), "{e}");
}

/// A plat's top is one floor that moves: `explore`'s measure counts its cells covered
/// where a waypoint reaches the top at either of the plat's places, on the map as the run
/// left the plat (e2m2's floor over its pool, which its button raises for good).
#[test]
fn a_plats_top_is_covered_at_either_of_its_places() {
    use botarena::nav::waypoints::{WaypointGraph, WaypointKind};
    use botarena::scenario::explore::nav_coverage_cells;
    let v = Vec3::new;
    // A room with a ledge 128 high along its east side and a plat beside it, up (as the
    // map places it) level with the ledge, down 8 units over the floor.
    let mut b = common::sealed_room(v(0., 0., 0.), v(512., 512., 512.));
    b.solid(v(384., 0., 0.), v(512., 512., 128.), "LEDGE")
        .brush_entity(
            &[("classname", "func_plat")],
            &[(v(256., 192., 0.), v(384., 320., 128.), "PLAT")],
        )
        .point("info_player_deathmatch", v(64., 256., 24.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let plat = level.movers[0].id;
    let spawns = [v(64., 256., 24.)];
    let plat_cells = |g: &WaypointGraph, cmap: &botarena::map::CollisionMap| {
        let cells = nav_coverage_cells(&mesh, &level, cmap, g, &spawns);
        let on: Vec<bool> = cells
            .iter()
            .filter(|c| mesh.areas()[c.area as usize].mover == Some(plat.0))
            .map(|c| c.covered)
            .collect();
        assert!(on.len() >= 16, "the plat's top has cells: {}", on.len());
        on.iter().filter(|&&c| c).count() as f32 / on.len() as f32
    };
    // The plat up (the collision map as loaded): a waypoint on its top covers it; one on
    // the floor beside it (a jump of 128 short of the top) does not.
    let mut top = WaypointGraph::new();
    top.add(v(320., 256., 152.03125), WaypointKind::Normal);
    let mut floor = WaypointGraph::new();
    floor.add(v(200., 256., 24.03125), WaypointKind::Normal);
    assert_eq!(plat_cells(&top, &cmap), 1.0, "a waypoint on the raised top");
    assert_eq!(
        plat_cells(&floor, &cmap),
        0.0,
        "a waypoint on the floor by the raised plat"
    );
    // The plat down: a waypoint on its top there covers it.
    let mut low = cmap.clone();
    low.set_mover_offset(plat, v(0., 0., -120.));
    let mut down = WaypointGraph::new();
    down.add(v(320., 256., 32.03125), WaypointKind::Normal);
    assert_eq!(
        plat_cells(&down, &low),
        1.0,
        "a waypoint on the lowered top"
    );
}

/// A runner that comes at a fall off a ledge going its way runs off it without a stand:
/// with the player physics asked ([`botarena::aas::run::run_on_the_run`], as the
/// tour's prediction and `route --nav` ask it), the route's time is what a player running
/// straight there takes, and its path comes down the way the runner falls; from the graph
/// alone the fall counts its recorded time from a stand.
#[test]
fn a_fall_come_at_running_is_timed_as_the_physics_runs_it() {
    use botarena::aas::route::run_path_timed;
    use botarena::physics::pmove::{PhysicsParams, UserCmd, pmove};
    let v = Vec3::new;
    // A room 768 long, its west third a ledge 64 high.
    let mut b = common::sealed_room(v(0., 0., 0.), v(768., 256., 256.));
    b.solid(v(0., 0., 0.), v(256., 256., 64.), "LEDGE").point(
        "info_player_deathmatch",
        v(32., 128., 88.),
        &[],
    );
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let (from, to) = (v(32., 128., 88.03125), v(704., 128., 24.03125));
    let cache = build_cache(&mesh, mesh.area_at(to).expect("goal area"), Travel::ALL);
    let r = route(&mesh, &cache, from, to).expect("a route");
    let fall = r
        .reaches
        .iter()
        .map(|&i| &mesh.reaches()[i as usize])
        .find(|x| x.kind.played())
        .expect("a fall or jump off the ledge");
    let physics = PhysicsParams::default();
    let ctx = botarena::aas::run::RunWorld {
        map: &cmap,
        physics,
        dt: 0.05,
        me: None,
    };
    let on_the_run = botarena::aas::run::on_the_run(&ctx, &mesh);
    let east = v(320., 0., 0.);
    let (graph, ..) = run_path_timed(&mesh, from, east, to, &r.reaches, |_, t| t, None);
    let (run, path, _) = run_path_timed(
        &mesh,
        from,
        east,
        to,
        &r.reaches,
        |_, t| t,
        Some(&on_the_run),
    );
    // A player running east from there at full speed.
    let mut s = botarena::nav::sample::stand_still(&cmap, &physics, from);
    s.velocity = east;
    let run_east = UserCmd {
        forward_move: 320.0,
        ..Default::default()
    };
    let mut ticks = 0;
    while s.origin.x < to.x && ticks < 200 {
        s = pmove(&s, &run_east, &cmap, &physics, 0.05, None).0;
        ticks += 1;
    }
    let took = ticks as f32 * 0.05;
    assert!(
        (run - took).abs() <= 0.1,
        "predicted {run} s, a runner takes {took} s ({:?} recorded {} s)",
        fall.kind,
        fall.seconds
    );
    assert!(
        graph > run + 0.1,
        "from the graph alone {graph} s, on the run {run} s"
    );
    // The path comes down past the ledge's edge, not at the fall's recorded end only.
    let falling = path
        .iter()
        .filter(|p| p.x > 256.0 && p.z < 88.0 && p.z > 24.5)
        .count();
    assert!(falling >= 3, "{path:?}");
    // Come at running the other way (west, 40 units past its start), it is not.
    let i = r
        .reaches
        .iter()
        .copied()
        .find(|&i| mesh.reaches()[i as usize].kind.played());
    let west = on_the_run(i.unwrap(), fall.start + v(40., 0., 0.), -glam::Vec2::X);
    assert!(west.is_none(), "{west:?}");
}
