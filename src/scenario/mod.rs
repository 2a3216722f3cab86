//! Scenario files: TOML that names a map, a seed, a tick rate, a run length and the players.
//! Every mistake is an error naming the file, the line and the key, and nothing runs.
//!
//! ```toml
//! map = "../maps/arena.map"   # relative to this file
//! seed = 42
//! tick_rate = 20              # ticks per second, 1..=1000 (default 20)
//! ticks = 1200                # run length (default 1200; `--ticks` overrides)
//! waypoints = "arena.json"    # optional waypoint file made for this map, to start from
//! nav = "arena.nav"           # optional compiled navigation (`botarena nav compile`) for
//!                             # compiled-navigation players; compiled at load when absent
//! time_limit = 300            # seconds; the match ends then (optional)
//! frag_limit = 20             # the match ends when a player reaches it (optional)
//! footsteps = false           # running players make footstep sounds (Quake has none;
//!                             # the seed's bots heard them at 333 units)
//! threads = 2                 # worker threads for per-bot stages (default: the cores)
//!
//! [physics]
//! integration = "exact"       # exact (gravity on the exact parabola at any tick rate:
//!                             # jumps peak at 45.6) | quake (QuakeWorld's: 43.7 at 72 Hz,
//!                             # 39.0 at 20 Hz; with tick_rate = 72 players' own physics)
//!
//! [items]
//! respawn_scale = 1.0         # multiplies Quake's respawn times
//! remove = ["item_artifact_invulnerability"]   # item classes taken out
//!
//! [[players]]
//! name = "ranger"
//! controller = "brain"        # brain (default) | idle | wander | explore | goto | route | script
//! reaction = 0.2              # brain: seconds before reacting to an enemy in sight
//! aim_error = 4.0             # brain: largest aim error, degrees
//! travel = ["walk", "jump", "fall", "swim", "teleport", "elevator"]   # allowed routes
//! navigation = "learned"      # learned (drops waypoints, reference 000) | compiled (routes
//!                             # on the compiled area graph from tick 0)
//! spawn = 0                   # optional spawn point index
//! fov = 360                   # field of view, degrees (1..=360)
//! sight = 8192                # farthest distance seen
//! hearing = 1.0               # scales every sound's audible distance
//! hearing_model = "distance"  # distance (straight) | path (along the way through the map,
//!                             # on the compiled area graph)
//! reach_checks = true         # test the reachability of the nearest things in sight
//!                             # (default: only explorers, the controller that reads them)
//! ```
//!
//! Runs built on scenarios and matches: [`run_match`], explorations ([`explore`]), item tours
//! and legs ([`tour`]), batches over seeds ([`batch`]) and run reports ([`report`]).
//!
//! Entry points: [`Scenario::load`], [`Scenario::parse`], [`Scenario::build`].

pub mod batch;
mod check;
pub mod explore;
mod keys;
pub use keys::keys;
mod players;
pub mod report;
pub mod tour;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use crate::bot::compiled::Navigation;
use crate::game::MatchRules;
use crate::map::file_kind::{FileKind, mismatch};
use crate::map::{MapData, MapError, build_level};
use crate::nav::waypoint_file::{geometry_hash, load as load_waypoints};
use crate::physics::PhysicsParams;
use crate::tick::{Match, MatchConfig, MatchError, PlayerConfig};

