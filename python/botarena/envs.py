"""PettingZoo and Gymnasium environments over a botarena match.

Agents are the *controlled* players: they are made external when the match is built (their
commands come from the actions, whatever controller the scenario gives them); every other
player keeps its own (brain bots, scripts, ...).

Observation: ``float32[OBS_LEN]`` (84 numbers), laid out as ``botarena.obs_layout()`` says:
the player's own state (origin, velocity, view, health, armour, weapon in hand), the four
nearest enemies and items its perception stage sees (relative to its eye, in its view frame:
forward, left, up), and a route hint: the unit direction of the next waypoint on the learned
waypoint graph toward the goal (by default the nearest other living player) and the route's
length. Distances are divided by 1024, speeds by 320; every number lies within ±64
(``OBS_LIMIT``).

Action: ``MultiDiscrete(ACTION_NVEC)`` = ``[3, 3, 5, 3, 2, 2, 9]``:

====  ============  =====================================================
 #    what          values
====  ============  =====================================================
 0    forward       back, none, forward (-320, 0, +320 units/s)
 1    side          left, none, right (-320, 0, +320)
 2    turn          -30, -10, 0, +10, +30 degrees of yaw (+ turns left)
 3    look          -10, 0, +10 degrees of pitch (+ looks down), kept to ±80
 4    jump          released, held
 5    fire          released, held
 6    weapon        0 keeps the weapon in hand; 1..8 switch to
                    ``botarena.weapons()[i - 1]`` (axe .. lightning)
====  ============  =====================================================

Reward: frags gained minus deaths, per step (a kill +1; a death -1; a suicide -2, as it also
costs a frag). Episodes end (terminated) when the match does (time or frag limit), and are
truncated at ``max_ticks`` ticks (default: the scenario's ``ticks``). One step is
``ticks_per_step`` ticks (default 1: 50 ms at the usual 20 Hz).

With ``record=True`` each episode's match keeps a replay: ``env.match.save_replay(path)``
writes it (the actions given included), ``botarena replay FILE --verify`` re-simulates it and
``botarena view FILE -o episode.html`` shows the episode in a browser.
"""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ._native import ACTION_NVEC as _NATIVE_NVEC
from ._native import OBS_LEN, OBS_LIMIT, BotarenaError, Match

ACTION_NVEC = np.array(_NATIVE_NVEC, dtype=np.int64)
_F32 = np.dtype(np.float32)
_I64 = np.dtype("<i8")
_ROW = (len(ACTION_NVEC),)
# Positional arguments: numpy parses them in half the time keywords take.
_frombuffer = np.frombuffer

Goal = Optional[Sequence[float]]


def _obs_space() -> spaces.Box:
    return spaces.Box(low=-OBS_LIMIT, high=OBS_LIMIT, shape=(OBS_LEN,), dtype=np.float32)


def _act_space() -> spaces.MultiDiscrete:
    return spaces.MultiDiscrete(ACTION_NVEC)


def _checked_settings(ticks_per_step: int, max_ticks: int | None, goal: Goal):
    """Refuses a step length or episode limit below one tick and a goal that is not a
    finite point; returns the goal as a tuple (or None)."""
    if ticks_per_step < 1:
        raise BotarenaError(f"ticks_per_step = {ticks_per_step}: expected at least 1")
    if max_ticks is not None and max_ticks < 1:
        raise BotarenaError(f"max_ticks = {max_ticks}: expected at least 1")
    if goal is not None:
        goal = tuple(float(x) for x in goal)
        if len(goal) != 3 or not all(math.isfinite(x) for x in goal):
            raise BotarenaError(f"goal {goal!r}: expected a finite (x, y, z) point")
    return goal


