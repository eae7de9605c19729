"""How whatever is played step by step is copied and pickled: :class:`Stepped`.

A deal (:class:`mushka.engine.steps.StepDeal`) and a whole game
(:class:`mushka.game_steps.StepGame`) played step by step are both made from
their settings and then their steps, chance outcomes and action ids in order.
Their common base here makes a clone's blank start, ``copy.deepcopy`` (the
subclass's cheap clone) and a compact pickle that holds only the settings and
the steps and replays them, written once for both.
"""

from __future__ import annotations

from typing import Any, Self


class Stepped:
    """What a deal and a whole game played step by step share: how they are copied and pickled.

    Each is made from its settings (:meth:`_settings`) and then its steps, chance
    outcomes and action ids in order; a pickle holds just those and replays the steps,
    and ``copy.deepcopy`` is the subclass's cheap :meth:`clone`.
    """

    __slots__ = ()

    def _settings(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The constructor's arguments: positional and keyword."""
        raise NotImplementedError

    def _steps_so_far(self) -> tuple[int, ...]:
        """Every step so far: chance outcomes and action ids, in order."""
        raise NotImplementedError

    def is_chance(self) -> bool:
        """Whether a chance step is due."""
        raise NotImplementedError

    def apply_chance(self, outcome: int) -> None:
        """Apply a chance outcome."""
        raise NotImplementedError

    def apply_id(self, action_id: int) -> None:
        """Apply the action ``action_id`` of the seat to act."""
        raise NotImplementedError

    def clone(self) -> Self:
        """A cheap independent copy."""
        raise NotImplementedError

    def _fresh(self) -> Self:
        """A new object of the same settings, no step taken yet (a clone's start)."""
        args, kwargs = self._settings()
        return type(self)(*args, **kwargs)

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """``copy.deepcopy`` is :meth:`clone`."""
        other = self.clone()
        memo[id(self)] = other
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """A compact pickle: the class, its settings and the step history."""
        args, kwargs = self._settings()
        return (_replay, (type(self), args, kwargs, self._steps_so_far()))


def _replay(cls: type[Stepped], args: tuple[Any, ...], kwargs: dict[str, Any], history: tuple[int, ...]) -> Stepped:
    """Unpickle a :class:`Stepped`: make it from its settings and replay its steps."""
    out = cls(*args, **kwargs)
    for step in history:
        if out.is_chance():
            out.apply_chance(step)
        else:
            out.apply_id(step)
    return out
