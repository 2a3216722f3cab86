//! `botarena._native`: the native half of botarena's Python module. A [`PyMatch`] is a
//! running match stepped from Python with the GIL released (other Python threads run while
//! it simulates); [`run_record`] runs one whole match as `botarena batch` does, for Ray tasks.
//! What the Python side reads comes from `botarena::agent`, so the CLI, the Rust API and
//! Python see the same records. The environments (PettingZoo, Gymnasium) and `ray_batch`
//! are plain Python over this, in `python/botarena/`.
//!
//! Errors keep the messages the CLI prints (after its `error: `), raised as
//! `botarena.ScenarioError` (a scenario or map that cannot be loaded), `botarena.CommandError`
//! (a command refused) or `botarena.BotarenaError` (their base).

mod loaded;
mod vector;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use botarena::agent::{self, Goal, OBS_LAYOUT, OBS_LEN, OBS_LIMIT, Observer};
use botarena::bot::control::ScriptStep;
use botarena::game::Weapon;
use botarena::replay::Recorder;
use botarena::scenario::Scenario;
use botarena::scenario::batch::{report_name, run_one};
use botarena::scenario::report::hash_hex;
use botarena::sim::SimEvent;
use botarena::tick::Match;
use glam::Vec3;
use pyo3::IntoPyObjectExt;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::intern;
use pyo3::prelude::{
    Bound, PyAny, PyErr, PyModule, PyModuleMethods, PyResult, Python, pyclass, pyfunction,
    pymethods, pymodule, wrap_pyfunction,
};
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyDictMethods, PyList, PyListMethods};

create_exception!(
    _native,
    BotarenaError,
    PyException,
    "Something botarena refused or could not do; the message is the one its CLI prints."
);
create_exception!(
    _native,
    ScenarioError,
    BotarenaError,
    "A scenario, its map or another file it names could not be read or is not valid."
);
create_exception!(
    _native,
    CommandError,
    BotarenaError,
    "A command was refused: no such player, not an external player, a number that is not finite, an unknown weapon."
);

fn scenario_error(e: impl ToString) -> PyErr {
    ScenarioError::new_err(e.to_string())
}

/// A JSON value as the Python object `json.loads` would give.
fn to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_bound_py_any(py)?,
            (None, Some(u)) => u.into_bound_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?,
        },
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(a) => {
            let l = PyList::empty(py);
            for x in a {
                l.append(to_py(py, x)?)?;
            }
            l.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

fn serialized<'py>(py: Python<'py>, v: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_value(v).map_err(|e| BotarenaError::new_err(e.to_string()))?;
    to_py(py, &json)
}

/// Most events a match keeps for `events()`: a program that never asks for them (a
/// learning run of millions of ticks) must not fill the memory.
const MAX_EVENTS: usize = 100_000;

/// Keeps this tick's events of `m`, dropping the oldest past [`MAX_EVENTS`].
fn keep_events(m: &Match, events: &mut VecDeque<(u64, SimEvent)>) {
    events.extend(m.sim.events.iter().map(|e| (m.sim.tick, e.clone())));
    while events.len() > MAX_EVENTS {
        events.pop_front();
    }
}

/// What a [`PyMatch`] holds behind its lock.
struct State {
    m: Match,
    /// Events of the ticks stepped since `events()` was last called, with their ticks
    /// (the newest [`MAX_EVENTS`]); made into dicts only when asked for.
    events: VecDeque<(u64, SimEvent)>,
    /// Whether `agent_step` keeps the events (a vector env's matches have no `events()`
    /// to read them, so they keep none).
    keeps_events: bool,
    observer: Observer,
    /// The scenario's default run length.
    ticks: u64,
    /// The seed it was built with.
    seed: u64,
    /// Wall-clock time spent inside the match's ticks.
    step_time: Duration,
    /// The replay being recorded (`record=True`).
    recorder: Option<Recorder>,
    /// Per player (by index), its (frags, deaths) when its reward was last taken: an
    /// agent's reward is what changed since (see [`State::stats`]).
    scores: Vec<(i32, u32)>,
    /// The agent of `agent_step_one`: (player index, ticks per step, goal, max ticks).
    agent: Option<(usize, u64, Goal, u64)>,
}

