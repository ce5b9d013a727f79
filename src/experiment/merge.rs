//! `experiment merge`: the results directories of shards combined into the results of the whole
//! experiment. Only finished shards of one experiment (the same digest) that together cover every game
//! exactly once are merged; the output is a directory like an unsharded run's (manifest of shard 1/1, every
//! part, results computed from the summed totals), so its results files are byte for byte the unsharded
//! ones.
use std::ops::Range;

use super::results;
use super::resume::{cell_ranges, cell_totals, check_parts};
use super::shard::{pending, Shard};
use super::store::{Manifest, Part, Store};
use crate::diagnostic::Diagnostic;

/// Why a merge did not happen.
#[derive(Debug)]
pub enum MergeError {
    /// The inputs do not make one whole experiment.
    Refused(Vec<Diagnostic>),
    /// The output directory holds something else.
    Conflict(String),
    Io(String),
}

/// What a merge did.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeReport {
    pub cells: usize,
    pub games: u64,
    /// Whether the results files were written now (not when the output already held them).
    pub wrote_results: bool,
    pub error_count: u64,
}

struct Input {
    name: String,
    manifest: Manifest,
    parts: Vec<Part>,
}

/// Merges the shards in `inputs` into `out`.
pub fn merge(inputs: &[Store], out: &Store) -> Result<MergeReport, MergeError> {
    let mut problems = Vec::new();
    let mut read = Vec::new();
    for s in inputs {
        let name = s.dir().display().to_string();
        match s.read_manifest() {
            Ok(Some(manifest)) => read.push((s, name, manifest)),
            Ok(None) => problems.push(
                Diagnostic::error(
                    "merge::not_results",
                    format!("{name} is not an experiment's results directory (no manifest.json)"),
                )
                .hint("give the --out folders of `arbiter experiment run ... --shard I/N`"),
            ),
            Err(e) => problems.push(Diagnostic::error("merge::not_results", e)),
        }
    }
    if !problems.is_empty() {
        return Err(MergeError::Refused(problems));
    }
    let Some((_, first_name, first)) = read.first() else {
        return Err(MergeError::Refused(vec![Diagnostic::error(
            "merge::nothing",
            "no directories to merge",
        )]));
    };
    for (_, name, m) in &read[1..] {
        if m.digest != first.digest {
            problems.push(
                Diagnostic::error(
                    "merge::different_experiments",
                    format!(
                        "{name} holds another experiment than {first_name}: {}",
                        difference(&first.manifest_view(), &m.manifest_view())
                    ),
                )
                .hint("only shards of the same experiment file, ruleset and scenario merge"),
            );
        }
    }
    if !problems.is_empty() {
        return Err(MergeError::Refused(problems));
    }

    // Each input finished, and the inputs' units tile the whole experiment.
    let mut inputs_read = Vec::new();
    for (s, name, manifest) in read {
        let parts = s.read_parts().map_err(MergeError::Io)?;
        let ranges = cell_ranges(&manifest);
        let done =
            check_parts(&parts, &ranges).map_err(|e| MergeError::Io(format!("{name}: {e}")))?;
        let total: u64 = ranges.iter().map(|r| r.end - r.start).sum();
        let left: u64 = ranges
            .iter()
            .zip(&done)
            .flat_map(|(r, d)| pending(r, d))
            .map(|g| g.end - g.start)
            .sum();
        if left > 0 {
            problems.push(
                Diagnostic::error(
                    "merge::unfinished",
                    format!(
                        "{name} (shard {}) is unfinished: {} of {total} games played",
                        manifest.shard,
                        total - left
                    ),
                )
                .hint(format!(
                    "finish it with `arbiter experiment run FILE --shard {} --out {name}`",
                    manifest.shard
                )),
            );
        }
        inputs_read.push(Input {
            name,
            manifest,
            parts,
        });
    }
    let experiment = inputs_read[0].manifest.experiment.clone();
    let digest = inputs_read[0].manifest.digest.clone();
    let total = experiment.games * experiment.cells.len() as u64;
    problems.extend(coverage(&inputs_read, total));
    if !problems.is_empty() {
        return Err(MergeError::Refused(problems));
    }

    let whole = Manifest::new(experiment, digest, Shard::WHOLE);
    let parts: Vec<Part> = inputs_read.into_iter().flat_map(|i| i.parts).collect();
    let totals = cell_totals(&whole.experiment, &parts);
    let jsonl = results::jsonl(&whole.experiment, &totals);
    let csv = results::csv(&whole.experiment, &totals);
    let report = MergeReport {
        cells: whole.experiment.cells.len(),
        games: total,
        wrote_results: true,
        error_count: totals.iter().map(|t| t.error_count).sum(),
    };
    let show = out.dir().display().to_string();
    match out.read_manifest().map_err(MergeError::Io)? {
        Some(m) if m == whole => {
            // Merged before: the same results are already there.
            if out.read_results() == Some((jsonl.clone(), csv.clone())) {
                return Ok(MergeReport {
                    wrote_results: false,
                    ..report
                });
            }
            return Err(MergeError::Conflict(format!(
                "{show} holds results of this experiment that differ from the merge: give another --out"
            )));
        }
        Some(_) => {
            return Err(MergeError::Conflict(format!(
                "{show} holds other results: give a new or empty folder as --out"
            )))
        }
        None if !out.is_fresh() => {
            return Err(MergeError::Conflict(format!(
                "{show} exists and is not empty: give a new or empty folder as --out"
            )))
        }
        None => {}
    }
    out.write_manifest(&whole).map_err(MergeError::Io)?;
    for p in &parts {
        out.write_part(p).map_err(MergeError::Io)?;
    }
    out.write_results(&jsonl, &csv).map_err(MergeError::Io)?;
    Ok(report)
}

