"""Fixtures of the server tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serverkit import running
from starlette.testclient import TestClient


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Starlette's test client warns that it will move from httpx to httpx2; nothing to act on here.
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.filterwarnings("ignore:Using `httpx`"))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A running server on a fresh SQLite file, bots acting at once."""
    with running(tmp_path) as c:
        yield c
