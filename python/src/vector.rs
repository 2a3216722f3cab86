//! `botarena._native.VecMatch`: many matches of one scenario, one agent each, stepped
//! together inside Rust with the GIL released, spread over a worker pool. What
//! `botarena.vector_env` (Gymnasium's `VectorEnv`) is built on: one Python call steps every
//! match, and the observations come back as one buffer.
//!
//! Each match is the single environment's: built from the scenario with its seed, the
//! agent's action turned into a command, `ticks` ticks, the observation and reward. So match
//! `i` reset with seed `s` goes through the same states as a single environment with seed
//! `s`. A match whose episode ended is rebuilt on the next step (Gymnasium's "next step"
//! autoreset) with its seed plus the number of matches, so no two episodes share a seed.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use botarena::agent::{Goal, OBS_LEN};
use botarena::scenario::Scenario;
use botarena::sim::parallel::Pool;
use pyo3::prelude::{Bound, PyResult, Python, pyclass, pymethods};
use pyo3::types::PyByteArray;

use super::{AgentStats, BotarenaError, State, check_threads, goal_of, scenario_error};

/// What every match shares: the scenario (the agent made external) and its map, loaded
/// once (the matches share the level and the collision world's static part, so that they
/// build in a fraction of a millisecond and hold one copy of the map between them).
struct Shared {
    scenario: Scenario,
    level: Arc<botarena::map::Level>,
    cmap: botarena::map::CollisionMap,
    /// The scenario's compiled navigation, made once for every episode.
    nav: Option<Arc<botarena::aas::NavMesh>>,
    player: String,
    ticks: u64,
    goal: Goal,
    max_ticks: u64,
    /// Matches in all (the step between a match's successive seeds).
    n: u64,
}

/// One match and where its episode stands.
struct Env {
    state: State,
    /// The agent's player index.
    index: usize,
    /// The seed its current episode was built with.
    seed: u64,
    /// The episode ended: the next step rebuilds it.
    ended: bool,
}

/// One match's part of a call: in, the match (or none yet) and its action or seed; out,
/// what the step gave.
struct Job {
    /// Boxed: a match is several kilobytes, and the job moves through the pool's queues.
    env: Option<Box<Env>>,
    action: Vec<u8>,
    reset_to: Option<u64>,
    out: Result<Out, String>,
}

/// A step's answer for one match: observation bytes, stats, terminated, truncated, tick.
type Out = (Vec<u8>, AgentStats, bool, bool, u64);

fn build(sh: &Shared, seed: u64) -> Result<Box<Env>, String> {
    let mut sc = sh.scenario.clone();
    sc.seed = seed;
    let mut m = sc
        .build_with(Arc::clone(&sh.level), sh.cmap.clone(), sh.nav.clone())
        .map_err(|e| e.to_string())?;
    m.sim.threads = 1;
    let mut state = State::around(m, &sc, None);
    state.keeps_events = false;
    let index = state
        .m
        .player_index(&sh.player)
        .map_err(|e| e.to_string())?;
    Ok(Box::new(Env {
        state,
        index,
        seed,
        ended: false,
    }))
}

/// The observation of a match just built, as a step answers it (reward 0, going on).
fn fresh(env: &mut Env, goal: Goal) -> Result<Out, String> {
    let State { m, observer, .. } = &mut env.state;
    let obs = observer
        .observe(m, env.index, goal)
        .ok_or_else(|| "the agent has no state".to_string())?;
    let bytes = obs.iter().flat_map(|x| x.to_le_bytes()).collect();
    let stats = env.state.stats(env.index);
    Ok((
        bytes,
        (stats.0, stats.1, stats.2, stats.3, 0.0),
        false,
        false,
        env.state.m.tick(),
    ))
}

fn run_job(sh: &Shared, job: &mut Job) {
    job.out = (|| {
        if let Some(seed) = job.reset_to {
            job.env = Some(build(sh, seed)?);
            let env = job.env.as_mut().ok_or("no match")?;
            return fresh(env, sh.goal);
        }
        let env = job.env.as_mut().ok_or("reset() first")?;
        if env.ended {
            *env = build(sh, env.seed + sh.n)?;
            return fresh(env, sh.goal);
        }
        let (obs, stats, tick, over) = env
            .state
            .agent_step(&[env.index], &job.action, sh.ticks, sh.goal)
            .map_err(|e| e.to_string())?;
        let terminated = over.is_some();
        let truncated = !terminated && tick >= sh.max_ticks;
        env.ended = terminated || truncated;
        let s = stats.first().copied().unwrap_or_default();
        Ok((obs, s, terminated, truncated, tick))
    })();
}

/// Matches of one scenario stepped together (`VecMatch(scenario, num_envs, player, ...)`).
#[pyclass(module = "botarena._native", name = "VecMatch", frozen)]
pub struct PyVecMatch {
    inner: Mutex<Inner>,
}

struct Inner {
    shared: Arc<Shared>,
    envs: Vec<Option<Box<Env>>>,
    pool: Pool,
}

