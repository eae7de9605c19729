"""A tiny policy-gradient learner (numpy REINFORCE, linear softmax over the legal ids) for one seat of
classic мушка against random bots, then measured against the random policy on the same deals.

    python examples/gym_policy_gradient.py --episodes 3000 --eval 1000
"""

from __future__ import annotations

import argparse

import numpy as np

from mushka.research.gymnasium_env import MushkaEnv


def policy(weights: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax of a linear score over the legal ids only."""
    logits = weights @ np.append(obs, 1.0)
    logits = np.where(mask > 0, logits, -np.inf)
    logits -= logits.max()
    p = np.exp(logits)
    return p / p.sum()


def play(env: MushkaEnv, seed: int, choose) -> float:
    """One deal with ``choose(obs, mask)``; its money for the seat."""
    obs, info = env.reset(seed=seed)
    done = False
    reward = 0.0
    while not done:
        obs, reward, done, _, info = env.step(choose(obs, info["action_mask"]))
    return float(reward)


def main() -> None:
    """Train, then compare with the random policy on the same deals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--eval", type=int, default=1000)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    env = MushkaEnv("classic", 3, opponents="random")
    rng = np.random.default_rng(args.seed)
    weights = np.zeros((env.action_space.n, env.observation_space.shape[0] + 1))
    baseline = 0.0
    for episode in range(args.episodes):
        obs, info = env.reset(seed=10_000 + episode)
        trajectory = []
        done = False
        reward = 0.0
        while not done:
            p = policy(weights, obs, info["action_mask"])
            action = int(rng.choice(len(p), p=p))
            trajectory.append((np.append(obs, 1.0), p, action))
            obs, reward, done, _, info = env.step(action)
        advantage = (reward - baseline) / 10.0  # money of a deal is tens at most (C17-C18)
        baseline += 0.01 * (reward - baseline)
        for x, p, action in trajectory:
            grad = -np.outer(p, x)
            grad[action] += x
            weights += args.lr * advantage * grad
    seeds = range(1_000_000, 1_000_000 + args.eval)
    learned = [play(env, s, lambda o, m: int(np.argmax(policy(weights, o, m)))) for s in seeds]
    choice = np.random.default_rng(args.seed + 1)
    uniform = [play(env, s, lambda o, m: int(choice.choice(np.flatnonzero(m)))) for s in seeds]
    diff = np.array(learned) - np.array(uniform)
    # A normal 95 % interval of the paired difference (the same deals, seeds and opponents).
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    wins, losses = np.mean(diff > 0), np.mean(diff < 0)
    print(f"after {args.episodes} episodes, on {args.eval} deals: "
          f"learned policy {np.mean(learned):+.2f} money per deal, "
          f"random policy {np.mean(uniform):+.2f}, difference {diff.mean():+.2f} "
          f"(95% CI {diff.mean() - half:+.2f} to {diff.mean() + half:+.2f}); "
          f"the learned one did better on {wins:.0%} of the deals, worse on {losses:.0%}")

if __name__ == "__main__":
    main()
