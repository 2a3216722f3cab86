//! Small generated worlds: a sealed room with boxes, liquids, spawn points and items, and a
//! scenario of a few players (every controller, scripts with any numbers). Invariants, not
//! only the absence of crashes:
//! - a scenario refused is refused with a `FILE:LINE:COLUMN` message, never a panic;
//! - a match that builds runs, and every player's origin stays finite;
//! - its recorded replay verifies tick by tick;
//! - compiling the room's navigation gives the same areas and reachabilities on one thread
//!   and on two, and lint reads the result without a panic.
//!
//! The room's navigation is compiled first, at 32-unit cells (the 1- and 2-thread compiles
//! took most of an input's time at 16), and saved as the `nav` file the scenario names: the
//! match and its replay load it rather than compile the room again at the default 8-unit
//! cells. One input in eight leaves the file out, so that the compile in a build is fuzzed.
//! Lint runs on one input in four, its planner on a small budget: its checks at the default
//! took most of an input's time.
#![no_main]

use std::path::PathBuf;

use arbitrary::Arbitrary;
use botarena::aas::file::save;
use botarena::aas::{CompileParams, NavMesh, compile};
use botarena::lint::{LintParams, lint};
use botarena::map::MapData;
use botarena::map::builder::MapBuilder;
use botarena::replay::Recorder;
use botarena::scenario::Scenario;
use glam::Vec3;
use libfuzzer_sys::fuzz_target;

/// Lint's planner budget: its checks run as at the default, on fewer expansions (the
/// default's took half of an input's time).
const PLAN_EXPANSIONS: usize = 2_000;

/// The room: 512 × 512 × 256 units, so that a compile is quick.
const ROOM: f32 = 512.0;

#[derive(Arbitrary, Debug)]
struct World {
    boxes: Vec<Block>,
    spawns: Vec<(u8, u8)>,
    items: Vec<(u8, u8, u8)>,
    first: Player,
    players: Vec<Player>,
    seed: u8,
    ticks: u8,
    compile_in_build: u8,
    lint: u8,
}

#[derive(Arbitrary, Debug)]
struct Block {
    at: (u8, u8, u8),
    size: (u8, u8, u8),
    texture: u8,
}

#[derive(Arbitrary, Debug)]
struct Player {
    controller: u8,
    start: Option<(u8, u8, u8)>,
    target: (u8, u8, u8),
    steps: Vec<Step>,
    compiled: bool,
    fov: u16,
    wild: bool,
}

#[derive(Arbitrary, Debug)]
struct Step {
    ticks: u8,
    forward: i16,
    side: i16,
    up: i16,
    yaw: i16,
    pitch: i8,
    jump: bool,
    fire: bool,
}

const TEXTURES: [&str; 5] = ["wall", "*water1", "*slime0", "*lava1", "clip"];
const ITEMS: [&str; 8] = [
    "weapon_rocketlauncher",
    "weapon_supershotgun",
    "item_armor2",
    "item_health",
    "item_shells",
    "item_artifact_super_damage",
    "weapon_lightning",
    "item_cells",
];
const CONTROLLERS: [&str; 9] = [
    "brain", "idle", "wander", "explore", "goto", "route", "script", "external", "dance",
];

/// A coordinate within the room from a byte (0..=255 spans it).
fn across(b: u8) -> f32 {
    f32::from(b) * ROOM / 256.0
}

fn map_text(w: &World) -> String {
    let v = Vec3::new;
    let mut b = MapBuilder::sealed_room(Vec3::ZERO, v(ROOM, ROOM, 256.0));
    for k in w.boxes.iter().take(8) {
        let lo = v(across(k.at.0), across(k.at.1), f32::from(k.at.2 / 2));
        let size = v(
            f32::from(k.size.0 / 2) + 1.0,
            f32::from(k.size.1 / 2) + 1.0,
            f32::from(k.size.2 / 4) + 1.0,
        );
        b.solid(
            lo,
            lo + size,
            TEXTURES[usize::from(k.texture) % TEXTURES.len()],
        );
    }
    for &(x, y) in w.spawns.iter().take(4) {
        b.point("info_player_deathmatch", v(across(x), across(y), 24.0), &[]);
    }
    for &(x, y, k) in w.items.iter().take(6) {
        b.point(
            ITEMS[usize::from(k) % ITEMS.len()],
            v(across(x), across(y), 8.0),
            &[],
        );
    }
    b.to_map_text("fuzz")
}

