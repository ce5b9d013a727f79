//! Experiments: parameter sweeps described in a TOML file (INTERFACE section 13, docs/experiments.md).
//! The file is parsed with spans (`parse`), expanded into cells (`cells`), every cell validated and its
//! game loaded before anything runs (`prepare`), the work divided exactly into shards (`shard`), chunks of
//! games played on a pool (`run`) into a results directory that a rerun resumes (`resume`, `store`),
//! shards merged (`merge`), and the results written from integer totals (`totals`, `results`).
pub mod cells;
pub mod merge;
pub mod parse;
pub mod prepare;
pub mod results;
pub mod resume;
pub mod run;
pub mod shard;
pub mod store;
pub mod totals;

pub use merge::{merge, MergeError, MergeReport};
pub use parse::{parse, Experiment};
pub use prepare::{prepare, Plan, Refused};
pub use resume::{run, Progress, RunError, RunReport};
pub use shard::Shard;
pub use store::Store;

use std::sync::Arc;

use crate::diagnostic::SourceFile;

/// Reads an experiment file's text and validates every cell: the plan to run, or why not.
pub fn plan(source: Arc<SourceFile>) -> Result<Plan, Refused> {
    let refused = |diagnostics| Refused {
        diagnostics,
        unreadable: false,
    };
    let experiment = parse::parse(source).map_err(refused)?;
    let cells = cells::expand(&experiment).map_err(refused)?;
    prepare::prepare(&experiment, cells)
}
