"""The vector environment: shapes and spaces, the same states as single environments with
the same seeds and actions, next-step autoreset with fresh seeds, seeding, the registered
ids, and bad arguments."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import botarena


def actions(rng, n):
    return rng.integers(0, botarena.ACTION_NVEC, size=(n, len(botarena.ACTION_NVEC)))


def test_shapes_spaces_and_infos(duel):
    env = botarena.vector_env(duel, num_envs=3, player="visor", max_ticks=50)
    assert env.num_envs == 3
    assert env.observation_space.shape == (3, botarena.OBS_LEN)
    assert env.action_space.shape == (3, len(botarena.ACTION_NVEC))
    obs, infos = env.reset(seed=5)
    assert obs.shape == (3, botarena.OBS_LEN) and obs.dtype == np.float32
    assert env.observation_space.contains(obs)
    assert list(infos["seed"]) == [5, 6, 7] and infos["_seed"].all()
    obs, rewards, terms, truncs, infos = env.step(env.action_space.sample())
    assert obs.shape == (3, botarena.OBS_LEN)
    assert rewards.shape == terms.shape == truncs.shape == (3,)
    assert rewards.dtype == np.float64 and terms.dtype == bool and truncs.dtype == bool
    assert list(infos["tick"]) == [1, 1, 1]
    kinds = {k: infos[k].dtype for k in ("tick", "seed", "frags", "deaths", "alive", "health")}
    assert kinds == {"tick": np.uint64, "seed": np.uint64, "frags": np.int32,
                     "deaths": np.uint32, "alive": bool, "health": np.float32}
    assert list(infos["health"]) == [100.0] * 3 and infos["alive"].all()
    # The answers are the caller's to change (a wrapper may scale rewards in place).
    rewards *= 2.0
    obs[0, 0] = 1.0


def test_each_match_is_the_single_env_with_its_seed(duel):
    seeds = [3, 11]
    venv = botarena.vector_env(duel, num_envs=2, player="visor", max_ticks=400, threads=2)
    obs, _ = venv.reset(seed=seeds)
    singles = [botarena.gym_env(duel, player="visor", max_ticks=400) for _ in seeds]
    first = [e.reset(seed=s)[0] for e, s in zip(singles, seeds)]
    np.testing.assert_array_equal(obs, np.stack(first))
    rng = np.random.default_rng(1)
    for _ in range(120):
        a = actions(rng, 2)
        obs, rewards, terms, truncs, _ = venv.step(a)
        for i, e in enumerate(singles):
            o, r, t, u, _ = e.step(a[i])
            np.testing.assert_array_equal(obs[i], o)
            assert (rewards[i], terms[i], truncs[i]) == (r, t, u)
    assert venv.hashes() == [e.match.hash() for e in singles]


def test_the_step_after_an_episode_ends_starts_the_next_seed(duel):
    env = botarena.vector_env(duel, num_envs=2, player="visor", max_ticks=5)
    env.reset(seed=10)
    rng = np.random.default_rng(2)
    for step in range(5):
        _, _, terms, truncs, infos = env.step(actions(rng, 2))
    assert truncs.all() and not terms.any(), "truncated at max_ticks"
    assert list(infos["tick"]) == [5, 5]
    obs, rewards, terms, truncs, infos = env.step(actions(rng, 2))
    assert list(infos["seed"]) == [12, 13], "each match's seed plus num_envs"
    assert list(infos["tick"]) == [0, 0] and not rewards.any()
    assert not terms.any() and not truncs.any()
    single = botarena.gym_env(duel, player="visor", max_ticks=5)
    np.testing.assert_array_equal(obs[0], single.reset(seed=12)[0])


def test_a_compiled_scenario_is_the_single_env_after_an_autoreset(compiled_duel):
    """A scenario with a compiled-navigation bot: its navigation is made once for the
    vector env and shared by every episode; an episode after an autoreset is the single
    env's with that seed, tick for tick."""
    venv = botarena.vector_env(compiled_duel, num_envs=2, player="learner", max_ticks=20)
    venv.reset(seed=[4, 9])
    rng = np.random.default_rng(3)
    for _ in range(20):
        venv.step(actions(rng, 2))
    obs, _, _, _, infos = venv.step(actions(rng, 2))
    assert list(infos["seed"]) == [6, 11]
    singles = [botarena.gym_env(compiled_duel, player="learner", max_ticks=20) for _ in range(2)]
    first = [e.reset(seed=s)[0] for e, s in zip(singles, [6, 11])]
    np.testing.assert_array_equal(obs, np.stack(first))
    for _ in range(15):
        a = actions(rng, 2)
        obs, rewards, _, _, _ = venv.step(a)
        for i, e in enumerate(singles):
            o, r, _, _, _ = e.step(a[i])
            np.testing.assert_array_equal(obs[i], o)
            assert rewards[i] == r
    assert venv.hashes() == [e.match.hash() for e in singles]


def test_same_seed_same_run_and_reset_without_seed_moves_on(duel):
    def run(env, seed):
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(3)
        out = [obs.tobytes()]
        for _ in range(30):
            out.append(env.step(actions(rng, 2))[0].tobytes())
        return out

    env = botarena.vector_env(duel, num_envs=2, player="visor", max_ticks=100)
    assert run(env, 4) == run(env, 4)
    _, infos = env.reset()
    assert list(infos["seed"]) == [6, 7]


def test_registered_ids(duel):
    env = gymnasium.make("botarena/Duel-v0", max_ticks=200)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=1)
    assert obs.shape == (botarena.OBS_LEN,)
    venv = gymnasium.make_vec("botarena/Duel-v0", num_envs=2, vectorization_mode="vector_entry_point")
    obs, _ = venv.reset(seed=1)
    assert obs.shape == (2, botarena.OBS_LEN)
    env = gymnasium.make("botarena/Default-v0", max_ticks=20)
    env.reset(seed=0)


def test_bad_arguments_are_refused(duel):
    with pytest.raises(botarena.BotarenaError, match="num_envs"):
        botarena.vector_env(duel, num_envs=0, player="visor")
    with pytest.raises(botarena.BotarenaError, match="external players"):
        botarena.vector_env(duel, num_envs=2)
    with pytest.raises(botarena.ScenarioError):
        botarena.vector_env(duel, num_envs=2, player="nobody")
    env = botarena.vector_env(duel, num_envs=2, player="visor")
    env.reset(seed=0)
    with pytest.raises(botarena.BotarenaError, match="shape"):
        env.step(np.zeros((3, 7), dtype=np.int64))
    with pytest.raises(botarena.BotarenaError, match="seeds for 2"):
        env.reset(seed=[1, 2, 3])
    with pytest.raises(botarena.CommandError):
        env.step(np.full((2, 7), 99, dtype=np.int64))
