//! Routing on the compiled area graph (issue: routing on the area graph): caches in seconds
//! that are shortest (no reachability can improve any entry), routes whose time is the sum
//! of their legs, the cluster/portal hierarchy answering exactly what the flat caches
//! answer on dm4, dm6 and e1m1, travel flags, the memory cap, and `route --nav`.

mod common;

use botarena::aas::route::{
    AreaCaches, Blocked, HierRouter, Travel, build_cache, build_cache_blocked, cross, repair,
    route, seconds_from,
};
use botarena::aas::{CompileParams, NavMesh, ReachKind, compile};
use botarena::map::{MapData, build_level};
use common::{TempDir, bin, quake_maps, shipped};
use glam::Vec3;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

fn mesh_of(name: &str) -> Option<NavMesh> {
    let (level, cmap) = if name == "arena" {
        shipped(name)
    } else {
        let dir = quake_maps()?;
        build_level(MapData::load(&dir.join(format!("{name}.map"))).expect("id map loads"))
    };
    Some(compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap())
}

/// A grounded area's centre, or a swim area's.
fn points(mesh: &NavMesh, n: usize, seed: u64) -> Vec<(Vec3, u32)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let m = mesh.areas().len() as u32;
    (0..n)
        .map(|_| {
            let a = rng.next_u32() % m;
            (mesh.areas()[a as usize].center, a)
        })
        .collect()
}

#[test]
fn caches_are_shortest_and_routes_add_up() {
    let mesh = mesh_of("arena").unwrap();
    for (goal_point, goal) in points(&mesh, 12, 1) {
        let c = build_cache(&mesh, goal, Travel::ALL);
        let g = &mesh.areas()[goal as usize];
        // No entry can be improved by any reachability out of its end area (the cache is
        // a fixed point of the update), and each entry is what its next step gives.
        for (i, r) in mesh.reaches().iter().enumerate() {
            let t = c.time[i];
            let mut best = if r.to == goal {
                cross(&mesh, goal, r.end, g.center)
            } else {
                f32::INFINITY
            };
            for &j in mesh.reach_ids_from(r.to) {
                let q = &mesh.reaches()[j as usize];
                best =
                    best.min(cross(&mesh, r.to, r.end, q.start) + q.seconds + c.time[j as usize]);
            }
            if t.is_finite() || best.is_finite() {
                assert!(
                    (t - best).abs() < 1e-3,
                    "reach {i}: cache {t}, best step {best}"
                );
            }
        }
        // Routes from every area's centre: their time is the sum of their legs.
        for (from, _) in points(&mesh, 20, 2) {
            let Some(r) = route(&mesh, &c, from, goal_point) else {
                continue;
            };
            let mut at = from;
            let mut sum = 0.0;
            for &i in &r.reaches {
                let x = &mesh.reaches()[i as usize];
                sum += cross(&mesh, x.from, at, x.start) + x.seconds;
                at = x.end;
            }
            sum += cross(&mesh, goal, at, goal_point);
            assert!((sum - r.seconds).abs() < 1e-3, "{sum} vs {}", r.seconds);
            if let Some(&last) = r.reaches.last() {
                assert_eq!(mesh.reaches()[last as usize].to, goal);
            }
        }
    }
}

#[test]
fn travel_flags_leave_kinds_out_and_parse_with_clear_errors() {
    let mesh = mesh_of("arena").unwrap();
    let t = Travel::parse("walk,step_up").unwrap();
    assert!(t.allows(ReachKind::Walk) && !t.allows(ReachKind::Teleport));
    assert_eq!(Travel::parse("all").unwrap(), Travel::ALL);
    assert!(!Travel::ALL.without(ReachKind::Jump).allows(ReachKind::Jump));
    let e = Travel::parse("walk,fly").unwrap_err();
    assert!(e.contains("\"fly\"") && e.contains("water_jump"), "{e}");
    // A route with walking only uses walks and steps.
    for (p, goal) in points(&mesh, 10, 3) {
        let c = build_cache(&mesh, goal, t);
        for (from, _) in points(&mesh, 10, 4) {
            if let Some(r) = route(&mesh, &c, from, p) {
                assert!(r.reaches.iter().all(|&i| {
                    matches!(
                        mesh.reaches()[i as usize].kind,
                        ReachKind::Walk | ReachKind::StepUp
                    )
                }));
            }
        }
    }
}

