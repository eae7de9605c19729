"""Fit the learned correction of the search's declaration values (``mushka.bots.declare_model``).

Two steps, both reproducible from seeds:

``collect``
    Plays heuristic self-play games (seeds ``--first-game`` on); at each
    declaration (C6-C8) where the search has more than one candidate, up to
    ``--per-game`` of them a game, it records every candidate's mean value
    by the search from the seat's view (``search:iterations=2000,seconds=0``,
    the expert's budget), its value by the oracle on the true deal
    (``talon=0``: every hand seen, the talon shuffled), and its public
    features (:func:`mushka.bots.declare_model.features`).  One JSON line a
    position.

``fit``
    Ridge regression of the oracle's difference between a candidate and
    the rules of thumb's choice on the search's difference and the feature
    differences, on the training rows; writes the weights into
    ``src/mushka/bots/data/declare.json`` (``--write``) and reports the
    held-out rows' oracle regret per declaration of the corrected choice
    against the search's best mean and the rules of thumb's choice, paired
    over positions (95 %, Student's t).

    python bench/fit_declare.py collect -v classic --first-game 20000 --games 300 --out train-classic.jsonl
    python bench/fit_declare.py collect -v classic --first-game 30000 --games 100 --out held-classic.jsonl
    python bench/fit_declare.py fit --train classic=train-classic.jsonl --held classic=held-classic.jsonl --write
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from pathlib import Path

import numpy as np
from scipy import stats

from mushka import make_rules, new_game
from mushka.bots.declare_model import FEATURES, features
from mushka.bots.heuristic import HeuristicBot
from mushka.bots.oracle import OracleBot
from mushka.bots.search import SearchBot
from mushka.engine import Phase

MODEL = Path(__file__).resolve().parent.parent / "src" / "mushka" / "bots" / "data" / "declare.json"


def collect(variant: str, players: int, first: int, games: int, per_game: int, search_iterations: int,
            oracle_iterations: int, out: str) -> int:
    """Write one row per declaration position to ``out``; the number of rows."""
    rules = make_rules(variant, players)
    field = HeuristicBot()
    rows = 0
    for g in range(first, first + games):
        game = new_game(rules, rng=g, max_deals=200)
        rng = random.Random(g)
        taken = 0
        while not game.is_over and taken < per_game:
            seat = game.to_act
            view = game.view(seat)
            d = view.deal
            if d.phase is Phase.DECLARE and len(d.legal) > 1:
                search = SearchBot(iterations=search_iterations, seconds=0)
                search.choose(view, random.Random(g * 104729 + taken))
                cands = search.last
                if len(cands) > 1:
                    oracle = OracleBot(iterations=oracle_iterations, seconds=0, talon=0)
                    oracle.attach(lambda game=game: game.deal)
                    oracle.choose(view, random.Random(g * 7919 + taken))
                    truth = dict(oracle.last)
                    row = {"variant": variant, "players": players, "game": g, "seat": seat,
                           "cands": [{"action": str(a), "search": m, "oracle": truth.get(a),
                                      "features": features(d, a)} for a, m in cands]}
                    with open(out, "a", encoding="utf-8") as f:
                        f.write(json.dumps(row) + "\n")
                    rows += 1
                    taken += 1
            game.apply(field.choose(view, rng), seat)
    return rows


def _load(path: str) -> list[dict[str, object]]:
    with open(path, encoding="utf-8") as lines:
        return [json.loads(x) for x in lines if x.strip()]


def _inputs(c: dict[str, object], base: dict[str, object]) -> list[float]:
    """The model's inputs for candidate ``c`` against ``base``: the search's difference, then the features'."""
    feats = zip(c["features"], base["features"], strict=True)  # type: ignore[call-overload]
    return [float(c["search"]) - float(base["search"])] + [a - b for a, b in feats]  # type: ignore[arg-type]


def _design(rows: list[dict[str, object]]) -> tuple[np.ndarray, np.ndarray]:
    """Differences with candidate 0 (the rules of thumb's choice): inputs and oracle targets."""
    xs, ys = [], []
    for row in rows:
        cands = row["cands"]  # type: ignore[index]
        base = cands[0]
        if base["oracle"] is None:
            continue
        for c in cands[1:]:
            if c["oracle"] is None:
                continue
            xs.append(_inputs(c, base))
            ys.append(c["oracle"] - base["oracle"])
    return np.array(xs, dtype=float), np.array(ys, dtype=float)


