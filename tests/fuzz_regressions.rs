//! The fuzzers' regression corpus: every input under `tests/fuzz_regressions/<target>/` (a crash a campaign
//! found, or a known class of hostile input from the issue that opened the campaign) runs through the same
//! entry point as its fuzz target (`tests/fuzz_support/mod.rs`) and must end without a panic, an abort or a
//! hang. CI runs this corpus, not the fuzzers (docs/fuzzing.md).
mod support;
use support::root;
mod fuzz_support;

use std::fs;
use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = root().join("tests/fuzz_regressions").join(target);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no regression inputs for {target}");
    files
}

/// Runs every input of `target`; an input named `<name>` whose outcome must mention something lists it
/// in `expect` as (name, text).
fn each(target: &str, expect: &[(&str, &str)], run: impl Fn(&Path, &[u8]) -> String) {
    for file in inputs(target) {
        let data = fs::read(&file).unwrap();
        let outcome = run(&root(), &data);
        let name = file.file_name().unwrap().to_string_lossy();
        if let Some((_, want)) = expect.iter().find(|(n, _)| *n == name) {
            assert!(
                outcome.contains(want),
                "{target}/{name}: expected `{want}` in `{outcome}`"
            );
        }
    }
}

#[test]
fn ruleset_inputs() {
    each("ruleset", &[("long_line_diagnostic", "invalid")], |_, d| {
        fuzz_support::ruleset(d)
    });
}

#[test]
fn expression_inputs() {
    let deep = "ruleset::expression";
    each(
        "expression",
        &[
            ("unary_minus_100k", deep),
            ("sum_70k_terms", deep),
            ("not_chain_50k", deep),
            ("or_chain_50k", deep),
            ("coalesce_chain_50k", deep),
            ("count_huge_range", "played"),
            ("walk_huge_range", "walked past 1000000 elements"),
            ("abs_min", "leaves the 64-bit integer range"),
        ],
        fuzz_support::expression,
    );
}

#[test]
fn match_script_inputs() {
    each(
        "match_script",
        &[
            ("long_line_diagnostic", "match::unknown_key"),
            ("huge_forces_override", "legal actions"),
            ("unknown_setting", "set::unknown_setting"),
        ],
        fuzz_support::match_script,
    );
}

#[test]
fn replay_inputs() {
    each(
        "replay",
        &[("wrong_digest", "has changed since the replay was recorded")],
        fuzz_support::replay,
    );
}

#[test]
fn rhai_inputs() {
    each(
        "rhai",
        &[
            (
                "random_crossed_bounds",
                "lower bound is above the upper bound",
            ),
            ("chance_out_of_range", "between 0 and 1"),
            ("emit_without_type", "emit needs a `type`"),
        ],
        fuzz_support::rhai,
    );
}
