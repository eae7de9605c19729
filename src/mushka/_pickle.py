"""Pickling of the core's frozen dataclasses, the same in both builds (docs/build.md).

A frozen dataclass compiled by mypyc gets mypyc's own ``__setstate__``, which sets
each field with ``setattr`` and so trips the dataclass's frozen ``__setattr__``:
such an object pickled but never unpickled (the server's bot workers receive views,
actions and events).  The core's frozen dataclasses therefore derive from
:class:`FrozenValue`, which reduces them to their constructor and its arguments,
so that both builds unpickle them alike.

Compiled with the core (a compiled class can only derive from a compiled one);
standard library only.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


class FrozenValue:
    """Base of the core's frozen dataclasses: pickled as their class and init fields.

    A base class rather than a decorator: a compiled class cannot be given a method
    after it is made.
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """The class and its init fields, in order (see the module docstring)."""
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)  # type: ignore[arg-type]