/// A running match of a scenario file (`botarena.Match(path, seed=None, threads=1)`).
#[pyclass(module = "botarena._native", name = "Match")]
struct PyMatch {
    state: Mutex<State>,
}

impl PyMatch {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while stepping would poison the lock; the state is still readable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[pymethods]
impl PyMatch {
    /// Loads `scenario` (a TOML file), overriding its seed when `seed` is given and making
    /// the players named in `external` external (their commands come from `set_command`,
    /// whatever the scenario gives them), and builds the match (tick 0). `threads`: worker
    /// threads for the per-bot stages; results are the same for any number. `record`: keep
    /// a replay of the run (every tick's hash, events, the commands given) for
    /// `save_replay`.
    #[new]
    #[pyo3(signature = (scenario, seed=None, threads=1, external=Vec::new(), record=false))]
    fn new(
        py: Python<'_>,
        scenario: PathBuf,
        seed: Option<u64>,
        threads: usize,
        external: Vec<String>,
        record: bool,
    ) -> PyResult<Self> {
        check_threads(threads)?;
        let state = py
            .detach(|| State::build(&scenario, seed, threads, &external, record))
            .map_err(scenario_error)?;
        Ok(PyMatch {
            state: Mutex::new(state),
        })
    }

    /// Runs `n` ticks, fewer if the match ends first (a time or frag limit); returns the
    /// ticks run. The GIL is released meanwhile.
    #[pyo3(signature = (n=1))]
    fn step(&self, py: Python<'_>, n: u64) -> u64 {
        py.detach(|| {
            let mut st = self.lock();
            let mut done = 0;
            while done < n && st.m.over().is_none() {
                let State {
                    m,
                    events,
                    step_time,
                    recorder,
                    ..
                } = &mut *st;
                let t0 = Instant::now();
                m.step();
                *step_time += t0.elapsed();
                keep_events(m, events);
                if let Some(r) = recorder {
                    r.record(m);
                }
                done += 1;
            }
            done
        })
    }

    /// Ticks done.
    #[getter]
    fn tick(&self) -> u64 {
        self.lock().m.tick()
    }

    /// Simulated seconds so far.
    #[getter]
    fn time(&self) -> f64 {
        self.lock().m.time()
    }

    /// Ticks per simulated second.
    #[getter]
    fn tick_rate(&self) -> f32 {
        self.lock().m.sim.tick_rate()
    }

    /// Wall-clock seconds spent inside the match's ticks so far (each `Match::step` of
    /// the library, as `botarena run` times them), without the Python around them: what
    /// `python/benches/env_steps.py` compares an environment's steps with.
    #[getter]
    fn tick_seconds(&self) -> f64 {
        self.lock().step_time.as_secs_f64()
    }

    /// The seed the match was built with (the scenario's unless given).
    #[getter]
    fn seed(&self) -> u64 {
        self.lock().seed
    }

    /// The scenario's run length in ticks (its `ticks`).
    #[getter]
    fn scenario_ticks(&self) -> u64 {
        self.lock().ticks
    }

    /// Why the match ended ("time limit", "frag limit"), or None while it goes on.
    #[getter]
    fn over(&self) -> Option<&'static str> {
        self.lock().m.over()
    }

    /// The state hash as 16 hex digits: the CLI's `final hash` after the same ticks.
    fn hash(&self) -> String {
        hash_hex(self.lock().m.state_hash())
    }

