"""OpenSpiel's Python IS-MCTS plays seat 0 of classic мушка (3 players, 32 cards) against mushka's search bot.

    python examples/openspiel_ismcts.py --deals 4 --simulations 40

IS-MCTS samples worlds with the game's ``resample_from_infostate`` (mushka's
core resampler); the other seats are ``search`` bots fed the deal's views.
The deals are played by OpenSpiel's own ``evaluate_bots``, which first calls
``restart_at`` on every bot: OpenSpiel's Python ``ISMCTSBot`` does not
provide it, so :class:`RestartableISMCTS` adds it (the search builds its
tree afresh from the state at every step, so there is nothing to restart).
OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot search these games at all: it
resamples worlds through C++, which a game written in Python does not reach
(docs/research.md, "OpenSpiel").
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import mushka.research.openspiel  # noqa: F401  (registers the games)
from mushka.bots import Bot, make_bot
from mushka.bots.base import deal_game_view


class RestartableISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python IS-MCTS with the two calls ``evaluate_bots`` makes of every bot."""

    def restart_at(self, state: pyspiel.State) -> None:
        """A new deal: forget the last search's tree."""
        self.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Another seat's action or a chance outcome: the next search starts from the state itself."""


class MushkaBot(pyspiel.Bot):  # type: ignore[misc]
    """A mushka bot as an OpenSpiel bot: it chooses from the seat's view of the deal only."""

    def __init__(self, bot: Bot, seed: int) -> None:
        """Wrap ``bot``; its choices draw on a generator of their own, seeded with ``seed``."""
        super().__init__()
        self.bot = bot
        self.rng = random.Random(seed)

    def step(self, state: pyspiel.State) -> int:
        """The id of the bot's action for the seat to act."""
        seat = state.current_player()
        action = self.bot.choose(deal_game_view(state.steps.deal, seat), self.rng)
        return int(state.steps.id_of(action))

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to forget: the bot reads the view at every step."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to record: the view holds every public action."""


def main() -> None:
    """Play the deals and print each side's money."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--opponent", default="search:iterations=40")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("mushka_classic", {"players": 3})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed))
    bots = [RestartableISMCTS(game, evaluator, uct_c=2.0, max_simulations=args.simulations,
                              random_state=np.random.RandomState(args.seed))]
    bots += [MushkaBot(make_bot(args.opponent), args.seed + seat) for seat in (1, 2)]
    chance = np.random.RandomState(args.seed)
    totals = [0.0, 0.0, 0.0]
    for _ in range(args.deals):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, chance)
        totals = [t + r for t, r in zip(totals, returns, strict=True)]
    print(f"{args.deals} deals: IS-MCTS (seat 0) {totals[0] / args.deals:+.2f} per deal, "
          f"search bots {totals[1] / args.deals:+.2f} and {totals[2] / args.deals:+.2f} (money, C17-C21)")


if __name__ == "__main__":
    main()
