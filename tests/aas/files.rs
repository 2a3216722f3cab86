//! Bad input and pictures: maps without floor or geometry, truncated, foreign and wrong-map
//! `.nav` files refused; the render of areas and reachabilities.

use super::*;

#[test]
fn truncated_foreign_and_wrong_map_nav_files_are_refused() {
    let dir = TempDir::new("aas-bad-files");
    let nav = dir.join("arena.nav");
    let o = bin()
        .args(["nav", "compile", "maps/arena.map", "--out"])
        .arg(&nav)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&nav).unwrap();
    // Truncated.
    let e = parse(&text[..text.len() / 2], "half.nav").unwrap_err();
    assert!(matches!(e, NavFileError::Parse { .. }), "{e}");
    assert!(
        e.to_string().contains("half.nav") && e.to_string().contains("line"),
        "{e}"
    );
    // Foreign: a waypoint file, and not JSON at all.
    let e = parse(
        r#"{"format":"botarena-waypoints","version":1,"map":"arena","geometry_hash":"0","waypoints":[]}"#,
        "w.json",
    )
    .unwrap_err();
    assert!(e.to_string().contains("expected \"botarena-nav\""), "{e}");
    let e = parse("PK\u{3}\u{4} binary junk", "zip.nav").unwrap_err();
    assert!(matches!(e, NavFileError::Parse { .. }), "{e}");
    // Another version.
    let e = parse(
        &text.replacen(
            &format!("\"version\":{}", botarena::aas::file::VERSION),
            "\"version\":99",
            1,
        ),
        "v.nav",
    )
    .unwrap_err();
    assert!(e.to_string().contains("version Some(99)"), "{e}");
    // A reachability to an area that is not there.
    let broken = text.replacen("\"to\":", "\"to\":999999,\"x\":", 1);
    let e = parse(&broken, "b.nav").unwrap_err();
    assert!(e.to_string().contains("inconsistent"), "{e}");
    // An area on a mover position the file does not list.
    let broken = text.replacen("\"moved\":null", "\"moved\":999", 1);
    assert_ne!(broken, text);
    let e = parse(&broken, "m.nav").unwrap_err();
    assert!(e.to_string().contains("mover position"), "{e}");
    // Made for another map.
    let (proving, _) = shipped("proving");
    let e = botarena::aas::file::load_for(&nav, &proving).unwrap_err();
    assert!(matches!(e, NavFileError::WrongMap { .. }), "{e}");
    // The command line says so too.
    let half = dir.join("half.nav");
    std::fs::write(&half, &text[..text.len() / 3]).unwrap();
    let o = bin().args(["nav", "info"]).arg(&half).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a botarena .nav file"));
    // A good one reads back.
    let o = bin()
        .args(["nav", "info", "--json"])
        .arg(&nav)
        .output()
        .unwrap();
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["map"], "arena");
    assert!(v["areas"].as_u64().unwrap() > 10);
}

#[test]
fn render_draws_areas_reachabilities_and_a_legend() {
    let dir = TempDir::new("aas-render");
    let nav = dir.join("arena.nav");
    let svg = dir.join("arena.svg");
    let o = bin()
        .args(["nav", "compile", "maps/arena.map", "--out"])
        .arg(&nav)
        .output()
        .unwrap();
    assert!(o.status.success());
    let o = bin()
        .args(["render", "maps/arena.map", "--nav"])
        .arg(&nav)
        .arg("-o")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    let mesh = botarena::aas::file::load(&nav).unwrap();
    // One rectangle per area (plus the background, legend, swatches and map marks).
    assert!(text.matches("<rect").count() > mesh.areas().len());
    for kind in ReachKind::ALL {
        assert!(text.contains(&format!("arrow-{}", kind.name())), "{kind:?}");
    }
    assert!(text.contains("walk off ledge") && text.contains("teleporter"));
    assert!(text.contains(&format!("{} areas", mesh.areas().len())));
    // A .nav for another map is refused.
    let o = bin()
        .args(["render", "maps/proving.map", "--nav"])
        .arg(&nav)
        .arg("-o")
        .arg(dir.join("p.svg"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("compiled for map \"arena\""));
}

/// A strip of floor along a wall, below a platform's corner but a cell away from it in no
/// grid direction (e3m2's way to its rocket launcher, from a raised plat): the compile finds
/// the walk off the corner that comes down on the strip, and it replays there.
#[test]
fn a_strip_below_a_corner_and_off_the_grid_lines_is_reached_by_walking_off() {
    let v = Vec3::new;
    let mut b = sealed_room(v(0., 0., 0.), v(512., 768., 256.));
    // The platform (top 144), the wall east of it running 8 units past its north edge,
    // and north of that a wall set 8 units further east with a ledge at its foot (top
    // 48): standing on the ledge, a player is east of where the platform lets it be.
    b.solid(v(0., 0., 0.), v(256., 256., 144.), "PLATFORM")
        .solid(v(256., 0., 0.), v(512., 264., 256.), "WALL")
        .solid(v(264., 264., 0.), v(512., 768., 256.), "WALL")
        .solid(v(256., 264., 0.), v(264., 768., 48.), "LEDGE")
        .point("info_player_deathmatch", v(128., 128., 170.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let platform = mesh.area_at(v(128., 128., 168.)).expect("platform");
    let strip = mesh
        .area_at(v(244., 500., 72.))
        .expect("the strip by the wall");
    let seen = mesh.reachable_from(platform, |_| true);
    assert!(
        seen[strip as usize],
        "the strip is reached from the platform"
    );
    let world = NavWorld::new(&level, &cmap);
    let r = mesh
        .reaches()
        .iter()
        .find(|r| r.to == strip && r.start.z > 150.0)
        .expect("a reachability from the platform onto the strip");
    assert_eq!(r.kind, ReachKind::WalkOffLedge, "{r:?}");
    let arrival = run_reach(&world, &mesh, r).expect("replays");
    assert_eq!(mesh.area_at(arrival.state.origin), Some(strip));
}
