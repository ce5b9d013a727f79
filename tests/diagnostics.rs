//! Diagnostics fixtures: one broken input per diagnostic code, with its expected renderings.
//!
//! Each folder `tests/diagnostics/<code with :: replaced by __>/` holds the broken input and:
//! (a code with several fixtures adds a variant after `--`: `ruleset__expression--let_cascade/`)
//! - `cmd` (optional): the arguments, split on whitespace. Default: `validate ruleset.yaml` when the
//!   folder has a `ruleset.yaml`, otherwise `validate <the only file in the folder>`.
//! - `expected.txt`: stderr of the command (miette text, no colour).
//! - `expected.json`: stdout of the command with `--format json` added (`validate` commands only).
//!
//! The binary runs with the fixture folder as its current directory, so paths in the output are the
//! relative ones the fixture names; the project root (where canonical rulesets live) is shown as
//! `<root>`. `ARBITER_BLESS=1 cargo test --test diagnostics` rewrites the expectations; read the
//! diff before committing it.
//!
//! Besides the byte-for-byte comparison, every fixture must report its own code, exit with 1 (2 for
//! `io::*`: unreadable or missing files; 0 when its code is reported as a warning, which never fails
//! `validate`), finish within a time limit, and never print "panicked".
mod support;
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::root;

/// Longest a single command may run.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Files of a fixture folder that are not its input.
const NOT_INPUT: &[&str] = &["cmd", "expected.txt", "expected.json"];

/// Codes that have no fixture, and why. A code listed here must not also have a fixture.
const SKIPPED: &[(&str, &str)] = &[
    (
        "diagnostic::truncated",
        "needs more than 10,000 diagnostics; tests/limits.rs checks it",
    ),
    (
        "io::too_large",
        "needs a file over 16 MiB; tests/limits.rs checks it (sparse files, /dev/zero, arbiter.toml)",
    ),
    (
        "scenario::too_many_units",
        "needs a scenario of 10,001 units (600 KB); tests/limits.rs checks it",
    ),
    (
        "io::empty",
        "only built in a unit test of the renderer; no command emits it",
    ),
    (
        "ruleset::no_scenario",
        "the schema requires `default_scenario` (schema::required fires first)",
    ),
    (
        "yaml::internal",
        "the YAML parser thread failing; not reachable from input",
    ),
    (
        "yaml::invalid_key",
        "saphyr resolves aliases and unknown tags before the key is read; core-tagged keys that do \
         not parse (`!!int abc: 1`) are dropped by the parser instead (see tests/robustness.rs)",
    ),
    (
        "schema::min_items",
        "no schema uses minItems (the code appears only in unit tests)",
    ),
    (
        "schema::one_of",
        "no schema uses oneOf (the code appears only in unit tests)",
    ),
    (
        "schema::unique_items",
        "no schema uses uniqueItems (the code appears only in unit tests)",
    ),
];

/// Prefixes of the codes the source spells out literally.
const PREFIXES: &[&str] = &[
    "yaml", "schema", "ruleset", "scenario", "script", "match", "io", "set", "validate",
];

struct Output {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

fn fixtures_dir() -> PathBuf {
    root().join("tests").join("diagnostics")
}

fn bless() -> bool {
    std::env::var("ARBITER_BLESS").is_ok_and(|v| v == "1")
}

/// Runs the binary in `dir` and collects its output, killing it after [`TIME_LIMIT`].
fn run(dir: &Path, args: &[String]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out.read_to_end(&mut b);
        b
    });
    let err_reader = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = err.read_to_end(&mut b);
        b
    });
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait().expect("wait for the binary") {
            Some(s) => break Some(s),
            None if started.elapsed() > TIME_LIMIT => {
                timed_out = true;
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let text = |b: Vec<u8>| normalize(&String::from_utf8_lossy(&b));
    Output {
        code: status.and_then(|s| s.code()),
        stdout: text(out_reader.join().unwrap_or_default()),
        stderr: text(err_reader.join().unwrap_or_default()),
        timed_out,
    }
}

/// Makes output independent of where the project is checked out.
fn normalize(s: &str) -> String {
    s.replace(env!("CARGO_MANIFEST_DIR"), "<root>")
}

/// The arguments of a fixture: its `cmd` file, or `validate` of its input.
fn arguments(dir: &Path) -> Result<Vec<String>, String> {
    if let Ok(cmd) = std::fs::read_to_string(dir.join("cmd")) {
        let args: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
        return if args.is_empty() {
            Err("`cmd` is empty".into())
        } else {
            Ok(args)
        };
    }
    if dir.join("ruleset.yaml").is_file() {
        return Ok(vec!["validate".into(), "ruleset.yaml".into()]);
    }
    let mut inputs: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !NOT_INPUT.contains(&n.as_str()))
        .collect();
    inputs.sort();
    match inputs.as_slice() {
        [one] => Ok(vec!["validate".into(), one.clone()]),
        _ => Err(format!(
            "cannot tell the input among {inputs:?}: add a `cmd` file"
        )),
    }
}