def ridge(x: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Least squares with an L2 penalty ``lam`` times the number of rows (no intercept: differences)."""
    a = x.T @ x + lam * len(y) * np.eye(x.shape[1])
    return np.linalg.solve(a, x.T @ y)


def regrets(rows: list[dict[str, object]], coef: np.ndarray) -> tuple[list[float], list[float], list[float]]:
    """Per held-out position: the oracle regret of the rules of thumb, the best search mean, the corrected."""
    rot, raw, learned = [], [], []
    for row in rows:
        cands = [c for c in row["cands"] if c["oracle"] is not None]  # type: ignore[attr-defined]
        if len(cands) < 2 or cands[0] is not row["cands"][0]:  # type: ignore[index]
            continue
        top = max(c["oracle"] for c in cands)
        base = cands[0]

        def corrected(c: dict[str, object], base: dict[str, object] = base) -> float:
            return float(np.dot(coef, _inputs(c, base)))

        rot.append(top - base["oracle"])
        raw.append(top - max(cands, key=lambda c: c["search"])["oracle"])
        learned.append(top - max(cands, key=corrected)["oracle"])
    return rot, raw, learned


def _ci(xs: list[float]) -> str:
    mean = statistics.mean(xs)
    half = float(stats.t.ppf(0.975, len(xs) - 1)) * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def fit(train: dict[str, str], held: dict[str, str], lam: float, write: bool) -> list[str]:
    """Fit each variant's weights; report held-out regrets; optionally write the model file."""
    out = []
    model: dict[str, object] = {"format": 1, "features": list(FEATURES), "variants": {},
                                "fit": {"method": "ridge regression on oracle differences", "lambda": lam,
                                        "script": "bench/fit_declare.py"}}
    for variant, path in sorted(train.items()):
        rows = _load(path)
        x, y = _design(rows)
        coef = ridge(x, y, lam)
        model["variants"][variant] = {  # type: ignore[index]
            "search": round(float(coef[0]), 5), "weights": [round(float(w), 5) for w in coef[1:]],
            "positions": len(rows), "pairs": len(y),
            "seeds": f"{min(r['game'] for r in rows)}-{max(r['game'] for r in rows)}"}
        out.append(f"{variant}: {len(rows)} training positions, {len(y)} pairs; search {coef[0]:+.3f}; "
                   + ", ".join(f"{n} {w:+.3f}" for n, w in zip(FEATURES, coef[1:], strict=True)))
        if variant in held:
            kept = _load(held[variant])
            rot, raw, learned = regrets(kept, coef)
            out.append(f"  held out, {len(raw)} positions, oracle regret per declaration: rules of thumb {_ci(rot)}, "
                       f"search's best mean {_ci(raw)}, corrected {_ci(learned)}")
            out.append(f"  corrected − search's best mean {_ci([a - b for a, b in zip(learned, raw, strict=True)])}; "
                       f"corrected − rules of thumb {_ci([a - b for a, b in zip(learned, rot, strict=True)])}")
            model["variants"][variant]["held_out"] = {  # type: ignore[index]
                "positions": len(raw), "regret_rules": statistics.mean(rot), "regret_search": statistics.mean(raw),
                "regret_corrected": statistics.mean(learned),
                "seeds": f"{min(r['game'] for r in kept)}-{max(r['game'] for r in kept)}"}
    if write:
        MODEL.parent.mkdir(parents=True, exist_ok=True)
        MODEL.write_text(json.dumps(model, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        out.append(f"written {MODEL.name}")
    return out


def _pairs(items: list[str]) -> dict[str, str]:
    return dict(item.split("=", 1) for item in items)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    c = sub.add_parser("collect", help="play games and write the positions' rows")
    c.add_argument("--variant", "-v", default="classic")
    c.add_argument("--players", "-p", type=int, default=4)
    c.add_argument("--first-game", type=int, default=20000)
    c.add_argument("--games", type=int, default=300)
    c.add_argument("--per-game", type=int, default=12, help="at most this many positions from one game")
    c.add_argument("--search-iterations", type=int, default=2000)
    c.add_argument("--oracle-iterations", type=int, default=4000)
    c.add_argument("--out", required=True, help="append the rows (JSON lines) to this file")
    f = sub.add_parser("fit", help="fit the weights on the collected rows")
    f.add_argument("--train", nargs="+", required=True, help="variant=rows.jsonl")
    f.add_argument("--held", nargs="*", default=[], help="variant=rows.jsonl, held out")
    f.add_argument("--lam", type=float, default=0.01, help="ridge penalty per row")
    f.add_argument("--write", action="store_true", help="write src/mushka/bots/data/declare.json")
    args = parser.parse_args(argv)
    if args.step == "collect":
        n = collect(args.variant, args.players, args.first_game, args.games, args.per_game,
                    args.search_iterations, args.oracle_iterations, args.out)
        print(f"{n} positions written to {args.out}")
    else:
        for line in fit(_pairs(args.train), _pairs(args.held), args.lam, args.write):
            print(line)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
