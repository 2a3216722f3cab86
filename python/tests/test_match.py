"""botarena.Match: the same run as the CLI, tick by tick; reading players, events and the
scoreboard; commands for external players; bad input raises with the CLI's messages."""

import math
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

import botarena

ROOT = Path(__file__).resolve().parents[2]


def test_every_tick_hash_equals_the_cli_run(cli, default_scenario, tmp_path):
    ticks = 400
    out = tmp_path / "hashes.txt"
    subprocess.run(
        [str(cli), "run", default_scenario, "--ticks", str(ticks), "--hashes", str(out)],
        check=True,
        capture_output=True,
    )
    want = out.read_text().split()
    assert len(want) == ticks
    m = botarena.Match(default_scenario)
    got = []
    for _ in range(ticks):
        assert m.step() == 1
        got.append(m.hash())
    assert got == want
    assert m.tick == ticks


def cli_hashes(cli, scenario, ticks, tmp_path):
    out = tmp_path / "hashes.txt"
    subprocess.run(
        [str(cli), "run", str(scenario), "--ticks", str(ticks), "--hashes", str(out)],
        check=True,
        capture_output=True,
    )
    return out.read_text().split()


def match_hashes(scenario, ticks):
    m = botarena.Match(str(scenario))
    got = []
    for _ in range(ticks):
        m.step()
        got.append(m.hash())
    return got


def test_matches_built_again_share_the_map_and_see_an_edit(cli, compiled_duel, tmp_path):
    """Matches built one after another from one scenario (a gym env's resets) share its
    loaded map and compiled navigation, and tick for tick equal the CLI's run; an edited
    map is loaded afresh."""
    want = cli_hashes(cli, compiled_duel, 100, tmp_path)
    assert match_hashes(compiled_duel, 100) == want
    assert match_hashes(compiled_duel, 100) == want
    scenario = tmp_path / "duel.toml"
    text = open(compiled_duel).read().replace("../maps/arena.map", "arena.map")
    scenario.write_text(text)
    arena = tmp_path / "arena.map"
    arena.write_text((ROOT / "maps" / "arena.map").read_text())
    before = match_hashes(scenario, 60)
    assert before == cli_hashes(cli, scenario, 60, tmp_path)
    with arena.open("a") as f:
        f.write('{\n"classname" "item_armor2"\n"origin" "0 0 24"\n}\n')
    after = match_hashes(scenario, 60)
    assert after == cli_hashes(cli, scenario, 60, tmp_path)
    assert after != before


def test_threads_and_chunked_steps_give_the_same_hash(default_scenario):
    a = botarena.Match(default_scenario, threads=1)
    b = botarena.Match(default_scenario, threads=3)
    a.step(300)
    for _ in range(30):
        b.step(10)
    assert a.hash() == b.hash()


def test_seed_overrides_the_scenario(default_scenario):
    a = botarena.Match(default_scenario)
    b = botarena.Match(default_scenario, seed=a.seed + 1)
    assert b.seed == a.seed + 1
    a.step(100)
    b.step(100)
    assert a.hash() != b.hash()


def test_players_events_and_scoreboard_describe_the_match(default_scenario):
    m = botarena.Match(default_scenario)
    players = m.players()
    assert [p["name"] for p in players] == ["ranger", "visor", "sarge", "doom"]
    for p in players:
        assert set(p) >= {"name", "origin", "velocity", "angles", "health", "armour", "weapon",
                          "frags", "alive"}
        assert p["alive"] and p["health"] == 100 and p["weapon"] == "shotgun"
    spawns = m.events()
    assert {e["kind"] for e in spawns} == {"Spawn"} and len(spawns) == 4
    assert m.events() == []  # taken
    m.step(2400)
    events = m.events()
    assert events and all(0 < e["tick"] <= m.tick for e in events)
    deaths = [e for e in events if e["kind"] == "Death"]
    board = m.scoreboard()
    assert [b["frags"] for b in board] == sorted((b["frags"] for b in board), reverse=True)
    by_name = {p["name"]: p for p in m.players()}
    assert sum(b["deaths"] for b in board) == len(deaths)
    for b in board:
        assert by_name[b["name"]]["frags"] == b["frags"]
    assert m.over in (None, "time limit", "frag limit")


def test_an_external_player_does_what_it_is_told(duel):
    m = botarena.Match(duel, external=["visor"])
    kinds = {p["name"]: p["controller"] for p in m.players()}
    assert kinds == {"ranger": "brain", "visor": "external"}
    start = m.players()[1]["origin"]
    m.set_command("visor", forward=320, yaw=90)
    m.step(10)
    me = m.players()[1]
    assert me["origin"][1] - start[1] > 100  # ran toward +y
    assert me["angles"][1] == pytest.approx(90)
    m.set_command("visor", weapon="axe")
    m.step(5)
    assert m.players()[1]["weapon"] == "axe"


