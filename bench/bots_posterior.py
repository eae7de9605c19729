"""The samplers' posteriors measured on their own: how likely each makes the true place of every hidden card.

Positions come from heuristic self-play games (held-out seeds, 10000 on):
every declaration at which another seat has already stood or passed
(``--phase declare``, where ``believe_phases=1`` uses the belief), or each
seat's first and third play of a deal (``--phase play``).  At each, every
sampler draws ``--worlds`` worlds; a hidden card's *place* is the hand of
the seat holding it now, or "elsewhere" (talon, discards).  A sampler's
score at a position is the mean over the hidden cards of

    log (worlds that put the card in its true place + ½) / (worlds + ½ · places)

and the table gives each sampler's mean score with its paired difference
against uniform worlds and against whole-world rejection (95 % Student's t
over positions; positions of one game are not independent, so read the
intervals as a little narrow), the mean total-variation distance of each
card's place distribution from rejection's (a second rejection run gives the
noise floor of that distance), milliseconds and proposals per kept world.

Samplers: ``uniform`` (believe=0), ``whole`` (believe=1, a world kept with
its weight), ``seatwise 1`` and ``seatwise 2`` (believe=1, seat by seat,
one or two sweeps); all with the self-play factors (``belief=1``).  With
``--other-cards x`` also ``cards 1``: one sweep seat by seat whose model
weighs which cards each seat threw as well (``other_cards=x``; the shipped
``SELF_PLAY_CARDS`` at ``belief=2``).  With ``--plays`` also ``plays whole``
and ``plays 1``: whole-world rejection and one sweep seat by seat whose
likelihood weighs the cards each seat played as well (``believe=2``, C13-C15),
the sampler a search with ``believe=2`` uses in the tricks.  With
``--other-play x`` (one value or more) also ``plays 1 x``: that sweep with the
plays' factor ``other_play`` set to ``x`` (the shipped factors keep 0.3).

    python bench/bots_posterior.py -v classic --games 6 --worlds 300 --json out.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Iterator
from dataclasses import replace

from mushka._build import imported_build
from mushka.bots.base import make_bot
from mushka.bots.belief import BELIEF, SELF_PLAY
from mushka.bots.sampler import WorldSampler
from mushka.engine import Deal, DealView, Phase
from mushka.match import new_game
from mushka.rules import make_rules
from mushka.sim.stats import mean_ci
from mushka.worlds.trump import TrumpProposal

SAMPLERS: dict[str, dict[str, object]] = {
    "uniform": {"believe": 0},
    "whole": {"believe": 1},
    "seatwise 1": {"believe": 1, "seatwise": 1},
    "seatwise 2": {"believe": 1, "seatwise": 2},
}
"""The samplers compared, by name: keyword arguments of :class:`WorldSampler`."""


Position = tuple[int, DealView, Deal, tuple[int, ...]]
"""A game's seed, the seat's view, the true deal, the partie's records."""


def game_positions(variant: str, players: int, seeds: range, phase: str) -> Iterator[Position]:
    """(seed, view, true deal, records) at the chosen decisions of heuristic self-play games."""
    rules = make_rules(variant, players)
    for seed in seeds:
        game = new_game(rules, rng=seed, max_deals=12)
        bots = [make_bot("heuristic") for _ in range(players)]
        rng = random.Random(seed)
        deal_no = -1
        plays = [0] * players
        while not game.is_over:
            seat = game.to_act
            view = game.view(seat)
            d = view.deal
            if view.number != deal_no:
                deal_no, plays = view.number, [0] * players
            if phase == "declare" and d.phase == Phase.DECLARE and len(d.legal) > 1 and any(
                    type(e).__name__ == "Declared" for e in d.events):
                yield seed, d, game.deal, view.records
            if phase == "play" and d.phase == Phase.PLAY:
                plays[seat] += 1
                if plays[seat] in (1, 3):
                    yield seed, d, game.deal, view.records
            game.apply(bots[seat].choose(view, rng), seat)


def places(deal: Deal, me: int) -> list[int]:
    """Per card index, the seat holding it now (-1: elsewhere, the viewer's own included)."""
    out = [-1] * 64
    for j in range(deal.n):
        if j != me:
            hand = deal.hands[j]
            for c in range(64):
                if hand >> c & 1:
                    out[c] = j
    return out


