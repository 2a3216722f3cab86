//! Brush entities as today's compilers treat them: detail and groups solid, illusionary
//! classes not, TrenchBroom layers omitted from export left out, `misc_external_map`
//! prefabs placed, tool textures left out, unknown classes solid with a warning.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use botarena::map::info::MapInfo;
use botarena::map::{Contents, MapData, MapError, build_level, load_level};
use glam::Vec3;

fn repo_map(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("maps")
        .join(name)
}

/// Brushes per class counted from the text alone: a line holding only `{` opens an entity
/// at depth 0 and a brush at depth 1 (every map here writes one token per such line).
fn brushes_by_class_in(text: &str) -> BTreeMap<String, (usize, usize)> {
    let mut out: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut depth, mut class, mut brushes) = (0, String::new(), 0);
    for line in text.lines().map(str::trim) {
        match line {
            "{" => {
                if depth == 1 {
                    brushes += 1;
                }
                depth += 1;
            }
            "}" => {
                depth -= 1;
                if depth == 0 {
                    let e = out.entry(std::mem::take(&mut class)).or_default();
                    e.0 += 1;
                    e.1 += brushes;
                    brushes = 0;
                }
            }
            l if depth == 1 && l.starts_with("\"classname\"") => {
                class = l.split('"').nth(3).unwrap_or_default().to_string();
            }
            _ => {}
        }
    }
    out
}

#[test]
fn brush_counts_per_class_match_the_file() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for d in [dir.clone(), dir.join("librequake")] {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        files.extend(
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "map")),
        );
    }
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let want = brushes_by_class_in(&text);
        let (level, cmap) = load_level(f).unwrap();
        let info = MapInfo::new(&level, &cmap);
        let got: BTreeMap<String, (usize, usize)> = info
            .classes
            .iter()
            .map(|c| (c.classname.clone(), (c.entities, c.brushes)))
            .collect();
        assert_eq!(got, want, "{}", f.display());
        // Detail and groups are solid world; nothing is of a class not known here.
        for c in &info.classes {
            use botarena::map::classes::Treatment;
            assert_ne!(
                c.treatment,
                Treatment::Unknown,
                "{}: {}",
                f.display(),
                c.classname
            );
            if c.classname.starts_with("func_detail") && c.classname != "func_detail_illusionary"
                || c.classname == "func_group"
            {
                assert_eq!(c.treatment, Treatment::World, "{}", c.classname);
            }
        }
    }
}

#[test]
fn librequake_detail_is_solid() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    let (level, _) = load_level(&dir.join("librequake/lqdm1.map")).unwrap();
    // Worldspawn, func_group, func_detail and func_detail_wall brushes are all in the
    // world (the file holds 270 + 6 + 452 + 37 of them).
    let solid = level.count_static(Contents::SOLID) + level.count_static(Contents::PLAYER_CLIP);
    assert!(solid >= 690, "{solid}");
}

#[test]
fn a_layer_omitted_from_export_is_left_out_with_its_entities() {
    let (level, cmap) = load_level(&repo_map("layers.map")).unwrap();
    let solid = |p: Vec3| cmap.point_contents(p).intersects(Contents::SOLID);
    // In the omitted layer: a pillar, a group's crate, a detail box in that group, and a
    // rocket launcher.
    assert!(!solid(Vec3::new(256.0, 256.0, 64.0)), "the pillar is gone");
    assert!(!solid(Vec3::new(80.0, 80.0, 16.0)), "the crate is gone");
    assert!(
        !solid(Vec3::new(80.0, 416.0, 16.0)),
        "the grouped detail is gone"
    );
    assert!(
        level
            .items
            .iter()
            .all(|i| i.classname != "weapon_rocketlauncher"),
        "{:?}",
        level.items
    );
    // The layer kept, and what is in it, stay.
    assert!(solid(Vec3::new(416.0, 80.0, 24.0)));
    assert!(
        level
            .items
            .iter()
            .any(|i| i.classname == "weapon_supershotgun")
    );
    assert_eq!(level.map.omitted.len(), 4, "{:?}", level.map.omitted);
    let info = MapInfo::new(&level, &cmap);
    assert_eq!(info.solid_brushes, 7);
}

