//! Conformance cases: a match script plus `description` and `expect` (events, result, state, legal actions,
//! or the script error it must fail with). Running them reports one line per case.
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value as Json};

use super::json_match::{first_difference, matches, short};
use super::legal::all_actions;
use super::run::run_script;
use super::script::MatchScript;
use crate::diagnostic::SourceFile;
use crate::ruleset::load::read_source;

/// Keys of `expect`.
pub const EXPECTATIONS: &[&str] = &[
    "error",
    "events_include",
    "events",
    "result",
    "state",
    "legal_include",
    "legal_exclude",
    "legal_count",
];

/// How one case went.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseOutcome {
    pub name: String,
    pub description: String,
    /// `None` when the case passed, otherwise why not.
    pub failure: Option<String>,
}

impl CaseOutcome {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }

    /// The line printed for the case.
    pub fn line(&self) -> String {
        match &self.failure {
            None if self.description.is_empty() => format!("PASS {}", self.name),
            None => format!("PASS {}: {}", self.name, self.description),
            Some(f) => format!("FAIL {}: {f}", self.name),
        }
    }
}

/// Runs every case file (`*.yaml`, `*.yml`, `*.json`) in `dirs`, each folder in name order.
/// Returns (passed, failed, one line per case).
pub fn run_dirs(dirs: &[PathBuf]) -> (usize, usize, Vec<String>) {
    let mut outcomes = Vec::new();
    for dir in dirs {
        match case_files(dir) {
            Ok(files) if files.is_empty() => outcomes.push(CaseOutcome {
                name: dir.display().to_string(),
                description: String::new(),
                failure: Some("no cases (*.yaml, *.yml, *.json) in the folder".into()),
            }),
            Ok(files) => outcomes.extend(files.iter().map(|f| run_file(f))),
            Err(e) => outcomes.push(CaseOutcome {
                name: dir.display().to_string(),
                description: String::new(),
                failure: Some(format!("cannot read the folder: {e}")),
            }),
        }
    }
    let passed = outcomes.iter().filter(|o| o.passed()).count();
    (
        passed,
        outcomes.len() - passed,
        outcomes.iter().map(CaseOutcome::line).collect(),
    )
}

fn case_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Reads and runs one case file.
pub fn run_file(path: &Path) -> CaseOutcome {
    match read_source(path) {
        Ok(src) => run_case(src),
        Err(d) => CaseOutcome {
            name: path.display().to_string(),
            description: String::new(),
            failure: Some(d.message),
        },
    }
}

/// Runs one case.
pub fn run_case(source: Arc<SourceFile>) -> CaseOutcome {
    let name = source.name.clone();
    let description = crate::ruleset::yaml::parse(source.clone())
        .ok()
        .and_then(|d| {
            d.value
                .get("description")
                .and_then(Json::as_str)
                .map(str::to_string)
        });
    let failure = check_case(source).err();
    CaseOutcome {
        name,
        description: description.unwrap_or_default(),
        failure,
    }
}

/// Every `legal_include`/`legal_exclude` pattern names an action and fields the game has, with values of
/// the right type (see [`super::patterns`]).
fn check_patterns(script: &MatchScript, expect: &Map<String, Json>) -> Result<(), String> {
    let Ok(loaded) = crate::ruleset::load(
        &script.ruleset,
        script.scenario.as_deref(),
        &script.overrides,
    ) else {
        // Running the script reports why the game does not load.
        return Ok(());
    };
    for key in ["legal_include", "legal_exclude"] {
        for (i, p) in expect
            .get(key)
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            if let Some(problem) = super::patterns::pattern_problem(&loaded.game, p) {
                return Err(format!("{key}[{i}] {}: {problem}", short(p)));
            }
        }
    }
    Ok(())
}

fn codes(diags: &[crate::diagnostic::Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| format!("[{}] {}", d.code, d.message))
        .collect::<Vec<_>>()
        .join("; ")
}

