//! Scenario files: the shipped ones load and run; every kind of bad input is an error that
//! names the file and the line, and never a panic.

mod common;

use std::path::{Path, PathBuf};

use botarena::scenario::{Scenario, ScenarioError};
use common::{TempDir, root};

/// Writes `text` as a scenario next to the shipped ones (so `../maps/...` resolves) and
/// loads it, returning the error text.
fn err(name: &str, text: &str) -> String {
    let dir = TempDir::with_arena(&format!("scn-{name}"));
    let scen = dir.join("s").join(format!("{name}.toml"));
    std::fs::write(&scen, text).unwrap();
    let r = Scenario::load(&scen).and_then(|s| s.build().map(|_| ()));
    let e = r.expect_err("bad scenario must fail");
    e.to_string()
}

fn at(msg: &str, line: usize) -> bool {
    msg.contains(&format!(".toml:{line}:"))
}

const GOOD: &str = "map = \"../maps/arena.map\"\nseed = 3\n[[players]]\nname = \"a\"\n";

#[test]
fn shipped_scenarios_load_and_build() {
    for f in ["scenarios/default.toml", "scenarios/proving.toml"] {
        let s = Scenario::load(&root().join(f)).unwrap();
        let m = s.build().unwrap();
        assert!(!m.sim.players.is_empty());
    }
}

#[test]
fn defaults_apply() {
    let dir = TempDir::with_arena("scn-defaults");
    let p: PathBuf = dir.join("s/ok.toml");
    std::fs::write(&p, GOOD).unwrap();
    let s = Scenario::load(&p).unwrap();
    assert_eq!(s.tick_rate, 20);
    assert_eq!(s.ticks, 1200);
    assert_eq!(s.name, "ok");
    assert_eq!(s.players.len(), 1);
}

#[test]
fn unknown_key_names_line_and_key() {
    let e = err("unknown", "map = \"../maps/arena.map\"\nseeed = 3\n");
    assert!(at(&e, 2) && e.contains("seeed"), "{e}");
    let e = err(
        "unknown_player",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\nspeed = 3\n",
    );
    assert!(at(&e, 4) && e.contains("speed"), "{e}");
}

#[test]
fn missing_map_is_an_error_at_the_map_key() {
    let e = err("nomap", "seed = 1\nmap = \"../maps/nothere.map\"\n");
    assert!(at(&e, 2) && e.contains("does not exist"), "{e}");
    let e = err("nomapkey", "seed = 1\n");
    assert!(e.contains("map"), "{e}");
}

#[test]
fn bad_values_are_errors() {
    let e = err("rate", "map = \"../maps/arena.map\"\ntick_rate = 0\n");
    assert!(at(&e, 2) && e.contains("tick_rate"), "{e}");
    let e = err("rate2", "map = \"../maps/arena.map\"\ntick_rate = 5000\n");
    assert!(at(&e, 2), "{e}");
    let e = err("ticks", "map = \"../maps/arena.map\"\nticks = 0\n");
    assert!(at(&e, 2) && e.contains("ticks"), "{e}");
    let e = err("seedtype", "map = \"../maps/arena.map\"\nseed = \"x\"\n");
    assert!(at(&e, 2), "{e}");
    let e = err("negseed", "map = \"../maps/arena.map\"\nseed = -1\n");
    assert!(at(&e, 2), "{e}");
    let e = err(
        "ctrl",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\ncontroller = \"dance\"\n",
    );
    assert!(at(&e, 4) && e.contains("dance"), "{e}");
    let e = err(
        "noscript",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\ncontroller = \"script\"\n",
    );
    assert!(at(&e, 4) && e.contains("script"), "{e}");
    let e = err(
        "emptyscript",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\ncontroller = \"script\"\nscript = []\n",
    );
    assert!(at(&e, 5), "{e}");
    let e = err(
        "stray",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\nscript = [{ ticks = 1 }]\n",
    );
    assert!(at(&e, 4), "{e}");
    let e = err(
        "badstep",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\ncontroller = \"script\"\nscript = [{ tiks = 1 }]\n",
    );
    assert!(at(&e, 5) && e.contains("tiks"), "{e}");
    let e = err(
        "emptyname",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \" \"\n",
    );
    assert!(at(&e, 3), "{e}");
    let e = err(
        "nan",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\nstart = [0, nan, 0]\n",
    );
    assert!(at(&e, 4), "{e}");
}

