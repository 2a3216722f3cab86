//! The travel-time planner: a straight corridor matches distance / 320 plus acceleration, a
//! running jump is found, an item on a ledge above jump height is not, reported times replay
//! through the physics, runs are deterministic, dm6's weapon table completes, and plats and
//! trains are ridden as the simulation moves them.

mod common;

use std::sync::Arc;

use botarena::nav::sample::stand_still;
use botarena::physics::pmove::{PhysicsParams, UserCmd, pmove};
use botarena::planner::times::{ItemRef, items, plan_pair, table};
use botarena::planner::{Metric, PlanConfig, replay_controls};
use glam::Vec3;

fn proving() -> (Arc<botarena::Level>, botarena::CollisionMap, Vec<ItemRef>) {
    let (level, cmap) = common::shipped("proving");
    let level = Arc::new(level);
    let all = items(&level, &cmap);
    (level, cmap, all)
}

fn by_class<'a>(all: &'a [ItemRef], class: &str) -> &'a ItemRef {
    all.iter().find(|r| r.class == class).unwrap()
}

/// A start at the beginning of lane `i` of the proving ground, facing +X.
fn lane_start(i: usize) -> ItemRef {
    let y = i as f32 * 256.0 + 96.0;
    let p = Vec3::new(64.0, y, 25.0);
    ItemRef {
        index: 1000 + i,
        class: "start".into(),
        label: format!("lane{i}"),
        stand: p,
        goal: botarena::planner::Goal { mins: p, maxs: p },
    }
}

/// Replayed controls' `states` reach `item` on the last of them and not before.
fn reached_last(states: &[botarena::physics::pmove::PlayerState], item: &ItemRef) {
    assert!(
        item.goal.reached(states.last().unwrap()),
        "{} reached",
        item.label
    );
    assert!(
        states[..states.len() - 1]
            .iter()
            .all(|s| !item.goal.reached(s)),
        "{} not earlier",
        item.label
    );
}

fn cfg(expansions: usize) -> PlanConfig {
    PlanConfig {
        expansions,
        seed: 9,
        ..Default::default()
    }
}

#[test]
fn a_straight_corridor_takes_distance_over_320_plus_acceleration() {
    let (level, cmap, all) = proving();
    let free = botarena::nav::sample::floor_points(&level, &cmap, 64.0);
    let physics = PhysicsParams::default();
    let goal = by_class(&all, "item_shells"); // the end of lane 1, past an 18-unit step
    let from = lane_start(1);
    let plan = plan_pair(&cmap, &physics, &free, &from, goal, &cfg(6000));
    let t = plan.time().expect("found");
    // The ideal: run straight at the goal from rest, step by step through the same physics.
    let mut s = stand_still(&cmap, &physics, from.stand);
    let mut ideal = 0;
    while !goal.goal.reached(&s) {
        let d = goal.goal.centre() - s.origin;
        let cmd = UserCmd {
            forward_move: 320.0,
            yaw: d.y.atan2(d.x).to_degrees(),
            ..Default::default()
        };
        s = pmove(&s, &cmd, &cmap, &physics, 0.05, None).0;
        ideal += 1;
        assert!(ideal < 1000);
    }
    let ideal = ideal as f32 * 0.05;
    let distance = goal.goal.mins.x - 16.0 - from.stand.x;
    println!(
        "planner {t:.2} s, straight run {ideal:.2} s, distance/320 {:.2} s",
        distance / 320.0
    );
    assert!(
        ideal >= distance / 320.0 && ideal <= distance / 320.0 + 0.2,
        "acceleration is short"
    );
    assert!(
        (t - ideal).abs() <= 0.05 * ideal,
        "planner {t} within 5% of {ideal}"
    );
}

/// Budget for the running jump (seeded: the same tree every run).
const GAP_EXPANSIONS: usize = 20_000;

