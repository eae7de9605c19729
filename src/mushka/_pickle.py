"""Pickling of the core's frozen dataclasses, the same in both builds (docs/build.md).

A frozen dataclass compiled by mypyc gets mypyc's own ``__setstate__``, which sets
each field with ``setattr`` and so trips the dataclass's frozen ``__setattr__``:
such an object pickled but never unpickled (the server's bot workers receive views,
actions and events).  The core's frozen dataclasses therefore reduce themselves to
their constructor and its arguments, which both builds unpickle alike.

This module stays interpreted and uses the standard library only.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def reduce_fields(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """``__reduce__`` of a frozen dataclass: its class and its init fields, in order."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj) if f.init)
