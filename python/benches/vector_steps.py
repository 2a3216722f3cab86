"""Agent-steps per second of the vector environment against one environment doing the same
work: the duel without its limits (visor the agent, ranger a brain bot), one tick per step,
seeded random actions.

    python python/benches/vector_steps.py [--envs 8] [--steps 1000] [--threads N]

One environment: ``gym_env`` plays seeds 1..envs one after another, ``--steps`` steps each.
Vector: ``vector_env`` of ``--envs`` matches, seeds 1..envs, stepped ``--steps`` times with
the same actions: the same matches tick for tick (same hashes), so the ratio is the vector
env's gain alone. The best of three rounds counts.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

import botarena

ROOT = Path(__file__).resolve().parents[2]


def scenario(folder: Path) -> str:
    """The duel with its time and frag limits taken out, so that no episode ends early."""
    (folder / "maps").mkdir(exist_ok=True)
    (folder / "s").mkdir(exist_ok=True)
    (folder / "maps/arena.map").write_text((ROOT / "maps/arena.map").read_text())
    text = (ROOT / "scenarios/duel.toml").read_text()
    text = "\n".join(l for l in text.splitlines() if not l.startswith(("time_limit", "frag_limit")))
    (folder / "s/duel.toml").write_text(text + "\n")
    return str(folder / "s/duel.toml")


def one_env(path: str, acts: np.ndarray) -> tuple[float, list[str]]:
    steps, envs = acts.shape[0], acts.shape[1]
    env = botarena.gym_env(path, player="visor", max_ticks=steps + 1)
    hashes = []
    t0 = time.perf_counter()
    for i in range(envs):
        env.reset(seed=1 + i)
        for a in acts[:, i]:
            env.step(a)
        hashes.append(env.match.hash())
    return steps * envs / (time.perf_counter() - t0), hashes


def vector(path: str, acts: np.ndarray, threads: int | None) -> tuple[float, list[str]]:
    steps, envs = acts.shape[0], acts.shape[1]
    env = botarena.vector_env(path, num_envs=envs, player="visor", max_ticks=steps + 1,
                              threads=threads)
    t0 = time.perf_counter()
    env.reset(seed=1)
    for a in acts:
        env.step(a)
    return steps * envs / (time.perf_counter() - t0), env.hashes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    acts = np.random.default_rng(0).integers(
        0, botarena.ACTION_NVEC, size=(a.steps, a.envs, len(botarena.ACTION_NVEC)))
    with tempfile.TemporaryDirectory() as d:
        path = scenario(Path(d))
        single = max(one_env(path, acts) for _ in range(3))
        vec = max(vector(path, acts, a.threads) for _ in range(3))
    assert single[1] == vec[1], "the vector env plays the same matches"
    print(f"{a.envs} envs on {os.cpu_count()} cores, threads {a.threads or 'default'}: "
          f"one env {single[0]:,.0f} agent-steps/s; vector {vec[0]:,.0f} ({vec[0] / single[0]:.2f}x)")


if __name__ == "__main__":
    main()