#[test]
fn caches_stay_under_their_memory_cap() {
    let mesh = mesh_of("arena").unwrap();
    let one = build_cache(&mesh, 0, Travel::ALL).bytes();
    let mut caches = AreaCaches::new(one * 3);
    for goal in 0..10 {
        caches.get(&mesh, goal, Travel::ALL, None);
        assert!(caches.len() <= 3);
    }
    assert_eq!(caches.stats.builds, 10);
    assert_eq!(caches.stats.evictions, 7);
    caches.get(&mesh, 9, Travel::ALL, None);
    assert_eq!(caches.stats.hits, 1);
    // The most recently used stay: 9 (just asked for), 8, 7.
    caches.get(&mesh, 7, Travel::ALL, None);
    assert_eq!(caches.stats.hits, 2);
}

/// The hierarchy against the flat caches: every answer equal (the largest excess is
/// printed; the goal is 0 %).
#[test]
fn clusters_and_portals_answer_exactly_as_the_flat_search() {
    let mut maps = vec!["arena"];
    if quake_maps().is_some() {
        maps.extend(["dm4", "dm6", "e1m1"]);
    } else {
        eprintln!("skipping dm4, dm6, e1m1: ../shared/quake-maps not found");
    }
    for name in maps {
        let mesh = mesh_of(name).unwrap();
        let mut hier = HierRouter::for_mesh(&mesh);
        let cl = &hier.clusters;
        assert!(cl.count > 1);
        assert!(cl.of_area.iter().all(|&c| c < cl.count));
        let (clusters, portals) = (cl.count, cl.portals.len());
        let mut worst: f32 = 0.0;
        let mut compared = 0;
        for (k, (_, goal)) in points(&mesh, 25, 5).into_iter().enumerate() {
            // Every other goal without teleporters (a travel of its own: its own tables).
            let travel = if k % 2 == 0 {
                Travel::ALL
            } else {
                Travel::ALL.without(ReachKind::Teleport)
            };
            let flat = build_cache(&mesh, goal, travel);
            let hc = hier.goal(&mesh, goal, travel);
            for (from, _) in points(&mesh, 40, 100 + k as u64) {
                let f = seconds_from(&mesh, &flat, from);
                let h = hier.seconds_from(&mesh, &hc, from);
                match (f, h) {
                    (Some((f, _)), Some((h, _))) => {
                        compared += 1;
                        let excess = (h - f) / f.max(1e-3);
                        worst = worst.max(excess.abs());
                        assert!(
                            (h - f).abs() <= 1e-3 * f.max(1.0),
                            "{name}: goal {goal} from {from}: flat {f} s, hierarchy {h} s"
                        );
                    }
                    (None, None) => {}
                    _ => panic!("{name}: goal {goal} from {from}: flat {f:?}, hierarchy {h:?}"),
                }
            }
        }
        eprintln!(
            "{name}: {clusters} clusters, {portals} portals; {compared} routes compared, \
             largest excess over the flat search {:.4} %",
            worst * 100.0
        );
        assert!(compared > 100, "{name}: {compared}");
        // Breadth-first clusters answer the same.
        let mut bfs = HierRouter::new(&mesh, 48);
        for (_, goal) in points(&mesh, 5, 7) {
            let flat = build_cache(&mesh, goal, Travel::ALL);
            let hc = bfs.goal(&mesh, goal, Travel::ALL);
            for (from, _) in points(&mesh, 20, 8) {
                let f = seconds_from(&mesh, &flat, from).map(|x| x.0);
                let h = bfs.seconds_from(&mesh, &hc, from).map(|x| x.0);
                assert_eq!(f.is_some(), h.is_some());
                if let (Some(f), Some(h)) = (f, h) {
                    assert!((h - f).abs() <= 1e-3 * f.max(1.0), "{name}: {f} vs {h}");
                }
            }
        }
    }
}

