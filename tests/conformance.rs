//! Runs every conformance case under rulesets/*/conformance/ (the same runner as `arbiter conformance`).
use std::path::PathBuf;

#[test]
fn every_conformance_case_passes() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("rulesets"))
        .expect("rulesets/")
        .filter_map(|e| e.ok().map(|e| e.path().join("conformance")))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let (passed, failed, lines) = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || arbiter::replay::conformance::run_dirs(&dirs))
        .expect("thread")
        .join()
        .expect("no panic");
    let failures: Vec<&String> = lines.iter().filter(|l| l.starts_with("FAIL")).collect();
    assert!(
        failed == 0,
        "{failed} conformance case(s) failed:\n{}",
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(passed >= 1, "no conformance case ran");
}