#[test]
fn a_gap_that_needs_a_running_jump_is_crossed_and_the_controls_replay() {
    let (level, cmap, all) = proving();
    let free = botarena::nav::sample::floor_points(&level, &cmap, 64.0);
    let physics = PhysicsParams::default();
    let goal = by_class(&all, "item_health"); // past the 200-unit gap of lane 3
    let from = lane_start(3);
    let plan = plan_pair(&cmap, &physics, &free, &from, goal, &cfg(GAP_EXPANSIONS));
    let t = plan.time().expect("the gap is crossed");
    let controls = plan.controls();
    assert!(controls.iter().any(|c| c.jump), "it jumps");
    assert_eq!(controls.len() as f32 * 0.05, t);
    // Replaying the controls from the start reaches the goal at the reported time.
    let start = stand_still(&cmap, &physics, from.stand);
    let states = replay_controls(&cmap, &physics, start, &controls, &cfg(GAP_EXPANSIONS));
    reached_last(&states, goal);
    let path = plan.path();
    assert!(path.windows(2).all(|w| w[0].distance(w[1]) < 40.0));
    assert!(path.iter().all(|p| p.z > -64.0), "never falls into the pit");
}

/// The best branch is shortened by straight runs after the search: on the arena's open
/// floor every pair is as quick or quicker than the unshortened branch, some much quicker,
/// and each plan's controls still reach the item at its time and not before.
#[test]
fn shortcuts_shorten_the_branch_and_its_controls_still_replay() {
    let (level, cmap) = common::shipped("arena");
    let all = items(&level, &cmap);
    // The world the planner runs in: the arena's plat and door as `times` has them.
    let (open, free, base) = botarena::planner::times::planning(&level, &cmap, &cfg(20_000));
    let physics = PhysicsParams::default();
    let (ssg, armour) = (
        by_class(&all, "weapon_supershotgun"),
        by_class(&all, "item_armor2"),
    );
    let mut gained = 0.0;
    for (from, to) in [(ssg, armour), (armour, ssg)] {
        let with = |shortcuts| PlanConfig {
            shortcuts,
            ..base.clone()
        };
        let long = plan_pair(&open, &physics, &free, from, to, &with(false));
        let short = plan_pair(&open, &physics, &free, from, to, &with(true));
        let (t0, t1) = (long.time().unwrap(), short.time().unwrap());
        assert!(t1 <= t0, "{} -> {}: {t1} over {t0}", from.label, to.label);
        gained += t0 - t1;
        let controls = short.controls();
        assert_eq!(controls.len() as f32 * 0.05, t1);
        let start = stand_still(&open, &physics, from.stand);
        let states = replay_controls(&open, &physics, start, &controls, &with(true));
        reached_last(&states, to);
    }
    assert!(gained >= 0.3, "{gained} s gained in all");
}

/// With the compiled area graph, the planner starts from the graph's route run through
/// the physics: on the arena, the way from the armour up to the launcher on its balcony
/// rides the plat, which the tree finds only after thousands of expansions; the route's
/// run is there before the first, and its controls replay to the launcher.
#[test]
fn the_area_graphs_route_is_the_first_solution() {
    let (level, cmap) = common::shipped("arena");
    let all = items(&level, &cmap);
    let mesh = common::compiled(&level, &cmap);
    let (open, free, base) = botarena::planner::times::planning(&level, &cmap, &cfg(10));
    let physics = PhysicsParams::default();
    let with = |route_seed| PlanConfig {
        route_seed,
        area_metric: Some(Arc::new(botarena::planner::AreaMetric::new(
            Arc::new(mesh.clone()),
            &level,
        ))),
        ..base.clone()
    };
    let (armour, rl) = (
        by_class(&all, "item_armor2"),
        by_class(&all, "weapon_rocketlauncher"),
    );
    let unseeded = plan_pair(&open, &physics, &free, armour, rl, &with(false));
    assert_eq!(unseeded.time(), None, "10 expansions do not find the plat");
    let plan = plan_pair(&open, &physics, &free, armour, rl, &with(true));
    assert_eq!(plan.first_at, Some(0), "solved before the first expansion");
    let t = plan.time().expect("the route rides the plat up");
    let controls = plan.controls();
    let start = stand_still(&open, &physics, armour.stand);
    let states = replay_controls(&open, &physics, start, &controls, &with(true));
    assert!(rl.goal.reached(states.last().unwrap()));
    assert_eq!(states.len() as f32 * 0.05, t);
    assert!(
        states.iter().any(|s| s.origin.z > 100.0),
        "up on the balcony"
    );
}