#[test]
fn an_external_map_is_placed_scaled_turned_and_moved() {
    let (level, cmap) = load_level(&repo_map("prefab.map")).unwrap();
    let solid = |x: f32, y: f32, z: f32| {
        cmap.point_contents(Vec3::new(x, y, z))
            .intersects(Contents::SOLID)
    };
    // As is at (128, 256): 32 across x, 64 across y, with its group's cap on top.
    assert!(solid(128.0, 256.0, 64.0));
    assert!(solid(128.0, 256.0 + 24.0, 64.0));
    assert!(!solid(128.0 + 24.0, 256.0, 64.0));
    assert!(solid(128.0, 256.0, 132.0), "the prefab's group comes too");
    // Turned a quarter at (384, 256): 64 across x, 32 across y.
    assert!(solid(384.0 + 24.0, 256.0, 64.0));
    assert!(!solid(384.0, 256.0 + 24.0, 64.0));
    // The prefab's hint brush leaves nothing.
    assert!(!solid(180.0, 256.0, 64.5));
    let classes: Vec<&str> = level
        .map
        .entities
        .iter()
        .map(|e| e.classname.as_str())
        .collect();
    assert!(
        classes.contains(&"func_detail") && classes.contains(&"func_group"),
        "{classes:?}"
    );
    assert_eq!(level.map.external_brushes, 6);
}

const ROOM: &str = "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 ) T 0 0 0 1 1\n( 64 0 0 ) ( 64 0 1 ) ( 64 1 0 ) T 0 0 0 1 1\n( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 ) T 0 0 0 1 1\n( 0 64 0 ) ( 1 64 0 ) ( 0 64 1 ) T 0 0 0 1 1\n( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 ) T 0 0 0 1 1\n( 0 0 64 ) ( 0 1 64 ) ( 1 0 64 ) T 0 0 0 1 1\n}\n}\n";

fn including(file: &str) -> String {
    format!(
        "{ROOM}{{\n\"classname\" \"misc_external_map\"\n\"_external_map\" \"{file}\"\n\"_external_map_classname\" \"func_detail\"\n}}\n"
    )
}

#[test]
fn a_missing_external_map_is_an_error_with_file_and_line() {
    let d = common::TempDir::new("missing");
    let main = d.join("main.map");
    std::fs::write(&main, including("nowhere.map")).unwrap();
    let e = MapData::load(&main).unwrap_err();
    assert!(matches!(e, MapError::External { line: 12, .. }), "{e:?}");
    let s = e.to_string();
    assert!(s.starts_with(&format!("{}:12:", main.display())), "{s}");
    assert!(s.contains("nowhere.map"), "{s}");
    // No file named at all.
    let text = format!("{ROOM}{{\n\"classname\" \"misc_external_map\"\n}}\n");
    std::fs::write(&main, text).unwrap();
    let s = MapData::load(&main).unwrap_err().to_string();
    assert!(s.contains("_external_map"), "{s}");
}

#[test]
fn a_map_that_includes_itself_is_an_error_not_a_hang() {
    let d = common::TempDir::new("cycle");
    std::fs::write(d.join("self.map"), including("self.map")).unwrap();
    let s = MapData::load(&d.join("self.map")).unwrap_err().to_string();
    assert!(s.contains("includes a map that includes it"), "{s}");
    // Through another map: a -> b -> a.
    std::fs::write(d.join("a.map"), including("b.map")).unwrap();
    std::fs::write(d.join("b.map"), including("a.map")).unwrap();
    let s = MapData::load(&d.join("a.map")).unwrap_err().to_string();
    assert!(s.contains("a.map -> ") && s.contains("b.map -> "), "{s}");
    // The same prefab twice, and one prefab holding another, are fine.
    std::fs::write(d.join("leaf.map"), ROOM).unwrap();
    std::fs::write(d.join("mid.map"), including("leaf.map")).unwrap();
    let twice = format!(
        "{}{{\n\"classname\" \"misc_external_map\"\n\"_external_map\" \"mid.map\"\n\"_external_map_classname\" \"func_wall\"\n\"origin\" \"128 0 0\"\n}}\n",
        including("leaf.map")
    );
    std::fs::write(d.join("twice.map"), twice).unwrap();
    let m = MapData::load(&d.join("twice.map")).unwrap();
    assert_eq!(
        m.external_brushes, 3,
        "one brush, then the mid map's own and its leaf's"
    );
}