def test_observation_is_laid_out_as_documented(duel):
    layout = botarena.obs_layout()
    assert sum(n for _, n in layout) == botarena.OBS_LEN
    m = botarena.Match(duel, external=["visor"])
    m.step(400)  # the brain bot has dropped waypoints by now
    o = np.frombuffer(m.observe("visor"), dtype=np.float32)
    assert o.shape == (botarena.OBS_LEN,) and np.all(np.isfinite(o))
    me = m.players()[1]
    np.testing.assert_allclose(o[0:3], np.array(me["origin"]) / 1024, rtol=1e-5)
    yaw = math.radians(me["angles"][1])
    np.testing.assert_allclose(o[6:8], [math.sin(yaw), math.cos(yaw)], atol=1e-5)
    assert o[9] == pytest.approx(me["health"] / 100)
    weapon = botarena.weapons().index(me["weapon"])
    assert o[11 + weapon] == 1 and o[11:19].sum() == 1
    # Point goals: the hint leads somewhere, or is all zeros when no waypoint is near.
    hint = np.frombuffer(m.observe("visor", goal=(0, 0, 24)), dtype=np.float32)[-5:]
    assert hint[0] in (0, 1)
    if hint[0] == 1:
        assert np.linalg.norm(hint[1:4]) == pytest.approx(1, abs=1e-3)


def test_the_route_hint_points_along_the_learned_graph(duel):
    # Once the bots have learned the arena, the hint toward the other player is present and
    # a unit vector.
    m = botarena.Match(duel, external=["visor"])
    present = 0
    for _ in range(40):
        m.step(50)
        hint = np.frombuffer(m.observe("visor"), dtype=np.float32)[-5:]
        if hint[0] == 1:
            present += 1
            assert np.linalg.norm(hint[1:4]) == pytest.approx(1, abs=1e-3)
            assert hint[4] > 0
    assert present > 0


def test_bad_input_raises_with_the_cli_message(cli, duel, tmp_path):
    missing = str(tmp_path / "missing.toml")
    said = subprocess.run([str(cli), "run", missing], capture_output=True, text=True)
    assert said.returncode != 0
    with pytest.raises(botarena.ScenarioError) as e:
        botarena.Match(missing)
    assert said.stderr.strip() == f"error: {e.value}"
    bad = tmp_path / "bad.toml"
    bad.write_text('map = "nowhere.map"\nseed = "x"\n')
    said = subprocess.run([str(cli), "run", str(bad)], capture_output=True, text=True)
    with pytest.raises(botarena.ScenarioError) as e:
        botarena.Match(str(bad))
    assert said.stderr.strip() == f"error: {e.value}"
    m = botarena.Match(duel, external=["visor"])
    with pytest.raises(botarena.CommandError, match='no player named "nobody"'):
        m.set_command("nobody", forward=1)
    with pytest.raises(botarena.CommandError, match="controlled by brain"):
        m.set_command("ranger", forward=1)
    with pytest.raises(botarena.CommandError, match="must be a finite number"):
        m.set_command("visor", yaw=float("nan"))
    with pytest.raises(botarena.CommandError, match="weapon"):
        m.set_command("visor", weapon="bfg9000")
    with pytest.raises(botarena.CommandError, match='no player named "nobody"'):
        m.observe("nobody")
    with pytest.raises(botarena.BotarenaError, match="finite"):
        m.observe("visor", goal=(0, float("inf"), 0))
    with pytest.raises(botarena.ScenarioError, match="no player \"ghost\" to make external"):
        botarena.Match(duel, external=["ghost"])
    with pytest.raises(botarena.BotarenaError, match="threads"):
        botarena.Match(duel, threads=0)
    with pytest.raises(TypeError):
        m.set_command("visor", forward="fast")
    # The refused commands changed nothing: the match still runs.
    m.step(5)
    assert m.tick == 5


def test_stepping_releases_the_gil(default_scenario):
    # Two matches stepped from two Python threads finish with the hashes of serial runs; a
    # thread counting meanwhile gets to run (it would not while the GIL were held).
    serial = botarena.Match(default_scenario)
    serial.step(600)
    ms = [botarena.Match(default_scenario) for _ in range(2)]
    counted = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            counted[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    workers = [threading.Thread(target=m.step, args=(600,)) for m in ms]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    done.set()
    counter.join()
    assert [m.hash() for m in ms] == [serial.hash()] * 2
    assert counted[0] > 1000
