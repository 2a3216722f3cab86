"""botarena from Python: deterministic Quake arena matches for bot AI and reinforcement learning.

- ``Match(scenario, seed=None, threads=1, external=[])``: a running match of a scenario file;
  ``step(n)`` (the GIL is released while it simulates), ``tick``, ``hash()`` (the CLI's state
  hash), ``players()``, ``events()``, ``scoreboard()``, ``set_command(name, ...)`` for external
  players, ``observe(name, goal=None)``.
- ``parallel_env(scenario, controlled=[...])``: a PettingZoo ``ParallelEnv``.
- ``gym_env(scenario, player=...)``: a Gymnasium ``Env``.
- ``vector_env(scenario, num_envs=8, player=...)``: a Gymnasium ``VectorEnv`` stepping every
  match inside Rust. ``gymnasium.make("botarena/Duel-v0")`` and ``"botarena/Default-v0"``
  (and ``gymnasium.make_vec``) play the bundled duel and default scenarios as ``visor``.
- ``ray_batch(scenario, seeds, ticks=None, threads=1)``: one Ray task per match, the records
  ``botarena batch`` writes.
- ``run_record(scenario, seed, ticks=None, threads=1)``: one such record, here.

Errors are ``BotarenaError`` (``ScenarioError``, ``CommandError``) with the CLI's messages.
"""

import os
from pathlib import Path

import gymnasium

from ._native import (
    OBS_LEN,
    OBS_LIMIT,
    BotarenaError,
    CommandError,
    Match,
    ScenarioError,
    __version__,
    obs_layout,
    VecMatch,
    bundled_scenario,
    run_line,
    weapons,
)
from .batch import ray_batch, run_record
from .envs import ACTION_NVEC, BotarenaGymEnv, BotarenaParallelEnv, gym_env, parallel_env
from .vector import BotarenaVectorEnv, vector_env


def _bundled(name: str) -> str:
    """The bundled scenario ``name``, written (once) under the user's cache folder."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return str(bundled_scenario(name, cache / "botarena" / __version__))


def _make(name: str):
    def make(player: str = "visor", **kwargs) -> BotarenaGymEnv:
        return gym_env(_bundled(name), player=player, **kwargs)

    def make_vec(num_envs: int = 8, player: str = "visor", **kwargs) -> BotarenaVectorEnv:
        return vector_env(_bundled(name), num_envs=num_envs, player=player, **kwargs)

    return make, make_vec


for _id, _name in (("botarena/Duel-v0", "duel"), ("botarena/Default-v0", "default")):
    if _id not in gymnasium.registry:
        _entry, _vec_entry = _make(_name)
        gymnasium.register(id=_id, entry_point=_entry, vector_entry_point=_vec_entry)

__all__ = [
    "ACTION_NVEC",
    "OBS_LEN",
    "OBS_LIMIT",
    "BotarenaError",
    "BotarenaGymEnv",
    "BotarenaParallelEnv",
    "BotarenaVectorEnv",
    "CommandError",
    "Match",
    "ScenarioError",
    "__version__",
    "gym_env",
    "obs_layout",
    "parallel_env",
    "ray_batch",
    "run_record",
    "vector_env",
    "weapons",
]