#[test]
fn an_item_on_a_ledge_above_jump_height_is_not_found() {
    let (level, cmap, all) = proving();
    let free = botarena::nav::sample::floor_points(&level, &cmap, 64.0);
    let physics = PhysicsParams::default();
    let goal = by_class(&all, "item_armor2");
    let plan = plan_pair(&cmap, &physics, &free, &lane_start(2), goal, &cfg(4000));
    assert_eq!(plan.time(), None);
    assert_eq!(plan.expansions, 4000, "the whole budget was spent");
    assert!(plan.nodes.len() > 1000, "the lane was explored");
}

#[test]
fn the_same_seed_and_budget_give_the_same_tree_and_tables_for_any_threads() {
    let (level, cmap, all) = proving();
    let free = botarena::nav::sample::floor_points(&level, &cmap, 64.0);
    let physics = PhysicsParams::default();
    let goal = by_class(&all, "weapon_nailgun"); // past the lava pit
    let a = plan_pair(&cmap, &physics, &free, &lane_start(6), goal, &cfg(3000));
    let b = plan_pair(&cmap, &physics, &free, &lane_start(6), goal, &cfg(3000));
    assert_eq!(a.nodes.len(), b.nodes.len());
    assert_eq!(a.time(), b.time());
    assert!(
        a.nodes
            .iter()
            .zip(&b.nodes)
            .all(|(x, y)| x.state.origin == y.state.origin && x.parent == y.parent)
    );
    let sel: Vec<usize> = all.iter().take(3).map(|r| r.index).collect();
    let run = |threads| {
        table(
            &level,
            &cmap,
            &all,
            &sel,
            &cfg(1500),
            &PhysicsParams::default(),
            None,
            threads,
            |_, _| {},
        )
        .into_iter()
        .map(|r| (r.from, r.to, r.rrt, r.expansions))
        .collect::<Vec<_>>()
    };
    let one = run(1);
    assert_eq!(one.len(), 6);
    assert_eq!(one, run(2));
}

#[test]
fn both_metrics_find_the_way_down_a_ledge_and_their_costs_are_measured() {
    // Lane 0: stairs up to a walkway, then a ledge down to the shotgun.
    let (level, cmap, all) = proving();
    let free = botarena::nav::sample::floor_points(&level, &cmap, 64.0);
    let physics = PhysicsParams::default();
    let goal = by_class(&all, "weapon_supershotgun");
    let mut firsts = Vec::new();
    for metric in [Metric::Euclidean, Metric::Height(3.0)] {
        let mut total = 0;
        for seed in 0..4 {
            let c = PlanConfig {
                metric,
                seed,
                stop_at_first: true,
                expansions: 30000,
                ..Default::default()
            };
            let p = plan_pair(&cmap, &physics, &free, &lane_start(0), goal, &c);
            total += p.first_at.expect("found");
        }
        println!("{metric:?}: {total} expansions to a first solution over 4 seeds");
        firsts.push(total);
    }
    // Both find it; which needs fewer expansions is measured here and reported (issue #9).
    assert_eq!(firsts.len(), 2);
}

/// The documented budget for dm6's weapon table (per directed pair; README and issue #9):
/// about 1 s a pair on a 2-core VM.
const DM6_EXPANSIONS: usize = 200_000;

