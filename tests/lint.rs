//! `botarena lint` (issue: lint for level designers): a map built with an unreachable item
//! and a one-way trap is flagged for both; the shipped maps and id's dm4, dm6, e1m1 and e3m2 give
//! the findings they should; text, JSON and SVG; bad input.

mod common;

use botarena::aas::{CompileParams, compile};
use botarena::lint::{LintParams, lint};
use botarena::map::builder::MapBuilder;
use botarena::map::{MapData, build_level};
use common::{TempDir, bin, quake_maps, shipped};
use glam::Vec3;

#[test]
fn an_unreachable_item_and_a_one_way_trap_are_flagged() {
    let v = Vec3::new;
    let mut b = MapBuilder::new();
    // A sealed room x 0..1024, y 0..512, floor at 0.
    // The floor around a pit's hole (x 384..576, y 256..448).
    b.solid(v(-16., -16., -16.), v(384., 528., 0.), "FLOOR")
        .solid(v(576., -16., -16.), v(1040., 528., 0.), "FLOOR")
        .solid(v(384., -16., -16.), v(576., 256., 0.), "FLOOR")
        .solid(v(384., 448., -16.), v(576., 528., 0.), "FLOOR")
        .solid(v(-16., -16., 256.), v(1040., 528., 272.), "CEIL")
        .solid(v(-16., -16., 0.), v(0., 528., 256.), "WALL")
        .solid(v(1024., -16., 0.), v(1040., 528., 256.), "WALL")
        .solid(v(0., -16., 0.), v(1024., 0., 256.), "WALL")
        .solid(v(0., 512., 0.), v(1024., 528., 256.), "WALL")
        // A ledge 96 up (beyond any jump) with armour on it.
        .solid(v(768., 0., 0.), v(1024., 128., 96.), "LEDGE")
        // A pit 96 deep in the floor's middle: in by falling, never out.
        .solid(v(384., 256., -112.), v(576., 448., -96.), "PITFLOOR")
        .solid(v(368., 240., -112.), v(384., 464., 0.), "PITWALL")
        .solid(v(576., 240., -112.), v(592., 464., 0.), "PITWALL")
        .solid(v(384., 240., -112.), v(576., 256., 0.), "PITWALL")
        .solid(v(384., 448., -112.), v(576., 464., 0.), "PITWALL")
        .point("info_player_deathmatch", v(96., 96., 24.), &[])
        .point("weapon_nailgun", v(256., 96., 8.), &[])
        .point("item_armor1", v(896., 64., 104.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let r = lint(&level, &cmap, &mesh, LintParams::default());
    let kinds: Vec<&str> = r.findings.iter().map(|f| f.kind).collect();
    assert!(
        r.findings
            .iter()
            .any(|f| f.kind == "unreachable_item" && f.message.starts_with("item_armor1")),
        "{kinds:?}"
    );
    assert!(
        !r.findings
            .iter()
            .any(|f| f.kind == "unreachable_item" && f.message.starts_with("weapon_nailgun")),
        "{kinds:?}"
    );
    // Checked again over the physics, and said why.
    let armour = r
        .findings
        .iter()
        .find(|f| f.message.starts_with("item_armor1"))
        .unwrap();
    assert!(
        armour.message.contains("above every jump") && armour.message.contains("96 units below"),
        "{}",
        armour.message
    );
    let trap = r.traps.first().expect("the pit is a one-way trap");
    assert!(trap.mins.z < -50.0, "{trap:?}");
    assert!(trap.mins.x >= 380.0 && trap.maxs.x <= 580.0, "{trap:?}");
    assert!(kinds.contains(&"one_way_trap"));
    // The spawn's nearest weapon, in seconds.
    let (w, t) = r.spawns[0].nearest_weapon.clone().unwrap();
    assert_eq!(w, "weapon_nailgun");
    assert!((0.3..2.0).contains(&t), "{t}");
    assert!(r.spawns[0].nearest_armour.is_none());
    let text = r.to_text();
    assert!(
        text.contains("one_way_trap") && text.contains("unreachable_item"),
        "{text}"
    );
}

#[test]
fn the_shipped_arena_lints_clean_but_for_its_lift_only_rocket_launcher() {
    let (level, cmap) = shipped("arena");
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let r = lint(&level, &cmap, &mesh, LintParams::default());
    let kinds: Vec<(&str, &str)> = r
        .findings
        .iter()
        .map(|f| (f.kind, f.message.split(' ').next().unwrap_or("")))
        .collect();
    assert_eq!(kinds, vec![("only_by_lift", "weapon_rocketlauncher")]);
    assert!(r.traps.is_empty());
    assert!(r.items.iter().all(|i| i.unreachable_from.is_empty()));
    assert_eq!(r.spawns.len(), 4);
    assert!(r.spawns.iter().all(|s| s.nearest_weapon.is_some()));
}

#[test]
fn id_maps_lint_as_expected() {
    let Some(dir) = quake_maps() else {
        eprintln!("skipping: ../shared/quake-maps not found");
        return;
    };
    for name in ["dm4", "dm6", "e1m1", "e3m2"] {
        let (level, cmap) = build_level(MapData::load(&dir.join(format!("{name}.map"))).unwrap());
        let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
        let r = lint(&level, &cmap, &mesh, LintParams::default());
        eprint!("{}", r.to_text());
        let unreachable: Vec<&str> = r
            .items
            .iter()
            .filter(|i| !i.unreachable_from.is_empty())
            .map(|i| i.label.as_str())
            .collect();
        match name {
            // Deathmatch maps: every item from every spawn, every spawn near a weapon.
            "dm4" | "dm6" => {
                assert!(unreachable.is_empty(), "{name}: {unreachable:?}");
                assert!(!r.findings.iter().any(|f| f.kind == "far_spawn"), "{name}");
                // dm4's narrow ledge across the lava pit is no one-way trap: the running
                // jump "onto" it tops out over it and falls into the lava, and the compile
                // keeps only jumps that land.
                assert!(r.findings.is_empty(), "{name}: {:?}", r.findings);
            }
            // Every item, and nothing only a long fall leads to: the ledge items behind
            // the shot door's teleporter (its trigger is painted *teleport), and the
            // rocket launcher by the near drop off the plat's corner (the other way, from
            // the ledge, is a 320-unit fall).
            "e3m2" => assert!(r.findings.is_empty(), "{:?}", r.findings),
            // e1m1: every weapon, armour and powerup, the room under the slime too (a
            // water jump out of its pit: tests/water_jumps.rs).
            _ => {
                let key = |l: &&&str| {
                    ["weapon_", "item_armor", "item_artifact"]
                        .iter()
                        .any(|k| l.starts_with(k))
                };
                assert!(!unreachable.iter().any(|l| key(&l)), "{unreachable:?}");
            }
        }
        assert!(r.spawns.iter().all(|s| s.area.is_some()), "{name}");
    }
}

#[test]
fn lint_prints_text_json_and_svg_and_refuses_bad_input() {
    let dir = TempDir::new("lint-cli");
    let svg = dir.join("lint.svg");
    let o = bin()
        .args(["lint", "maps/arena.map", "--json", "--svg"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["map"], "arena");
    assert_eq!(v["findings"][0]["kind"], "only_by_lift");
    assert_eq!(v["spawns"].as_array().unwrap().len(), 4);
    assert_eq!(v["params"]["plan_expansions"], 30_000);
    let pic = std::fs::read_to_string(&svg).unwrap();
    assert!(pic.starts_with("<svg") && pic.contains("lint: 1 finding(s)"));
    assert!(pic.contains("\nweapon_rocketlauncher\n"));
    let o = bin().args(["lint", "maps/arena.map"]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with("arena: 4 spawn points, 9 items; 1 finding(s)"),
        "{text}"
    );
    for (args, want) in [
        (
            vec!["lint", "maps/arena.map", "--far-seconds", "0"],
            "--far-seconds",
        ),
        (
            vec!["lint", "maps/arena.map", "--plan-expansions", "0"],
            "--plan-expansions",
        ),
        (vec!["lint", "maps/nothing.map"], "nothing.map"),
    ] {
        let o = bin().args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(want),
            "{args:?}"
        );
    }
    // A .nav compiled for another map.
    let nav = dir.join("proving.nav");
    let o = bin()
        .args(["nav", "compile", "maps/proving.map", "--out"])
        .arg(&nav)
        .output()
        .unwrap();
    assert!(o.status.success());
    let o = bin()
        .args(["lint", "maps/arena.map", "--nav"])
        .arg(&nav)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("compiled for map"));
}

/// `lint --traffic`: a heatmap of where players stand over a batch of matches.
#[test]
fn lint_maps_area_traffic_from_a_batch_of_matches() {
    let dir = TempDir::new("lint-traffic");
    let svg = dir.join("traffic.svg");
    let o = bin()
        .args([
            "lint",
            "maps/arena.map",
            "--traffic",
            "scenarios/arena8.toml",
            "--seeds",
            "1..=2",
            "--ticks",
            "300",
            "--json",
            "--svg",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let t = &v["traffic"];
    assert_eq!(t["matches"], 2);
    // Eight players, two matches of 300 ticks: at most 4,800 living player-ticks, and the
    // bots are alive most of the time.
    let ticks = t["player_ticks"].as_u64().unwrap();
    assert!((3000..=4800).contains(&ticks), "{ticks}");
    let areas = t["areas"].as_array().unwrap();
    let counted: u64 = areas.iter().map(|a| a["ticks"].as_u64().unwrap()).sum();
    assert_eq!(counted + t["off_graph"].as_u64().unwrap(), ticks);
    // Busiest first, the busiest at heat 1; shares add up to what was on the graph.
    let heats: Vec<f64> = areas.iter().map(|a| a["heat"].as_f64().unwrap()).collect();
    assert!(heats.windows(2).all(|w| w[0] >= w[1]));
    assert!((heats[0] - 1.0).abs() < 1e-6);
    let unvisited = t["unvisited_areas"].as_u64().unwrap() as usize;
    assert!(
        unvisited + areas.len() >= 60,
        "every area is listed or counted unvisited"
    );
    let pic = std::fs::read_to_string(&svg).unwrap();
    assert!(pic.contains("class=\"heat\"") && pic.contains("traffic of 2 match(es)"));
    // The same seeds give the same counts (the matches are deterministic).
    let again = bin()
        .args([
            "lint",
            "maps/arena.map",
            "--traffic",
            "scenarios/arena8.toml",
            "--seeds",
            "1..=2",
            "--ticks",
            "300",
            "--json",
        ])
        .output()
        .unwrap();
    let w: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(w["traffic"], v["traffic"]);
    // Text for people.
    let o = bin()
        .args([
            "lint",
            "maps/arena.map",
            "--traffic",
            "scenarios/arena8.toml",
            "--seeds",
            "1",
            "--ticks",
            "100",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("traffic over 1 match(es)"), "{text}");
    // Bad input: a scenario on another map, bad seeds, --seeds without --traffic.
    for (args, want) in [
        (
            vec![
                "lint",
                "maps/arena.map",
                "--traffic",
                "scenarios/proving.toml",
            ],
            "plays",
        ),
        (
            vec![
                "lint",
                "maps/arena.map",
                "--traffic",
                "scenarios/arena8.toml",
                "--seeds",
                "x",
            ],
            "--seeds",
        ),
        (vec!["lint", "maps/arena.map", "--seeds", "1"], "--traffic"),
        (
            vec!["lint", "maps/arena.map", "--traffic", "scenarios/none.toml"],
            "none.toml",
        ),
    ] {
        let o = bin().args(&args).output().unwrap();
        assert_ne!(o.status.code(), Some(0), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn an_item_on_a_mover_is_reported_with_why() {
    let v = Vec3::new;
    let mut b = MapBuilder::sealed_room(v(0., 0., 0.), v(1024., 512., 512.));
    // A hatch high in the air, fired by a trigger, carrying a rocket launcher: the areas are
    // made with the hatch where it starts.
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("targetname", "hatch"),
            ("angle", "-2"),
            ("lip", "-192"),
            ("wait", "-1"),
        ],
        &[(v(448., 192., 240.), v(576., 320., 248.), "HATCH")],
    )
    .point("info_player_deathmatch", v(96., 96., 24.), &[])
    .point("weapon_rocketlauncher", v(512., 256., 256.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let r = lint(&level, &cmap, &mesh, LintParams::default());
    let f = r
        .findings
        .iter()
        .find(|f| f.message.starts_with("weapon_rocketlauncher"))
        .expect("the launcher is flagged");
    assert!(f.message.contains("rests on func_door"), "{}", f.message);
}

#[test]
fn an_item_behind_a_locked_door_is_reported_with_the_door() {
    let v = Vec3::new;
    let mut b = MapBuilder::sealed_room(v(0., 0., 0.), v(1024., 512., 256.));
    // A wall across at x 512..528 whose doorway (y 192..320, up to 128) a gold-key door
    // fills: no player holds a key in a match.
    b.solid(v(512., 0., 0.), v(528., 192., 256.), "WALL")
        .solid(v(512., 320., 0.), v(528., 512., 256.), "WALL")
        .solid(v(512., 192., 128.), v(528., 320., 256.), "WALL")
        .brush_entity(
            &[
                ("classname", "func_door"),
                ("spawnflags", "8"),
                ("angle", "-1"),
            ],
            &[(v(512., 192., 0.), v(528., 320., 128.), "DOOR")],
        )
        .point("info_player_deathmatch", v(96., 256., 24.), &[])
        .point("item_armor2", v(896., 256., 8.), &[]);
    let (level, cmap) = b.build();
    let mesh = compile(&level, &cmap, &CompileParams::default(), &mut |_, _, _| {}).unwrap();
    let r = lint(&level, &cmap, &mesh, LintParams::default());
    let f = r
        .findings
        .iter()
        .find(|f| f.message.starts_with("item_armor2"))
        .expect("the armour is flagged");
    assert!(
        f.message.contains("behind func_door") && f.message.contains("a key opens"),
        "{}",
        f.message
    );
}
