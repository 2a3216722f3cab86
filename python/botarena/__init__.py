"""botarena from Python: deterministic Quake arena matches for bot AI and reinforcement learning.

- ``Match(scenario, seed=None, threads=1, external=[])``: a running match of a scenario file;
  ``step(n)`` (the GIL is released while it simulates), ``tick``, ``hash()`` (the CLI's state
  hash), ``players()``, ``events()``, ``scoreboard()``, ``set_command(name, ...)`` for external
  players, ``observe(name, goal=None)``.
- ``parallel_env(scenario, controlled=[...])``: a PettingZoo ``ParallelEnv``.
- ``gym_env(scenario, player=...)``: a Gymnasium ``Env``.
- ``ray_batch(scenario, seeds, ticks=None, threads=1)``: one Ray task per match, the records
  ``botarena batch`` writes.
- ``run_record(scenario, seed, ticks=None, threads=1)``: one such record, here.

Errors are ``BotarenaError`` (``ScenarioError``, ``CommandError``) with the CLI's messages.
"""

from ._native import (
    OBS_LEN,
    OBS_LIMIT,
    BotarenaError,
    CommandError,
    Match,
    ScenarioError,
    __version__,
    obs_layout,
    run_line,
    weapons,
)
from .batch import ray_batch, run_record
from .envs import ACTION_NVEC, BotarenaGymEnv, BotarenaParallelEnv, gym_env, parallel_env

__all__ = [
    "ACTION_NVEC",
    "OBS_LEN",
    "OBS_LIMIT",
    "BotarenaError",
    "BotarenaGymEnv",
    "BotarenaParallelEnv",
    "CommandError",
    "Match",
    "ScenarioError",
    "__version__",
    "gym_env",
    "obs_layout",
    "parallel_env",
    "ray_batch",
    "run_record",
    "weapons",
]