#[test]
fn an_unknown_brush_entity_is_solid_with_a_warning_and_its_line() {
    let text = format!(
        "{ROOM}{{\n\"classname\" \"func_mystery\"\n{{\n( 100 0 0 ) ( 100 1 0 ) ( 100 0 1 ) T 0 0 0 1 1\n( 164 0 0 ) ( 164 0 1 ) ( 164 1 0 ) T 0 0 0 1 1\n( 100 0 0 ) ( 100 0 1 ) ( 101 0 0 ) T 0 0 0 1 1\n( 100 64 0 ) ( 101 64 0 ) ( 100 64 1 ) T 0 0 0 1 1\n( 100 0 0 ) ( 101 0 0 ) ( 100 1 0 ) T 0 0 0 1 1\n( 100 0 64 ) ( 100 1 64 ) ( 101 0 64 ) T 0 0 0 1 1\n}}\n}}\n"
    );
    let (level, cmap) = build_level(MapData::parse(text.as_bytes(), "m.map", "m").unwrap());
    assert!(
        cmap.point_contents(Vec3::new(130.0, 32.0, 32.0))
            .intersects(Contents::SOLID)
    );
    let w = level
        .map
        .warnings
        .iter()
        .find(|w| w.message.contains("func_mystery"))
        .expect("a warning");
    assert_eq!(w.line, 12);
}

#[test]
fn tool_textures_leave_nothing_and_illusionary_detail_is_not_solid() {
    let face = |tex: &str| {
        format!(
            "{{\n( 100 0 0 ) ( 100 1 0 ) ( 100 0 1 ) {tex} 0 0 0 1 1\n( 164 0 0 ) ( 164 0 1 ) ( 164 1 0 ) {tex} 0 0 0 1 1\n( 100 0 0 ) ( 100 0 1 ) ( 101 0 0 ) SKIP 0 0 0 1 1\n( 100 64 0 ) ( 101 64 0 ) ( 100 64 1 ) SKIP 0 0 0 1 1\n( 100 0 0 ) ( 101 0 0 ) ( 100 1 0 ) SKIP 0 0 0 1 1\n( 100 0 64 ) ( 100 1 64 ) ( 101 0 64 ) SKIP 0 0 0 1 1\n}}\n"
        )
    };
    let inside = Vec3::new(130.0, 32.0, 32.0);
    for (class, tex, solid) in [
        ("func_detail", "HINT", false),
        ("func_detail", "hintskip", false),
        ("func_wall", "ORIGIN", false),
        ("func_detail", "SKIP", true),
        ("func_detail_fence", "T", true),
        ("func_detail_illusionary", "T", false),
        ("func_illusionary_visblocker", "T", false),
    ] {
        let text = format!("{ROOM}{{\n\"classname\" \"{class}\"\n{}}}\n", face(tex));
        let (_, cmap) = build_level(MapData::parse(text.as_bytes(), "t.map", "t").unwrap());
        assert_eq!(
            cmap.point_contents(inside).intersects(Contents::SOLID),
            solid,
            "{class} {tex}"
        );
    }
}

#[test]
fn brain_bots_stay_in_the_world_on_librequake_maps() {
    let Some(dir) = common::quake_maps() else {
        return;
    };
    for n in 1..=6 {
        let map = dir.join(format!("librequake/lqdm{n}.map"));
        if !map.is_file() {
            continue;
        }
        let mut text = format!(
            "map = {:?}\nseed = 1\ntick_rate = 20\nticks = 1200\nthreads = 1\n",
            map.canonicalize().unwrap().display().to_string()
        );
        for i in 0..8 {
            text.push_str(&format!("[[players]]\nname = \"b{i}\"\n"));
        }
        let s = botarena::scenario::Scenario::parse(
            &text,
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/t.toml"),
        )
        .unwrap();
        let mut m = s.build().unwrap();
        let bounds = m.sim.cmap.bounds();
        for _ in 0..s.ticks {
            m.step();
            for e in &m.sim.events {
                assert!(
                    !matches!(e, botarena::sim::SimEvent::Death { cause: "void", .. }),
                    "lqdm{n}: a player died in the void at tick {}",
                    m.sim.tick
                );
            }
            for i in 0..m.sim.players.len() {
                let o = m.sim.player_state(i).unwrap().origin;
                assert!(
                    !botarena::game::life::in_the_void(o, bounds),
                    "lqdm{n}: player {i} out of the world at {o}"
                );
            }
        }
    }
}