    /// Every player, in id order: dicts of name, id, controller, origin, velocity, angles
    /// (pitch, yaw, roll), health, armour, weapon, frags, deaths, alive.
    fn players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        serialized(py, &agent::players(&self.lock().m))
    }

    /// The events since the last call (spawns at tick 0 included on the first; the newest
    /// 100 000 when more went unread): dicts of
    /// tick, kind ("Death", "Pickup", …) and the event's fields; players by id.
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let taken = std::mem::take(&mut self.lock().events);
        let list: Vec<serde_json::Value> = taken
            .iter()
            .map(|(tick, e)| agent::event_json(*tick, e))
            .collect();
        to_py(py, &serde_json::Value::Array(list))
    }

    /// The scoreboard, most frags first: dicts of name, frags, kills, deaths, suicides.
    fn scoreboard<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        serialized(py, &agent::scoreboard(&self.lock().m))
    }

    /// Gives the external player `name` the command it holds from the next tick on: speeds
    /// (forward, side, up; capped by the physics), view yaw and pitch in degrees, jump and
    /// trigger held, and a weapon to switch to ("rocket_launcher", …; None keeps the one in
    /// hand). Raises CommandError, changing nothing, for an unknown player, one that is not
    /// external, a number that is not finite or an unknown weapon.
    #[pyo3(signature = (name, forward=0.0, side=0.0, up=0.0, yaw=0.0, pitch=0.0, jump=false, fire=false, weapon=None))]
    #[expect(
        clippy::too_many_arguments,
        reason = "Python keyword arguments, one per command field"
    )]
    fn set_command(
        &self,
        name: &str,
        forward: f32,
        side: f32,
        up: f32,
        yaw: f32,
        pitch: f32,
        jump: bool,
        fire: bool,
        weapon: Option<&str>,
    ) -> PyResult<()> {
        let weapon = weapon
            .map(|w| {
                serde_json::from_value::<Weapon>(serde_json::Value::String(w.to_string())).map_err(
                    |_| {
                        CommandError::new_err(format!(
                            "weapon {w:?}: expected one of {}",
                            weapon_names().join(", ")
                        ))
                    },
                )
            })
            .transpose()?;
        let cmd = ScriptStep {
            ticks: 0,
            forward,
            side,
            up,
            yaw,
            pitch,
            jump,
            fire,
            weapon,
        };
        let mut st = self.lock();
        let State { m, recorder, .. } = &mut *st;
        m.set_command(name, cmd)
            .map_err(|e| CommandError::new_err(e.to_string()))?;
        if let Some(r) = recorder.as_mut() {
            r.command(m.tick(), name, cmd);
        }
        Ok(())
    }

    /// Writes the run so far as a replay file (the match must have been made with
    /// `record=True`): `botarena replay FILE --verify` re-simulates it, commands given to
    /// external players included, and `botarena view FILE -o match.html` shows it.
    fn save_replay(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let replay = match &self.lock().recorder {
            Some(r) => r.replay(),
            None => {
                return Err(BotarenaError::new_err(
                    "this match is not being recorded: make it with record=True",
                ));
            }
        };
        py.detach(|| replay.save(&path))
            .map_err(|e| BotarenaError::new_err(e.to_string()))
    }

    /// Player `name`'s observation as little-endian float32 bytes (`OBS_LEN` numbers, laid
    /// out as `obs_layout()` says); the route hint leads to `goal`, an (x, y, z) point, or
    /// the nearest other living player when None.
    #[pyo3(signature = (name, goal=None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        goal: Option<(f32, f32, f32)>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let goal = goal_of(goal)?;
        let mut st = self.lock();
        let State { m, observer, .. } = &mut *st;
        let index = m
            .player_index(name)
            .map_err(|e| CommandError::new_err(e.to_string()))?;
        let obs = observer
            .observe(m, index, goal)
            .ok_or_else(|| BotarenaError::new_err(format!("player {name:?} has no state")))?;
        let bytes: Vec<u8> = obs.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok(PyBytes::new(py, &bytes))
    }

    /// One environment step in one call (what the environments use): gives each of the
    /// external players `names` the command of its discrete action (`actions`: little-endian
    /// int64 bytes, `len(names)` rows of `ACTION_NVEC`'s length; see
    /// `botarena::agent::action_command`), runs `ticks` ticks (fewer if the match ends), and
    /// returns every agent's observation toward `goal`, its (frags, deaths, alive, health,
    /// reward: frags gained minus deaths since its reward was last taken), the tick and why
    /// the match ended (None while it goes on). Nothing is changed when an action or a name
    /// is refused. The GIL is released while it works.
    #[pyo3(signature = (names, actions, ticks=1, goal=None))]
    fn agent_step<'py>(
        &self,
        py: Python<'py>,
        names: Vec<String>,
        actions: &[u8],
        ticks: u64,
        goal: Option<(f32, f32, f32)>,
    ) -> PyResult<AgentStep<'py>> {
        let goal = goal_of(goal)?;
        let (obs, stats, tick, over) = py.detach(|| {
            let mut st = self.lock();
            let indices = names
                .iter()
                .map(|n| {
                    st.m.player_index(n)
                        .map_err(|e| CommandError::new_err(e.to_string()))
                })
                .collect::<PyResult<Vec<usize>>>()?;
            st.agent_step(&indices, actions, ticks, goal)
        })?;
        Ok((PyByteArray::new(py, &obs), stats, tick, over))
    }

    /// The index of player `name` (its place in id order), for `agent_step_one`; raises
    /// CommandError for an unknown name.
    fn player_index(&self, name: &str) -> PyResult<usize> {
        self.lock()
            .m
            .player_index(name)
            .map_err(|e| CommandError::new_err(e.to_string()))
    }

    /// Makes player `index` the agent of `agent_step_one`, with `ticks` ticks per step, the
    /// route hint toward `goal` and episodes truncated at tick `max_ticks` (the
    /// environments call it once per episode, so that each step passes only its action).
    #[pyo3(signature = (index, ticks, goal, max_ticks))]
    fn set_agent(
        &self,
        index: usize,
        ticks: u64,
        goal: Option<(f32, f32, f32)>,
        max_ticks: u64,
    ) -> PyResult<()> {
        let goal = goal_of(goal)?;
        let mut st = self.lock();
        st.m.check_external(index)
            .map_err(|e| CommandError::new_err(e.to_string()))?;
        st.agent = Some((index, ticks, goal, max_ticks));
        Ok(())
    }

    /// One step of the agent `set_agent` chose, answered as a Gymnasium step:
    /// (observation bytes, reward, terminated: the match ended, truncated: tick `max_ticks`
    /// reached first, info: tick, frags, deaths, alive, health). The environments' usual
    /// step: at one tick per step on a small match, building this in Python, and passing
    /// the settings each time, was a measurable share of the step.
    fn agent_step_one<'py>(&self, py: Python<'py>, actions: &[u8]) -> PyResult<AgentStepOne<'py>> {
        let (obs, stats, tick, over, max_ticks) = py.detach(|| {
            let mut st = self.lock();
            let Some((index, ticks, goal, max_ticks)) = st.agent else {
                return Err(BotarenaError::new_err("no agent: call set_agent first"));
            };
            let (obs, stats, tick, over) = st.agent_step(&[index], actions, ticks, goal)?;
            Ok((obs, stats, tick, over, max_ticks))
        })?;
        let (frags, deaths, alive, health, reward) = stats.first().copied().unwrap_or_default();
        let info = PyDict::new(py);
        info.set_item(intern!(py, "tick"), tick)?;
        info.set_item(intern!(py, "frags"), frags)?;
        info.set_item(intern!(py, "deaths"), deaths)?;
        info.set_item(intern!(py, "alive"), alive)?;
        info.set_item(intern!(py, "health"), health)?;
        let terminated = over.is_some();
        Ok((
            PyByteArray::new(py, &obs),
            reward,
            terminated,
            !terminated && tick >= max_ticks,
            info,
        ))
    }

    /// Player `index`'s (frags, deaths, alive, health, reward), the reward taken as
    /// `agent_step` takes it (for an agent that had no action this step).
    fn agent_stats(&self, index: usize) -> PyResult<AgentStats> {
        let mut st = self.lock();
        if index >= st.m.sim.players.len() {
            return Err(CommandError::new_err(format!("no player #{index}")));
        }
        Ok(st.stats(index))
    }
}