/// What `step` and `reset` return: every observation (float32, one row per match), and
/// the columns of per-match numbers in one buffer, each column `num_envs` long, in the
/// order of [`COLUMNS`] (two buffers, so that Python makes each array a view without
/// converting a list).
type Batch<'py> = (Bound<'py, PyByteArray>, Bound<'py, PyByteArray>);

/// The columns of a [`Batch`], in their order, with their numpy type: the 8-byte ones
/// first, then the 4-byte and the 1-byte ones, so that each column is aligned.
pub const COLUMNS: [(&str, &str); 9] = [
    ("reward", "<f8"),
    ("tick", "<u8"),
    ("seed", "<u8"),
    ("health", "<f4"),
    ("frags", "<i4"),
    ("deaths", "<u4"),
    ("terminated", "|b1"),
    ("truncated", "|b1"),
    ("alive", "|b1"),
];

#[pymethods]
impl PyVecMatch {
    /// `num_envs` matches of `scenario`, each with `player` as the agent (made external),
    /// `ticks` ticks per step, the route hint toward `goal`, episodes truncated at tick
    /// `max_ticks` (default: the scenario's `ticks`), stepped on `threads` threads (default:
    /// one per match up to the machine's cores). The scenario is checked here; the matches
    /// are built by `reset`.
    #[new]
    #[pyo3(signature = (scenario, num_envs, player, ticks=1, max_ticks=None, goal=None, threads=None))]
    #[allow(
        clippy::too_many_arguments,
        reason = "the Python constructor's keywords"
    )]
    fn new(
        py: Python<'_>,
        scenario: PathBuf,
        num_envs: usize,
        player: String,
        ticks: u64,
        max_ticks: Option<u64>,
        goal: Option<(f32, f32, f32)>,
        threads: Option<usize>,
    ) -> PyResult<Self> {
        if !(1..=4096).contains(&num_envs) {
            return Err(BotarenaError::new_err(format!(
                "num_envs = {num_envs}: expected 1 to 4096"
            )));
        }
        if ticks == 0 {
            return Err(BotarenaError::new_err("ticks = 0: expected at least 1"));
        }
        let threads =
            threads.unwrap_or_else(|| botarena::sim::parallel::default_threads().min(num_envs));
        check_threads(threads)?;
        let goal = goal_of(goal)?;
        let loaded = py.detach(|| -> Result<_, String> {
            let mut sc = Scenario::load(&scenario).map_err(|e| e.to_string())?;
            sc.make_external(std::slice::from_ref(&player))?;
            let (level, cmap) = sc.load_map().map_err(|e| e.to_string())?;
            let level = Arc::new(level);
            // Built once here, so that a scenario the map refuses fails now; its
            // navigation is made once and shared by every episode.
            let nav = sc
                .build_on(Arc::clone(&level), cmap.clone())
                .map_err(|e| e.to_string())?
                .nav
                .map(|n| Arc::clone(&n.mesh));
            Ok((sc, level, cmap, nav))
        });
        let (sc, level, cmap, nav) = loaded.map_err(scenario_error)?;
        let shared = Shared {
            max_ticks: max_ticks.unwrap_or(sc.ticks),
            scenario: sc,
            level,
            cmap,
            nav,
            player,
            ticks,
            goal,
            n: num_envs as u64,
        };
        Ok(PyVecMatch {
            inner: Mutex::new(Inner {
                shared: Arc::new(shared),
                envs: (0..num_envs).map(|_| None).collect(),
                pool: Pool::new(threads),
            }),
        })
    }

    /// Matches in all.
    #[getter]
    fn num_envs(&self) -> usize {
        self.lock().envs.len()
    }

    /// Builds every match anew, match `i` with `seeds[i]`; returns the first observations
    /// (and the rest of a batch: rewards 0, nothing ended).
    fn reset<'py>(&self, py: Python<'py>, seeds: Vec<u64>) -> PyResult<Batch<'py>> {
        let n = self.lock().envs.len();
        if seeds.len() != n {
            return Err(BotarenaError::new_err(format!(
                "{} seeds for {n} matches",
                seeds.len()
            )));
        }
        let jobs = seeds
            .into_iter()
            .map(|s| Job {
                env: None,
                action: Vec::new(),
                reset_to: Some(s),
                out: Err(String::new()),
            })
            .collect();
        self.run(py, jobs)
    }

    /// One step of every match: `actions` holds one row of int64 (little-endian) per match,
    /// as the single environment's. A match whose episode ended at the last step is rebuilt
    /// instead (its action ignored) with its next seed.
    fn step<'py>(&self, py: Python<'py>, actions: &[u8]) -> PyResult<Batch<'py>> {
        let width = botarena::agent::ACTION_NVEC.len() * 8;
        let n = self.lock().envs.len();
        if actions.len() != n * width {
            return Err(BotarenaError::new_err(format!(
                "actions: {} bytes for {n} matches, expected {} (int64 rows of {})",
                actions.len(),
                n * width,
                width / 8
            )));
        }
        // Every action checked before any match moves: a refusal changes nothing.
        let nvec = botarena::agent::ACTION_NVEC;
        for (i, row) in actions.chunks_exact(width).enumerate() {
            let values: Vec<i64> = row
                .chunks_exact(8)
                .map(|b| i64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
                .collect();
            if values.iter().zip(nvec).any(|(&a, n)| !(0..n).contains(&a)) {
                return Err(super::CommandError::new_err(format!(
                    "match {i}: action {values:?} is not in MultiDiscrete({nvec:?})"
                )));
            }
        }
        let jobs = actions
            .chunks_exact(width)
            .map(|a| Job {
                env: None,
                action: a.to_vec(),
                reset_to: None,
                out: Err(String::new()),
            })
            .collect();
        self.run(py, jobs)
    }

    /// Each match's state hash now, as the CLI writes it (for checking a match against a
    /// single environment).
    fn hashes(&self) -> Vec<String> {
        self.lock()
            .envs
            .iter()
            .map(|e| {
                e.as_ref()
                    .map(|e| botarena::scenario::report::hash_hex(e.state.m.state_hash()))
                    .unwrap_or_default()
            })
            .collect()
    }
}

