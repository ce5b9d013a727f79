//! `arbiter conformance [DIR...]`: one line per case, then `N passed, M failed`.
use std::path::{Path, PathBuf};

use super::args::ConformanceArgs;
use super::{INVALID, OK};
use crate::replay::conformance::run_dirs;

/// Every `rulesets/*/conformance/` folder, sorted.
pub fn default_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = match std::fs::read_dir(Path::new("rulesets")) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path().join("conformance")))
            .filter(|p| p.is_dir())
            .collect(),
        Err(_) => Vec::new(),
    };
    dirs.sort();
    dirs
}

pub fn conformance(a: &ConformanceArgs) -> i32 {
    let dirs = if a.dirs.is_empty() {
        default_dirs()
    } else {
        a.dirs.clone()
    };
    // A folder that does not exist is an unreadable input (exit 2), not a failing case.
    let missing: Vec<&PathBuf> = dirs.iter().filter(|d| !d.exists()).collect();
    if !missing.is_empty() {
        for d in missing {
            eprintln!("error[io::unreadable]: no such folder {}", d.display());
        }
        return super::USAGE;
    }
    let (passed, failed, lines) = run_dirs(&dirs);
    for line in &lines {
        println!("{line}");
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        INVALID
    } else {
        OK
    }
}