/// A scenario that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// A file of another kind given for this one (the message names both).
    #[error("{0}")]
    WrongKind(String),
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A syntax error, unknown key or bad value.
    #[error("{path}:{line}:{column}: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The map it names is broken.
    #[error("{0}")]
    Map(#[from] MapError),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: Option<String>,
    map: Spanned<String>,
    #[serde(default)]
    seed: u64,
    tick_rate: Option<Spanned<u32>>,
    ticks: Option<Spanned<u64>>,
    waypoints: Option<Spanned<String>>,
    nav: Option<Spanned<String>>,
    time_limit: Option<Spanned<f32>>,
    frag_limit: Option<Spanned<i32>>,
    footsteps: Option<bool>,
    threads: Option<Spanned<usize>>,
    items: Option<RawItems>,
    physics: Option<RawPhysics>,
    #[serde(default)]
    players: Vec<players::RawPlayer>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPhysics {
    integration: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItems {
    respawn_scale: Option<Spanned<f32>>,
    #[serde(default)]
    remove: Vec<Spanned<String>>,
}

/// A player as the scenario describes it.
#[derive(Clone, Debug)]
pub struct ScenarioPlayer {
    /// The player config handed to the simulation.
    pub config: PlayerConfig,
    /// Lines of its `spawn`, `start`, `target` and `name` keys (0: not given), for errors
    /// found once the map is loaded.
    spawn_line: usize,
    start_line: usize,
    target_line: usize,
    name_line: usize,
}

/// A validated scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The file it came from.
    pub path: PathBuf,
    /// A display name (the file stem when not given).
    pub name: String,
    /// The map file, resolved against the scenario's folder.
    pub map: PathBuf,
    /// Seed.
    pub seed: u64,
    /// Ticks per second.
    pub tick_rate: u32,
    /// Default run length in ticks.
    pub ticks: u64,
    /// A waypoint file to start from (made for this map), and the line of its key.
    pub waypoints: Option<(PathBuf, usize)>,
    /// A compiled navigation file for compiled-navigation players, and the line of its key
    /// (none: compiled when the match is built, if a player needs it).
    pub nav: Option<(PathBuf, usize)>,
    /// Players.
    pub players: Vec<ScenarioPlayer>,
    /// Match rules (limits, item rules).
    pub rules: MatchRules,
    /// Worker threads for per-bot stages (`None`: [`crate::sim::parallel::match_threads`]).
    pub threads: Option<usize>,
    /// The player physics (`[physics]`).
    pub physics: PhysicsParams,
    /// `items.remove` classes that are not Quake's, with their lines: the map must have them.
    removals_to_check: Vec<(String, usize)>,
}

/// Runs `m` for up to `ticks` ticks, stopping early when the match ends (a time or frag
/// limit); `each` sees the match after every tick. Returns the ticks run.
pub fn run_match(m: &mut Match, ticks: u64, mut each: impl FnMut(&Match)) -> u64 {
    let mut done = 0;
    while done < ticks && m.over().is_none() {
        m.step();
        done += 1;
        each(m);
    }
    done
}

/// The default tick rate.
pub const DEFAULT_TICK_RATE: u32 = 20;
/// The default run length.
pub const DEFAULT_TICKS: u64 = 1200;
/// Most players a scenario may have.
pub const MAX_PLAYERS: usize = 256;
/// The longest run a scenario may ask for: 58 days of play at 20 ticks a second, and a
/// bound on what a replay of it may claim.
pub const MAX_TICKS: u64 = 100_000_000;
/// The longest time limit, seconds (a year).
pub const MAX_TIME_LIMIT: f32 = 3.2e7;

impl Scenario {
    /// Reads and validates a scenario file (the map file must exist).
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let bytes = crate::map::file_kind::read_at_most(
            path,
            crate::map::file_kind::MAX_SCENARIO_BYTES,
            "a scenario",
        )
        .map_err(|source| ScenarioError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let wrong = || {
            let name = path.display().to_string();
            mismatch(&name, &bytes, FileKind::Scenario).map(ScenarioError::WrongKind)
        };
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => t,
            Err(e) => {
                return Err(wrong().unwrap_or_else(|| ScenarioError::Io {
                    path: path.display().to_string(),
                    source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
                }));
            }
        };
        Self::parse(text, path).map_err(|e| wrong().unwrap_or(e))
    }

    /// Makes the players called `names` external (their commands come from
    /// [`Match::set_command`], whatever controller the file gives them); an unknown name is
    /// refused, naming the players there are, with nothing changed.
    pub fn make_external(&mut self, names: &[String]) -> Result<(), String> {
        for name in names {
            if !self.players.iter().any(|p| p.config.name == *name) {
                let all: Vec<&str> = self
                    .players
                    .iter()
                    .map(|p| p.config.name.as_str())
                    .collect();
                return Err(format!(
                    "{}: no player {name:?} to make external (players: {})",
                    self.path.display(),
                    all.join(", ")
                ));
            }
        }
        for p in &mut self.players {
            if names.contains(&p.config.name) {
                p.config.controller = crate::bot::control::ControllerConfig::External;
            }
        }
        Ok(())
    }

    /// Validates scenario text; `path` names it in errors and anchors the map path.
    pub fn parse(text: &str, path: &Path) -> Result<Scenario, ScenarioError> {
        let at = check::At {
            text,
            path: path.display().to_string(),
        };
        let err_at = |offset: usize, message: String| at.err(offset, message);
        let raw: RawScenario = toml::from_str(text).map_err(|e| {
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            let msg = e.message().trim().to_string();
            // A wrong type names no key: take it from the line (`key = value`).
            let line_start = text[..offset.min(text.len())]
                .rfind('\n')
                .map(|i| i + 1)
                .unwrap_or(0);
            let key = text[line_start..]
                .split_once('=')
                .map(|(k, _)| k.trim())
                .filter(|k| {
                    !k.is_empty()
                        && k.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                });
            match key {
                Some(k) if !msg.contains(k) => err_at(offset, format!("{k}: {msg}")),
                _ => err_at(offset, msg),
            }
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        let map = base.join(raw.map.get_ref());
        if !map.is_file() {
            return Err(err_at(
                raw.map.span().start,
                format!("map: file {} does not exist", map.display()),
            ));
        }
        // A file the scenario names (relative to it), with the line of its key.
        let named_file = |key: &str, v: &Option<Spanned<String>>| match v {
            Some(w) => {
                let f = base.join(w.get_ref());
                if !f.is_file() {
                    return Err(err_at(
                        w.span().start,
                        format!("{key}: file {} does not exist", f.display()),
                    ));
                }
                Ok(Some((f, at.line(w.span().start))))
            }
            None => Ok(None),
        };
        let waypoints = named_file("waypoints", &raw.waypoints)?;
        let nav = named_file("nav", &raw.nav)?;
        let tick_rate = match &raw.tick_rate {
            Some(t) if !(1..=1000).contains(t.get_ref()) => {
                return Err(err_at(
                    t.span().start,
                    format!("tick_rate: {} is outside 1..=1000", t.get_ref()),
                ));
            }
            Some(t) => *t.get_ref(),
            None => DEFAULT_TICK_RATE,
        };
        let mut physics = PhysicsParams::default();
        if let Some(i) = raw.physics.as_ref().and_then(|p| p.integration.as_ref()) {
            physics.integration = crate::physics::pmove::Integration::from_name(i.get_ref())
                .map_err(|m| err_at(i.span().start, format!("integration: {m}")))?;
        }
        let ticks = match &raw.ticks {
            Some(t) if !(1..=MAX_TICKS).contains(t.get_ref()) => {
                return Err(err_at(
                    t.span().start,
                    format!("ticks: {} is outside 1..={MAX_TICKS}", t.get_ref()),
                ));
            }
            Some(t) => *t.get_ref(),
            None => DEFAULT_TICKS,
        };
        if raw.players.len() > MAX_PLAYERS {
            return Err(err_at(
                0,
                format!(
                    "players: {} given, at most {MAX_PLAYERS}",
                    raw.players.len()
                ),
            ));
        }
        let threads = match &raw.threads {
            Some(t) if !(1..=256).contains(t.get_ref()) => {
                return Err(err_at(
                    t.span().start,
                    format!("threads: {} is outside 1..=256", t.get_ref()),
                ));
            }
            Some(t) => Some(*t.get_ref()),
            None => None,
        };
        let mut removals_to_check = Vec::new();
        let mut rules = MatchRules {
            footsteps: raw.footsteps.unwrap_or(false),
            ..MatchRules::default()
        };
        if let Some(t) = &raw.time_limit {
            let x = *t.get_ref();
            if !(x.is_finite() && x > 0.0 && x <= MAX_TIME_LIMIT) {
                return Err(err_at(
                    t.span().start,
                    format!(
                        "time_limit: {x} is outside 0..={MAX_TIME_LIMIT} seconds (and must be more than 0)"
                    ),
                ));
            }
            rules.time_limit = Some(x);
        }
        if let Some(f) = &raw.frag_limit {
            if *f.get_ref() < 1 {
                return Err(err_at(
                    f.span().start,
                    format!("frag_limit: {} must be at least 1", f.get_ref()),
                ));
            }
            rules.frag_limit = Some(*f.get_ref());
        }
        if let Some(items) = &raw.items {
            if let Some(r) = &items.respawn_scale {
                let x = *r.get_ref();
                if !(x.is_finite() && (0.01..=100.0).contains(&x)) {
                    return Err(err_at(
                        r.span().start,
                        format!("items.respawn_scale: {x} is outside 0.01..=100"),
                    ));
                }
                rules.respawn_scale = x;
            }
            for c in &items.remove {
                let class = c.get_ref();
                let known = crate::map::level::ITEM_CLASSES;
                if !known.contains(&class.as_str()) {
                    if crate::map::level::ItemKind::from_classname(class, 0).is_none() {
                        return Err(err_at(
                            c.span().start,
                            format!(
                                "items.remove: {class:?} is not an item class (weapon_*, item_*){}",
                                check::suggestion(class, known.iter().copied())
                            ),
                        ));
                    }
                    // Another game's item: the map must have it (checked once it is loaded).
                    removals_to_check.push((class.clone(), at.line(c.span().start)));
                }
                rules.removed_items.push(class.clone());
            }
        }
        if raw.players.is_empty() {
            return Err(err_at(
                text.len(),
                "players: none given (add a [[players]] table with at least a name)".into(),
            ));
        }
        let mut players: Vec<ScenarioPlayer> = Vec::with_capacity(raw.players.len());
        for rp in raw.players {
            let name_at = rp.name.span().start;
            let p = players::player(rp, &at)?;
            if let Some(first) = players.iter().find(|q| q.config.name == p.config.name) {
                return Err(err_at(
                    name_at,
                    format!(
                        "name: {:?} is already the name of the player on line {} (names must differ)",
                        p.config.name, first.name_line
                    ),
                ));
            }
            players.push(p);
        }
        Ok(Scenario {
            path: path.to_path_buf(),
            name: raw.name.unwrap_or_else(|| {
                path.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default()
            }),
            map,
            seed: raw.seed,
            tick_rate,
            ticks,
            waypoints,
            nav,
            players,
            rules,
            threads,
            physics,
            removals_to_check,
        })
    }

    /// The match config.
    pub fn match_config(&self) -> MatchConfig {
        MatchConfig {
            seed: self.seed,
            tick_rate: self.tick_rate,
            params: self.physics,
            players: self.players.iter().map(|p| p.config.clone()).collect(),
            rules: self.rules.clone(),
            nav: None,
        }
    }

    /// Loads the map and builds the match.
    pub fn build(&self) -> Result<Match, ScenarioError> {
        let (level, cmap) = self.load_map()?;
        self.build_on(Arc::new(level), cmap)
    }

    /// Loads the scenario's map: the level and its collision world, for
    /// [`Scenario::build_on`].
    pub fn load_map(&self) -> Result<(crate::map::Level, crate::map::CollisionMap), ScenarioError> {
        Ok(build_level(MapData::load(&self.map)?))
    }

    /// Builds the match on a map already loaded ([`Scenario::load_map`]; many matches of
    /// one scenario share one level and one collision world's static part).
    pub fn build_on(
        &self,
        level: Arc<crate::map::Level>,
        cmap: crate::map::CollisionMap,
    ) -> Result<Match, ScenarioError> {
        self.check_map(&level, &cmap)?;
        let nav = self.navigation(&level, &cmap)?;
        self.build_with(level, cmap, nav)
    }

    /// Checks the scenario against its loaded map (spawn points where players need them,
    /// starts inside the sealed world and clear of brushes, targets within the map, removed
    /// item classes the map has): what [`Scenario::build_on`] checks before it builds, for
    /// a caller that builds with [`Scenario::build_with`].
    pub fn check_map(
        &self,
        level: &crate::map::Level,
        cmap: &crate::map::CollisionMap,
    ) -> Result<(), ScenarioError> {
        check::against_map(self, level, cmap)
    }

    /// Whether a player needs compiled navigation (compiled navigation or path hearing):
    /// [`Scenario::navigation`] loads or compiles it only then, or where a `nav` file is
    /// named.
    pub fn needs_navigation(&self) -> bool {
        self.players.iter().any(|p| {
            p.config.navigation == Navigation::Compiled
                || p.config.senses.hearing_model == crate::bot::hearing::HearingModel::Path
        })
    }

    /// The compiled navigation the scenario's players need (a player with compiled
    /// navigation or path hearing): its `nav` file loaded, or compiled here at the match's
    /// tick rate (a second or so on an id map); `None` where none needs it. Many matches of
    /// one scenario on one loaded map share it ([`Scenario::build_with`]): the same for
    /// every seed.
    pub fn navigation(
        &self,
        level: &crate::map::Level,
        cmap: &crate::map::CollisionMap,
    ) -> Result<Option<Arc<crate::aas::NavMesh>>, ScenarioError> {
        let invalid = |line: usize, message: String| ScenarioError::Invalid {
            path: self.path.display().to_string(),
            line,
            column: 1,
            message,
        };
        let needs_nav = self.needs_navigation();
        let nav = match &self.nav {
            Some((f, line)) => Some(
                crate::aas::file::load_for(f, level)
                    .map_err(|e| invalid(*line, format!("nav: {e}")))?,
            ),
            None if needs_nav => {
                let params = crate::aas::CompileParams {
                    tick_rate: self.tick_rate,
                    threads: self.threads.unwrap_or(0),
                    ..Default::default()
                };
                Some(
                    crate::aas::compile(level, cmap, &params, &mut |_, _, _| {})
                        .map_err(|e| invalid(0, format!("compiling navigation: {e}")))?,
                )
            }
            None => None,
        };
        Ok(nav.map(Arc::new))
    }

    /// Builds the match on a map already loaded and checked ([`Scenario::build_on`] checks
    /// the scenario against it) with the navigation [`Scenario::navigation`] made for it.
    pub fn build_with(
        &self,
        level: Arc<crate::map::Level>,
        cmap: crate::map::CollisionMap,
        nav: Option<Arc<crate::aas::NavMesh>>,
    ) -> Result<Match, ScenarioError> {
        let graph = match &self.waypoints {
            Some((f, line)) => {
                let expect = (level.map.name.clone(), geometry_hash(&level));
                let (_, g) = load_waypoints(f, Some((&expect.0, &expect.1))).map_err(|e| {
                    ScenarioError::Invalid {
                        path: self.path.display().to_string(),
                        line: *line,
                        column: 1,
                        message: format!("waypoints: {e}"),
                    }
                })?;
                Some(g)
            }
            None => None,
        };
        let mut cfg = self.match_config();
        cfg.nav = nav;
        let nav_line = self.nav.as_ref().map(|n| n.1).unwrap_or(0);
        let mut m = Match::new(level, cmap, &cfg).map_err(|e| {
            let line = match &e {
                MatchError::NoSuchSpawn { player, .. } => self
                    .players
                    .iter()
                    .find(|p| &p.config.name == player)
                    .map(|p| p.spawn_line)
                    .unwrap_or(0),
                MatchError::NavTickRate { .. } => nav_line,
                _ => 0,
            };
            ScenarioError::Invalid {
                path: self.path.display().to_string(),
                line,
                column: 1,
                message: e.to_string(),
            }
        })?;
        if let Some(g) = graph {
            m.set_waypoints(g);
        }
        m.sim.threads = self
            .threads
            .unwrap_or_else(|| crate::sim::parallel::match_threads(self.players.len()));
        Ok(m)
    }
}
