"""Browser fixtures: one seeded ``cardwise serve`` and one headless Chromium per session.

The tests skip with a message when Chromium, chromedriver or selenium are missing, except when
``CI=true``: there a missing browser is a failure (``.ci/run`` installs Debian's packages).
Screenshots of failing tests (and the server log) go to ``$CARDWISE_E2E_ARTIFACTS`` or a
pytest temp folder, printed in the failure report.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e import harness


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_available() -> None:
    why = harness.browser_missing()
    if why:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"browser tests must run in CI but {why}")
        pytest.skip(f"browser tests skipped: {why}")


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = Path(os.environ.get("CARDWISE_E2E_ARTIFACTS") or tmp_path_factory.mktemp("e2e-artifacts"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def demo(browser_available, tmp_path_factory: pytest.TempPathFactory) -> harness.Demo:
    return harness.seed_demo(tmp_path_factory.mktemp("e2e-db"))


@pytest.fixture(scope="session")
def server(demo: harness.Demo, artifacts: Path) -> Iterator[harness.Server]:
    with harness.Server(demo.db_url, artifacts / "server.log") as srv:
        yield srv


@pytest.fixture(scope="session")
def _driver(browser_available) -> Iterator:
    driver = harness.chrome()
    yield driver
    driver.quit()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


_FAILED = pytest.StashKey[bool]()


@pytest.fixture
def browser(_driver, server: harness.Server, artifacts: Path, request: pytest.FixtureRequest):
    """The session's Chromium on a blank console page (signed out, desktop size)."""
    _driver.set_window_size(1280, 900)
    _driver.get(server.url + "/")
    _driver.execute_script("sessionStorage.clear(); localStorage.clear();")
    _driver.get(server.url + "/#/signin")
    _driver.refresh()
    yield _driver
    if request.node.stash.get(_FAILED, False):
        shot = artifacts / f"{request.node.name}.png"
        _driver.save_screenshot(str(shot))
        print(f"\nscreenshot of the failure: {shot}\nserver log: {artifacts / 'server.log'}")
