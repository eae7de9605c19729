"""Stopping the server's background tasks: one way, used by every part that keeps one."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def stop_task(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (if any) and wait until it has ended, so that nothing it does outlives
    the part that started it."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
