"""Fit the partie outlook (tau, m) of mushka.bots.policy to heuristic self-play.

The heuristic bot and the search bot's value model estimate each seat's chance
of winning a partie from the records with ``win_chances``: a softmax of minus
the records over ``tau``, mixed with a share ``m`` of parties that a special
hand (C22, MI13) ends for anybody.  This script plays parties of heuristic
self-play per table with the default options, takes the records before every
deal and the partie's winner, and prints the (tau, m) of highest likelihood,
ready for ``_OUTLOOK_FIT``.  Rerun it when a default that changes how parties
end changes (as C22's did).

    python bench/fit_outlook.py --parties 300
"""

from __future__ import annotations

import argparse
import math
import random
from concurrent.futures import ProcessPoolExecutor

from mushka.bots import make_bot
from mushka.bots.declaring import win_chances
from mushka.match import new_game
from mushka.rules import make_rules

TAUS = (2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0, 30.0)
SHARES = tuple(k / 20 for k in range(20))


def parties(args: tuple[str, int, int, int]) -> list[tuple[tuple[int, ...], int, bool]]:
    """(records before a deal, winner, ended by a мушка) for every deal of ``count`` parties."""
    variant, players, count, seed = args
    rules = make_rules(variant, players)
    bots = [make_bot("heuristic") for _ in range(players)]
    out = []
    for k in range(count):
        rng = random.Random(seed * 100_003 + k)
        game = new_game(rules, rng=rng.getrandbits(64))
        snaps = []
        seen = -1
        while not game.is_over:
            if len(game.finished) != seen:
                seen = len(game.finished)
                snaps.append(tuple(game.records))
            seat = game.to_act
            game.apply(bots[seat].choose(game.view(seat), rng), seat)
        result = game.result
        assert result is not None and result.winner is not None
        out += [(snap, result.winner, result.ended_by_mushka) for snap in snaps]
    return out


def fit(samples: list[tuple[tuple[int, ...], int, bool]]) -> tuple[float, float, float]:
    """The (tau, m) of highest log-likelihood, and that log-likelihood per sample."""
    best = (-math.inf, 0.0, 0.0)
    for tau in TAUS:
        for m in SHARES:
            ll = sum(math.log(win_chances(rec, tau, m)[w]) for rec, w, _ in samples)
            best = max(best, (ll, tau, m))
    ll, tau, m = best
    return tau, m, ll / len(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parties", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tables", default="classic:3,classic:4,classic:5,classic:6,classic:7,"
                                            "mistigri:3,mistigri:4,mistigri:5,mistigri:6,mistigri:7")
    args = parser.parse_args()
    tables = [(t.split(":")[0], int(t.split(":")[1])) for t in args.tables.split(",")]
    chunk = max(1, args.parties // (args.jobs * 2))
    with ProcessPoolExecutor(args.jobs) as pool:
        for variant, players in tables:
            work = [(variant, players, min(chunk, args.parties - s), s) for s in range(0, args.parties, chunk)]
            samples = [row for rows in pool.map(parties, work) for row in rows]
            tau, m, ll = fit(samples)
            ended = sum(1 for _, _, e in samples if e) / len(samples)
            print(f'("{variant}", {players}): ({tau}, {m}),  # {len(samples)} deals, '
                  f'log-likelihood {ll:.3f}/deal, deals in parties a мушка ended {ended:.0%}', flush=True)


if __name__ == "__main__":
    main()
