"""Train a small agent for one seat of 血战到底 against three ``efficient`` bots, with
Stable-Baselines3's MaskablePPO (sb3-contrib), and plot its learning curve.

Not run in CI. Needs the ``rl`` extra and the learner::

    pip install "mjfast[rl]" "sb3-contrib>=2.3" matplotlib
    python examples/rl/train_maskable_ppo.py --steps 60000     # minutes on one core

The environment is ``gymnasium.make("mjfast/XueZhan-v0", opponents="efficient")``: one hand per
episode, the reward what the seat is paid (net, base stakes), forced moves taken for the
agent. The policy sees a small feature vector (own tiles, the tiles seen, own melds, the tile in
play, the phase, the void suits, the wall) and only legal actions (the mask from the
observation). It writes ``learning_curve.png`` (mean net per hand over the last 500 hands
during training) and prints the mean net per hand of the trained policy, of a uniformly random
legal policy and of the ``efficient`` player itself in the same seat on the same 1,000 deals.

What runs reached: ``README.md`` beside this file.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.monitor import Monitor

import mjfast.table.envs  # noqa: F401  (registers mjfast/XueZhan-v0)
from mjfast.table import efficient_player

SEAT = 0


class Features(gymnasium.ObservationWrapper):
    """The seat's observation as 197 floats: hand (27), seen tiles (27, live discards and the
    others' melds), own melds (27), drawn tile (27), tile in play (27), phase (5), void suits
    (3 own + 3 per other seat), wall / 108."""

    def __init__(self, env: gymnasium.Env):
        super().__init__(env)
        n = self.players = env.observation_space["void"].shape[0]
        size = 27 * 5 + 5 + 3 * n + 1
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32)

    def observation(self, obs: dict) -> np.ndarray:
        seat = int(obs["seat"])
        out = []
        out.append(obs["hand"] / 4.0)
        live = obs["discards"][(obs["discards"] >= 0) & ~obs["discards_taken"].astype(bool)]
        seen = np.bincount(live, minlength=27).astype(np.float64)
        own = np.zeros(27)
        for q in range(self.players):
            for kind, typ in obs["melds"][q]:
                if kind >= 0:
                    (own if q == seat else seen)[kind] += 3 if typ == 0 else 4
        out += [np.minimum(seen, 4) / 4.0, own / 4.0]
        for key in ("drawn", "tile"):
            onehot = np.zeros(27)
            if obs[key] >= 0:
                onehot[int(obs[key])] = 1.0
            out.append(onehot)
        out.append(np.eye(5)[int(obs["phase"])])
        for q in [seat] + [q for q in range(self.players) if q != seat]:
            void = np.zeros(3)
            if obs["void"][q] >= 0:
                void[int(obs["void"][q])] = 1.0
            out.append(void)
        out.append([obs["wall"] / 108.0])
        return np.concatenate(out).astype(np.float32)


def make_env() -> gymnasium.Env:
    env = gymnasium.make("mjfast/XueZhan-v0", opponents="efficient", seat=SEAT)
    env = Monitor(env)
    masks = ActionMasker(env, lambda e: e.unwrapped.action_masks())
    return Features(masks)


def evaluate(env: gymnasium.Env, policy: str, model: MaskablePPO, hands: int) -> float:
    """Mean net per hand of ``policy`` ("trained", "random" or "efficient") on deals 10**6 + i."""
    rng = np.random.default_rng(0)
    total = 0.0
    for i in range(hands):
        features, _ = env.reset(seed=10**6 + i)
        done = False
        while not done:
            raw = env.unwrapped.raw_observation()
            mask = raw["mask"]
            if policy == "trained":
                action = int(model.predict(features, action_masks=mask, deterministic=True)[0])
            elif policy == "random":
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = efficient_player(raw, mask, rng)
            features, reward, done, _, _ = env.step(action)
            total += reward
    return total / hands


def main() -> None:
    torch.set_num_threads(1)  # one core: small networks gain nothing from more threads
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60_000, help="agent steps of training")
    parser.add_argument("--eval", type=int, default=1000, help="evaluation hands")
    parser.add_argument("--out", default="learning_curve.png")
    args = parser.parse_args()

    env = make_env()
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, learning_rate=3e-4,
                        gamma=1.0, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]},
                        seed=0, device="cpu", verbose=0)
    start = time.time()
    model.learn(total_timesteps=args.steps)
    minutes = (time.time() - start) / 60
    monitor = env.env.env  # Features -> ActionMasker -> Monitor
    returns = np.array(monitor.get_episode_rewards(), dtype=np.float64)
    lengths = np.cumsum(monitor.get_episode_lengths())

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    window = min(500, max(len(returns) // 5, 1))
    smooth = np.convolve(returns, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(lengths[window - 1:], smooth, label=f"MaskablePPO (mean of last {window} hands)")
    ax.axhline(0.0, color="gray", lw=0.8, ls="--", label="efficient player (by symmetry)")
    ax.set_xlabel("agent steps")
    ax.set_ylabel("net per hand (base stakes)")
    ax.set_title("One seat of Xuezhan daodi against three efficient bots")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)

    eval_env = make_env()
    trained, rand, eff = (evaluate(eval_env, p, model, args.eval)
                          for p in ("trained", "random", "efficient"))
    print(f"trained {args.steps:,} steps ({len(returns):,} hands) in {minutes:.1f} min")
    print(f"first {window} training hands: {returns[:window].mean():+.3f} per hand, "
          f"last {window}: {returns[-window:].mean():+.3f}")
    print(f"evaluation, {args.eval:,} hands, seat {SEAT} against 3 efficient: "
          f"trained {trained:+.3f}, random {rand:+.3f}, efficient {eff:+.3f}")
    print(f"learning curve: {args.out}")


if __name__ == "__main__":
    main()
