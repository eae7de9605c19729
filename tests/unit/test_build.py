"""The compiled (mypyc) and the pure-Python builds of the rules core (docs/build.md).

Which build a process imported is checked here, and that both play the same deals,
write the same records and make bots choose the same actions for the same seeds.
"""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mushka
from mushka import _build

ROOT = Path(__file__).resolve().parents[2]


def test_the_imported_build_is_the_one_selected_and_expected():
    """`make test` runs the suites once on the compiled build and once with MUSHKA_PURE=1;
    MUSHKA_EXPECT_BUILD says which one this run must be on."""
    assert _build.imported_build() == _build.BUILD, _build.REASON
    for module in _build.COMPILED:
        origin = sys.modules[module].__file__ if module in sys.modules else None
        if origin is not None:
            assert origin.endswith(".py") == (_build.BUILD == "pure"), (module, origin)
    expected = os.environ.get("MUSHKA_EXPECT_BUILD")
    if expected:
        assert expected == _build.BUILD, _build.REASON
    assert mushka.engine.deal.Deal.__module__ == "mushka.engine.deal"


def test_setup_compiles_the_modules_the_selector_knows():
    """setup.py keeps no list of its own: it reads _build.COMPILED from the module's text."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    reader = next(node for node in tree.body
                  if isinstance(node, ast.FunctionDef) and node.name == "_compiled_sources")
    assigned = next(
        node.value for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMPILED" for t in node.targets)
    )
    assert isinstance(assigned, ast.Call) and getattr(assigned.func, "id", "") == "_compiled_sources"
    namespace = {"ast": ast, "Path": Path}
    exec(compile(ast.Module(body=[reader], type_ignores=[]), "setup.py", "exec"), namespace)
    files = namespace["_compiled_sources"](Path(_build.__file__))
    assert [f.removesuffix(".py").replace("/", ".") for f in files] == list(_build.COMPILED)
    for module in _build.COMPILED:
        assert _build.source_path(module).is_file()


def _run(code: str, *, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("MUSHKA_PURE", "MUSHKA_EXPECT_BUILD")}
    if pure:
        env["MUSHKA_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300, check=True)
    return out.stdout.strip()


WHICH = "import mushka._build as b, mushka.engine.trump; print(b.BUILD, b.imported_build())"


def test_the_pure_switch_imports_every_core_module_from_its_source():
    assert _run(WHICH, pure=True) == "pure pure"


def test_a_stale_build_stamp_falls_back_to_the_source(tmp_path):
    stamp = {"compiled": {m.replace(".", "/") + ".py": "0" * 64 for m in _build.COMPILED},
             "python": sys.implementation.cache_tag}
    path = tmp_path / "stamp.json"
    path.write_text(json.dumps(stamp), encoding="utf-8")
    assert _build._stale_module(path) == _build.COMPILED[0].replace(".", "/") + ".py"  # the first listed
    stamp["python"] = "cpython-00"
    path.write_text(json.dumps(stamp), encoding="utf-8")
    assert _build._stale_module(path) == "built for another Python"
    assert _build._stale_module(tmp_path / "missing.json") == "no build stamp"


# Deals of every variant to the end by the checked API, their records, and the choices
# of the heuristic and search bots: printed as one digest per part.
PLAY = """
import hashlib, random
from mushka import make_rules, new_deal, new_game, record_of_deal, record_of_game
from mushka.bots import make_bot, play_game
parts = {"deals": hashlib.sha256(), "records": hashlib.sha256(), "bots": hashlib.sha256()}
for variant, players in (("classic", 4), ("classic", 3), ("mistigri", 5), ("kopilka", 4)):
    rules = make_rules(variant, players)
    for seed in range(25):
        deal = new_deal(rules, seed % players, rng=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            deal.apply(rng.choice(list(deal.legal_actions())))
        parts["deals"].update(repr((deal.deck, deal.actions, deal.result)).encode())
        fast = new_deal(rules, seed % players, rng=seed)
        fast.playout(random.Random(seed))
        parts["deals"].update(repr((fast.actions, fast.result)).encode())
        parts["records"].update(record_of_deal(deal).dumps().encode())
    game = new_game(rules, rng=11)
    play_game(game, [make_bot("heuristic") for _ in range(players)], random.Random(5))
    parts["bots"].update(record_of_game(game).dumps().encode())
    search = make_bot("search:iterations=150,seconds=0")  # no time limit: deterministic
    game = new_game(rules, rng=3)
    view = game.view(game.deal.to_act)
    parts["bots"].update(repr(search.choose(view, random.Random(9))).encode())
import mushka._build as b
print(b.BUILD, " ".join(f"{k}={h.hexdigest()[:16]}" for k, h in parts.items()))
"""


@pytest.mark.slow
def test_both_builds_give_identical_deals_records_and_bot_choices():
    compiled = _run(PLAY, pure=False)
    if not compiled.startswith("compiled "):
        assert os.environ.get("MUSHKA_EXPECT_BUILD") != "compiled", compiled
        pytest.skip(f"no compiled build here ({_build.REASON})")
    pure = _run(PLAY, pure=True)
    assert pure.startswith("pure ")
    assert pure.split(" ", 1)[1] == compiled.split(" ", 1)[1]


def test_deals_and_games_are_told_apart_whichever_is_asked_first():
    """isinstance against the two base classes answers right in any order (a compiled
    subclass of abc.ABC once shared ABC's cache: one False answer made the other False)."""
    from mushka import make_rules, new_deal, new_game
    from mushka.engine import Deal
    from mushka.match import Game

    for variant in ("classic", "kopilka"):
        rules = make_rules(variant, 4)
        game, deal = new_game(rules, rng=1), new_deal(rules, 0, rng=1)
        assert not isinstance(game, Deal)
        assert isinstance(game, Game)
        assert not isinstance(deal, Game)
        assert isinstance(deal, Deal)
        assert isinstance(game, (Deal, Game)) and isinstance(deal, (Game, Deal))
        assert not isinstance(game.deal, Game) and isinstance(game.deal, Deal)


def test_views_events_actions_and_records_survive_pickling():
    """The server hands views to bot workers in other processes: every frozen value of
    the core pickles and comes back equal (a compiled frozen dataclass once could not be
    unpickled: mypyc's own state setter tripped its frozen fields)."""
    import pickle
    import random

    from mushka import make_rules, new_game
    from mushka.engine import Action, unstack_deck
    from mushka.records import Record, record_of_game
    from mushka.rules.variants import VARIANTS

    values: list[object] = [Action.pass_(), Action.draw(), *VARIANTS.values()]
    for variant in ("classic", "mistigri", "kopilka"):
        rules = make_rules(variant, 4)
        game, rng = new_game(rules, rng=3), random.Random(3)
        for _ in range(60):
            if game.is_over:
                break
            values += [game.view(len(values) % 4), game.view(None), game.deal.view(None)]
            action = rng.choice(list(game.legal_actions()))
            values.append(action)
            game.apply(action)
        values += game.deal.events(omniscient=True) + game.deal.events(1)
        values.append(unstack_deck(rules, game.deal.deck, game.deal.dealer))
        record = record_of_game(game)
        values += [record, *record.deals, Record.loads(record.dumps())]
        if game.deal.result is not None:
            values.append(game.deal.result)
    kinds = set()
    for value in values:
        back = pickle.loads(pickle.dumps(value))
        assert back == value and type(back) is type(value), value
        kinds.add(type(value).__name__)
    assert {"Action", "GameView", "DealView", "Record", "DealRecord", "Played", "Dealt", "Stack"} <= kinds
