"""Replays of runs driven from Python: the commands given to external players are recorded,
so `botarena replay --verify` re-simulates the run tick for tick and `botarena view` shows it."""

import subprocess

import numpy as np
import pytest

import botarena


def verify(cli, path):
    return subprocess.run(
        [str(cli), "replay", str(path), "--verify"], capture_output=True, text=True
    )


def test_a_match_driven_from_python_replays_tick_for_tick(cli, duel, tmp_path):
    m = botarena.Match(duel, seed=3, external=["visor"], record=True)
    rng = np.random.default_rng(5)
    m.set_command("visor", forward=320, yaw=45)  # at tick 0, before the first tick
    for k in range(30):
        m.set_command(
            "visor",
            forward=float(rng.choice([-320, 0, 320])),
            side=float(rng.choice([-320, 0, 320])),
            yaw=float(rng.uniform(0, 360)),
            pitch=float(rng.uniform(-30, 30)),
            jump=bool(rng.integers(2)),
            fire=bool(rng.integers(2)),
            weapon=None if k % 7 else "axe",
        )
        m.step(int(rng.integers(1, 15)))
    path = tmp_path / "py.replay"
    m.save_replay(str(path))
    said = verify(cli, path)
    assert said.returncode == 0, said.stdout + said.stderr
    assert f"{m.tick} ticks" in said.stdout
    summary = subprocess.run([str(cli), "replay", str(path)], capture_output=True, text=True)
    assert m.hash() in summary.stdout
    page = tmp_path / "py.html"
    shown = subprocess.run(
        [str(cli), "view", str(path), "-o", str(page)], capture_output=True, text=True
    )
    assert shown.returncode == 0, shown.stderr
    assert page.stat().st_size > 10_000


def test_the_recorded_commands_are_what_the_run_needed(cli, duel, tmp_path):
    # A recorded run verifies; the same run without the agent's commands goes elsewhere,
    # so the recorded commands are what the verification replays.
    m = botarena.Match(duel, external=["visor"], record=True)
    m.step(5)
    m.set_command("visor", forward=320, yaw=10)
    m.step(20)
    good = tmp_path / "good.replay"
    m.save_replay(str(good))
    assert verify(cli, good).returncode == 0
    still = botarena.Match(duel, external=["visor"], record=True)
    still.step(25)
    assert still.hash() != m.hash()


def test_an_environment_episode_is_recorded(cli, duel, tmp_path):
    env = botarena.parallel_env(duel, controlled=["visor"], max_ticks=120, record=True)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    while env.agents:
        env.step({"visor": rng.integers(0, botarena.ACTION_NVEC)})
    path = tmp_path / "episode.replay"
    env.match.save_replay(str(path))
    said = verify(cli, path)
    assert said.returncode == 0, said.stdout + said.stderr
    assert "120 ticks" in said.stdout


def test_saving_needs_a_recording(duel, tmp_path):
    m = botarena.Match(duel)
    with pytest.raises(botarena.BotarenaError, match="record=True"):
        m.save_replay(str(tmp_path / "x.replay"))
    rec = botarena.Match(duel, record=True)
    with pytest.raises(botarena.BotarenaError, match="nowhere"):
        rec.save_replay(str(tmp_path / "nowhere" / "x.replay"))