fn scenario_text(w: &World, nav: bool) -> String {
    let mut s = format!("map = \"room.map\"\nseed = {}\nthreads = 1\n", w.seed);
    if nav {
        s += "nav = \"room.nav\"\n";
    }
    // Most numbers land within the room and within range, some (`wild`) anywhere.
    let point = |p: (u8, u8, u8), wild: bool| {
        if wild {
            let f = |b: u8| (f32::from(b) - 64.0) * 64.0;
            format!("[{}, {}, {}]", f(p.0), f(p.1), f(p.2))
        } else {
            format!(
                "[{}, {}, {}]",
                across(p.0),
                across(p.1),
                24.0 + f32::from(p.2 % 64)
            )
        }
    };
    for (i, p) in std::iter::once(&w.first)
        .chain(w.players.iter().take(3))
        .enumerate()
    {
        let ctrl = CONTROLLERS[usize::from(p.controller) % CONTROLLERS.len()];
        let fov = if p.wild { p.fov } else { 1 + p.fov % 360 };
        s += &format!("[[players]]\nname = \"p{i}\"\ncontroller = \"{ctrl}\"\nfov = {fov}\n");
        if let Some(at) = p.start {
            s += &format!("start = {}\n", point(at, p.wild));
        }
        if p.compiled {
            s += "navigation = \"compiled\"\n";
        }
        match ctrl {
            "goto" | "route" => s += &format!("target = {}\n", point(p.target, p.wild)),
            "script" => {
                s += "script = [\n";
                for t in p.steps.iter().take(6) {
                    let (fwd, side, up) = if p.wild {
                        (f32::from(t.forward), f32::from(t.side), f32::from(t.up))
                    } else {
                        let f = |x: i16| f32::from(x % 400);
                        (f(t.forward), f(t.side), f(t.up))
                    };
                    let (yaw, pitch) = if p.wild {
                        (f32::from(t.yaw), f32::from(t.pitch))
                    } else {
                        (f32::from(t.yaw % 360), f32::from(t.pitch % 90))
                    };
                    s += &format!(
                        "  {{ ticks = {}, forward = {}, side = {}, up = {}, yaw = {}, pitch = {}, jump = {}, fire = {} }},\n",
                        t.ticks.max(1),
                        fwd,
                        side,
                        up,
                        yaw,
                        pitch,
                        t.jump,
                        t.fire
                    );
                }
                s += "]\n";
            }
            _ => {}
        }
    }
    s
}

fuzz_target!(|w: World| {
    let dir = std::env::temp_dir().join(format!("botarena-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder for the generated files");
    let map = map_text(&w);
    let map_path = dir.join("room.map");
    std::fs::write(&map_path, &map).expect("map written");
    let nav_path = dir.join("room.nav");
    let _ = std::fs::remove_file(&nav_path);
    if let Some(mesh) = navigation(&map_path, w.lint % 4 == 0)
        && w.compile_in_build % 8 != 0
    {
        save(&mesh, &nav_path).expect("nav written");
    }
    let text = scenario_text(&w, nav_path.exists());
    let path: PathBuf = dir.join("fuzz.toml");
    let s = match Scenario::parse(&text, &path) {
        Ok(s) => s,
        Err(e) => {
            let e = e.to_string();
            assert!(
                e.starts_with(&path.display().to_string()),
                "a refusal names the file: {e}"
            );
            return;
        }
    };
    let Ok(mut m) = s.build() else {
        return;
    };
    m.sim.threads = 1;
    let mut rec = Recorder::new(&s, &text, &m);
    for _ in 0..(w.ticks % 40) {
        m.step();
        rec.record(&m);
    }
    for i in 0..m.sim.players.len() {
        let p = m.sim.player_state(i).expect("every player has a state");
        assert!(
            p.origin.is_finite(),
            "a player's origin stays finite: {}",
            p.origin
        );
    }
    let replay = rec.finish();
    let bytes = replay.to_bytes();
    let back =
        botarena::replay::Replay::from_bytes(&bytes, "fuzz.replay").expect("a replay reads back");
    back.verify(|_| {}).expect("a recorded replay verifies");
});

/// The room's navigation at 32-unit cells, the same on one thread and two (and read by
/// lint, with `lint`); `None` where the map does not load or the compile refuses it (alike
/// on both).
fn navigation(map: &std::path::Path, with_lint: bool) -> Option<NavMesh> {
    let (level, cmap) = botarena::map::build_level(MapData::load(map).ok()?);
    let params = |threads| CompileParams {
        cell: 32.0,
        threads,
        ..Default::default()
    };
    let one = compile(&level, &cmap, &params(1), &mut |_, _, _| {});
    let two = compile(&level, &cmap, &params(2), &mut |_, _, _| {});
    match (one, two) {
        (Ok(a), Ok(b)) => {
            let json = |m: &NavMesh| {
                serde_json::to_string(&(m.areas(), m.reaches())).expect("mesh serialises")
            };
            assert_eq!(
                json(&a),
                json(&b),
                "nav compile is the same on 1 and 2 threads"
            );
            if with_lint {
                let params = LintParams {
                    plan_expansions: PLAN_EXPANSIONS,
                    ..Default::default()
                };
                let _ = lint(&level, &cmap, &a, params);
            }
            Some(a)
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string());
            None
        }
        (a, b) => panic!(
            "1 and 2 threads disagree: {:?} / {:?}",
            a.is_ok(),
            b.is_ok()
        ),
    }
}
