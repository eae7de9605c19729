"""Every house-rule option reaches the rules from each environment's parameters, with a value that is not
its default (the parameter names alone are checked in test_adapters)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

import mushka.research.openspiel as mos  # noqa: E402
from mushka.research.gymnasium_env import MushkaEnv  # noqa: E402
from mushka.research.pettingzoo_env import env as aec_env  # noqa: E402
from mushka.rules import make_rules  # noqa: E402
from mushka.rules.options import options_for  # noqa: E402

# Values for the options whose default gives no neighbour to try (a table, a word, a suit order).
SPECIAL = {"deck_by_players": "3:32,4:52,5:52,6:52,7:52", "privileged_remiz": 10, "game_payment": 5,
           "suit_values": "H1,C2,D3,S4"}


def _candidates(variant, option):
    """Values of ``option`` to try, nearest its default first."""
    default = option.default(variant)
    if option.name in SPECIAL:
        yield SPECIAL[option.name]
    if isinstance(default, bool):
        yield not default
    yield from option.values
    if isinstance(default, int) and not isinstance(default, bool):
        yield from (default - 1, default + 1)


def _other_value(variant, option):
    """A value of ``option`` whose rules differ from the default ones in ``variant``."""
    plain = make_rules(variant, None)
    for value in _candidates(variant, option):
        try:
            if make_rules(variant, None, **{option.name: value}) != plain:
                return value
        except ValueError:
            continue  # out of the option's range here (e.g. no exchange of more than five cards)
    raise AssertionError(f"no value other than the default for {option.name}")


def _as_parameter(variant, option, value):
    """The OpenSpiel parameter of ``value``: ints stay ints, words of int options are -1, ';' for ','."""
    kind = mos._param_default(variant, option)
    if isinstance(kind, int) and not isinstance(kind, bool) and isinstance(value, str):
        return -1 if not value.lstrip("-").isdigit() else int(value)
    return value.replace(",", ";") if isinstance(value, str) else value


CASES = [(variant, option) for variant in mos.VARIANTS for option in options_for(variant)]


@pytest.mark.parametrize(("variant", "option"), CASES, ids=[f"{v}-{o.name}" for v, o in CASES])
def test_every_option_reaches_the_rules_in_every_environment(variant, option):
    value = _other_value(variant, option)
    rules = make_rules(variant, None, **{option.name: value})
    game = pyspiel.load_game(mos.short_name(variant), {option.name: _as_parameter(variant, option, value)})
    assert game.rules == rules
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    assert aec_env(variant, None, **{option.name: value}).rules == rules
    assert MushkaEnv(variant, **{option.name: value}).rules == rules


def test_the_module_docstrings_load_game_examples_load():
    # The examples a reader copies first: every `pyspiel.load_game(...)` line of the
    # module's docstring and of docs/research.md must load the game it names.
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parents[2] / "docs" / "research.md"
    calls = re.findall(r"pyspiel\.load_game\(.*\)", (mos.__doc__ or "") + doc.read_text(encoding="utf-8"))
    assert len(calls) >= 4
    for call in calls:
        game = eval(call, {"pyspiel": pyspiel})  # the docs' own text, nothing else
        assert game.get_type().short_name.startswith("mushka_"), call
    assert eval(calls[0], {"pyspiel": pyspiel}).rules.remiz == 7