impl Manifest {
    /// The fields that tell experiments apart, for messages.
    fn manifest_view(&self) -> Vec<(&'static str, String)> {
        let e = &self.experiment;
        vec![
            (
                "ruleset",
                format!(
                    "{} {} ({})",
                    e.ruleset.id, e.ruleset.version, e.ruleset.digest
                ),
            ),
            (
                "scenario",
                format!("{} ({})", e.scenario.name, e.scenario.digest),
            ),
            ("seed", e.seed.to_string()),
            ("games per cell", e.games.to_string()),
            ("cells", serde_json::to_string(&e.cells).unwrap_or_default()),
            ("arbiter version", e.arbiter.clone()),
        ]
    }
}

fn difference(a: &[(&'static str, String)], b: &[(&'static str, String)]) -> String {
    let differ: Vec<String> = a
        .iter()
        .zip(b)
        .filter(|(x, y)| x.1 != y.1)
        .map(|(x, y)| {
            if x.0 == "cells" {
                "the cells differ".to_string()
            } else {
                format!("{} {} instead of {}", x.0, y.1, x.1)
            }
        })
        .collect();
    if differ.is_empty() {
        "their digests differ".into()
    } else {
        differ.join("; ")
    }
}

/// Problems with how the inputs' units cover `0..total`: two inputs sharing games, or games no input has.
fn coverage(inputs: &[Input], total: u64) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    let mut order: Vec<&Input> = inputs.iter().collect();
    order.sort_by_key(|i| (i.manifest.units.start, i.manifest.units.end));
    let mut gaps: Vec<Range<u64>> = Vec::new();
    let mut at = 0;
    let mut last: Option<&Input> = None;
    for i in order {
        let u = &i.manifest.units;
        if u.is_empty() {
            continue;
        }
        if u.start < at {
            if let Some(prev) = last {
                problems.push(
                    Diagnostic::error(
                        "merge::overlap",
                        format!(
                            "{} (shard {}) and {} (shard {}) share games",
                            prev.name, prev.manifest.shard, i.name, i.manifest.shard
                        ),
                    )
                    .hint("give each shard once; shards of different counts overlap unless one splits the other"),
                );
            }
        } else if u.start > at {
            gaps.push(at..u.start);
        }
        if u.end > at {
            at = u.end;
            last = Some(i);
        }
    }
    if at < total {
        gaps.push(at..total);
    }
    if !gaps.is_empty() {
        let count = inputs[0].manifest.shard.count;
        let same_count = inputs.iter().all(|i| i.manifest.shard.count == count);
        let missing = if same_count {
            let have: Vec<u64> = inputs.iter().map(|i| i.manifest.shard.index).collect();
            let names: Vec<String> = (1..=count)
                .filter(|k| !have.contains(k))
                .filter(|&k| !Shard { index: k, count }.units(total).is_empty())
                .map(|k| format!("{k}/{count}"))
                .collect();
            match names.len() {
                1 => format!("shard {} is missing", names[0]),
                _ => format!("shards {} are missing", names.join(", ")),
            }
        } else {
            let names: Vec<String> = gaps
                .iter()
                .map(|g| format!("{}..{}", g.start, g.end))
                .collect();
            format!("units {} are missing", names.join(", "))
        };
        let games: u64 = gaps.iter().map(|g| g.end - g.start).sum();
        problems.push(
            Diagnostic::error(
                "merge::incomplete",
                format!("the shards do not cover the experiment: {missing} ({games} of {total} games)"),
            )
            .hint("run the missing shards with `arbiter experiment run FILE --shard I/N --out DIR` and merge every directory"),
        );
    }
    problems
}
