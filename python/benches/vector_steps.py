"""Agent-steps per second of the vector environment against one environment doing the same
work: the duel without its limits (visor the agent, ranger a brain bot), one tick per step,
seeded random actions.

    python python/benches/vector_steps.py [--envs 8] [--steps 1000] [--threads N] [--rounds 5]

One environment: ``gym_env`` plays seeds 1..envs one after another, ``--steps`` steps each.
Vector: ``vector_env`` of ``--envs`` matches, seeds 1..envs, stepped ``--steps`` times with
the same actions: the same matches tick for tick (same hashes), so the ratio is the vector
env's gain alone. Rounds alternate between the two; the best round of each counts, and the
medians are given beside (the vector env uses every core, so a shared machine's slow spells
show in it more than in one env).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from statistics import median
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
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    acts = np.random.default_rng(0).integers(
        0, botarena.ACTION_NVEC, size=(a.steps, a.envs, len(botarena.ACTION_NVEC)))
    with tempfile.TemporaryDirectory() as d:
        path = scenario(Path(d))
        single, vec = [], []
        for _ in range(a.rounds):
            single.append(one_env(path, acts))
            vec.append(vector(path, acts, a.threads))
    assert all(v[1] == single[0][1] for v in single + vec), "the vector env plays the same matches"
    s = [r[0] for r in single]
    v = [r[0] for r in vec]
    print(f"{a.envs} envs on {os.cpu_count()} cores, threads {a.threads or 'default'}: "
          f"one env {max(s):,.0f} agent-steps/s (median {median(s):,.0f}); "
          f"vector {max(v):,.0f} (median {median(v):,.0f}); "
          f"{max(v) / max(s):.2f}x (medians {median(v) / median(s):.2f}x)")

if __name__ == "__main__":
    main()
