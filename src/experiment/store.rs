//! A results directory on disk, the only part of `experiment` that touches the filesystem:
//! `manifest.json` (which experiment, which shard), `parts/` (one file per finished chunk of games, the
//! state a rerun resumes from) and, once every game is in, `results.jsonl` and `results.csv`. Every file
//! is written to a temporary name and renamed into place, so an interrupted run leaves whole files only.
use std::fs;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::prepare::Description;
use super::shard::Shard;
use super::totals::Totals;

/// `format` of a manifest.
pub const FORMAT: &str = "arbiter-experiment";
/// `version` of the directory layout.
pub const VERSION: u64 = 1;

pub const MANIFEST: &str = "manifest.json";
pub const PARTS: &str = "parts";
pub const RESULTS_JSONL: &str = "results.jsonl";
pub const RESULTS_CSV: &str = "results.csv";
/// Temporary files start with this; a rerun removes any an interrupted run left.
const TEMP_PREFIX: &str = ".tmp-";
/// The file a run holds an exclusive lock on while it writes into the directory (see [`Store::lock`]).
pub const LOCK: &str = ".lock";

/// `manifest.json`: the experiment a directory holds results of, and which part of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub format: String,
    pub version: u64,
    /// The digest of `experiment`: shards merge only with shards of the same digest.
    pub digest: String,
    pub shard: Shard,
    /// The units (game numbers across cells, see `shard`) this directory runs.
    pub units: Range<u64>,
    pub experiment: Description,
}

impl Manifest {
    pub fn new(experiment: Description, digest: String, shard: Shard) -> Manifest {
        let total = experiment.games * experiment.cells.len() as u64;
        Manifest {
            format: FORMAT.into(),
            version: VERSION,
            digest,
            shard,
            units: shard.units(total),
            experiment,
        }
    }
}

/// One finished chunk: games `games` of cell `cell`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    pub cell: usize,
    pub games: Range<u64>,
    pub totals: Totals,
}

impl Part {
    fn file_name(&self) -> String {
        format!(
            "cell-{:06}-games-{:016}-{:016}.json",
            self.cell, self.games.start, self.games.end
        )
    }
}

/// A results directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

