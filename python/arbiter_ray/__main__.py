"""``python -m arbiter_ray FILE.toml --out DIR``: an Arbiter experiment's shards as Ray tasks, merged."""

from __future__ import annotations

import argparse
import sys

from . import run_experiment


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m arbiter_ray",
        description="Run an Arbiter experiment on Ray: its exact shards as Ray tasks (each runs the arbiter "
                    "binary), merged with `arbiter experiment merge` into the results of a single run.")
    p.add_argument("experiment", help="the experiment file (TOML)")
    p.add_argument("--out", required=True, help="the merged results directory")
    p.add_argument("--shards", type=int, help="parts to cut the work into (default: the cluster's CPUs)")
    p.add_argument("--arbiter", help="the arbiter binary on every node (default: $ARBITER, or arbiter on PATH)")
    p.add_argument("--jobs-per-shard", type=int, default=1, help="threads (and Ray CPUs) per shard")
    p.add_argument("--address", help="a Ray cluster to join (default: $RAY_ADDRESS, else a local Ray)")
    p.add_argument("--num-cpus", type=int, help="CPUs of the local Ray started when no cluster is given")
    p.add_argument("--retries", type=int, default=3, help="how often a failed shard is run again")
    p.add_argument("--cwd", help="where shards run, for the ruleset's path (default: here)")
    p.add_argument("--shards-dir", help="where finished shards are kept (default: OUT.shards)")
    a = p.parse_args(argv)
    try:
        s = run_experiment(a.experiment, a.out, shards=a.shards, arbiter=a.arbiter,
                           jobs_per_shard=a.jobs_per_shard, address=a.address, num_cpus=a.num_cpus,
                           retries=a.retries, cwd=a.cwd, shards_dir=a.shards_dir)
    except Exception as e:  # a shard that failed on every retry arrives as a Ray error
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{s.shards} shards ({len(s.ran)} run now, {len(s.reused)} from an earlier run) in {s.seconds:.2f} s")
    sys.stdout.write(s.merge_output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