/// Compares `actual` with the file `name` in `dir`, or rewrites it when blessing.
fn compare(dir: &Path, name: &str, actual: &str, failures: &mut Vec<String>) {
    let path = dir.join(name);
    if bless() {
        std::fs::write(&path, actual).expect("write the expectation");
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => failures.push(format!(
            "{} differs (ARBITER_BLESS=1 to accept)\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        )),
        Err(_) => failures.push(format!(
            "{} is missing (ARBITER_BLESS=1 writes it)",
            path.display()
        )),
    }
}

/// Checks that hold whatever the expectations say.
fn sanity(name: &str, what: &str, out: &Output, exit: i32, failures: &mut Vec<String>) {
    if out.timed_out {
        failures.push(format!(
            "{name}: {what} did not finish within {TIME_LIMIT:?}"
        ));
        return;
    }
    if out.code != Some(exit) {
        failures.push(format!(
            "{name}: {what} exited with {:?}, expected {exit}\n{}",
            out.code, out.stderr
        ));
    }
    if out.stdout.contains("panicked") || out.stderr.contains("panicked") {
        failures.push(format!("{name}: {what} panicked\n{}", out.stderr));
    }
}

fn fixture_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("tests/diagnostics exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The code a fixture folder is about: its name up to any `--variant`, with `__` for `::`.
fn code_of(folder: &str) -> String {
    folder
        .split_once("--")
        .map_or(folder, |(code, _)| code)
        .replace("__", "::")
}

fn check_fixture(dir: &Path, failures: &mut Vec<String>) {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let code = code_of(&name);
    let args = match arguments(dir) {
        Ok(a) => a,
        Err(e) => {
            failures.push(format!("{name}: {e}"));
            return;
        }
    };

    let text = run(dir, &args);
    let exit = if code.starts_with("io::") {
        2
    } else if text.stderr.contains(&format!("warning[{code}]")) && !text.stderr.contains("error[") {
        0
    } else {
        1
    };
    sanity(&name, &args.join(" "), &text, exit, failures);
    if !text.stderr.contains(&format!("[{code}]")) {
        failures.push(format!(
            "{name}: the text output does not report `{code}`\n{}",
            text.stderr
        ));
    }
    if text.stderr.contains('\u{1b}') {
        failures.push(format!("{name}: the text output has colour codes"));
    }
    compare(dir, "expected.txt", &text.stderr, failures);

    let json_path = dir.join("expected.json");
    if args[0] != "validate" {
        if bless() && json_path.exists() {
            let _ = std::fs::remove_file(&json_path);
        }
        return;
    }
    let mut json_args = args.clone();
    json_args.extend(["--format".to_string(), "json".to_string()]);
    let json = run(dir, &json_args);
    sanity(&name, &json_args.join(" "), &json, exit, failures);
    match serde_json::from_str::<serde_json::Value>(&json.stdout) {
        Ok(serde_json::Value::Array(items)) => {
            if !items.iter().any(|d| d["code"] == code.as_str()) {
                failures.push(format!(
                    "{name}: the JSON output does not report `{code}`\n{}",
                    json.stdout
                ));
            }
            for d in &items {
                for key in ["file", "line", "column", "code", "message"] {
                    if d.get(key).is_none() {
                        failures.push(format!("{name}: a JSON diagnostic lacks `{key}`: {d}"));
                    }
                }
            }
        }
        _ => failures.push(format!(
            "{name}: --format json did not print a JSON array\n{}",
            json.stdout
        )),
    }
    compare(dir, "expected.json", &json.stdout, failures);
}

#[test]
fn every_fixture_renders_as_expected() {
    let mut failures = Vec::new();
    let dirs = fixture_dirs();
    assert!(!dirs.is_empty(), "no fixtures under tests/diagnostics");
    for dir in &dirs {
        check_fixture(dir, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} problem(s) in {} fixtures:\n\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n\n")
    );
}

/// Every `"prefix::name"` string literal in `text`.
fn literal_codes(text: &str, out: &mut BTreeSet<String>) {
    for (i, _) in text.match_indices("::") {
        let before = &text[..i];
        let Some(prefix) = PREFIXES
            .iter()
            .find(|p| before.ends_with(*p) && before[..before.len() - p.len()].ends_with('"'))
        else {
            continue;
        };
        let rest = &text[i + 2..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect();
        if !name.is_empty() && rest[name.len()..].starts_with('"') {
            out.insert(format!("{prefix}::{name}"));
        }
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_code_in_the_source_has_a_fixture_or_a_reason() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let mut codes = BTreeSet::new();
    for f in &files {
        if let Ok(text) = std::fs::read_to_string(f) {
            literal_codes(&text, &mut codes);
        }
    }
    assert!(codes.len() > 20, "found only {codes:?} in src/");
    let covered: BTreeSet<String> = fixture_dirs()
        .iter()
        .filter_map(|d| d.file_name().map(|n| code_of(&n.to_string_lossy())))
        .collect();
    let skipped: BTreeSet<String> = SKIPPED.iter().map(|(c, _)| c.to_string()).collect();
    let missing: Vec<&String> = codes
        .iter()
        .filter(|c| !covered.contains(*c) && !skipped.contains(*c))
        .collect();
    assert!(
        missing.is_empty(),
        "codes without a fixture in tests/diagnostics/ (add one, or a reason in SKIPPED): {missing:?}"
    );
    let stale: Vec<&String> = skipped.intersection(&covered).collect();
    assert!(
        stale.is_empty(),
        "codes both skipped and covered (drop them from SKIPPED): {stale:?}"
    );
}

#[test]
fn variant_folders_name_their_code() {
    assert_eq!(code_of("ruleset__expression"), "ruleset::expression");
    assert_eq!(
        code_of("ruleset__expression--let_cascade"),
        "ruleset::expression"
    );
}

#[test]
fn literal_codes_are_found() {
    let mut codes = BTreeSet::new();
    literal_codes(
        "x(\"yaml::tag\"); y = \"schema::{}\"; z(\"match::not_due\", a::b); \"io::x y\"",
        &mut codes,
    );
    let codes: Vec<&str> = codes.iter().map(String::as_str).collect();
    assert_eq!(codes, ["match::not_due", "yaml::tag"]);
}
