"""The PettingZoo and Gymnasium environments: the libraries' own API checks, determinism,
rewards from frags and deaths, and bad arguments."""

from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test

import botarena


def test_parallel_env_passes_pettingzoo_api_test(duel):
    env = botarena.parallel_env(duel, controlled=["ranger", "visor"], max_ticks=300)
    parallel_api_test(env, num_cycles=400)


def test_gym_env_passes_gymnasium_check_env(duel):
    env = botarena.gym_env(duel, player="visor", max_ticks=300)
    check_env(env, skip_render_check=True)


def run_episode(env, seed, steps):
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    trace = [obs["visor"].tobytes()]
    for _ in range(steps):
        actions = {a: rng.integers(0, botarena.ACTION_NVEC) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        trace.append((obs["visor"].tobytes(), rewards["visor"]))
        if not env.agents:
            break
    return trace, env.match.hash()


def test_same_seed_and_actions_give_the_same_episode(duel):
    env = botarena.parallel_env(duel, controlled=["visor"], max_ticks=200)
    a = run_episode(env, 3, 200)
    b = run_episode(env, 3, 200)
    assert a == b
    c = run_episode(env, 4, 200)
    assert c[1] != a[1]


def test_rewards_are_frags_gained_minus_deaths(duel):
    # Both players under control, one of them standing still and the other shooting it:
    # the rewards add up to the scoreboard's frags and deaths.
    env = botarena.parallel_env(duel, controlled=["ranger", "visor"], max_ticks=2000, seed=1)
    env.reset()
    totals = {"ranger": 0.0, "visor": 0.0}
    rng = np.random.default_rng(1)
    while env.agents:
        actions = {a: rng.integers(0, botarena.ACTION_NVEC) for a in env.agents}
        actions["visor"][5] = 1  # always firing
        _, rewards, _, _, infos = env.step(actions)
        for a, r in rewards.items():
            totals[a] += r
    board = {b["name"]: b for b in env.match.scoreboard()}
    for a in totals:
        assert totals[a] == board[a]["frags"] - board[a]["deaths"]
    assert env.match.tick == 2000


def test_the_quick_step_and_the_general_one_agree(duel):
    # One agent's int64 row takes the one-agent step (native reward and info); a list, or
    # another integer type, takes the general one. Any mix gives the same episode, and the
    # rewards add up to the scoreboard's frags and deaths either way.
    def episode(form):
        env = botarena.parallel_env(duel, controlled=["visor"], max_ticks=1500, seed=2)
        env.reset()
        rng = np.random.default_rng(5)
        trace, total = [], 0.0
        k = 0
        while env.agents:
            a = rng.integers(0, botarena.ACTION_NVEC)
            a[5] = 1  # always firing
            obs, rewards, terms, truncs, infos = env.step({"visor": form(k, a)})
            trace.append((obs["visor"].tobytes(), rewards, terms, truncs, infos))
            total += rewards["visor"]
            k += 1
        board = {b["name"]: b for b in env.match.scoreboard()}
        assert total == board["visor"]["frags"] - board["visor"]["deaths"]
        return trace, env.match.hash()

    quick = episode(lambda k, a: a)
    general = episode(lambda k, a: a.tolist())
    mixed = episode(lambda k, a: a if k % 3 else a.astype(np.int32))
    assert quick == general == mixed
    assert any(r["visor"] != 0 for _, r, _, _, _ in quick[0]), "no frag or death to check"
    # The Gymnasium env's step is the same one.
    env = botarena.gym_env(duel, player="visor", max_ticks=1500, seed=2)
    env.reset()
    rng = np.random.default_rng(5)
    for obs, rewards, terms, truncs, infos in quick[0][:300]:
        a = rng.integers(0, botarena.ACTION_NVEC)
        a[5] = 1
        o, r, te, tr, info = env.step(a)
        assert (o.tobytes(), r, te, tr, info) == (obs, rewards["visor"], terms["visor"],
                                                 truncs["visor"], infos["visor"])


def test_the_episode_ends_with_the_match(tmp_path, root):
    # A frag limit of 1: the first frag terminates the episode for every agent.
    text = (root / "scenarios" / "duel.toml").read_text()
    text = text.replace("frag_limit = 10", "frag_limit = 1").replace(
        'map = "../maps/arena.map"', f'map = "{root / "maps" / "arena.map"}"'
    )
    path = tmp_path / "short.toml"
    path.write_text(text)
    env = botarena.parallel_env(str(path), controlled=["visor"])
    env.reset()
    noop = np.array([1, 1, 2, 1, 0, 0, 0])
    steps = 0
    while env.agents:
        _, _, terms, truncs, _ = env.step({"visor": noop})
        steps += 1
    assert terms == {"visor": True} and truncs == {"visor": False}
    assert env.match.over == "frag limit"
    assert steps < env._core.max_ticks
    with pytest.raises(botarena.BotarenaError, match="reset"):
        env.step({"visor": noop})


def test_bad_environment_arguments_raise(duel, tmp_path):
    with pytest.raises(botarena.ScenarioError, match="missing.toml"):
        botarena.parallel_env(str(tmp_path / "missing.toml"), controlled=["a"])
    with pytest.raises(botarena.ScenarioError, match='no player "ghost"'):
        botarena.parallel_env(duel, controlled=["ghost"])
    with pytest.raises(botarena.BotarenaError, match="no external player"):
        botarena.parallel_env(duel)
    with pytest.raises(botarena.BotarenaError, match="no external player"):
        botarena.gym_env(duel)
    two = tmp_path / "two.toml"
    two.write_text(
        open(duel).read().replace("../maps/arena.map", str(Path(duel).parent.parent / "maps/arena.map"))
        + '\n[[players]]\nname = "a"\ncontroller = "external"\n'
        + '[[players]]\nname = "b"\ncontroller = "external"\n'
    )
    with pytest.raises(botarena.BotarenaError, match="name the one to control"):
        botarena.gym_env(str(two))
    assert botarena.gym_env(str(two), player="b").player == "b"
    with pytest.raises(botarena.BotarenaError, match="twice"):
        botarena.parallel_env(duel, controlled=["visor", "visor"])
    with pytest.raises(botarena.BotarenaError, match="ticks_per_step"):
        botarena.parallel_env(duel, controlled=["visor"], ticks_per_step=0)
    with pytest.raises(botarena.BotarenaError, match="goal"):
        botarena.parallel_env(duel, controlled=["visor"], goal=(0, 1))
    env = botarena.parallel_env(duel, controlled=["visor"], max_ticks=10)
    env.reset()
    with pytest.raises(botarena.BotarenaError, match="not in MultiDiscrete"):
        env.step({"visor": np.array([3, 0, 0, 0, 0, 0, 0])})
    with pytest.raises(botarena.BotarenaError, match="not agents"):
        env.step({"ranger": np.zeros(7, dtype=np.int64)})