impl State {
    /// Loads `scenario` (its seed replaced by `seed` when given; the players in `external`
    /// made external) and builds the match at tick 0, on `threads` threads, recording a
    /// replay when `record`.
    fn build(
        scenario: &std::path::Path,
        seed: Option<u64>,
        threads: usize,
        external: &[String],
        record: bool,
    ) -> Result<State, String> {
        let mut sc = Scenario::load(scenario).map_err(|e| e.to_string())?;
        if let Some(s) = seed {
            sc.seed = s;
        }
        sc.make_external(external)?;
        let text = std::fs::read_to_string(scenario)
            .map_err(|e| format!("{}: {e}", scenario.display()))?;
        let mut m = loaded::build(&sc, &text, external)?;
        m.sim.threads = threads;
        let recorder = if record {
            let mut r = Recorder::new(&sc, &text, &m);
            r.set_external(external);
            Some(r)
        } else {
            None
        };
        Ok(State::around(m, &sc, recorder))
    }

    /// The state of match `m`, just built from `sc`.
    fn around(m: Match, sc: &Scenario, recorder: Option<Recorder>) -> State {
        let mut events = VecDeque::new();
        keep_events(&m, &mut events);
        let scores = (0..m.sim.players.len())
            .map(|i| {
                m.sim
                    .player_stats(i)
                    .map_or((0, 0), |s| (s.frags, s.deaths))
            })
            .collect();
        State {
            m,
            events,
            keeps_events: true,
            observer: Observer::new(),
            ticks: sc.ticks,
            seed: sc.seed,
            step_time: Duration::ZERO,
            recorder,
            scores,
            agent: None,
        }
    }

