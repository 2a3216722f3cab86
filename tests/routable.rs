//! The learned graph's routable share against what the map allows
//! (`botarena::scenario::explore::routable`, `waypoints info --map`): waypoints on a ledge
//! nobody climbs back onto are one-way and not held against the graph; a stray on the floor
//! the rest stands on is.

mod common;

use botarena::map::load_level;
use botarena::nav::waypoint_file::{geometry_hash, save};
use botarena::nav::waypoints::{Travel, WaypointGraph, WaypointKind};
use botarena::scenario::explore::{Routable, routable};
use common::{TempDir, bin, compiled, sealed_room};
use glam::Vec3;

/// A room (x 0..1024, y 0..512) whose east end (x 768..1024) is a ledge 128 units high,
/// far above a jump: players spawn on it and drop off, and no way leads back up.
fn ledge_room() -> botarena::map::builder::MapBuilder {
    let v = Vec3::new;
    let mut b = sealed_room(v(0., 0., 0.), v(1024., 512., 256.));
    b.solid(v(768., 0., 0.), v(1024., 512., 128.), "LEDGE")
        .point("info_player_deathmatch", v(896., 256., 152.), &[])
        .point("info_player_deathmatch", v(128., 256., 24.), &[]);
    b
}

/// Three floor waypoints routable to each other, a fourth on the floor reached from them
/// but with no link back (a learning gap), and two on the ledge whose only way out is a
/// fall to the floor.
fn graph() -> WaypointGraph {
    let v = Vec3::new;
    let mut g = WaypointGraph::new();
    let floor: Vec<u32> = [128., 320., 512.]
        .iter()
        .map(|&x| g.add(v(x, 256., 24.), WaypointKind::Normal))
        .collect();
    for w in floor.windows(2) {
        g.link(w[0], w[1], 192.0, Travel::Walk, 1.0);
        g.link(w[1], w[0], 192.0, Travel::Walk, 1.0);
    }
    let stray = g.add(v(640., 256., 24.), WaypointKind::Normal);
    g.link(floor[2], stray, 128.0, Travel::Walk, 1.0);
    let d = g.add(v(832., 256., 152.), WaypointKind::Normal);
    let e = g.add(v(960., 256., 152.), WaypointKind::Normal);
    g.link(d, e, 128.0, Travel::Walk, 1.0);
    g.link(e, d, 128.0, Travel::Walk, 1.0);
    g.link(d, stray, 192.0, Travel::Fall, 1.0);
    g
}

#[test]
fn waypoints_on_a_ledge_nobody_climbs_are_one_way_and_a_floor_stray_is_not() {
    let (level, cmap) = ledge_room().build();
    let mesh = compiled(&level, &cmap);
    let r = routable(&mesh, &graph());
    assert_eq!(
        r,
        Routable {
            waypoints: 6,
            routable: 3,
            one_way: 2
        }
    );
    assert!((r.share() - 0.75).abs() < 1e-9, "{}", r.share());
    assert!((r.raw_share() - 0.5).abs() < 1e-9, "{}", r.raw_share());
    // An empty graph is all routable, not a division by zero.
    let none = routable(&mesh, &WaypointGraph::new());
    assert_eq!(none, Routable::default());
    assert_eq!(none.share(), 1.0);
}

#[test]
fn waypoints_info_with_the_map_reports_the_one_way_ones_and_refuses_another_map() {
    let dir = TempDir::new("routable-info");
    let map = dir.join("ledge.map");
    std::fs::write(&map, ledge_room().to_map_text("a ledge room")).expect("map written");
    let (level, _) = load_level(&map).expect("the written map loads");
    let file = dir.join("ledge.wp.json");
    save(&graph(), &level.map.name, &geometry_hash(&level), &file).expect("graph saved");

    let out = bin()
        .args(["waypoints", "info"])
        .arg(&file)
        .arg("--map")
        .arg(&map)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("one-way     2 waypoints") && text.contains("3 routable (75.0 %)"),
        "{text}"
    );

    let out = bin()
        .args(["waypoints", "info", "--json"])
        .arg(&file)
        .arg("--map")
        .arg(&map)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["routable"]["one_way"], 2);
    assert_eq!(v["routable"]["routable"], 3);
    assert_eq!(v["waypoints"], 6);

    // Measured against a map it was not made for: an error naming the file, nothing printed.
    let out = bin()
        .args(["waypoints", "info"])
        .arg(&file)
        .args(["--map", "maps/arena.map"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ledge.wp.json"), "{err}");
    // --nav needs the map.
    let out = bin()
        .args(["waypoints", "info"])
        .arg(&file)
        .args(["--nav", "x.nav"])
        .output()
        .expect("runs");
    assert!(!out.status.success());
}