impl PyVecMatch {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `jobs` (one per match, in order) on the pool with the GIL released and gathers
    /// the answers; a match that fails fails the call, naming it.
    fn run<'py>(&self, py: Python<'py>, mut jobs: Vec<Job>) -> PyResult<Batch<'py>> {
        let outs = py.detach(|| {
            let mut inner = self.lock();
            let Inner { shared, envs, pool } = &mut *inner;
            for (job, env) in jobs.iter_mut().zip(envs.iter_mut()) {
                job.env = env.take();
            }
            // One block of matches per thread, the same block each call, so that a match's
            // memory stays with one core (taken from a shared queue, matches moved between
            // cores every step and two threads ran slower than one); a thread through
            // with its block takes matches left in another's, so the threads end together.
            let jobs = pool.run_blocks(shared, jobs, run_job);
            // Each answer with the seed of its match's episode, read under the same lock.
            let mut outs = Vec::with_capacity(jobs.len());
            for (job, env) in jobs.into_iter().zip(envs.iter_mut()) {
                *env = job.env;
                outs.push((job.out, env.as_ref().map_or(0, |e| e.seed)));
            }
            outs
        });
        let n = outs.len();
        let mut obs = Vec::with_capacity(n * OBS_LEN * 4);
        let mut cols = vec![Vec::with_capacity(n * 8); COLUMNS.len()];
        for (i, (o, seed)) in outs.into_iter().enumerate() {
            let (o, (frags, deaths, alive, health, reward), term, trunc, tick) =
                o.map_err(|e| BotarenaError::new_err(format!("match {i}: {e}")))?;
            obs.extend(o);
            cols[0].extend(reward.to_le_bytes());
            cols[1].extend(tick.to_le_bytes());
            cols[2].extend(seed.to_le_bytes());
            cols[3].extend(health.to_le_bytes());
            cols[4].extend(frags.to_le_bytes());
            cols[5].extend(deaths.to_le_bytes());
            cols[6].push(term as u8);
            cols[7].push(trunc as u8);
            cols[8].push(alive as u8);
        }
        Ok((
            PyByteArray::new(py, &obs),
            PyByteArray::new(py, &cols.concat()),
        ))
    }
}

/// The scenarios the package registers with Gymnasium, and the map they play: the
/// repository's own files, built into the module so that an installed package has them.
const BUNDLED: [(&str, &str); 2] = [
    ("duel", include_str!("../../scenarios/duel.toml")),
    ("default", include_str!("../../scenarios/default.toml")),
];
const ARENA: &str = include_str!("../../maps/arena.map");

/// Writes the bundled scenario `name` (`duel`, `default`) and the arena map under `folder`
/// (`folder/scenarios/NAME.toml`, `folder/maps/arena.map`, each written whole through a
/// temporary file) and returns the scenario's path.
#[pyo3::pyfunction]
pub fn bundled_scenario(name: &str, folder: PathBuf) -> PyResult<PathBuf> {
    let Some((_, text)) = BUNDLED.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
        return Err(BotarenaError::new_err(format!(
            "no bundled scenario {name:?} (there are {})",
            names.join(", ")
        )));
    };
    let write = |path: PathBuf, text: &str| -> PyResult<()> {
        let err = |e: std::io::Error| BotarenaError::new_err(format!("{}: {e}", path.display()));
        if std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
            return Ok(());
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        let tmp = path.with_extension(format!("partial{}", std::process::id()));
        std::fs::write(&tmp, text).map_err(err)?;
        std::fs::rename(&tmp, &path).map_err(err)
    };
    write(folder.join("maps/arena.map"), ARENA)?;
    let scenario = folder.join(format!("scenarios/{name}.toml"));
    write(scenario.clone(), text)?;
    Ok(scenario)
}