#[test]
fn spawn_index_out_of_range_names_its_line() {
    let e = err(
        "spawn",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\n\n[[players]]\nname = \"b\"\nspawn = 9\n",
    );
    assert!(
        at(&e, 7) && e.contains("spawn point 9") && e.contains("has 4"),
        "{e}"
    );
}

#[test]
fn syntax_errors_and_unreadable_files() {
    let e = err("syntax", "map = \"../maps/arena.map\"\nseed = = 3\n");
    assert!(at(&e, 2), "{e}");
    let e = err("unterminated", "map = \"../maps/arena.map\n");
    assert!(at(&e, 1), "{e}");
    let r = Scenario::load(Path::new("/nonexistent/x.toml"));
    assert!(matches!(r, Err(ScenarioError::Io { .. })));
}

#[test]
fn broken_map_is_reported_through_the_scenario() {
    let dir = TempDir::new("scn-brokenmap");
    std::fs::write(
        dir.join("broken.map"),
        "{\n\"classname\" \"worldspawn\"\n{\n( 0 0 0 ) ( 1 0 0 )\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("s.toml"),
        "map = \"broken.map\"\n[[players]]\nname = \"a\"\n",
    )
    .unwrap();
    let e = Scenario::load(&dir.join("s.toml"))
        .unwrap()
        .build()
        .map(|_| ())
        .unwrap_err();
    let s = e.to_string();
    assert!(s.contains("broken.map:"), "{s}");
}

#[test]
fn goto_needs_a_target_and_only_goto_takes_one() {
    let e = err(
        "gotonotarget",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\ncontroller = \"goto\"\n",
    );
    assert!(at(&e, 4) && e.contains("target"), "{e}");
    let e = err(
        "targetwander",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\ntarget = [0, 0, 0]\n",
    );
    assert!(at(&e, 4), "{e}");
    let e = err(
        "badfov",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\nfov = 0\n",
    );
    assert!(at(&e, 4) && e.contains("fov"), "{e}");
    let e = err(
        "badhearing",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\nhearing = -1\n",
    );
    assert!(at(&e, 4) && e.contains("hearing"), "{e}");
}

#[test]
fn a_scenario_can_start_from_a_waypoint_file_and_route() {
    let dir = TempDir::with_arena("scn-wp");
    std::fs::copy(
        root().join("maps/proving.map"),
        dir.join("maps/proving.map"),
    )
    .unwrap();
    // A grid graph for the arena, and one for another map.
    let (level, cmap) = common::shipped("arena");
    let g = botarena::nav::grid::seed_grid(
        &cmap,
        &botarena::nav::grid::GridParams {
            spacing: 64.0,
            ..Default::default()
        },
    );
    let hash = botarena::nav::waypoint_file::geometry_hash(&level);
    botarena::nav::waypoint_file::save(&g, "arena", &hash, &dir.join("s/arena.json")).unwrap();
    botarena::nav::waypoint_file::save(&g, "proving", "0", &dir.join("s/other.json")).unwrap();
    let text = "map = \"../maps/arena.map\"\nwaypoints = \"arena.json\"\n[[players]]\nname = \"r\"\ncontroller = \"route\"\nstart = [150, 60, 25]\ntarget = [-300, 440, 152.03125]\n";
    std::fs::write(dir.join("s/ok.toml"), text).unwrap();
    let mut m = Scenario::load(&dir.join("s/ok.toml"))
        .unwrap()
        .build()
        .unwrap();
    assert!(m.learned.waypoints.len() >= g.len());
    let mut best = f32::MAX;
    for _ in 0..300 {
        m.step();
        let s = m.sim.player_state(0).unwrap();
        best = best.min((s.origin - glam::Vec3::new(-300., 440., 152.03)).length());
    }
    assert!(
        best < 24.0,
        "the router got to the balcony ({best} away at best)"
    );
    // A waypoint file made for another map, or a missing one, is an error at its key.
    let text =
        "map = \"../maps/arena.map\"\nwaypoints = \"other.json\"\n[[players]]\nname = \"a\"\n";
    std::fs::write(dir.join("s/bad.toml"), text).unwrap();
    let e = Scenario::load(&dir.join("s/bad.toml"))
        .unwrap()
        .build()
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("bad.toml:2:") && e.contains("proving"), "{e}");
    let e = err(
        "nowp",
        "map = \"../maps/arena.map\"\nwaypoints = \"nothere.json\"\n",
    );
    assert!(at(&e, 2) && e.contains("does not exist"), "{e}");
    let e = err(
        "routenotarget",
        "map = \"../maps/arena.map\"\n[[players]]\nname = \"a\"\ncontroller = \"route\"\n",
    );
    assert!(at(&e, 4) && e.contains("target"), "{e}");
}

