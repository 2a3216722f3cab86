"""Sweeps: ray_batch gives the CLI batch's records; --shard splits and --resume continues a
batch killed midway, both ending with the whole batch's results."""

import json
import os
import signal
import subprocess
import time

import pytest

import botarena

# Timing fields differ between any two runs; everything else in a record must not.
TIMING = {"wall_seconds", "ticks_per_second", "stage_seconds", "stage_serial_seconds",
          "threads"}


def cli_batch(cli, scenario, seeds, out, *extra):
    subprocess.run(
        [str(cli), "batch", scenario, "--seeds", seeds, "--out", str(out), *extra],
        check=True,
        capture_output=True,
    )
    return read(out)


def read(path):
    return {r["seed"]: r for r in map(json.loads, path.read_text().splitlines())}


def strip(record):
    return {k: v for k, v in record.items() if k not in TIMING}


@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_batch_returns_the_cli_records(ray_local, cli, duel, tmp_path):
    # One thread per match, as each Ray task runs (trace counts per stage depend on it).
    want = cli_batch(cli, duel, "1..=8", tmp_path / "cli.jsonl", "--ticks", "600", "--threads", "1")
    got = botarena.ray_batch(duel, range(1, 9), ticks=600)
    assert [r["seed"] for r in got] == list(range(1, 9))
    assert {r["seed"]: r["final_hash"] for r in got} == {
        s: r["final_hash"] for s, r in want.items()
    }
    for r in got:
        assert strip(r) == strip(want[r["seed"]])


def test_ray_batch_refuses_bad_input(ray_local, duel, tmp_path):
    with pytest.raises(botarena.ScenarioError, match="missing.toml"):
        botarena.ray_batch(str(tmp_path / "missing.toml"), [1])
    with pytest.raises(botarena.BotarenaError, match="no seeds"):
        botarena.ray_batch(duel, [])
    with pytest.raises(botarena.BotarenaError, match="ticks"):
        botarena.ray_batch(duel, [1], ticks=0)
    with pytest.raises(TypeError):
        botarena.ray_batch(duel, [1], tickz=5)


def test_run_record_is_one_batch_line(cli, duel, tmp_path):
    want = cli_batch(cli, duel, "5", tmp_path / "one.jsonl", "--ticks", "200")[5]
    assert strip(botarena.run_record(duel, 5, ticks=200)) == strip(want)


def test_shards_add_up_to_the_whole_batch(cli, duel, tmp_path):
    whole = cli_batch(cli, duel, "0-5", tmp_path / "all.jsonl", "--ticks", "300")
    a = cli_batch(cli, duel, "0-5", tmp_path / "a.jsonl", "--ticks", "300", "--shard", "0/2")
    b = cli_batch(cli, duel, "0-5", tmp_path / "b.jsonl", "--ticks", "300", "--shard", "1/2")
    assert sorted(a) == [0, 2, 4] and sorted(b) == [1, 3, 5]
    joined = {**a, **b}
    assert {s: strip(r) for s, r in joined.items()} == {s: strip(r) for s, r in whole.items()}


def test_a_batch_killed_midway_and_resumed_gives_the_whole_result(cli, duel, tmp_path):
    seeds = "0-15"
    whole = cli_batch(cli, duel, seeds, tmp_path / "all.jsonl", "--threads", "2")
    out = tmp_path / "killed.jsonl"
    p = subprocess.Popen(
        [str(cli), "batch", duel, "--seeds", seeds, "--threads", "1", "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    # Killed (no chance to tidy up) once a few matches are written.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None:
        if out.exists() and out.read_text().count("\n") >= 3:
            break
        time.sleep(0.01)
    assert p.poll() is None, "the batch finished before it could be killed"
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    kept = out.read_text().count("\n")
    assert 3 <= kept < 16
    resumed = subprocess.run(
        [str(cli), "batch", duel, "--seeds", seeds, "--resume", "--out", str(out)],
        check=True,
        capture_output=True,
        text=True,
    )
    assert f"{kept} finished lines kept" in resumed.stderr
    got = read(out)
    assert sorted(got) == list(range(16))
    assert {s: strip(r) for s, r in got.items()} == {s: strip(r) for s, r in whole.items()}
