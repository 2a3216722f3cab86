"""A Gymnasium ``VectorEnv`` of many botarena matches stepped together inside Rust.

``vector_env(scenario, num_envs=8, player="visor")`` runs ``num_envs`` matches of one
scenario, the same agent in each, and steps all of them in one native call with the GIL
released, spread over worker threads (default: one per match up to the machine's cores).
Observations, actions and rewards are the single environment's (see ``botarena.envs``),
batched: observations ``float32[num_envs, OBS_LEN]``, actions ``int64[num_envs, 7]``.

Seeding: ``reset(seed=s)`` plays seed ``s + i`` in match ``i`` (or ``seed=[...]``, one per
match); match ``i`` with seed ``s`` goes through the same states as ``gym_env`` reset with
seed ``s``. Autoreset is Gymnasium's "next step": the step after an episode ends rebuilds
that match (its action is ignored, its reward 0) with its seed plus ``num_envs``, so no two
episodes share a seed. ``infos`` holds per-match arrays: ``tick`` and ``seed`` (uint64),
``frags`` (int32), ``deaths`` (uint32), ``alive`` (bool) and ``health`` (float32), each with
its ``_key`` mask (one shared read-only array: every match answers every step).
"""

from __future__ import annotations

from typing import Optional, Sequence

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._native import OBS_LEN, VEC_COLUMNS, BotarenaError, Match, VecMatch
from .envs import ACTION_NVEC, _act_space, _checked_settings, _obs_space

_F32 = np.dtype(np.float32)
_I64 = np.dtype("<i8")
_INFO_KEYS = ("tick", "frags", "deaths", "alive", "health", "seed")


class BotarenaVectorEnv(VectorEnv):
    """``num_envs`` matches of ``scenario`` with ``player`` as the agent in each."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        scenario: str,
        num_envs: int = 8,
        player: str | None = None,
        max_ticks: int | None = None,
        ticks_per_step: int = 1,
        goal: Optional[Sequence[float]] = None,
        threads: int | None = None,
    ) -> None:
        goal = _checked_settings(ticks_per_step, max_ticks, goal)
        scenario = str(scenario)
        probe = Match(scenario, external=[player] if player is not None else [])
        if player is None:
            external = [p["name"] for p in probe.players() if p["controller"] == "external"]
            if len(external) != 1:
                raise BotarenaError(
                    f"{scenario}: {len(external)} external players; "
                    "name the one to control with player=..."
                )
            player = external[0]
        self.player = player
        self._vm = VecMatch(scenario, num_envs, player, ticks_per_step, max_ticks, goal, threads)
        self.num_envs = num_envs
        self.single_observation_space = _obs_space()
        self.single_action_space = _act_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self._seeds = [probe.seed + i for i in range(num_envs)]
        self._started = False
        # Every match answers every step: one read-only mask serves every info key.
        self._all = np.ones(num_envs, dtype=bool)
        self._all.flags.writeable = False
        # Where each column of the native answer starts (see VEC_COLUMNS).
        self._columns = []
        offset = 0
        for name, dtype in VEC_COLUMNS:
            dtype = np.dtype(dtype)
            self._columns.append((name, dtype, offset))
            offset += dtype.itemsize * num_envs

    def reset(self, *, seed=None, options=None):
        n = self.num_envs
        if seed is None:
            seeds = [int(s) + n for s in self._seeds] if self._started else list(self._seeds)
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = [int(s) for s in seed]
            if len(seeds) != n:
                raise BotarenaError(f"{len(seeds)} seeds for {n} matches")
        self._started = True
        obs, infos = self._batch(self._vm.reset(seeds))[0::4]
        return obs, infos

    def step(self, actions):
        rows = np.asarray(actions)
        if rows.shape != (self.num_envs, len(ACTION_NVEC)) or rows.dtype.kind not in "iu":
            raise BotarenaError(
                f"actions of shape {rows.shape}: expected ({self.num_envs}, {len(ACTION_NVEC)}) "
                f"integers in MultiDiscrete({ACTION_NVEC.tolist()})"
            )
        return self._batch(self._vm.step(rows.astype(_I64, copy=False).tobytes()))

    def _batch(self, answer):
        obs_bytes, cols = answer
        n = self.num_envs
        c = {name: np.frombuffer(cols, dtype, n, offset) for name, dtype, offset in self._columns}
        self._seeds = c["seed"]  # read as a list only by a reset without seeds
        obs = np.frombuffer(obs_bytes, dtype=_F32).reshape(n, OBS_LEN)
        infos = {}
        for key in _INFO_KEYS:
            infos[key] = c[key]
            infos["_" + key] = self._all
        return obs, c["reward"], c["terminated"], c["truncated"], infos

    def hashes(self) -> list[str]:
        """Each match's state hash now (as ``Match.hash()`` gives it)."""
        return self._vm.hashes()

    def close_extras(self, **kwargs) -> None:
        pass


def vector_env(scenario: str, num_envs: int = 8, player: str | None = None, **kwargs) -> BotarenaVectorEnv:
    """A Gymnasium VectorEnv of ``num_envs`` matches, ``player`` the agent in each (default:
    the scenario's one external player). Keywords: ``max_ticks``, ``ticks_per_step``,
    ``goal``, ``threads``."""
    return BotarenaVectorEnv(scenario, num_envs=num_envs, player=player, **kwargs)
