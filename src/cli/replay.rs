//! `arbiter replay verify FILE`: re-runs a replay and reports the first difference.
use std::path::Path;

use super::output::{fail, print_diagnostics};
use super::{INVALID, OK, USAGE};
use crate::replay::{verify as verify_replay, VerifyError};
use crate::ruleset::load::read_source;

pub fn verify(file: &Path) -> i32 {
    let source = match read_source(file) {
        Ok(s) => s,
        Err(d) => {
            print_diagnostics(&[d]);
            return USAGE;
        }
    };
    let json: serde_json::Value = match serde_json::from_str(&source.text) {
        Ok(v) => v,
        Err(e) => return fail(INVALID, format!("{} is not JSON: {e}", file.display())),
    };
    match verify_replay(&json) {
        Ok(()) => {
            let n = |k: &str| json.get(k).and_then(|v| v.as_array()).map_or(0, Vec::len);
            println!(
                "ok: {} verifies ({} submissions, {} events)",
                file.display(),
                n("submissions"),
                n("events")
            );
            OK
        }
        Err(VerifyError::Load(f)) => {
            print_diagnostics(&f.diagnostics);
            f.exit_code
        }
        Err(e) => fail(e.exit_code(), format!("{}: {e}", file.display())),
    }
}