class _Core:
    """What both environments share: the match, actions to commands, rewards."""

    def __init__(
        self,
        scenario: str,
        controlled: Sequence[str] | None,
        max_ticks: int | None,
        ticks_per_step: int,
        goal: Goal,
        seed: int | None,
        threads: int,
        record: bool = False,
    ) -> None:
        goal = _checked_settings(ticks_per_step, max_ticks, goal)
        self.scenario = str(scenario)
        self.threads = threads
        self.record = record
        self.goal = goal
        self.ticks_per_step = ticks_per_step
        # Built once here so that a bad scenario or name fails now, with the CLI's message.
        probe = Match(self.scenario, seed=seed, threads=threads, external=list(controlled or []))
        if controlled is None:
            controlled = [p["name"] for p in probe.players() if p["controller"] == "external"]
            if not controlled:
                raise BotarenaError(
                    f"{self.scenario}: no external player to control; "
                    "name players with controlled=[...] (or player=...)"
                )
        if len(set(controlled)) != len(controlled):
            raise BotarenaError(f"controlled = {list(controlled)!r}: a player named twice")
        self.names = list(controlled)
        self._name_set = set(self.names)
        self.max_ticks = max_ticks if max_ticks is not None else probe.scenario_ticks
        self.seed = seed if seed is not None else probe.seed
        self.episode = 0
        self.match = probe
        # The native one-agent step (`one_step`), None with several agents.
        self._one = None

    def reset(self, seed: int | None) -> None:
        # reset(seed) starts that seed's match; each reset() after it the next seed, so that
        # episodes differ and a run stays reproducible.
        if seed is not None:
            self.seed, self.episode = seed, 0
        self.match = Match(
            self.scenario,
            seed=self.seed + self.episode,
            threads=self.threads,
            external=self.names,
            record=self.record,
        )
        self.episode += 1
        self._one = None
        if len(self.names) == 1:
            m = self.match
            m.set_agent(m.player_index(self.names[0]), self.ticks_per_step, self.goal,
                        self.max_ticks)
            self._one = m.agent_step_one

    def observe_all(self) -> dict[str, np.ndarray]:
        rows = [np.frombuffer(self.match.observe(n, self.goal), dtype=np.float32) for n in self.names]
        return {n: r.copy() for n, r in zip(self.names, rows)}

    def one_step(self, actions: dict[str, Any]):
        """The usual step, kept short: one agent, one well-formed action (an int64 row) in
        ``actions``; its (observation, reward, terminated, truncated, info), or None when
        ``actions`` is anything else (then ``step`` takes the general way, which checks it).
        At one tick per step on a small match this code is a large share of the step's
        time beyond its ticks."""
        a = actions.get(self.names[0])
        if type(a) is not np.ndarray or a.dtype is not _I64 or a.shape != _ROW:
            return None
        obs_bytes, reward, terminated, truncated, info = self._one(a.tobytes())
        return _frombuffer(obs_bytes, _F32), reward, terminated, truncated, info

    def step(self, actions: dict[str, Any]):
        """Sets every agent's action (agents not in ``actions`` keep their last command),
        steps the match in one native call; observations, rewards, terminated, truncated,
        infos per agent."""
        names = self.names
        if self._one is not None and len(actions) == 1:
            step = self.one_step(actions)
            if step is not None:
                obs, reward, terminated, truncated, info = step
                n = names[0]
                return {n: obs}, {n: reward}, terminated, truncated, {n: info}
        if actions.keys() != self._name_set:
            names = [n for n in self.names if n in actions]
        if len(names) == 1:
            rows = np.asarray(actions[names[0]])
            shape = (len(ACTION_NVEC),)
        else:
            rows = np.array([actions[n] for n in names]) if names else np.zeros((0, 7), np.int64)
            shape = (len(names), len(ACTION_NVEC))
        if rows.shape != shape or rows.dtype.kind not in "iu":
            raise BotarenaError(
                f"actions {actions!r}: each must be {len(ACTION_NVEC)} integers, "
                f"in MultiDiscrete({ACTION_NVEC.tolist()})"
            )
        if rows.dtype != _I64:
            rows = rows.astype(_I64)
        obs_bytes, stats, tick, over = self.match.agent_step(
            names, rows.tobytes(), self.ticks_per_step, self.goal
        )
        # A bytearray: numpy reads it in place, writable, with no copy.
        if len(names) == 1:
            obs = {names[0]: np.frombuffer(obs_bytes, dtype=_F32)}
        else:
            obs = dict(zip(names, np.frombuffer(obs_bytes, dtype=_F32).reshape(-1, OBS_LEN)))
        stat = dict(zip(names, stats))
        if len(names) != len(self.names):
            # The agents without an action this step are read apart.
            for n in self.names:
                if n not in obs:
                    obs[n] = np.frombuffer(self.match.observe(n, self.goal), dtype=np.float32).copy()
                    stat[n] = self.match.agent_stats(self.match.player_index(n))
        rewards, infos = {}, {}
        for n in self.names:
            frags, deaths, alive, health, reward = stat[n]
            rewards[n] = reward
            infos[n] = {"tick": tick, "frags": frags, "deaths": deaths, "alive": alive,
                        "health": health}
        terminated = over is not None
        truncated = not terminated and tick >= self.max_ticks
        return obs, rewards, terminated, truncated, infos