#[test]
fn dm6_weapon_table_completes_within_its_budget() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let (level, cmap) = common::quake_map(&dir, "dm6");
    let level = Arc::new(level);
    let all = items(&level, &cmap);
    // Every weapon, the lightning gun too: it lies under a secret hatch that opens when shot,
    // which the planner's map stands open.
    let sel: Vec<usize> = all
        .iter()
        .filter(|r| r.class.starts_with("weapon_"))
        .map(|r| r.index)
        .collect();
    assert_eq!(sel.len(), 7, "dm6 has seven weapons (two rocket launchers)");
    let start = std::time::Instant::now();
    let rows = table(
        &level,
        &cmap,
        &all,
        &sel,
        &cfg(DM6_EXPANSIONS),
        &PhysicsParams::default(),
        None,
        2,
        |_, _| {},
    );
    println!(
        "dm6: {} pairs in {:.1} s",
        rows.len(),
        start.elapsed().as_secs_f32()
    );
    for r in &rows {
        println!(
            "{} -> {}: {:?} ({} expansions, first at {:?})",
            r.from, r.to, r.rrt, r.expansions, r.first_at
        );
    }
    assert_eq!(rows.len(), sel.len() * (sel.len() - 1));
    let found = rows.iter().filter(|r| r.rrt.is_some()).count();
    println!("dm6: {found} of {} pairs found", rows.len());
    assert_eq!(found, rows.len(), "every pair found within the budget");
}