#[test]
fn match_keys_and_bot_skills_are_checked() {
    let m = "map = \"../maps/arena.map\"\n";
    let cases: [(&str, String, usize, &str); 12] = [
        ("tl0", format!("{m}time_limit = 0\n"), 2, "time_limit"),
        ("tlneg", format!("{m}time_limit = -5.0\n"), 2, "time_limit"),
        ("fl0", format!("{m}frag_limit = 0\n"), 2, "frag_limit"),
        (
            "fltype",
            format!("{m}frag_limit = \"ten\"\n"),
            2,
            "frag_limit",
        ),
        (
            "scale",
            format!("{m}[items]\nrespawn_scale = 0\n"),
            3,
            "respawn_scale",
        ),
        (
            "remove",
            format!("{m}[items]\nremove = [\"monster_ogre\"]\n"),
            3,
            "monster_ogre",
        ),
        (
            "itemkey",
            format!("{m}[items]\nrespawn = 2\n"),
            3,
            "respawn",
        ),
        (
            "reaction",
            format!("{m}[[players]]\nname = \"a\"\nreaction = -1\n"),
            4,
            "reaction",
        ),
        (
            "aim",
            format!("{m}[[players]]\nname = \"a\"\naim_error = 400\n"),
            4,
            "aim_error",
        ),
        (
            "skillonwander",
            format!("{m}[[players]]\nname = \"a\"\ncontroller = \"wander\"\nreaction = 0.1\n"),
            5,
            "brain",
        ),
        (
            "travel",
            format!("{m}[[players]]\nname = \"a\"\ntravel = [\"walk\", \"fly\"]\n"),
            4,
            "fly",
        ),
        (
            "notravel",
            format!("{m}[[players]]\nname = \"a\"\ntravel = []\n"),
            4,
            "travel",
        ),
    ];
    for (name, text, line, word) in cases {
        let e = err(name, &text);
        assert!(at(&e, line) && e.contains(word), "{name}: {e}");
    }
}

#[test]
fn match_keys_reach_the_simulation() {
    let dir = TempDir::with_arena("scn-rules");
    let p: PathBuf = dir.join("s/rules.toml");
    std::fs::write(
        &p,
        "map = \"../maps/arena.map\"\ntime_limit = 30\nfrag_limit = 5\n[items]\nrespawn_scale = 2.0\nremove = [\"item_artifact_super_damage\"]\n[[players]]\nname = \"a\"\nreaction = 0.5\naim_error = 10\ntravel = [\"walk\", \"fall\"]\n",
    )
    .unwrap();
    let s = Scenario::load(&p).unwrap();
    assert_eq!(s.rules.time_limit, Some(30.0));
    assert_eq!(s.rules.frag_limit, Some(5));
    assert_eq!(s.rules.respawn_scale, 2.0);
    assert_eq!(s.rules.removed_items, vec!["item_artifact_super_damage"]);
    match &s.players[0].config.controller {
        botarena::bot::control::ControllerConfig::Brain(k) => {
            assert_eq!((k.reaction, k.aim_error), (0.5, 10.0));
            use botarena::nav::waypoints::Travel;
            assert!(k.travel.allows(Travel::Walk) && k.travel.allows(Travel::Fall));
            assert!(!k.travel.allows(Travel::Swim) && !k.travel.allows(Travel::Teleport));
        }
        c => panic!("the default controller is the brain, got {c:?}"),
    }
    let m = s.build().unwrap();
    let quad = m
        .sim
        .level
        .items
        .iter()
        .position(|i| i.classname == "item_artifact_super_damage")
        .unwrap();
    assert_eq!(m.sim.item_available(quad), Some(false));
}
