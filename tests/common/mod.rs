//! Helpers shared by the integration tests.
#![allow(dead_code, reason = "each test file uses a different subset")]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use botarena::bot::control::ControllerConfig;
use botarena::map::{CollisionMap, Level, MapData, build_level};
use botarena::physics::pmove::{MoveEvents, PhysicsParams, PlayerState, UserCmd, pmove};
use botarena::tick::{Match, MatchConfig, PlayerConfig};
use glam::Vec3;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `botarena` binary, run in the repository root as a user of a fresh clone would.
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_botarena"));
    c.current_dir(root());
    c
}

/// A folder of one test's own under the system's temp folder (named after the test and this
/// process, so parallel tests and runs never share one), emptied when made and removed when
/// dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty folder for the test `name`.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("botarena-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp folder");
        TempDir(dir)
    }

    /// A fresh folder holding a copy of the shipped arena at `maps/arena.map` and an empty
    /// `s/`, so that a scenario written to `s/` names its map `../maps/arena.map` as the
    /// shipped scenarios do.
    pub fn with_arena(name: &str) -> TempDir {
        let dir = TempDir::new(name);
        std::fs::create_dir_all(dir.join("maps")).expect("temp maps folder");
        std::fs::create_dir_all(dir.join("s")).expect("temp scenario folder");
        std::fs::copy(root().join("maps/arena.map"), dir.join("maps/arena.map"))
            .expect("arena copied");
        dir
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A shipped map from maps/.
pub fn shipped(name: &str) -> (Level, CollisionMap) {
    let data =
        MapData::load(&root().join("maps").join(format!("{name}.map"))).expect("shipped map loads");
    build_level(data)
}

/// Level and collision world from map text.
pub fn from_text(text: &str) -> (Level, CollisionMap) {
    build_level(MapData::parse(text.as_bytes(), "test.map", "test").expect("test map parses"))
}

/// The folder of id's GPL maps, or `None` (with the reason printed) when it is absent.
pub fn quake_maps() -> Option<PathBuf> {
    let dir = match std::env::var_os("BOTARENA_QUAKE_MAPS") {
        Some(d) => PathBuf::from(d),
        None => root().join("../shared/quake-maps"),
    };
    let complete = dir.join("dm4.map").is_file() && dir.join("librequake/lqdm1.map").is_file();
    if complete {
        return Some(dir);
    }
    let why = format!(
        "Quake maps not found at {} (dm4.map, librequake/lqdm1.map; set BOTARENA_QUAKE_MAPS to their folder)",
        dir.display()
    );
    // On CI (which sets CI=true) a missing folder fails the test: a run that skipped
    // every test on real maps must not pass.
    if ci_is_strict() {
        panic!("{why}; CI is set, so the tests that need them fail instead of skipping");
    }
    eprintln!("SKIPPED: {why}");
    None
}

/// Whether the tests run on CI (`CI` set to anything but empty, `0` or `false`), where
/// skipping is failing.
pub fn ci_is_strict() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// Loads one of id's maps from `dir`.
pub fn quake_map(dir: &Path, name: &str) -> (Level, CollisionMap) {
    build_level(MapData::load(&dir.join(format!("{name}.map"))).expect("quake map loads"))
}

/// Steps the player physics `ticks` times at `hz` with commands from `cmd(tick, state)`,
/// returning every state after each tick.
pub fn simulate(
    cmap: &CollisionMap,
    start: PlayerState,
    hz: f32,
    ticks: usize,
    mut cmd: impl FnMut(usize, &PlayerState) -> UserCmd,
) -> Vec<(PlayerState, MoveEvents)> {
    let params = PhysicsParams::default();
    let mut s = start;
    let mut out = Vec::with_capacity(ticks);
    for t in 0..ticks {
        let c = cmd(t, &s);
        let (n, ev) = pmove(&s, &c, cmap, &params, 1.0 / hz, None);
        s = n;
        out.push((n, ev));
    }
    out
}

/// Forward at full speed toward `yaw`.
pub fn run_cmd(yaw: f32) -> UserCmd {
    UserCmd {
        forward_move: 320.0,
        yaw,
        ..Default::default()
    }
}

/// A player config at an exact start.
pub fn scripted(name: &str, origin: Vec3, yaw: f32, ctrl: ControllerConfig) -> PlayerConfig {
    PlayerConfig {
        name: name.into(),
        controller: ctrl,
        spawn: None,
        start: Some((origin, yaw)),
        senses: Default::default(),
        navigation: Default::default(),
    }
}

/// `n` players with the same controller, placed by the seeded world.
pub fn players(n: usize, ctrl: ControllerConfig) -> Vec<PlayerConfig> {
    (0..n)
        .map(|i| PlayerConfig {
            name: format!("p{i}"),
            controller: ctrl.clone(),
            spawn: None,
            start: None,
            senses: Default::default(),
            navigation: Default::default(),
        })
        .collect()
}

/// A simulation on a shipped map.
pub fn match_on(name: &str, seed: u64, players: Vec<PlayerConfig>) -> Match {
    let (level, cmap) = shipped(name);
    match_of(level, cmap, seed, players)
}

/// A simulation on a built level (20 Hz, default physics and rules).
pub fn match_of(level: Level, cmap: CollisionMap, seed: u64, players: Vec<PlayerConfig>) -> Match {
    Match::new(Arc::new(level), cmap, &MatchConfig::new(seed, players)).expect("the match builds")
}

/// A match (`seed`) on the id map `name` in `dir` with one explorer standing at `at`,
/// facing `yaw`.
pub fn explorer_on(dir: &Path, name: &str, seed: u64, at: Vec3, yaw: f32) -> Match {
    let (level, cmap) = quake_map(dir, name);
    let explorer = scripted("explorer", at, yaw, ControllerConfig::Explore);
    match_of(level, cmap, seed, vec![explorer])
}

/// Four explorers on the id map `name` in `dir` for 600 s (seed `seed`, 20 Hz, no closing
/// pass): the match after it, its learned graph the result.
pub fn explorers_on_map(dir: &Path, name: &str, seed: u64) -> Match {
    use botarena::scenario::explore::{ExploreConfig, explore};
    let (level, cmap) = quake_map(dir, name);
    let cfg = ExploreConfig {
        bots: 4,
        seconds: 600.0,
        seed,
        tick_rate: 20,
        every: 600.0,
        connect: false,
    };
    explore(Arc::new(level), cmap, &cfg, |_| {}).expect("the exploration runs")
}

/// The compiled area graph of `level` at the default parameters.
pub fn compiled(level: &Level, cmap: &CollisionMap) -> botarena::aas::NavMesh {
    botarena::aas::compile(
        level,
        cmap,
        &botarena::aas::CompileParams::default(),
        &mut |_, _, _| {},
    )
    .expect("the map compiles")
}

/// A map builder holding a room sealed by 16-unit floor, ceiling and walls round the open
/// box `lo`..`hi` (floor, ceiling, west, east, south, north, in that order).
pub fn sealed_room(lo: Vec3, hi: Vec3) -> botarena::map::builder::MapBuilder {
    botarena::map::builder::MapBuilder::sealed_room(lo, hi)
}

/// A corridor 512 long (x 0..512, 96 wide, 128 high) with a door across its middle
/// (x 240..272) that nothing opens, and a spawn point at its west end (64, 48, 24).
pub fn shut_door_corridor() -> (Level, CollisionMap) {
    let v = Vec3::new;
    let mut b = sealed_room(v(0., 0., 0.), v(512., 96., 128.));
    b.brush_entity(
        &[
            ("classname", "func_door"),
            ("angle", "-1"),
            ("targetname", "shut"),
        ],
        &[(v(240., 0., 0.), v(272., 96., 128.), "DOOR")],
    )
    .point("info_player_deathmatch", v(64., 48., 24.), &[]);
    b.build()
}

/// A room (x 0..1024, y 0..1024, floor top z 16) cut north to south by a trench of slime
/// 16 deep (x 448..576), its surface level with the floor: walking across it wades through
/// slime. With `bridge`, the trench stops short of the north wall (y 768..1024 is floor):
/// the dry way round. A spawn point in the west (128, 128, 40); a nailgun in the east
/// (896, 128, 40).
pub fn slime_trench(bridge: bool) -> (Level, CollisionMap) {
    let v = Vec3::new;
    let mut b = sealed_room(v(0., 0., 0.), v(1024., 1024., 256.));
    let end = if bridge { 768. } else { 1024. };
    b.solid(v(0., 0., 0.), v(448., 1024., 16.), "FLOOR")
        .solid(v(576., 0., 0.), v(1024., 1024., 16.), "FLOOR")
        .solid(v(448., 0., 0.), v(576., end, 16.), "*slime0");
    if bridge {
        b.solid(v(448., 768., 0.), v(576., 1024., 16.), "FLOOR");
    }
    b.point("info_player_deathmatch", v(128., 128., 40.), &[])
        .point("weapon_nailgun", v(896., 128., 40.), &[]);
    b.build()
}
