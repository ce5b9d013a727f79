//! Running an experiment (or one shard of it) into a results directory, picking up where an earlier run
//! into the same directory stopped: the manifest says which experiment and shard the directory holds (a
//! different one is refused), the part files say which games are done, and only the rest is played. When
//! every game of an unsharded run is in, the results files are written (once: a finished directory is left
//! as it is).
use std::ops::Range;

use super::prepare::{Description, Plan};
use super::results;
use super::run::{play_chunks, Chunk};
use super::shard::{cell_games, first_overlap, pending, Shard};
use super::store::{Manifest, Part, Store};
use super::totals::Totals;

/// Why a run did not finish.
#[derive(Debug)]
pub enum RunError {
    /// The directory belongs to another experiment or shard, or holds files that are not results.
    Conflict(String),
    /// Reading or writing the directory failed, or its files are damaged.
    Io(String),
}

/// What a run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// Games this run covers (the shard's share of every cell).
    pub games: u64,
    /// Of those, games an earlier run had already played.
    pub skipped: u64,
    /// Whether `results.jsonl` and `results.csv` were written now.
    pub wrote_results: bool,
    /// Games that failed with an error, over the games this run covers.
    pub error_count: u64,
}

/// Hooks for the command line: told how many games there are and how many are done before play
/// starts, then once per game played.
pub struct Progress<'a> {
    pub start: &'a dyn Fn(u64, u64),
    pub tick: Option<&'a (dyn Fn() + Sync)>,
}

/// Runs `shard` of `plan` into `store` on `jobs` threads.
pub fn run(
    plan: &Plan,
    store: &Store,
    shard: Shard,
    jobs: usize,
    progress: &Progress,
) -> Result<RunReport, RunError> {
    let manifest = Manifest::new(plan.description.clone(), plan.digest.clone(), shard);
    let show = store.dir().display().to_string();
    // Held to the end of the run: nothing else writes into the directory meanwhile.
    let _lock = store.lock().map_err(RunError::Conflict)?;
    match store.read_manifest().map_err(RunError::Io)? {
        Some(m) if m.digest != manifest.digest => {
            return Err(RunError::Conflict(format!(
                "{show} holds results of another experiment (digest {}, this one is {}): give another --out, or remove it to start again",
                m.digest, manifest.digest
            )))
        }
        Some(m) if m.shard != shard => {
            return Err(RunError::Conflict(format!(
                "{show} holds shard {} of this experiment, not {shard}: rerun with --shard {}, or give another --out",
                m.shard, m.shard
            )))
        }
        Some(_) => {
            store.clear_temporaries();
            store.create_folders().map_err(RunError::Io)?;
        }
        None => {
            if !store.is_fresh() {
                return Err(RunError::Conflict(format!(
                    "{show} exists and is not an experiment's results directory (no manifest.json): give a new or empty folder"
                )));
            }
            store.write_manifest(&manifest).map_err(RunError::Io)?;
        }
    }

    let parts = store.read_parts().map_err(RunError::Io)?;
    let ranges = cell_ranges(&manifest);
    let done = check_parts(&parts, &ranges).map_err(|e| RunError::Io(format!("{show}: {e}")))?;
    let mut chunks = Vec::new();
    for (cell, range) in ranges.iter().enumerate() {
        for games in pending(range, &done[cell]) {
            chunks.push(Chunk { cell, games });
        }
    }
    let games: u64 = ranges.iter().map(|r| r.end - r.start).sum();
    let to_play: u64 = chunks.iter().map(|c| c.games.end - c.games.start).sum();
    (progress.start)(games, games - to_play);

    let save = |p: &Part| store.write_part(p);
    play_chunks(plan, &chunks, jobs, progress.tick, &save).map_err(RunError::Io)?;

    let parts = store.read_parts().map_err(RunError::Io)?;
    let totals = cell_totals(&manifest.experiment, &parts);
    let error_count = totals.iter().map(|t| t.error_count).sum();
    let mut wrote_results = false;
    if shard.is_whole() {
        let jsonl = results::jsonl(&manifest.experiment, &totals);
        let csv = results::csv(&manifest.experiment, &totals);
        if store.read_results() != Some((jsonl.clone(), csv.clone())) {
            store.write_results(&jsonl, &csv).map_err(RunError::Io)?;
            wrote_results = true;
        }
    }
    Ok(RunReport {
        games,
        skipped: games - to_play,
        wrote_results,
        error_count,
    })
}

/// The games of each cell that the manifest's units cover.
pub fn cell_ranges(m: &Manifest) -> Vec<Range<u64>> {
    let cells = m.experiment.cells.len() as u64;
    (0..cells).map(|c| cell_games(&m.units, cells, c)).collect()
}

/// The games each cell's parts cover; parts outside the directory's work, or two parts sharing a game,
/// are damage (never written by a run).
pub fn check_parts(parts: &[Part], ranges: &[Range<u64>]) -> Result<Vec<Vec<Range<u64>>>, String> {
    let mut done: Vec<Vec<Range<u64>>> = vec![Vec::new(); ranges.len()];
    for p in parts {
        let inside = ranges
            .get(p.cell)
            .is_some_and(|r| r.start <= p.games.start && p.games.end <= r.end);
        if !inside || p.totals.games != p.games.end - p.games.start {
            return Err(format!(
                "part file of cell {} games {}..{} does not belong to this directory's work; remove it to play its games again",
                p.cell, p.games.start, p.games.end
            ));
        }
        done[p.cell].push(p.games.clone());
    }
    for (cell, d) in done.iter().enumerate() {
        if let Some((a, b)) = first_overlap(d) {
            return Err(format!(
                "part files of cell {cell} games {}..{} and {}..{} overlap; remove one to go on",
                d[a].start, d[a].end, d[b].start, d[b].end
            ));
        }
    }
    Ok(done)
}

/// Each cell's totals over `parts`.
pub fn cell_totals(d: &Description, parts: &[Part]) -> Vec<Totals> {
    let mut totals: Vec<Totals> = d.cells.iter().map(|c| Totals::new(&c.players)).collect();
    for p in parts {
        if let Some(t) = totals.get_mut(p.cell) {
            *t = std::mem::replace(t, Totals::new(&[])).merge(p.totals.clone());
        }
    }
    totals
}