    /// What `agent_step` does, the players given by index (GIL released by the caller).
    fn agent_step(
        &mut self,
        indices: &[usize],
        actions: &[u8],
        ticks: u64,
        goal: Goal,
    ) -> PyResult<StepAnswer> {
        let width = agent::ACTION_NVEC.len();
        if actions.len() != indices.len() * width * 8 {
            return Err(BotarenaError::new_err(format!(
                "actions: {} bytes for {} agents, expected {} (int64 rows of {width})",
                actions.len(),
                indices.len(),
                indices.len() * width * 8
            )));
        }
        let actions: Vec<i64> = actions
            .chunks_exact(8)
            .map(|b| i64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
            .collect();
        let State {
            m,
            observer,
            events,
            keeps_events,
            step_time,
            recorder,
            ..
        } = self;
        let mut commands = Vec::with_capacity(indices.len());
        for (k, &i) in indices.iter().enumerate() {
            let name = || m.sim.player_name(i).unwrap_or_default();
            let s = m
                .sim
                .player_state(i)
                .ok_or_else(|| BotarenaError::new_err(format!("{:?} has no state", name())))?;
            let cmd = agent::action_command(&actions[k * width..(k + 1) * width], &s)
                .map_err(|e| CommandError::new_err(format!("{:?}: {e}", name())))?;
            commands.push(cmd);
        }
        // Every player checked before any command is given: a refusal changes nothing.
        for &i in indices {
            if let Err(e) = m.check_external(i) {
                return Err(CommandError::new_err(e.to_string()));
            }
        }
        for (&i, cmd) in indices.iter().zip(commands) {
            m.set_command_at(i, cmd)
                .map_err(|e| CommandError::new_err(e.to_string()))?;
            if let Some(r) = recorder.as_mut() {
                let name = m.sim.player_name(i).unwrap_or_default();
                r.command(m.tick(), &name, cmd);
            }
        }
        let mut done = 0;
        while done < ticks && m.over().is_none() {
            let t0 = Instant::now();
            m.step();
            *step_time += t0.elapsed();
            if *keeps_events {
                keep_events(m, events);
            }
            if let Some(r) = recorder.as_mut() {
                r.record(m);
            }
            done += 1;
        }
        let mut obs = Vec::with_capacity(indices.len() * OBS_LEN * 4);
        for &i in indices {
            let o = observer
                .observe(m, i, goal)
                .ok_or_else(|| BotarenaError::new_err("a player has no state"))?;
            obs.extend(o.iter().flat_map(|x| x.to_le_bytes()));
        }
        let stats = indices.iter().map(|&i| self.stats(i)).collect();
        Ok((obs, stats, self.m.tick(), self.m.over()))
    }

    /// Player `i`'s (frags, deaths, alive, health, reward): the reward is frags gained
    /// minus deaths since the last time it was taken (a kill +1, a death -1, a suicide -2,
    /// as it also costs a frag), and taking it starts the count again.
    fn stats(&mut self, i: usize) -> AgentStats {
        let (st, v) = (self.m.sim.player_stats(i), self.m.sim.player_vitals(i));
        let (frags, deaths) = st.map_or((0, 0), |s| (s.frags, s.deaths));
        let reward = match self.scores.get_mut(i) {
            Some(last) => {
                let r = f64::from(frags - last.0) - (f64::from(deaths) - f64::from(last.1));
                *last = (frags, deaths);
                r
            }
            None => 0.0,
        };
        (
            frags,
            deaths,
            v.is_some_and(|v| v.alive),
            v.map_or(0.0, |v| v.health),
            reward,
        )
    }
}

/// An agent's (frags, deaths, alive, health, reward).
type AgentStats = (i32, u32, bool, f32, f64);

/// What [`State::agent_step`] gives back before it is made into Python objects.
type StepAnswer = (Vec<u8>, Vec<AgentStats>, u64, Option<&'static str>);

/// What [`PyMatch::agent_step_one`] returns.
type AgentStepOne<'py> = (Bound<'py, PyByteArray>, f64, bool, bool, Bound<'py, PyDict>);

/// What [`PyMatch::agent_step`] returns: every agent's observation (float32 bytes in a
/// bytearray, which numpy reads without a copy, one row each), (frags, deaths, alive, health,
/// reward) per agent, the tick, and why the match ended.
type AgentStep<'py> = (
    Bound<'py, PyByteArray>,
    Vec<AgentStats>,
    u64,
    Option<&'static str>,
);

/// The worker-thread counts a match accepts (the CLI's range), refused with its message.
fn check_threads(threads: usize) -> PyResult<()> {
    if (1..=256).contains(&threads) {
        Ok(())
    } else {
        Err(BotarenaError::new_err(format!(
            "threads = {threads}: expected 1 to 256"
        )))
    }
}

fn goal_of(goal: Option<(f32, f32, f32)>) -> PyResult<Goal> {
    match goal {
        Some((x, y, z)) if x.is_finite() && y.is_finite() && z.is_finite() => {
            Ok(Goal::Point(Vec3::new(x, y, z)))
        }
        Some(g) => Err(BotarenaError::new_err(format!(
            "goal {g:?}: not a finite point"
        ))),
        None => Ok(Goal::Enemy),
    }
}

fn weapon_names() -> Vec<String> {
    botarena::game::weapons::WEAPONS
        .iter()
        .filter_map(|w| serde_json::to_value(w).ok())
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// The observation's layout: (what, how many numbers) in order.
#[pyfunction]
fn obs_layout() -> Vec<(&'static str, usize)> {
    OBS_LAYOUT.to_vec()
}

/// The weapon names `set_command` takes, weakest first.
#[pyfunction(name = "weapons")]
fn py_weapons() -> Vec<String> {
    weapon_names()
}

/// Runs `scenario` with `seed` for `ticks` ticks (default: the scenario's), as `botarena
/// batch` runs each seed, and returns its result line (the same JSON text; `botarena.run_record`
/// parses it). The GIL is released meanwhile.
#[pyfunction]
#[pyo3(signature = (scenario, seed, ticks=None, threads=1))]
fn run_line(
    py: Python<'_>,
    scenario: PathBuf,
    seed: u64,
    ticks: Option<u64>,
    threads: usize,
) -> PyResult<String> {
    check_threads(threads)?;
    if ticks == Some(0) {
        return Err(BotarenaError::new_err("ticks = 0: expected at least 1"));
    }
    py.detach(|| -> Result<String, String> {
        let sc = Scenario::load(&scenario).map_err(|e| e.to_string())?;
        let ticks = ticks.unwrap_or(sc.ticks);
        run_one(&sc, &report_name(&sc), seed, ticks, threads)
    })
    .map_err(scenario_error)
}

/// The module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyMatch>()?;
    m.add_class::<vector::PyVecMatch>()?;
    m.add_function(wrap_pyfunction!(vector::bundled_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(obs_layout, m)?)?;
    m.add_function(wrap_pyfunction!(py_weapons, m)?)?;
    m.add_function(wrap_pyfunction!(run_line, m)?)?;
    m.add("OBS_LEN", OBS_LEN)?;
    m.add("VEC_COLUMNS", vector::COLUMNS.to_vec())?;
    m.add("OBS_LIMIT", OBS_LIMIT)?;
    m.add("ACTION_NVEC", agent::ACTION_NVEC.to_vec())?;
    m.add("BotarenaError", py.get_type::<BotarenaError>())?;
    m.add("ScenarioError", py.get_type::<ScenarioError>())?;
    m.add("CommandError", py.get_type::<CommandError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