fn check_case(source: Arc<SourceFile>) -> Result<(), String> {
    let script = MatchScript::parse(source, &["description", "expect"])
        .map_err(|d| format!("not a valid case: {}", codes(&d)))?;
    let problems =
        crate::ruleset::schemas::check(crate::ruleset::schemas::DocKind::Conformance, &script.doc);
    if !problems.is_empty() {
        return Err(format!("not a valid case: {}", codes(&problems)));
    }
    let expect = match script.doc.value.get("expect") {
        Some(Json::Object(m)) => m.clone(),
        Some(_) => return Err("`expect` is not a mapping".into()),
        None => return Err("the case has no `expect`".into()),
    };
    if let Some(k) = expect.keys().find(|k| !EXPECTATIONS.contains(&k.as_str())) {
        return Err(format!(
            "unknown expectation `{k}` (known: {})",
            EXPECTATIONS.join(", ")
        ));
    }
    let wants_legal = expect.keys().any(|k| k.starts_with("legal_"));
    if wants_legal {
        check_patterns(&script, &expect)?;
    }
    let replay = match (run_script(&script, wants_legal), expect.get("error")) {
        (Err(f), Some(code)) => {
            return if f
                .diagnostics
                .iter()
                .any(|d| Some(d.code.as_str()) == code.as_str())
            {
                Ok(())
            } else {
                Err(format!(
                    "expected error {code}, got {}",
                    codes(&f.diagnostics)
                ))
            };
        }
        (Err(f), None) => return Err(format!("the script failed: {}", codes(&f.diagnostics))),
        (Ok(_), Some(code)) => return Err(format!("expected error {code}, but the script ran")),
        (Ok(r), None) => r,
    };
    check_expectations(&expect, &replay.to_json())
}

/// Checks every expectation except `error` against a replay.
pub fn check_expectations(expect: &Map<String, Json>, replay: &Json) -> Result<(), String> {
    let empty = Vec::new();
    let events = replay
        .get("events")
        .and_then(Json::as_array)
        .unwrap_or(&empty);
    if let Some(want) = expect.get("events_include") {
        let Json::Array(want) = want else {
            return Err("`events_include` is not a list".into());
        };
        let mut at = 0;
        for (i, pattern) in want.iter().enumerate() {
            match events[at..].iter().position(|e| matches(pattern, e)) {
                Some(k) => at += k + 1,
                None => {
                    let near = events
                        .iter()
                        .skip(at)
                        .find(|e| e.get("type") == pattern.get("type"))
                        .map_or(String::new(), |e| format!("; nearest: {}", short(e)));
                    return Err(format!(
                        "events_include[{i}] {} not found after event {at}{near}",
                        short(pattern)
                    ));
                }
            }
        }
    }
    if let Some(want) = expect.get("events") {
        if let Some(d) = first_difference(want, &Json::Array(events.clone()), "events") {
            return Err(d);
        }
    }
    for key in ["result", "state"] {
        if let Some(want) = expect.get(key) {
            let got = replay.get(key).unwrap_or(&Json::Null);
            if !matches(want, got) {
                let detail = first_difference(want, got, key).unwrap_or_default();
                return Err(format!("{key} does not match {}: {detail}", short(want)));
            }
        }
    }
    let legal = replay.get("legal").map(all_actions).unwrap_or_default();
    if let Some(want) = expect.get("legal_include") {
        let Json::Array(want) = want else {
            return Err("`legal_include` is not a list".into());
        };
        if let Some(p) = want.iter().find(|p| !legal.iter().any(|a| matches(p, a))) {
            return Err(format!("legal actions do not include {}", short(p)));
        }
    }
    if let Some(want) = expect.get("legal_exclude") {
        let Json::Array(want) = want else {
            return Err("`legal_exclude` is not a list".into());
        };
        for p in want {
            if let Some(a) = legal.iter().find(|a| matches(p, a)) {
                return Err(format!(
                    "legal actions include {} (as {})",
                    short(p),
                    short(a)
                ));
            }
        }
    }
    if let Some(want) = expect.get("legal_count") {
        if want.as_u64() != Some(legal.len() as u64) {
            return Err(format!(
                "expected {} legal actions, found {}",
                short(want),
                legal.len()
            ));
        }
    }
    Ok(())
}
