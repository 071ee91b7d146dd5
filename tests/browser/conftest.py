"""Fixtures for the browser tests: one headless Chromium per session (Playwright, async API on
the session event loop, so drive it with ``arun``).

Without Chromium or Playwright the tests FAIL with a message saying how to install them (the CI
machine starts without Chromium; ``scripts/setup.sh`` installs it), unless
``KGMEM_SKIP_BROWSER_TESTS=1`` asks to skip them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from browser.helpers import SKIP_ENV, chromium_problem, launch_chromium


@pytest.fixture(scope="session")
def chromium(arun: Any) -> Iterator[Any]:
    """A running headless Chromium (a Playwright async ``Browser``)."""
    if os.environ.get(SKIP_ENV) == "1":
        pytest.skip(f"{SKIP_ENV}=1")
    problem = chromium_problem()
    if problem is not None:
        pytest.fail(problem, pytrace=False)
    from playwright.async_api import async_playwright

    playwright = arun(async_playwright().start())
    try:
        browser = arun(launch_chromium(playwright))
        try:
            yield browser
        finally:
            arun(browser.close())
    finally:
        arun(playwright.stop())
