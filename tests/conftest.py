"""Shared pytest configuration: the ``--backend`` option and hypothesis profiles."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_addoption(parser):
    parser.addoption("--backend", action="append", default=[],
                     help="run backend-parametrised tests only for these backends")
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    wanted = set(config.getoption("--backend"))
    skip_slow = pytest.mark.skip(reason="slow test: pass --runslow to run it")
    for item in items:
        if "slow" in item.keywords and not config.getoption("--runslow"):
            item.add_marker(skip_slow)
        if wanted and hasattr(item, "callspec"):
            backend = item.callspec.params.get("backend")
            if isinstance(backend, str) and backend not in wanted:
                item.add_marker(pytest.mark.skip(reason=f"--backend excludes {backend}"))
