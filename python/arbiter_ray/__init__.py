"""Run an Arbiter experiment on Ray: the experiment's exact shards as Ray tasks, merged by Arbiter.

Each task runs the ``arbiter`` binary on one shard (``arbiter experiment run FILE --shard I/N``) and sends
back the shard's results directory; the driver keeps every finished shard under ``OUT.shards/`` and
combines them with ``arbiter experiment merge``, which checks that they are shards of one experiment that
cover every game exactly once. The merged results are byte for byte those of a single-process run.

    from arbiter_ray import run_experiment
    run_experiment("examples/experiments/si_hit_chance.toml", "si_hit_chance", shards=8)

With no ``address`` and no ``RAY_ADDRESS`` in the environment, a local Ray is started on this machine;
otherwise the driver joins that cluster (``ray.init(address=...)``). See docs/experiments.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["run_experiment", "RunSummary", "shard_dir_name"]


@dataclass
class RunSummary:
    """What a run did: where the results are, which shards ran now and which an earlier run had finished."""

    out: Path
    shards: int
    ran: list[int] = field(default_factory=list)
    reused: list[int] = field(default_factory=list)
    seconds: float = 0.0
    merge_output: str = ""


def shard_dir_name(index: int, count: int) -> str:
    """The folder of shard ``index`` of ``count`` under ``OUT.shards/``."""
    return f"shard-{index}-of-{count}"


def _run_shard(arbiter: str, experiment_name: str, experiment_text: str, index: int, count: int,
               jobs: int, cwd: str) -> dict[str, bytes]:
    """A Ray task: run one shard in a scratch folder and return its files by relative path.

    The experiment travels as text, so the file need not exist on the worker's machine; the ruleset it
    names (and the ``arbiter`` binary) must, relative to ``cwd`` or as a bare name Arbiter finds.
    A failing run raises, and Ray retries the task.
    """
    with tempfile.TemporaryDirectory(prefix="arbiter-shard-") as scratch:
        file = Path(scratch) / experiment_name
        file.write_text(experiment_text, encoding="utf-8")
        out = Path(scratch) / "out"
        cmd = [arbiter, "experiment", "run", str(file), "--shard", f"{index}/{count}", "--out", str(out),
               "--jobs", str(jobs)]
        done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(
                f"shard {index}/{count} failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
        files: dict[str, bytes] = {}
        for path in sorted(out.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                files[path.relative_to(out).as_posix()] = path.read_bytes()
        return files


def _keep_shard(shards_dir: Path, name: str, files: dict[str, bytes]) -> None:
    """Writes a returned shard under ``shards_dir/name``: into a scratch folder first, renamed into place
    when whole, so a folder under its final name is always a finished shard."""
    shards_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=shards_dir))
    for rel, data in files.items():
        target = staging / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    os.replace(staging, shards_dir / name)


def run_experiment(experiment: str | os.PathLike, out: str | os.PathLike, *, shards: int | None = None,
                   arbiter: str | None = None, jobs_per_shard: int = 1, address: str | None = None,
                   num_cpus: int | None = None, retries: int = 3, cwd: str | os.PathLike | None = None,
                   shards_dir: str | os.PathLike | None = None) -> RunSummary:
    """Runs ``experiment`` on Ray and writes the merged results to ``out`` (results.jsonl, results.csv).

    shards: how many exact parts to cut the work into (default: the cluster's CPUs over ``jobs_per_shard``).
    arbiter: the binary (default: ``$ARBITER`` or ``arbiter`` on the PATH); it must exist on every node.
    jobs_per_shard: threads of each ``arbiter`` process, and the CPUs its task asks Ray for.
    address: a Ray cluster to join (default: ``$RAY_ADDRESS``; with neither, a local Ray is started with
        ``num_cpus`` CPUs).
    retries: how often Ray runs a failed shard again (a crash of the worker, or ``arbiter`` failing).
    cwd: where shards run (the ruleset named in the experiment is looked up from there); default the
        current directory, which must then exist on every node.
    shards_dir: where finished shards are kept (default ``OUT.shards``); a rerun reuses the shards there.
    """
    import ray  # imported here so that `--help` works without Ray

    started = time.monotonic()
    experiment = Path(experiment)
    out = Path(out)
    arbiter = arbiter or os.environ.get("ARBITER") or shutil.which("arbiter") or "arbiter"
    if os.sep in arbiter or (os.altsep and os.altsep in arbiter):
        arbiter = str(Path(arbiter).resolve())
    cwd = str(Path(cwd).resolve()) if cwd else os.getcwd()
    shards_path = Path(shards_dir) if shards_dir else out.with_name(out.name + ".shards")
    text = experiment.read_text(encoding="utf-8")

    # Check the experiment here first: a mistake is reported once, before any task starts.
    check = subprocess.run([arbiter, "experiment", "run", str(experiment), "--check"], cwd=cwd,
                           capture_output=True, text=True)
    if check.returncode != 0:
        raise RuntimeError(f"the experiment does not run: {check.stderr.strip()}")

    def finished(index: int, count: int) -> bool:
        return (shards_path / shard_dir_name(index, count) / "manifest.json").is_file()

    started_ray = False
    # Every shard kept by an earlier run: nothing for Ray to do.
    if shards is None or not all(finished(i, shards) for i in range(1, shards + 1)):
        if not ray.is_initialized():
            address = address or os.environ.get("RAY_ADDRESS")
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
            started_ray = True
    try:
        if shards is None:
            cpus = int(ray.cluster_resources().get("CPU", 1))
            shards = max(1, cpus // max(1, jobs_per_shard))
        if shards < 1:
            raise ValueError("shards must be at least 1")
        summary = RunSummary(out=out, shards=shards)
        pending = {}
        task = None
        for index in range(1, shards + 1):
            if finished(index, shards):
                summary.reused.append(index)
                continue
            if task is None:
                # The task is sent by value, so nodes of a cluster need Ray and Python, not this package.
                ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
                task = ray.remote(num_cpus=jobs_per_shard, max_retries=retries,
                                  retry_exceptions=True)(_run_shard)
            ref = task.remote(arbiter, experiment.name, text, index, shards, jobs_per_shard, cwd)
            pending[ref] = index
        # Keep each shard as soon as it is back, so an interrupted driver loses only the shards in flight.
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                index = pending.pop(ref)
                _keep_shard(shards_path, shard_dir_name(index, shards), ray.get(ref))
                summary.ran.append(index)
    finally:
        if started_ray:
            ray.shutdown()

    dirs = [str(shards_path / shard_dir_name(i, shards)) for i in range(1, shards + 1)]
    merged = subprocess.run([arbiter, "experiment", "merge", *dirs, "--out", str(out)], cwd=cwd,
                            capture_output=True, text=True)
    if merged.returncode != 0:
        raise RuntimeError(f"merging the shards failed: {merged.stderr.strip()}")
    summary.merge_output = merged.stdout
    summary.seconds = time.monotonic() - started
    return summary