/// `--metric area` (issue: planner on the area graph): the nearest node is chosen by route
/// time on the compiled area graph. Its tables are the graph's times from each area's centre,
/// it finds the way down the proving ledge, and on the command line it needs no more than
/// the map (compiling its navigation) and refuses `--nav` with another metric.
#[test]
fn the_area_metric_routes_nodes_by_graph_time_and_finds_the_ledge_way() {
    use botarena::aas::route::{Travel, build_cache, seconds_from};
    use botarena::aas::{CompileParams, compile};
    let (level, cmap, all) = proving();
    let mesh =
        Arc::new(compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap());
    let am = Arc::new(botarena::planner::AreaMetric::new(
        Arc::clone(&mesh),
        &level,
    ));
    // The table is the flat cache's answer from each area's centre.
    let goal = 0u32;
    let t = am.table(goal);
    let cache = build_cache(&mesh, goal, Travel::ALL);
    assert_eq!(t[goal as usize], 0.0);
    for (a, area) in mesh.areas().iter().enumerate() {
        let want = seconds_from(&mesh, &cache, area.center).map(|x| x.0);
        if a as u32 == goal || mesh.area_at(area.center) != Some(a as u32) {
            continue;
        }
        match want {
            Some(w) => assert!((t[a] - w).abs() < 1e-3, "area {a}: {} vs {w}", t[a]),
            None => assert!(t[a].is_infinite(), "area {a}"),
        }
    }
    let free = botarena::nav::sample::floor_points(&level, &cmap, 64.0);
    let shotgun = by_class(&all, "weapon_supershotgun");
    let c = PlanConfig {
        metric: Metric::Area,
        area_metric: Some(am),
        seed: 1,
        stop_at_first: true,
        expansions: 30000,
        ..Default::default()
    };
    let p = plan_pair(
        &cmap,
        &PhysicsParams::default(),
        &free,
        &lane_start(0),
        shotgun,
        &c,
    );
    assert!(
        p.first_at.is_some(),
        "the area metric finds the way down the ledge"
    );
    let out = common::bin()
        .args([
            "times",
            "maps/proving.map",
            "--from",
            "weapon_supershotgun",
            "--to",
            "weapon_nailgun",
            "--metric",
            "area",
            "--samples",
            "20000",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = common::bin()
        .args(["times", "maps/proving.map", "--nav", "x.nav"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("x.nav"));
}

/// The planner's controls played by a scripted player in the simulation from `start`: the
/// tick at which it picks up `class` (within `ticks`).
fn sim_pickup_tick(
    level: botarena::Level,
    cmap: botarena::CollisionMap,
    start: &botarena::physics::pmove::PlayerState,
    controls: &[UserCmd],
    class: &str,
) -> Option<u64> {
    use botarena::bot::control::{ControllerConfig, ScriptStep};
    use botarena::sim::SimEvent;
    let steps: Vec<ScriptStep> = controls
        .iter()
        .map(|c| ScriptStep {
            ticks: 1,
            forward: c.forward_move,
            side: c.side_move,
            up: c.up_move,
            yaw: c.yaw,
            pitch: c.pitch,
            jump: c.jump,
            ..Default::default()
        })
        .collect();
    let mut m = common::match_of(
        level,
        cmap,
        1,
        vec![common::scripted(
            "rider",
            start.origin,
            start.yaw,
            ControllerConfig::Script(steps),
        )],
    );
    for _ in 0..controls.len() + 20 {
        m.step();
        if m.sim
            .events
            .iter()
            .any(|e| matches!(e, SimEvent::Pickup { item, .. } if item == class))
        {
            return Some(m.sim.tick);
        }
    }
    None
}

/// The ids of the movers of one kind.
fn mover_ids(level: &botarena::Level, plat: bool) -> Vec<botarena::map::EntId> {
    use botarena::map::level::MoverKind;
    level
        .movers
        .iter()
        .filter(|m| match m.kind {
            MoverKind::Plat { .. } => plat,
            MoverKind::Train { .. } => !plat,
            _ => false,
        })
        .map(|m| m.id)
        .collect()
}

/// Issue 21 (the planner rides lifts): the arena's rocket launcher stands on a balcony 128
/// units up that only the plat reaches. Without lifts no plan gets there; with them the best
/// path stands on the plat while it rises, its controls replay through the planner's world,
/// and a scripted player playing them in the simulation picks the launcher up at the
/// planned tick.
#[test]
fn the_planner_rides_the_arena_plat_to_the_balcony_launcher_as_the_simulation_does() {
    use botarena::planner::times::planning;
    let (level, cmap) = common::shipped("arena");
    let all = items(&level, &cmap);
    let physics = PhysicsParams::default();
    let armour = by_class(&all, "item_armor2");
    let rl = by_class(&all, "weapon_rocketlauncher");
    let (open, free, with) = planning(&level, &cmap, &cfg(30_000));
    assert_eq!(with.lifts.defs.len(), 2, "the plat and the train move");
    let plan = plan_pair(&open, &physics, &free, armour, rl, &with);
    let t = plan.time().expect("found, riding the plat");
    let mut without = with.clone();
    without.lifts = Default::default();
    assert_eq!(
        plan_pair(&open, &physics, &free, armour, rl, &without).time(),
        None,
        "nothing else gets up there"
    );
    let plat = mover_ids(&level, true)[0];
    let best = plan.branch(plan.best.unwrap());
    let rising = best.windows(2).any(|w| {
        let (a, b) = (
            &plan.nodes[w[0] as usize].state,
            &plan.nodes[w[1] as usize].state,
        );
        a.on_ground == Some(plat) && b.origin.z > a.origin.z + 4.0
    });
    assert!(rising, "the path stands on the plat while it rises");
    let start = stand_still(&open, &physics, armour.stand);
    let controls = plan.controls();
    let states = replay_controls(&open, &physics, start, &controls, &with);
    reached_last(&states, rl);
    let tick = sim_pickup_tick(level, cmap, &start, &controls, "weapon_rocketlauncher");
    println!("planner {t:.2} s; simulation picks it up at tick {tick:?}");
    assert_eq!(tick, Some(controls.len() as u64), "the simulation agrees");
}

/// A hall split by a 512-unit lava moat that only a train crosses (20 Hz corners 2 s apart,
/// waiting 2 s at each): the planner's state includes time, so it waits for the train, rides
/// it over and gets the shotgun beyond; a scripted player in the simulation doing the same
/// gets it at the same tick.
#[test]
fn the_planner_waits_for_a_train_and_rides_it_over_lava() {
    use botarena::map::builder::MapBuilder;
    use botarena::planner::times::planning;
    let v = Vec3::new;
    let mut b = MapBuilder::new();
    b.solid(v(-16., -16., -96.), v(1552., 0., 256.), "WALL");
    b.solid(v(-16., 512., -96.), v(1552., 528., 256.), "WALL");
    b.solid(v(-16., 0., -96.), v(0., 512., 256.), "WALL");
    b.solid(v(1536., 0., -96.), v(1552., 512., 256.), "WALL");
    b.solid(v(0., 0., 240.), v(1536., 512., 256.), "CEIL");
    b.solid(v(0., 0., -96.), v(512., 512., 0.), "FLOOR");
    b.solid(v(1024., 0., -96.), v(1536., 512., 0.), "FLOOR");
    b.solid(v(512., 0., -96.), v(1024., 512., -80.), "ROCK");
    b.solid(v(512., 0., -80.), v(1024., 512., -24.), "*lava1");
    b.brush_entity(
        &[
            ("classname", "func_train"),
            ("target", "c1"),
            ("speed", "200"),
        ],
        &[(v(0., 0., 0.), v(128., 128., 16.), "TRAIN")],
    );
    b.point(
        "path_corner",
        v(512., 192., -16.),
        &[("targetname", "c1"), ("target", "c2"), ("wait", "2")],
    );
    b.point(
        "path_corner",
        v(896., 192., -16.),
        &[("targetname", "c2"), ("target", "c1"), ("wait", "2")],
    );
    b.point("item_armor1", v(128., 256., 8.), &[]);
    b.point("weapon_supershotgun", v(1400., 256., 8.), &[]);
    b.point("info_player_deathmatch", v(64., 256., 24.), &[]);
    let (level, cmap) = b.build();
    let all = items(&level, &cmap);
    let physics = PhysicsParams::default();
    let armour = by_class(&all, "item_armor1");
    let ssg = by_class(&all, "weapon_supershotgun");
    let (open, free, with) = planning(&level, &cmap, &cfg(60_000));
    let plan = plan_pair(&open, &physics, &free, armour, ssg, &with);
    let t = plan.time().expect("found, riding the train");
    let train = mover_ids(&level, false)[0];
    let best = plan.branch(plan.best.unwrap());
    assert!(
        best.iter()
            .any(|&n| plan.nodes[n as usize].state.on_ground == Some(train)),
        "the path rides the train"
    );
    // The train leaves the near side at 0.1 s and is back there at 5.94 s (2 s trips of 384
    // units at 200 u/s, 2 s waits): no way over before it returns.
    assert!(t > 5.9, "{t}");
    let mut without = with.clone();
    without.lifts = Default::default();
    assert_eq!(
        plan_pair(&open, &physics, &free, armour, ssg, &without).time(),
        None
    );
    let start = stand_still(&open, &physics, armour.stand);
    let controls = plan.controls();
    let tick = sim_pickup_tick(level, cmap, &start, &controls, "weapon_supershotgun");
    println!("planner {t:.2} s; simulation picks it up at tick {tick:?}");
    assert_eq!(tick, Some(controls.len() as u64), "the simulation agrees");
}

/// Two rooms joined only through a gate: the area graph's time compared with the planner's
/// (`graph_time`) is measured in the world the planner plans in. A gate that a button
/// fires is shut there (the planner fires nothing), so no time — a door or a secret door;
/// the same gate opening as a player comes near, or a secret door a shot opens, stands
/// open, so the graph's way through it.
#[test]
fn graph_time_goes_through_no_door_that_waits_on_a_trigger() {
    use botarena::planner::times::graph_time;
    let v = Vec3::new;
    let rooms = |gate: &[(&str, &str)]| {
        let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 512., 128.));
        b.solid(v(504., 0., 0.), v(520., 200., 128.), "WALL")
            .solid(v(504., 312., 0.), v(520., 512., 128.), "WALL")
            .brush_entity(gate, &[(v(504., 200., 0.), v(520., 312., 128.), "DOOR")])
            .brush_entity(
                &[
                    ("classname", "func_button"),
                    ("angle", "0"),
                    ("target", "gate"),
                ],
                &[(v(100., 16., 0.), v(116., 48., 64.), "BUTTON")],
            )
            .point("info_player_deathmatch", v(300., 100., 24.), &[])
            .point("weapon_supershotgun", v(200., 256., 24.), &[])
            .point("weapon_nailgun", v(800., 256., 24.), &[]);
        let (level, cmap) = b.build();
        let mesh = common::compiled(&level, &cmap);
        let am = botarena::planner::AreaMetric::new(Arc::new(mesh), &level);
        let all = items(&level, &cmap);
        let shut = am.shut.blocked.iter().filter(|b| **b).count();
        let (a, b) = (
            by_class(&all, "weapon_supershotgun"),
            by_class(&all, "weapon_nailgun"),
        );
        (
            shut,
            graph_time(&am, &cmap, a, b),
            graph_time(&am, &cmap, b, a),
        )
    };
    let fired = [
        ("classname", "func_door"),
        ("angle", "-1"),
        ("targetname", "gate"),
        ("wait", "-1"),
    ];
    let (shut, there, back) = rooms(&fired);
    assert!(shut > 0, "the ways through the fired gate are shut");
    assert_eq!((there, back), (None, None), "no way but the shut gate");
    let secret = [
        ("classname", "func_door_secret"),
        ("angle", "0"),
        ("targetname", "gate"),
    ];
    let (shut, there, back) = rooms(&secret);
    assert!(shut > 0, "the ways through the fired secret door are shut");
    assert_eq!(
        (there, back),
        (None, None),
        "no way but the shut secret door"
    );
    let near = [("classname", "func_door"), ("angle", "-1")];
    let shot = [("classname", "func_door_secret"), ("angle", "0")];
    for open in [&near[..], &shot[..]] {
        let (shut, there, back) = rooms(open);
        assert_eq!(shut, 0, "{open:?} waits on nothing");
        let there = there.expect("through the gate");
        // About 600 units at running speed, less than 3 s.
        assert!((1.5..3.0).contains(&there), "{there} s");
        assert!(back.is_some());
    }
}

/// Two rooms a wall parts, a teleporter from one into the other whose exit is high above
/// the floor: the graph's route through it, run through the physics, falls from the exit
/// over no area until the floor is under it and goes on to the item — a solution before
/// the first expansion, whose controls replay to it.
#[test]
fn the_route_seed_falls_from_a_high_teleporter_exit_and_goes_on() {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 512., 512.));
    b.solid(v(504., 0., 0.), v(520., 512., 512.), "WALL")
        .brush_entity(
            &[("classname", "trigger_teleport"), ("target", "up")],
            &[(v(300., 224., 0.), v(364., 288., 64.), "TRIGGER")],
        )
        .point(
            "info_teleport_destination",
            v(700., 256., 300.),
            &[("targetname", "up"), ("angle", "0")],
        )
        .point("info_player_deathmatch", v(100., 100., 24.), &[])
        .point("weapon_supershotgun", v(100., 256., 24.), &[])
        .point("weapon_nailgun", v(900., 256., 24.), &[]);
    let (plan, open, cfg, from, to) = seeded_plan(&b);
    let physics = PhysicsParams::default();
    assert_eq!(plan.first_at, Some(0), "solved before the first expansion");
    let states = replay_controls(
        &open,
        &physics,
        stand_still(&open, &physics, from.stand),
        &plan.controls(),
        &cfg,
    );
    reached_last(&states, &to);
    assert!(
        states.iter().any(|s| s.origin.z > 250.0),
        "out of the teleporter's high exit"
    );
}

