"""Shared fixtures: the repository root, the CLI binary (built when missing) and scenarios."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `botarena` binary of this checkout (BOTARENA_BIN, else target/release/botarena,
    built with cargo when absent)."""
    given = os.environ.get("BOTARENA_BIN")
    if given:
        return Path(given)
    path = ROOT / "target" / "release" / "botarena"
    if not path.exists():
        subprocess.run(["cargo", "build", "--release", "--bin", "botarena"], cwd=ROOT, check=True)
    return path


@pytest.fixture(scope="session")
def duel() -> str:
    return str(ROOT / "scenarios" / "duel.toml")


@pytest.fixture(scope="session")
def compiled_duel() -> str:
    return str(ROOT / "scenarios" / "compiled_duel.toml")


@pytest.fixture(scope="session")
def default_scenario() -> str:
    return str(ROOT / "scenarios" / "default.toml")
