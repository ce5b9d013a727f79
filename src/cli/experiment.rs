//! `arbiter experiment run` and `arbiter experiment merge`: parameter sweeps from a TOML file into a
//! results directory, with a progress bar over all games, and shards merged into the whole.
use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::{ExperimentMergeArgs, ExperimentRunArgs};
use super::output::{fail, print_diagnostics, stderr_is_terminal, write_output};
use super::{INVALID, OK, USAGE};
use crate::experiment::{self, MergeError, Progress, RunError, Shard, Store};
use crate::ruleset::load::read_source;

/// The results directory when `--out` is not given: the file's name without `.toml`, in the current
/// directory, and `.shard-I-of-N` after it for a shard.
fn default_out(file: &Path, shard: Shard) -> PathBuf {
    let stem = file
        .file_stem()
        .map_or("experiment".into(), |s| s.to_string_lossy().into_owned());
    if shard.is_whole() {
        PathBuf::from(stem)
    } else {
        PathBuf::from(format!("{stem}.shard-{}-of-{}", shard.index, shard.count))
    }
}

pub fn run(a: &ExperimentRunArgs) -> i32 {
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return fail(USAGE, "--jobs must be at least 1");
    }
    let shard = match a.shard.as_deref().map(Shard::parse).transpose() {
        Ok(s) => s.unwrap_or(Shard::WHOLE),
        Err(e) => return fail(USAGE, format!("--shard {e}")),
    };
    let source = match read_source(&a.file) {
        Ok(s) => s,
        Err(d) => {
            print_diagnostics(&[d]);
            return USAGE;
        }
    };
    let plan = match experiment::plan(source) {
        Ok(p) => p,
        Err(refused) => {
            print_diagnostics(&refused.diagnostics);
            return if refused.unreadable { USAGE } else { INVALID };
        }
    };
    if a.check {
        let total = plan.description.games * plan.cells.len() as u64;
        let units = shard.units(total);
        return write_output(
            None,
            &format!(
                "{} cells, {} games per cell, {total} games ({} in shard {shard}); experiment digest {}\n",
                plan.cells.len(),
                plan.description.games,
                units.end - units.start,
                plan.digest
            ),
        );
    }
    let out = a.out.clone().unwrap_or_else(|| default_out(&a.file, shard));
    let store = Store::new(&out);

    let bar = stderr_is_terminal().then(|| {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    let start = |total: u64, done: u64| {
        if let Some(b) = &bar {
            b.set_length(total);
            b.set_position(done);
            b.reset_eta();
        }
    };
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let progress = Progress {
        start: &start,
        tick: bar.is_some().then_some(&tick as &(dyn Fn() + Sync)),
    };
    let started = Instant::now();
    let result = experiment::run(&plan, &store, shard, jobs, &progress);
    let seconds = started.elapsed().as_secs_f64();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let report = match result {
        Ok(r) => r,
        Err(RunError::Conflict(e) | RunError::Io(e)) => return fail(USAGE, e),
    };
    let played = report.games - report.skipped;
    let rate = if seconds > 0.0 {
        played as f64 / seconds
    } else {
        0.0
    };
    let mut text = format!(
        "{} cells, {} games per cell{}: {played} games played in {seconds:.2} s ({rate:.1} games/s)",
        plan.cells.len(),
        plan.description.games,
        if shard.is_whole() {
            String::new()
        } else {
            format!(", shard {shard} ({} games)", report.games)
        },
    );
    if report.skipped > 0 {
        text.push_str(&format!(", {} done by an earlier run", report.skipped));
    }
    text.push('\n');
    let dir = out.display();
    if shard.is_whole() {
        text.push_str(&if report.wrote_results {
            format!("results: {dir}/results.jsonl, {dir}/results.csv\n")
        } else {
            format!("results (already complete): {dir}/results.jsonl, {dir}/results.csv\n")
        });
    } else {
        text.push_str(&format!(
            "shard {shard} finished in {dir}; when every shard is, combine them with `arbiter experiment merge DIR... --out DIR`\n"
        ));
    }
    finish(&text, report.error_count)
}

pub fn merge(a: &ExperimentMergeArgs) -> i32 {
    let same = |p: &Path| std::fs::canonicalize(p).ok();
    if let Some(out) = same(&a.out) {
        if a.dirs.iter().any(|d| same(d).as_ref() == Some(&out)) {
            return fail(
                USAGE,
                "--out is one of the directories to merge: give a new or empty folder",
            );
        }
    }
    let inputs: Vec<Store> = a.dirs.iter().map(|d| Store::new(d)).collect();
    let report = match experiment::merge(&inputs, &Store::new(&a.out)) {
        Ok(r) => r,
        Err(MergeError::Refused(diags)) => {
            print_diagnostics(&diags);
            return INVALID;
        }
        Err(MergeError::Conflict(e) | MergeError::Io(e)) => return fail(USAGE, e),
    };
    let dir = a.out.display();
    let text = format!(
        "merged {} directories: {} cells, {} games\nresults{}: {dir}/results.jsonl, {dir}/results.csv\n",
        a.dirs.len(),
        report.cells,
        report.games,
        if report.wrote_results {
            ""
        } else {
            " (already merged)"
        },
    );
    finish(&text, report.error_count)
}

/// Prints `text`; a run or merge with failed games ends with a message and exit 1.
fn finish(text: &str, error_count: u64) -> i32 {
    let code = write_output(None, text);
    if code != OK {
        return code;
    }
    if error_count > 0 {
        return fail(
            INVALID,
            format!("{error_count} games failed with an error (see `errors` in the results)"),
        );
    }
    OK
}