/// A pool a swimmer crosses, its two weapons on the bottom at either end: the
/// graph's route, run through the physics, swims the whole way at swimming speed (0.7 of a
/// run's) and arrives — a solution before the first expansion.
#[test]
fn the_route_seed_swims_a_long_pool_at_swimming_speed() {
    let v = Vec3::new;
    let mut b = common::sealed_room(v(0., 0., 0.), v(1024., 256., 256.));
    // A dry landing at the west end to stand on.
    b.solid(v(0., 0., 0.), v(128., 256., 192.), "LAND")
        .solid(v(128., 0., 0.), v(1024., 256., 192.), "*water0")
        .point("info_player_deathmatch", v(64., 128., 216.), &[])
        .point("weapon_supershotgun", v(176., 128., 24.), &[])
        .point("weapon_nailgun", v(976., 128., 24.), &[]);
    let (plan, ..) = seeded_plan(&b);
    assert_eq!(plan.first_at, Some(0), "solved before the first expansion");
    let t = plan.time().unwrap();
    // About 800 units at 224 u/s.
    assert!((3.0..4.5).contains(&t), "{t} s");
}

/// The built map's plan from its super shotgun to its nail gun with one expansion, the
/// area graph compiled and its route as the seed: the plan, the world it ran in, its
/// configuration and the two items.
fn seeded_plan(
    b: &botarena::map::builder::MapBuilder,
) -> (
    botarena::planner::Plan,
    botarena::CollisionMap,
    PlanConfig,
    ItemRef,
    ItemRef,
) {
    let (level, cmap) = b.build();
    let all = items(&level, &cmap);
    let (open, free, cfg, _) = route_seeded(&level, &cmap, 1, true);
    let (from, to) = (
        by_class(&all, "weapon_supershotgun").clone(),
        by_class(&all, "weapon_nailgun").clone(),
    );
    let plan = plan_pair(&open, &PhysicsParams::default(), &free, &from, &to, &cfg);
    (plan, open, cfg, from, to)
}

