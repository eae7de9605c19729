"""The variants as research games: branching factor, length and information-set sizes, measured.

Random play through :class:`mushka.engine.steps.StepDeal` (uniform chance,
uniform legal ids), per table: decisions per deal (mean and max seen, beside
the bound ``max_deal_length``), chance steps per deal, legal ids per decision
(mean per phase, max), and the size of the first decision's information set
(the deals of the hidden cards a seat cannot tell apart, counted exactly),
and later ones: at the first decision of trick play and at the first
decision after two tricks, the ways to spread the cards the seat has not
seen over the other hands (their sizes are public) and the rest (talon and
discards, as a set) -- an upper bound, since voids, exchanges and groups
(C14, C7, K6) are not counted against it; the median of log10 over the
deals is reported.

    python bench/research_stats.py --deals 2000 [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from collections import defaultdict
from dataclasses import fields

from mushka.cards import Card
from mushka.engine.deal import Deal, Phase
from mushka.engine.steps import StepDeal
from mushka.engine.utility import max_deal_length
from mushka.rules import make_rules

TABLES = [("classic", 3), ("classic", 4), ("classic", 5), ("mistigri", 4), ("kopilka", 4)]


def first_infoset(variant: str, players: int) -> int:
    """N4/C5: hands of the other seats and the talon (as a set) a seat cannot tell apart
    at its first decision, from its five cards (and the turned-up card)."""
    rules = make_rules(variant, players)
    unknown = rules.deck_size - 5 - (1 if rules.has_trumps else 0)
    talon = unknown - 5 * (players - 1)
    return math.factorial(unknown) // (math.factorial(5) ** (players - 1) * math.factorial(talon))


def later_infoset(deal: Deal) -> float:
    """log10 of the hidden layouts the seat to act cannot tell apart (upper bound, see the docstring)."""
    seat = deal.to_act
    known = 0
    for event in deal.events(seat):
        for f in fields(event):
            value = getattr(event, f.name)
            for item in value if isinstance(value, tuple) else (value,):
                for card in item if isinstance(item, tuple) else (item,):
                    if isinstance(card, Card):
                        known |= card.bit
    unseen = sum(1 for c in deal.rules.deck_indices if not known >> c & 1)
    hidden = [sum(1 for c in deal.hand(s) if not known >> c.index & 1) for s in range(deal.n) if s != seat]
    rest = unseen - sum(hidden)
    ways = math.factorial(unseen) // (math.prod(math.factorial(h) for h in hidden) * math.factorial(rest))
    return math.log10(ways)


def measure(variant: str, players: int, deals: int, seed: int = 1) -> dict[str, object]:
    rules = make_rules(variant, players)
    rng = random.Random(seed)
    lengths = []
    chance = []
    width: dict[str, list[int]] = defaultdict(list)
    at_play: list[float] = []
    after_two: list[float] = []
    for _ in range(deals):
        state = StepDeal(rules, rng.randrange(players))
        decisions = 0
        steps = 0
        marks = [False, False]
        while not state.is_over():
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
                steps += 1
                continue
            ids = state.legal_action_ids()
            assert state.deal is not None
            width[state.deal.phase.name.lower()].append(len(ids))
            deal = state.deal
            if deal.phase is Phase.PLAY and not marks[0]:
                marks[0] = True
                at_play.append(later_infoset(deal))
            if deal.phase is Phase.PLAY and len(deal.tricks) >= 2 and not marks[1]:
                marks[1] = True
                after_two.append(later_infoset(deal))
            decisions += 1
            state.apply_id(ids[rng.randrange(len(ids))])
        lengths.append(decisions)
        chance.append(steps)
    return {
        "table": f"{variant} {players}p",
        "deck": rules.deck_size,
        "decisions_mean": round(sum(lengths) / len(lengths), 1),
        "decisions_max_seen": max(lengths),
        "max_deal_length": max_deal_length(rules),
        "no_decision_share": round(sum(1 for x in lengths if x == 0) / len(lengths), 4),
        "chance_steps_mean": round(sum(chance) / len(chance), 1),
        "branching_mean": {k: round(sum(v) / len(v), 1) for k, v in sorted(width.items())},
        "branching_max": max(max(v) for v in width.values()),
        "first_infoset_deals": first_infoset(variant, players),
        "log10_infoset_first_play": round(statistics.median(at_play), 1) if at_play else None,
        "log10_infoset_after_two_tricks": round(statistics.median(after_two), 1) if after_two else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(v, p, args.deals) for v, p in TABLES]
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