def measure(view: DealView, truth: Deal, records: tuple[int, ...], worlds: int, seed: int,
            model: object, samplers: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """Each sampler's counts of every hidden card's place, its score and time, at one position."""
    me = view.seat
    assert me is not None
    true_place = places(truth, me)
    out: dict[str, dict[str, object]] = {}
    runs = [*samplers.items(), ("whole again", SAMPLERS["whole"])]
    hidden: list[int] = []
    for name, kw in runs:
        sampler = WorldSampler(view, records=records, **{"model": model, **kw})  # type: ignore[arg-type]
        if not hidden:
            # The cards whose place the viewer does not know: the sampler's own pool.
            assert sampler.trump is not None
            hidden = TrumpProposal(view, sampler.trump).pool
        rng = random.Random(seed * 7919 + len(name))
        counts = {c: [0] * (truth.n + 1) for c in hidden}
        start = time.perf_counter()
        got = sampler.samples(rng, worlds)
        elapsed = time.perf_counter() - start
        for w in got:
            where = places(w, me)
            for c in hidden:
                counts[c][where[c]] += 1
        k = len(got)
        score = sum(math.log((counts[c][true_place[c]] + 0.5) / (k + 0.5 * truth.n)) for c in hidden) / len(hidden)
        out[name] = {"score": score, "counts": counts, "worlds": k, "ms_per_world": 1000 * elapsed / max(k, 1),
                     "proposals": sampler.attempts}
    return out


def distance(a: dict[str, object], b: dict[str, object]) -> float:
    """The mean total-variation distance of the hidden cards' place distributions of two samplers."""
    ca, cb = a["counts"], b["counts"]
    ka, kb = a["worlds"], b["worlds"]
    assert isinstance(ca, dict) and isinstance(cb, dict) and isinstance(ka, int) and isinstance(kb, int)
    tv = [0.5 * sum(abs(x / ka - y / kb) for x, y in zip(ca[c], cb[c], strict=True)) for c in ca]
    return sum(tv) / len(tv)


def main(argv: list[str] | None = None) -> None:
    """Measure and print the table; ``--json`` appends it as one object."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", "-v", default="classic", choices=["classic", "mistigri"])
    ap.add_argument("--players", "-p", type=int, default=4)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--first-seed", type=int, default=10000)
    ap.add_argument("--worlds", type=int, default=300)
    ap.add_argument("--phase", choices=["declare", "play"], default="declare")
    ap.add_argument("--belief", type=int, choices=[0, 1], default=1, help="0: the mild factors, 1: self-play's")
    ap.add_argument("--other-cards", type=float, help="also one sweep seat by seat weighing the cards thrown")
    ap.add_argument("--plays", action="store_true", help="also the samplers that weigh the plays (believe=2)")
    ap.add_argument("--other-play", type=float, nargs="+", default=[],
                    help="also one sweep seat by seat weighing the plays with these other_play factors")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    model = SELF_PLAY if args.belief else BELIEF
    samplers = dict(SAMPLERS)
    if args.other_cards is not None:
        samplers["cards 1"] = {"believe": 1, "seatwise": 1, "model": replace(model, other_cards=args.other_cards)}
    if args.plays:
        samplers["plays whole"] = {"believe": 2}
        samplers["plays 1"] = {"believe": 2, "seatwise": 1}
    for x in args.other_play:
        samplers[f"plays 1 {x:g}"] = {"believe": 2, "seatwise": 1, "model": replace(model, other_play=x)}
    rows = []
    started = time.perf_counter()
    for seed, view, truth, records in game_positions(args.variant, args.players,
                                                     range(args.first_seed, args.first_seed + args.games), args.phase):
        rows.append(measure(view, truth, records, args.worlds, seed + len(rows), model, samplers))
    report: dict[str, object] = {
        "variant": args.variant, "players": args.players, "games": args.games, "first_seed": args.first_seed,
        "worlds": args.worlds, "phase": args.phase, "belief": args.belief, "other_cards": args.other_cards,
        "plays": args.plays, "other_play": args.other_play,
        "positions": len(rows),
        "wall_s": round(time.perf_counter() - started, 1), "build": imported_build(), "samplers": {},
    }
    print(f"{args.variant} {args.players}, {args.phase}: {len(rows)} positions of {args.games} games, "
          f"{args.worlds} worlds each, {report['build']} build")
    print(f"{'sampler':<12} {'log p/card':>10}  {'vs uniform':>24}  {'vs whole':>24}  {'TV to whole':>11}  "
          "ms/world  proposals/world")
    floor = sum(distance(r["whole"], r["whole again"]) for r in rows) / len(rows)
    for name in samplers:
        score = mean_ci([r[name]["score"] for r in rows])  # type: ignore[index]
        vs_u = mean_ci([r[name]["score"] - r["uniform"]["score"] for r in rows])  # type: ignore[index,operator]
        vs_w = mean_ci([r[name]["score"] - r["whole"]["score"] for r in rows])  # type: ignore[index,operator]
        other = "whole again" if name == "whole" else "whole"
        tv = sum(distance(r[name], r[other]) for r in rows) / len(rows)
        ms = sum(r[name]["ms_per_world"] for r in rows) / len(rows)  # type: ignore[misc]
        proposals = sum(r[name]["proposals"] for r in rows) / sum(r[name]["worlds"] for r in rows)  # type: ignore[misc]
        print(f"{name:<12} {score.value:>10.4f}  {vs_u.text('{:+.4f}'):>24}  {vs_w.text('{:+.4f}'):>24}  "
              f"{tv:>11.4f}  {ms:8.2f}  {proposals:.2f}")
        report["samplers"][name] = {  # type: ignore[index]
            "log_p_per_card": score.to_json(4), "vs_uniform": vs_u.to_json(4), "vs_whole": vs_w.to_json(4),
            "tv_to_whole": round(tv, 4), "ms_per_world": round(ms, 3), "proposals_per_world": round(proposals, 2)}
    print(f"noise floor of the distance (two rejection runs): {floor:.4f}")
    report["tv_noise_floor"] = round(floor, 4)
    if args.json:
        with open(args.json, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(report) + "\n")


if __name__ == "__main__":
    main()
