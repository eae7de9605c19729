"""OpenSpiel's Python IS-MCTS plays seat 0 of classic мушка (3 players, 32 cards) against mushka's search bot.

    python examples/openspiel_ismcts.py --deals 4 --simulations 40

IS-MCTS samples worlds with the game's ``resample_from_infostate`` (mushka's
core resampler); the other seats are ``search`` bots fed the deal's views.
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import mushka.research.openspiel  # noqa: F401  (registers the games)
from mushka.bots import make_bot
from mushka.bots.base import deal_game_view


def main() -> None:
    """Play the deals and print each side's money."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--opponent", default="search:iterations=40")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("mushka_classic", {"players": 3})
    rng = random.Random(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                           random_state=np.random.RandomState(args.seed))
    opponent = make_bot(args.opponent)
    totals = [0.0, 0.0, 0.0]
    for _ in range(args.deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                seat = state.current_player()
                action = opponent.choose(deal_game_view(state.steps.deal, seat), rng)
                state.apply_action(state.steps.id_of(action))
        totals = [t + r for t, r in zip(totals, state.returns(), strict=True)]
    print(f"{args.deals} deals: IS-MCTS (seat 0) {totals[0] / args.deals:+.2f} per deal, "
          f"search bots {totals[1] / args.deals:+.2f} and {totals[2] / args.deals:+.2f} (money, C17-C21)")


if __name__ == "__main__":
    main()