#[test]
fn route_nav_prints_a_time_and_refuses_bad_input() {
    let dir = TempDir::new("area-route-cli");
    let nav = dir.join("arena.nav");
    let o = bin()
        .args(["nav", "compile", "maps/arena.map", "--out"])
        .arg(&nav)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Between two areas' centres.
    let mesh = botarena::aas::file::load(&nav).unwrap();
    let (a, b) = (
        mesh.areas()[0].center,
        mesh.areas()[mesh.areas().len() / 2].center,
    );
    let arg = |p: Vec3| format!("{},{},{}", p.x, p.y, p.z);
    let o = bin()
        .args(["route", "maps/arena.map", "--nav"])
        .arg(&nav)
        .args(["--from", &arg(a), "--to", &arg(b), "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["map"], "arena");
    if v["reachable"] == true {
        let s = v["seconds"].as_f64().unwrap();
        let legs: f64 = v["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["seconds"].as_f64().unwrap())
            .sum();
        assert!(s >= legs - 1e-3, "{s} < {legs}");
    }
    // Text for people.
    let o = bin()
        .args(["route", "maps/arena.map", "--nav"])
        .arg(&nav)
        .args(["--from", &arg(a), "--to", &arg(b)])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("arena: "), "{text}");
    // A point outside the map, bad flags, a missing map, another map's file.
    for (args, want) in [
        (
            vec!["--from", "99999,0,0", "--to", "0,0,0"],
            "no area there",
        ),
        (
            vec!["--from", &arg(a), "--to", &arg(b), "--flags", "fly"],
            "unknown travel type",
        ),
        (vec!["--from", "1,2", "--to", &arg(b)], "expected x,y,z"),
    ] {
        let o = bin()
            .args(["route", "maps/arena.map", "--nav"])
            .arg(&nav)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let o = bin()
        .args(["route", "maps/proving.map", "--nav"])
        .arg(&nav)
        .args(["--from", &arg(a), "--to", &arg(b)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("compiled for map"));
}

/// Obstacles: reachabilities blocked and freed at random; every cache repaired with the
/// changes gives the times a fresh build gives, and the caches are repaired, not rebuilt.
#[test]
fn caches_repaired_after_obstacles_equal_fresh_builds() {
    let name = if quake_maps().is_some() {
        "dm4"
    } else {
        "arena"
    };
    let mesh = mesh_of(name).unwrap();
    let n = mesh.reaches().len() as u32;
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let goals: Vec<u32> = points(&mesh, 6, 10).into_iter().map(|p| p.1).collect();
    let mut blocked = Blocked::new(&mesh);
    let mut caches = AreaCaches::new(usize::MAX);
    for &g in &goals {
        caches.get(&mesh, g, Travel::ALL, Some(&blocked));
    }
    for round in 0..12 {
        // Block a handful, free some of those blocked before.
        for _ in 0..(1 + rng.next_u32() % 20) {
            let i = rng.next_u32() % n;
            blocked.set(i, true);
        }
        if round % 3 == 2 {
            for i in 0..n {
                if blocked.blocked[i as usize] && rng.next_u32() % 2 == 0 {
                    blocked.set(i, false);
                }
            }
        }
        for &g in &goals {
            let fresh = build_cache_blocked(&mesh, g, Travel::ALL, Some(&blocked));
            let got = caches.get(&mesh, g, Travel::ALL, Some(&blocked));
            for (i, (a, b)) in got.time.iter().zip(&fresh.time).enumerate() {
                assert!(
                    (a.is_infinite() && b.is_infinite()) || (a - b).abs() < 1e-3,
                    "{name} round {round} goal {g} reach {i}: repaired {a}, fresh {b}"
                );
            }
            for (i, &b) in blocked.blocked.iter().enumerate() {
                if b {
                    assert!(got.time[i].is_infinite());
                }
            }
        }
    }
    assert_eq!(caches.stats.builds, goals.len() as u64);
    assert!(caches.stats.repairs >= 12 * goals.len() as u64 - 6);
    // Repairing a standalone cache the same way.
    let mut c = build_cache(&mesh, goals[0], Travel::ALL);
    repair(&mesh, &mut c, &blocked);
    let fresh = build_cache_blocked(&mesh, goals[0], Travel::ALL, Some(&blocked));
    assert!(
        c.time
            .iter()
            .zip(&fresh.time)
            .all(|(a, b)| (a.is_infinite() && b.is_infinite()) || (a - b).abs() < 1e-3)
    );
}

/// An obstacle box across the arena's door to the south room: the reachabilities through
/// it are blocked, routes through the door go another way or not at all, and freeing the
/// box gives the first time back.
#[test]
fn an_obstacle_box_blocks_the_reachabilities_through_it() {
    let mesh = mesh_of("arena").unwrap();
    // The arena's door: x -64..64 at y -528..-512 (gen_maps); north hall to south room.
    let from = mesh.areas()[mesh.area_at(Vec3::new(0.0, -300.0, 24.0)).unwrap() as usize].center;
    let to_area = mesh.area_at(Vec3::new(0.0, -800.0, 24.0)).unwrap();
    let to = mesh.areas()[to_area as usize].center;
    let open = route(&mesh, &build_cache(&mesh, to_area, Travel::ALL), from, to).unwrap();
    let mut blocked = Blocked::new(&mesh);
    let (lo, hi) = (
        Vec3::new(-80.0, -540.0, 0.0),
        Vec3::new(80.0, -500.0, 120.0),
    );
    let hit = blocked.set_box(&mesh, lo, hi, true);
    assert!(!hit.is_empty(), "reachabilities through the door");
    let c = build_cache_blocked(&mesh, to_area, Travel::ALL, Some(&blocked));
    // The teleporter pair is the other way.
    let r = route(&mesh, &c, from, to).expect("around by the teleporters");
    assert!(
        r.seconds > open.seconds,
        "{} vs {}",
        r.seconds,
        open.seconds
    );
    assert!(r.reaches.iter().all(|i| !hit.contains(i)));
    assert!(
        r.reaches
            .iter()
            .any(|&i| mesh.reaches()[i as usize].kind == botarena::aas::ReachKind::Teleport)
    );
    blocked.set_box(&mesh, lo, hi, false);
    let mut c = c;
    repair(&mesh, &mut c, &blocked);
    let again = route(&mesh, &c, from, to).unwrap();
    assert!((again.seconds - open.seconds).abs() < 1e-3);
}

/// `explore`'s measure of a learned graph against the compiled one: a waypoint grid over
/// the arena covers nearly all of its compiled floor, an empty graph none of it.
#[test]
fn waypoint_coverage_of_the_compiled_floor() {
    use botarena::nav::grid::{GridParams, seed_grid};
    use botarena::scenario::explore::nav_coverage;
    let (level, cmap) = shipped("arena");
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let grid = seed_grid(&cmap, &GridParams::default());
    let spawns: Vec<glam::Vec3> = level.spawns.iter().map(|s| s.origin).collect();
    let full = nav_coverage(&mesh, &level, &cmap, &grid, &spawns);
    assert!(full.share() > 0.9, "{full:?}");
    assert!(full.areas_touched <= full.areas && full.areas > 10);
    let none = nav_coverage(
        &mesh,
        &level,
        &cmap,
        &botarena::nav::waypoints::WaypointGraph::new(),
        &spawns,
    );
    assert_eq!(none.covered, 0.0);
    assert_eq!(none.reachable_covered, 0.0);
    // The arena is one piece: every spawn reaches nearly all of its floor.
    assert!(full.reachable_floor > 0.9 * full.floor, "{full:?}");
    assert!(full.reachable_share() > 0.9, "{full:?}");
    assert_eq!(none.floor, full.floor);
    assert_eq!((none.near, none.reachable_near), (0.0, 0.0));
    // The grid's points are 64 apart: nearly all of the floor has one near, too.
    assert!(
        full.near > 0.85 * full.floor && full.near <= full.floor,
        "{full:?}"
    );
    // One waypoint where a player stands: it covers what it reaches within the drop
    // stage's search radius (320), far more than the floor within 128 units of it, and
    // never more than the disc of either radius.
    let mut one = botarena::nav::waypoints::WaypointGraph::new();
    one.add(spawns[0], botarena::nav::waypoints::WaypointKind::Normal);
    let c = nav_coverage(&mesh, &level, &cmap, &one, &spawns);
    let disc = |r: f64| std::f64::consts::PI * r * r;
    assert!(c.covered > 2.0 * c.near && c.near > 0.0, "{c:?}");
    assert!(
        c.covered <= disc(320.0 + 32.0) && c.near <= disc(128.0 + 32.0),
        "{c:?}"
    );
    assert!(c.reachable_covered <= c.covered && c.reachable_near <= c.near);
}

/// A door's shut place is floor only while the door is open: `explore`'s measure counts
/// it covered where the waypoints on either side reach it with the door out of the way
/// (a straight line into the shut door reaches nothing), and the door stays where it was.
#[test]
fn a_shut_doors_place_is_covered_by_the_waypoints_either_side() {
    use botarena::nav::waypoints::{WaypointGraph, WaypointKind};
    use botarena::scenario::explore::nav_coverage;
    let v = Vec3::new;
    let (level, cmap) = common::shut_door_corridor();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let spawns = [v(64., 48., 24.)];
    let mut g = WaypointGraph::new();
    g.add(v(64., 48., 24.03125), WaypointKind::Normal);
    g.add(v(448., 48., 24.03125), WaypointKind::Normal);
    let c = nav_coverage(&mesh, &level, &cmap, &g, &spawns);
    assert!(
        c.reachable_floor > 0.9 * c.floor,
        "the doorway leads on: {c:?}"
    );
    assert_eq!(c.covered, c.floor, "{c:?}");
    let door = level.movers[0].id;
    assert_eq!(
        cmap.mover_offset(door),
        Some(Vec3::ZERO),
        "the door is left shut"
    );
    // One waypoint west of the door: nothing east of the door is covered (the door is
    // measured open, not as if the corridor were open to every line).
    let mut west = WaypointGraph::new();
    west.add(v(64., 48., 24.03125), WaypointKind::Normal);
    let w = nav_coverage(&mesh, &level, &cmap, &west, &spawns);
    assert!(
        w.covered < 0.8 * w.floor && w.covered > 0.4 * w.floor,
        "{w:?}"
    );
}
