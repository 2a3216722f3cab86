"""Trains a small PPO agent with Ray RLlib on the arena duel: the agent plays "visor" (made
external) against the brain bot "ranger", from the 84-number observation and the discrete
action of ``botarena.gym_env``. A few iterations only: it shows the pieces fitting together,
not a trained player.

    pip install './python[rllib]'          # Ray RLlib and PyTorch
    python python/examples/rllib_ppo.py [--iterations 3] [--runners 1] [--max-ticks 600]

Each iteration prints the mean episode return (frags minus deaths) and how many environment
steps were sampled. Not part of CI: PyTorch is a large download and training is slow on two
cores.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import botarena

DUEL = str(Path(__file__).resolve().parents[2] / "scenarios" / "duel.toml")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=3, help="training iterations (default 3)")
    ap.add_argument("--runners", type=int, default=1, help="env runner processes (default 1)")
    ap.add_argument(
        "--max-ticks", type=int, default=600, help="episode length in ticks (default 600: 30 s)"
    )
    ap.add_argument("--ticks-per-step", type=int, default=4, help="ticks an action is held")
    args = ap.parse_args()

    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    def make(config: dict):
        return botarena.gym_env(
            DUEL,
            player="visor",
            max_ticks=args.max_ticks,
            ticks_per_step=args.ticks_per_step,
            seed=int(config.get("seed", 1)) + 1000 * getattr(config, "worker_index", 0),
        )

    ray.init(include_dashboard=False, log_to_driver=False)
    register_env("botarena_duel", make)
    config = (
        PPOConfig()
        .environment("botarena_duel", env_config={"seed": 1})
        .env_runners(num_env_runners=args.runners, num_envs_per_env_runner=1)
        .training(
            train_batch_size_per_learner=1024,
            minibatch_size=256,
            num_epochs=4,
            lr=3e-4,
            gamma=0.99,
        )
        .rl_module(model_config={"fcnet_hiddens": [128, 128]})
    )
    algo = config.build_algo()
    try:
        for i in range(args.iterations):
            start = time.perf_counter()
            result = algo.train()
            runners = result.get("env_runners", {})
            ret = runners.get("episode_return_mean", float("nan"))
            steps = runners.get("num_env_steps_sampled_lifetime", result.get("num_env_steps_sampled_lifetime"))
            print(
                f"iteration {i + 1}: mean episode return {ret:.2f} (frags - deaths), "
                f"{steps} env steps sampled so far, {time.perf_counter() - start:.1f} s",
                flush=True,
            )
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
