"""Strength against thinking time: a plot of the rows of ``bench/bots_strength.py``.

Every row measured against the same field (default ``heuristic``) becomes a
point: its mean thinking time per decision (x, log scale) and its money per
game over the field with the 95% interval (y), one colour per table.  The
field itself is the point at zero.  A strength run on a loaded machine
times its decisions badly; ``--times`` takes the times from a separate
``bench/bots_time.py --json`` run instead (same spec and table), and the
field's own decisions are then drawn at the time given by ``--field-time``.

    python bench/bots_plot.py results.jsonl --out docs/img/bots-strength-time.png
    python bench/bots_plot.py results.jsonl --times times.jsonl --out docs/img/bots-strength-time.png
"""

from __future__ import annotations

import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.ticker import FuncFormatter, NullFormatter


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", help="JSON lines written by bench/bots_strength.py --json")
    parser.add_argument("--field", default="heuristic")
    parser.add_argument("--out", default="bots-strength-time.png")
    parser.add_argument("--note", default="", help="a line under the title (say the load, the seeds)")
    parser.add_argument("--times", help="JSON lines of bench/bots_time.py --json: the x of each spec and table")
    parser.add_argument("--field-time", type=float, default=0.0005, help="seconds per decision of the field bot")
    args = parser.parse_args(argv)
    with open(args.results, encoding="utf-8") as lines:
        rows = [json.loads(x) for x in lines if x.strip()]
    rows = [r for r in rows if r["field"] == args.field and (r.get("decision_mean_s") or args.times)]
    if args.times:
        with open(args.times, encoding="utf-8") as lines:
            timed = {(t["variant"], t["players"], t["spec"]): t["mean_s"] for t in map(json.loads, lines) if t}
        for r in rows:
            r["decision_mean_s"] = timed.get((r["variant"], r["players"], r["test"]), r.get("decision_mean_s"))
        rows = [r for r in rows if r["decision_mean_s"]]
        for variant, players in sorted({(r["variant"], r["players"]) for r in rows}):
            rows.append({"variant": variant, "players": players, "test": args.field, "mean_diff": 0.0,
                         "ci95": [0.0, 0.0], "decision_mean_s": args.field_time})
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    tables = sorted({(r["variant"], r["players"]) for r in rows})
    labels: list[tuple[str, float, float]] = []
    for k, (variant, players) in enumerate(tables):
        mine = sorted((r for r in rows if (r["variant"], r["players"]) == (variant, players)),
                      key=lambda r: r["decision_mean_s"])
        xs = [r["decision_mean_s"] for r in mine]
        ys = [r["mean_diff"] for r in mine]
        err = [[r["mean_diff"] - r["ci95"][0] for r in mine], [r["ci95"][1] - r["mean_diff"] for r in mine]]
        shift = 1 + 0.04 * k  # side by side, so that the intervals do not hide each other
        ax.errorbar([x * shift for x in xs], ys, yerr=err, fmt="o", capsize=3,
                    label=f"{variant} {players}", color=f"C{k}")
        for r, x, y in zip(mine, xs, ys, strict=True):
            labels.append((r["test"].replace(",seconds=0", "").replace(":iterations=", " "), x * shift, y))
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log")
    # Plain seconds on the axis; log-scale minor labels in powers of ten run into each other.
    every = [r["decision_mean_s"] for r in rows]
    ax.set_xticks([t for t in (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
                   if min(every) / 1.5 <= t <= max(every) * 1.5])
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("mean thinking time per decision, s (log scale)")
    ax.set_ylabel(f"money per game over {args.field} (95% CI)")
    ax.set_title("Strength against time per decision (duplicate deals)" + (f"\n{args.note}" if args.note else ""),
                 fontsize=10)
    ax.legend(fontsize=8)
    _place(ax, labels)
    fig.tight_layout()
    fig.savefig(args.out)
    print(args.out)


def _place(ax: plt.Axes, labels: list[tuple[str, float, float]]) -> None:
    """Write each point's label beside it, moving a label down until it clears those already written.

    Points of different tables often sit at nearly the same time and money, and labels
    written blindly at a fixed offset then run into each other.
    """
    taken: list[tuple[float, float]] = []  # display coordinates of the labels written so far
    for text, x, y in sorted(labels, key=lambda t: -t[2]):
        px, py = ax.transData.transform((x, y))
        dy = 3.0
        while any(abs(px - qx) < 90 and abs(py + dy - qy) < 8 for qx, qy in taken):
            dy -= 8
        taken.append((px, py + dy))
        ax.annotate(text, (x, y), fontsize=6, xytext=(4, dy * 72 / ax.figure.dpi), textcoords="offset points")


if __name__ == "__main__":
    main()