/// dm4's route from the yellow armour on the teleporter's ledge to the super nail gun: the
/// teleporter throws the player out across the start of the walk that follows, carrying
/// speed the other way. The graph's route run through the physics alone (one expansion,
/// no shortcuts) goes on over that walk's border instead of coming back round to its start
/// (four times round cost it 1.2 s: 1.30 × the graph's time; the stands at two ledges'
/// starts cost it most of the 10 % it takes over the graph's time now).
#[test]
fn the_route_seed_crosses_a_walk_it_passed_the_start_of_at_speed() {
    let Some((plan, graph)) = dm4_plan(("item_armor1#1", "weapon_supernailgun"), 1, false) else {
        return;
    };
    assert_eq!(plan.first_at, Some(0), "the seed reaches the goal");
    let t = plan.time().expect("a time");
    assert!(t < 1.2 * graph, "{t} s against the graph's {graph} s");
}

/// dm4's grenade launcher to the yellow armour: the search finds a branch quicker than the
/// graph's route run through the physics, which the shortcut pass shortens less than it
/// shortens the route's own branch. The answer with a budget is never slower than with the
/// route's branch alone (shortened too where the search replaced it).
#[test]
fn a_larger_budget_never_answers_slower_than_the_seed() {
    let pair = ("weapon_grenadelauncher", "item_armor1#1");
    let Some((alone, _)) = dm4_plan(pair, 1, true) else {
        return;
    };
    let (searched, _) = dm4_plan(pair, 2_000, true).expect("dm4");
    let (a, s) = (alone.time().unwrap(), searched.time().unwrap());
    assert!(s <= a, "{s} s with 2,000 expansions, {a} s with one");
}

