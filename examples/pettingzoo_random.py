"""A PettingZoo loop: random agents play deals of мушка-мистигри, each choosing among its legal ids.

    python examples/pettingzoo_random.py --deals 20
"""

from __future__ import annotations

import argparse

import numpy as np

from mushka.research.pettingzoo_env import env as make_env


def main() -> None:
    """Play the deals and print each side's money."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = make_env("mistigri", args.players, render_mode="ansi")
    rng = np.random.default_rng(args.seed)
    money = dict.fromkeys(env.possible_agents, 0.0)
    for deal in range(args.deals):
        env.reset(seed=args.seed + deal)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            money[agent] += reward
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    print(f"{args.deals} deals of mistigri, money per seat: "
          + ", ".join(f"{a} {m:+.0f}" for a, m in money.items()))


if __name__ == "__main__":
    main()