class BotarenaParallelEnv(ParallelEnv):
    """A PettingZoo ``ParallelEnv``: one agent per controlled player (see the module's doc)."""

    metadata = {"name": "botarena_v0", "render_modes": [], "is_parallelizable": True}

    def __init__(
        self,
        scenario: str,
        controlled: Sequence[str] | None = None,
        max_ticks: int | None = None,
        ticks_per_step: int = 1,
        goal: Goal = None,
        seed: int | None = None,
        threads: int = 1,
        record: bool = False,
    ) -> None:
        self._core = _Core(
            scenario, controlled, max_ticks, ticks_per_step, goal, seed, threads, record
        )
        self.possible_agents = list(self._core.names)
        self.agents: list[str] = []
        self._obs = {a: _obs_space() for a in self.possible_agents}
        self._act = {a: _act_space() for a in self.possible_agents}
        self.render_mode = None

    @property
    def match(self) -> Match:
        """The match being played (to read hashes, players, events, the scoreboard)."""
        return self._core.match

    def observation_space(self, agent: str) -> spaces.Box:
        return self._obs[agent]

    def action_space(self, agent: str) -> spaces.MultiDiscrete:
        return self._act[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._core.reset(seed)
        self.agents = list(self.possible_agents)
        obs = self._core.observe_all()
        return obs, {a: {} for a in self.agents}

    def step(self, actions: dict):
        core = self._core
        if core._one is not None and self.agents and len(actions) == 1:
            # `_Core.one_step` written out: one Python call less on the usual step.
            n = core.names[0]
            a = actions.get(n)
            if type(a) is np.ndarray and a.dtype is _I64 and a.shape == _ROW:
                obs_bytes, reward, terminated, truncated, info = core._one(a.tobytes())
                if terminated or truncated:
                    self.agents = []
                return (
                    {n: _frombuffer(obs_bytes, _F32)},
                    {n: reward},
                    {n: terminated},
                    {n: truncated},
                    {n: info},
                )
        if not self.agents:
            raise BotarenaError("step() after the episode ended: call reset()")
        if not actions.keys() <= self._obs.keys():
            unknown = [a for a in actions if a not in self.agents]
            raise BotarenaError(f"actions for {unknown!r}: not agents (agents: {self.agents})")
        obs, rewards, terminated, truncated, infos = self._core.step(actions)
        # Every possible agent is an agent until the episode ends.
        terms = dict.fromkeys(self.agents, terminated)
        truncs = dict.fromkeys(self.agents, truncated)
        if terminated or truncated:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def close(self) -> None:
        pass


class BotarenaGymEnv(gymnasium.Env):
    """A Gymnasium ``Env`` for one controlled player; the others play as the scenario says."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        scenario: str,
        player: str | None = None,
        max_ticks: int | None = None,
        ticks_per_step: int = 1,
        goal: Goal = None,
        seed: int | None = None,
        threads: int = 1,
        record: bool = False,
    ) -> None:
        controlled = [player] if player is not None else None
        self._core = _Core(
            scenario, controlled, max_ticks, ticks_per_step, goal, seed, threads, record
        )
        if len(self._core.names) != 1:
            raise BotarenaError(
                f"{scenario}: {len(self._core.names)} external players "
                f"({', '.join(self._core.names)}); name the one to control with player=..."
            )
        self.player = self._core.names[0]
        self.observation_space = _obs_space()
        self.action_space = _act_space()
        self.render_mode = None

    @property
    def match(self) -> Match:
        """The match being played."""
        return self._core.match

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._core.reset(seed)
        return self._core.observe_all()[self.player], {}

    def step(self, action):
        if type(action) is np.ndarray:
            step = self._core.one_step({self.player: action})
            if step is not None:
                return step
        obs, rewards, terminated, truncated, infos = self._core.step({self.player: action})
        p = self.player
        return obs[p], rewards[p], terminated, truncated, infos[p]


def parallel_env(scenario: str, controlled: Sequence[str] | None = None, **kwargs) -> BotarenaParallelEnv:
    """A PettingZoo ParallelEnv whose agents are the ``controlled`` players (default: the
    scenario's external ones). Keywords: ``max_ticks``, ``ticks_per_step``, ``goal``,
    ``seed``, ``threads``, ``record`` (keep each episode's replay: ``env.match.save_replay(path)``)."""
    return BotarenaParallelEnv(scenario, controlled=controlled, **kwargs)


def gym_env(scenario: str, player: str | None = None, **kwargs) -> BotarenaGymEnv:
    """A Gymnasium Env controlling ``player`` (default: the scenario's one external player).
    Keywords: ``max_ticks``, ``ticks_per_step``, ``goal``, ``seed``, ``threads``, ``record``."""
    return BotarenaGymEnv(scenario, player=player, **kwargs)
