"""A Ray job: the kopilka study (does the unluckiest player recoup?) on a cluster.

Submit it from a checkout, with mushka installed on the head node (the
``[sim,cluster]`` extras; the workers need only Python and Ray, the job's
``runtime_env`` brings them mushka)::

    ray job submit --address http://HEAD:8265 --working-dir . \\
        --runtime-env-json '{"env_vars": {"PYTHONPATH": "src"}}' \\
        -- python examples/cluster_job.py --sessions 1000000 --save study.json

or run it on any node of the cluster (``ray start`` has set it up there)::

    python examples/cluster_job.py --sessions 100000

It prints the study's table (``docs/kopilka-study.md``) and where it ran;
the figures are those of ``python -m mushka.sim.study`` with the same seed
on one machine, game by game.  See ``docs/cluster.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mushka.sim.executors import open_backend
from mushka.sim.study import default_configs, markdown, measure


def main() -> int:
    """Run the study's fast tables on the cluster and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100_000, help="kopilka sessions per table")
    parser.add_argument("--only", action="append", default=None, metavar="LABEL", help="only this table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cluster", default="auto", help="auto (this job's cluster) or ray://HOST:PORT")
    parser.add_argument("--save", type=Path, default=None, help="write the rows as JSON to this file")
    parser.add_argument("--json", action="store_true", help="print the rows as one line of JSON, not the table")
    args = parser.parse_args()
    configs = [c for c in default_configs() if not c.slow and (not args.only or c.label in args.only)]
    rows = []
    with open_backend(args.cluster) as backend:
        print(backend.placement.text("en"), file=sys.stderr)
        for config in configs:
            row, _games = measure(config, args.sessions, seed=args.seed, backend=backend)
            row["where"] = backend.played().to_json()
            rows.append(row)
            print(f"{config.label}: {row['sessions']} sessions in {row['seconds']} s", file=sys.stderr)
    if args.save is not None:
        args.save.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(rows, ensure_ascii=False) if args.json else markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
