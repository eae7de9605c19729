"""PNG plots of a simulation (matplotlib, Agg backend: no display needed).

* ``results.png``: the distribution of money per game of each bot (one
  histogram per bot, the mean marked).
* ``records.png`` (classic, mistigri): the course of the records (C16-C18)
  deal by deal, per bot: the median and the quartile band over the games
  still running at that deal, above the share of games still running.
* ``kopilka.png`` (kopilka): the pot and each bot's balance from the ante
  (K3) through the four games (K22) to the share-out of the pot (K23):
  median and quartile bands.

Every label is in the language asked for (English or Russian).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from mushka.i18n import add_text_file, tr
from mushka.sim.play import GameStats

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")


def _bots(games: Sequence[GameStats]) -> list[str]:
    seen: list[str] = []
    for g in games:
        for b in g.bots:
            if b not in seen:
                seen.append(b)
    return seen


def _save(fig: Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_results(games: Sequence[GameStats], path: Path, lang: str = "en", title: str = "") -> Path:
    """The distribution of money per seat-game, one histogram per bot."""
    bots = _bots(games)
    values = {b: [g.money[s] for g in games for s, x in enumerate(g.bots) if x == b] for b in bots}
    everything = [v for vs in values.values() for v in vs]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    if everything:
        low, high = min(everything), max(everything)
        bins = [float(x) for x in np.linspace(low - 0.5, high + 0.5, min(60, high - low + 2))]
        for k, b in enumerate(bots):
            colour = COLOURS[k % len(COLOURS)]
            data = np.asarray(values[b], dtype=float)
            label = tr("plot.bot_mean", lang, bot=b, mean=float(data.mean()))
            ax.hist(data, bins=bins, histtype="step", linewidth=1.6, color=colour,
                    weights=np.full(len(data), 1.0 / len(data)), label=label)
            ax.axvline(float(data.mean()), color=colour, linestyle="--", linewidth=1)
    ax.set_xlabel(tr("plot.money", lang))
    ax.set_ylabel(tr("plot.share", lang))
    ax.set_title(title or tr("plot.results_title", lang, games=len(games)))
    ax.legend()
    return _save(fig, path)


def _bands(series: Sequence[Sequence[float]], least: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                       np.ndarray]:
    """Quartiles per position over series of different lengths (shorter ones
    drop out); positions that fewer than ``least`` series reach are left out."""
    length = max((len(s) for s in series), default=0)
    q1, med, q3, count = [], [], [], []
    for i in range(length):
        column = [s[i] for s in series if len(s) > i]
        if len(column) < least:
            break
        a, m, b = np.percentile(column, [25, 50, 75])
        q1.append(a)
        med.append(m)
        q3.append(b)
        count.append(len(column))
    return np.asarray(q1), np.asarray(med), np.asarray(q3), np.asarray(count)


def plot_records(games: Sequence[GameStats], path: Path, lang: str = "en") -> Path:
    """C16-C18: each bot's record deal by deal (median and quartiles)."""
    tracked = [g for g in games if g.course]
    bots = _bots(tracked)
    # Quartiles of the last few long games are noise: stop where 5% of the games are left.
    least = max(5, len(tracked) // 20)
    fig, (ax, share) = plt.subplots(2, 1, figsize=(8, 6), sharex=True, height_ratios=(3, 1))
    for k, b in enumerate(bots):
        colour = COLOURS[k % len(COLOURS)]
        series = [[row[s] for row in g.course] for g in tracked for s, x in enumerate(g.bots) if x == b]
        seats = max(1, len(series) // max(1, len(tracked)))
        q1, med, q3, _ = _bands(series, least * seats)
        x = np.arange(len(med))
        ax.fill_between(x, q1, q3, color=colour, alpha=0.2)
        ax.plot(x, med, color=colour, label=b)
    _, _, _, count = _bands([[0.0] * len(g.course) for g in tracked], least)
    if len(count):
        share.plot(np.arange(len(count)), count / count[0], color="black")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_ylabel(tr("plot.record", lang))
    ax.set_title(tr("plot.records_title", lang, games=len(tracked)))
    ax.legend()
    share.set_xlabel(tr("plot.deal", lang))
    share.set_ylabel(tr("plot.running", lang))
    share.set_ylim(0, 1.05)
    return _save(fig, path)


def plot_kopilka(games: Sequence[GameStats], path: Path, lang: str = "en") -> Path:
    """K3, K22-K23: the pot and each bot's balance through a session."""
    tracked = [g for g in games if g.course]
    bots = _bots(tracked)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    stages = [tr("plot.stage.ante", lang)] + [tr("plot.stage.game", lang, number=i) for i in range(1, 5)]
    stages.append(tr("plot.stage.pot", lang))
    q1, med, q3, _ = _bands([list(g.pot_course) for g in tracked])
    x = np.arange(len(med))
    ax.fill_between(x, q1, q3, color="grey", alpha=0.25)
    ax.plot(x, med, color="black", linewidth=2, label=tr("plot.pot", lang))
    for k, b in enumerate(bots):
        colour = COLOURS[k % len(COLOURS)]
        series = [[row[s] for row in g.course] for g in tracked for s, x_ in enumerate(g.bots) if x_ == b]
        q1, med, q3, _ = _bands(series)
        x = np.arange(len(med))
        ax.fill_between(x, q1, q3, color=colour, alpha=0.2)
        ax.plot(x, med, color=colour, label=tr("plot.balance_of", lang, bot=b))
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(np.arange(len(stages)), stages)
    ax.set_ylabel(tr("plot.money_now", lang))
    ax.set_title(tr("plot.kopilka_title", lang, games=len(tracked)))
    ax.legend(fontsize="small")
    return _save(fig, path)


def write_plots(games: Sequence[GameStats], directory: Path, *, kopilka: bool, lang: str = "en") -> list[Path]:
    """Write every plot of a run into ``directory``; return the files."""
    directory.mkdir(parents=True, exist_ok=True)
    out = [plot_results(games, directory / "results.png", lang)]
    if kopilka:
        out.append(plot_kopilka(games, directory / "kopilka.png", lang))
    else:
        out.append(plot_records(games, directory / "records.png", lang))
    return out


add_text_file("mushka.sim", "plots.toml")