/// dm4's plan between two items (labels) with `expansions`, the compiled area graph as the
/// seed, and the graph's time for the pair; `None` without id's maps.
fn dm4_plan(
    (from, to): (&str, &str),
    expansions: usize,
    shortcuts: bool,
) -> Option<(botarena::planner::Plan, f32)> {
    let dir = common::quake_maps()?;
    let (level, cmap) = common::quake_map(&dir, "dm4");
    let all = items(&level, &cmap);
    let (open, free, cfg, metric) = route_seeded(&level, &cmap, expansions, shortcuts);
    let pick = |label: &str| all.iter().find(|r| r.label == label).expect(label).clone();
    let (from, to) = (pick(from), pick(to));
    let graph = botarena::planner::times::graph_time(&metric, &open, &from, &to)?;
    let plan = plan_pair(&open, &PhysicsParams::default(), &free, &from, &to, &cfg);
    Some((plan, graph))
}

/// The planning world of a map with its area graph compiled and its route as the seed:
/// the open map, the free points, the configuration (`expansions`, `shortcuts`) and the
/// area metric.
fn route_seeded(
    level: &botarena::Level,
    cmap: &botarena::CollisionMap,
    expansions: usize,
    shortcuts: bool,
) -> (
    botarena::CollisionMap,
    Vec<Vec3>,
    PlanConfig,
    Arc<botarena::planner::AreaMetric>,
) {
    let mesh = common::compiled(level, cmap);
    let (open, free, base) = botarena::planner::times::planning(level, cmap, &cfg(expansions));
    let metric = Arc::new(botarena::planner::AreaMetric::new(Arc::new(mesh), level));
    let cfg = PlanConfig {
        area_metric: Some(Arc::clone(&metric)),
        shortcuts,
        ..base
    };
    (open, free, cfg, metric)
}
