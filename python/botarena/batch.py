"""Sweeps over seeds on a Ray cluster: one Ray task per match.

``ray_batch(scenario, seeds)`` returns, in the order of ``seeds``, the records ``botarena
batch`` writes (one dict per match: final hash, scoreboard lines, event counts, speed); the
final hashes are the CLI's for the same seeds, on any machine of the same build. Connecting to
a cluster is the caller's (``ray.init(address=...)``); with no Ray running, a local one is
started. The scenario and its map are read by the workers, so on a remote cluster their paths
must be readable on every node (a shared filesystem, or the same checkout at the same path).

Without Ray, ``botarena batch --shard I/N`` splits a sweep for any other scheduler (Slurm
arrays, Kubernetes indexed jobs) and ``--resume`` continues an interrupted one.
"""

from __future__ import annotations

import os
from typing import Iterable

import json

from ._native import BotarenaError, Match, run_line


def run_record(scenario: str, seed: int, ticks: int | None = None, threads: int = 1) -> dict:
    """Runs ``scenario`` with ``seed`` for ``ticks`` ticks (default: the scenario's) here, as
    ``botarena batch`` runs each seed, and returns its record (the JSON line it writes, as a
    dict). The GIL is released while the match runs."""
    return json.loads(run_line(scenario, seed, ticks=ticks, threads=threads))


def _one(scenario: str, seed: int, ticks: int | None, threads: int) -> dict:
    return run_record(scenario, seed, ticks=ticks, threads=threads)


def ray_batch(
    scenario: str,
    seeds: Iterable[int],
    *,
    ticks: int | None = None,
    threads: int = 1,
) -> list[dict]:
    """Runs ``scenario`` once per seed as Ray tasks (each asking Ray for ``threads`` CPUs) and
    returns the records in seed order. ``ticks`` overrides the scenario's run length. A bad
    scenario raises ``ScenarioError`` here, before any task is sent."""
    try:
        import ray
    except ImportError as e:  # ray is an optional dependency: pip install 'botarena[ray]'
        raise BotarenaError(
            "ray_batch needs Ray: pip install 'ray>=2.9' (or the package's [ray] extra)"
        ) from e
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise BotarenaError("ray_batch: no seeds")
    if any(s < 0 for s in seeds):
        raise BotarenaError(f"ray_batch: seeds must be non-negative, got {min(seeds)}")
    if ticks is not None and ticks < 1:
        raise BotarenaError(f"ticks = {ticks}: expected at least 1")
    if not 1 <= threads <= 256:
        raise BotarenaError(f"threads = {threads}: expected 1 to 256")
    path = os.path.abspath(scenario)
    # Fails on a bad scenario, map or spawn with the CLI's message, as `botarena batch` does
    # before it writes anything.
    Match(path)
    if not ray.is_initialized():
        ray.init()
    task = ray.remote(num_cpus=threads)(_one)
    return ray.get([task.remote(path, s, ticks, threads) for s in seeds])