impl Store {
    pub fn new(dir: &Path) -> Store {
        Store {
            dir: dir.to_path_buf(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn show(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// Whether the directory is missing or empty but for the lock file (a fresh place for results).
    pub fn is_fresh(&self) -> bool {
        match fs::read_dir(&self.dir) {
            Ok(mut entries) => entries.all(|e| e.is_ok_and(|e| e.file_name() == LOCK)),
            Err(_) => !self.dir.exists(),
        }
    }

    /// Takes the directory for this process: an exclusive lock on `DIR/.lock`, held until the returned
    /// file is dropped. The operating system releases it when the process ends however it ends, so a
    /// killed run never leaves a stale lock; a second run into the same directory is refused instead of
    /// interleaving its files (and removing the other's temporaries) with the first's.
    pub fn lock(&self) -> Result<fs::File, String> {
        fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let path = self.dir.join(LOCK);
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(file),
            Err(fs::TryLockError::WouldBlock) => Err(format!(
                "another `arbiter experiment run` is writing into {} (it holds {LOCK}): wait for it to finish, or give another --out",
                self.dir.display()
            )),
            Err(fs::TryLockError::Error(e)) => {
                Err(format!("cannot lock {}: {e}", path.display()))
            }
        }
    }

    /// The manifest, `None` when there is none.
    pub fn read_manifest(&self) -> Result<Option<Manifest>, String> {
        let path = self.dir.join(MANIFEST);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let m: Manifest = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not an experiment manifest: {e}", path.display()))?;
        if m.format != FORMAT || m.version != VERSION {
            return Err(format!(
                "{} is a {} version {} manifest; this Arbiter reads {FORMAT} version {VERSION}",
                path.display(),
                m.format,
                m.version
            ));
        }
        if m.experiment.digest() != m.digest {
            return Err(format!(
                "{} was changed by hand: its experiment no longer has its digest",
                path.display()
            ));
        }
        Ok(Some(m))
    }

    /// Creates the directory and its `parts/` folder if they are missing.
    pub fn create_folders(&self) -> Result<(), String> {
        fs::create_dir_all(self.dir.join(PARTS))
            .map_err(|e| format!("cannot create {}: {e}", self.show(PARTS)))
    }

    /// Creates the directory and writes the manifest.
    pub fn write_manifest(&self, m: &Manifest) -> Result<(), String> {
        self.create_folders()?;
        let text = serde_json::to_string_pretty(m).unwrap_or_default() + "\n";
        self.write_atomic(&self.dir, MANIFEST, &text)
    }

    /// Every finished chunk, in file name order (cell, then games).
    pub fn read_parts(&self) -> Result<Vec<Part>, String> {
        let dir = self.dir.join(PARTS);
        let mut names = Vec::new();
        match fs::read_dir(&dir) {
            Ok(entries) => {
                for e in entries {
                    let e = e.map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
                    let name = e.file_name().to_string_lossy().into_owned();
                    if name.ends_with(".json") && !name.starts_with(TEMP_PREFIX) {
                        names.push(name);
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(format!("cannot list {}: {e}", dir.display())),
        }
        names.sort();
        let mut parts = Vec::with_capacity(names.len());
        for name in names {
            let path = dir.join(&name);
            let text = fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let part: Part = serde_json::from_str(&text).map_err(|e| {
                format!(
                    "{} is not a part of experiment results ({e}); remove it to play its games again",
                    path.display()
                )
            })?;
            if part.file_name() != name {
                return Err(format!(
                    "{} holds games {}..{} of cell {}, not what its name says; remove it to play its games again",
                    path.display(),
                    part.games.start,
                    part.games.end,
                    part.cell
                ));
            }
            parts.push(part);
        }
        Ok(parts)
    }

    /// Writes a finished chunk (safe to call from several threads at once).
    pub fn write_part(&self, p: &Part) -> Result<(), String> {
        let text = serde_json::to_string(p).unwrap_or_default() + "\n";
        self.write_atomic(&self.dir.join(PARTS), &p.file_name(), &text)
    }

    /// The results files as they are, if both exist.
    pub fn read_results(&self) -> Option<(String, String)> {
        let jsonl = fs::read_to_string(self.dir.join(RESULTS_JSONL)).ok()?;
        let csv = fs::read_to_string(self.dir.join(RESULTS_CSV)).ok()?;
        Some((jsonl, csv))
    }

    /// Writes `results.jsonl` and `results.csv`.
    pub fn write_results(&self, jsonl: &str, csv: &str) -> Result<(), String> {
        self.write_atomic(&self.dir, RESULTS_JSONL, jsonl)?;
        self.write_atomic(&self.dir, RESULTS_CSV, csv)
    }

    /// Removes the temporary files an interrupted run left behind.
    pub fn clear_temporaries(&self) {
        for dir in [self.dir.clone(), self.dir.join(PARTS)] {
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(TEMP_PREFIX) {
                    let _ = fs::remove_file(e.path());
                }
            }
        }
    }

    /// Writes `text` to `dir/name` through a temporary file in the same folder, flushed to disk before it
    /// is renamed over the name: readers see the old file or the new one, never half of one.
    fn write_atomic(&self, dir: &Path, name: &str, text: &str) -> Result<(), String> {
        let target = dir.join(name);
        let temp = dir.join(format!("{TEMP_PREFIX}{}-{name}", std::process::id()));
        let written = fs::File::create(&temp).and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        });
        let done = written.and_then(|()| fs::rename(&temp, &target));
        done.map_err(|e| {
            let _ = fs::remove_file(&temp);
            format!("cannot write {}: {e}", target.display())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_run_at_a_time_and_the_lock_goes_with_its_holder() {
        let dir = std::env::temp_dir().join(format!("arbiter-lock-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let store = Store::new(&dir);
        let held = store.lock().expect("a fresh directory can be taken");
        assert!(store.is_fresh(), "the lock file alone leaves it fresh");
        let refused = store.lock().expect_err("taken twice");
        assert!(
            refused.contains("another `arbiter experiment run`"),
            "{refused}"
        );
        drop(held);
        store.lock().expect("free again once its holder is gone");
        let _ = fs::remove_dir_all(&dir);
    }
}
