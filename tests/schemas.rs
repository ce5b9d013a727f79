//! The JSON Schemas in `schemas/`: every YAML file under `rulesets/` and `scenarios/` validates against the
//! schema of its detected kind, and deliberately broken documents do not.
mod support;
use std::path::{Path, PathBuf};
use support::root;

use arbiter::diagnostic::{Diagnostic, SourceFile};
use arbiter::ruleset::load::detect_kind;
use arbiter::ruleset::schema::check;
use arbiter::ruleset::schemas::{validator, DocKind};
use arbiter::ruleset::yaml::{self, YamlDoc};

/// Every `*.yaml` file under `dir`, recursively, in name order.
fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            out.push(p);
        }
    }
}

fn parse(name: &str, text: &str) -> YamlDoc {
    match yaml::parse(SourceFile::new(name, text)) {
        Ok(doc) => doc,
        Err(diags) => panic!("{name} does not parse as YAML: {}", describe(&diags)),
    }
}

fn describe(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| format!("\n  [{}] {}", d.code, d.message))
        .collect()
}

/// The schema problems of a document of a known kind.
fn problems(kind: DocKind, doc: &YamlDoc) -> Vec<Diagnostic> {
    let v =
        validator(kind).unwrap_or_else(|| panic!("the schema of {} does not compile", kind.name()));
    check(v, doc)
}

/// Parses inline text, checks that its kind is `kind`, and returns its schema problems.
fn inline_problems(kind: DocKind, name: &str, text: &str) -> Vec<Diagnostic> {
    let doc = parse(name, text);
    assert_eq!(
        detect_kind(&doc.value),
        Some(kind),
        "{name}: wrong kind detected"
    );
    problems(kind, &doc)
}

#[test]
fn every_yaml_file_validates_against_its_schema() {
    let mut files = Vec::new();
    yaml_files(&root().join("rulesets"), &mut files);
    yaml_files(&root().join("scenarios"), &mut files);
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("rulesets/asg/ruleset.yaml")),
        "the canonical asg ruleset is missing from {files:?}"
    );
    assert!(
        files
            .iter()
            .any(|f| f.ends_with("scenarios/asg/scenario_01.yaml")),
        "scenario_01 is missing"
    );
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let doc = parse(&path.display().to_string(), &text);
        let Some(kind) = detect_kind(&doc.value) else {
            failures.push(format!("{}: kind not detected", path.display()));
            continue;
        };
        let found = problems(kind, &doc);
        if !found.is_empty() {
            failures.push(format!(
                "{} ({}):{}",
                path.display(),
                kind.name(),
                describe(&found)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "schema problems:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_schema_file_is_draft_2020_12_with_its_id() {
    for name in ["ruleset", "scenario", "match", "conformance", "replay"] {
        let path = root().join("schemas").join(format!("{name}.schema.json"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let v: serde_json::Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        assert_eq!(
            v["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{name}"
        );
        assert_eq!(
            v["$id"],
            format!("https://arbiter.dev/schemas/{name}.schema.json"),
            "{name}"
        );
        assert!(
            !text.contains("\"$ref\": \"http"),
            "{name} has a remote $ref"
        );
    }
    for kind in [
        DocKind::Ruleset,
        DocKind::Scenario,
        DocKind::MatchScript,
        DocKind::Conformance,
        DocKind::Replay,
    ] {
        assert!(
            validator(kind).is_some(),
            "the schema of {} does not compile",
            kind.name()
        );
    }
}

/// A small complete ruleset; the broken variants below each change one thing.
const MINI_RULESET: &str = "\
id: mini
version: \"1\"
players: [P1, P2]
default_scenario: s
board: {topology: graph}
actions:
  pass:
    effects:
      - emit: {type: passed, player: me}
flow:
  phases:
    - {name: main, order: alternating, actions: [pass]}
";

fn broken(from: &str, to: &str) -> String {
    assert!(
        MINI_RULESET.contains(from),
        "`{from}` is not in the mini ruleset"
    );
    MINI_RULESET.replacen(from, to, 1)
}

#[test]
fn the_mini_ruleset_is_valid() {
    let found = inline_problems(DocKind::Ruleset, "mini.yaml", MINI_RULESET);
    assert!(found.is_empty(), "{}", describe(&found));
}

#[test]
fn an_unknown_top_level_key_is_a_schema_error() {
    let text = format!("{MINI_RULESET}colour: red\n");
    let found = inline_problems(DocKind::Ruleset, "unknown_key.yaml", &text);
    assert!(!found.is_empty(), "an unknown key `colour` was accepted");
    assert!(
        found.iter().all(|d| d.code.starts_with("schema::")),
        "{}",
        describe(&found)
    );
    assert!(
        found.iter().any(|d| d.message.contains("colour")),
        "{}",
        describe(&found)
    );
}

#[test]
fn players_of_the_wrong_type_is_a_schema_error() {
    let text = broken("players: [P1, P2]", "players: P1");
    let found = inline_problems(DocKind::Ruleset, "players.yaml", &text);
    assert!(!found.is_empty(), "`players: P1` (not a list) was accepted");
    assert!(
        found.iter().all(|d| d.code.starts_with("schema::")),
        "{}",
        describe(&found)
    );
}

#[test]
fn an_unknown_effect_kind_is_a_schema_error() {
    let text = broken(
        "- emit: {type: passed, player: me}",
        "- teleport: {to: somewhere}",
    );
    let found = inline_problems(DocKind::Ruleset, "effect.yaml", &text);
    assert!(!found.is_empty(), "the effect `teleport` was accepted");
    assert!(
        found.iter().any(|d| d.message.contains("teleport")),
        "{}",
        describe(&found)
    );
}

#[test]
fn malformed_effects_are_schema_errors() {
    for (label, effect) in [
        ("two kinds", "- {add: {me.x: 1}, sub: {me.y: 1}}"),
        ("if without then", "- {if: \"true\"}"),
        ("win without reason", "- {win: me}"),
        ("emit without type", "- emit: {player: me}"),
        ("expression is a list", "- add: {me.x: [1]}"),
    ] {
        let text = broken("- emit: {type: passed, player: me}", effect);
        let found = inline_problems(DocKind::Ruleset, "effect.yaml", &text);
        assert!(!found.is_empty(), "{label}: `{effect}` was accepted");
    }
}

#[test]
fn other_kinds_reject_unknown_top_level_keys() {
    let scenario = "ruleset: mini\nid: s\nboard:\n  nodes: [{id: a, owner: null}, {id: b, owner: P1, forces: {P1: 3}}]\n  edges: [[a, b]]\n";
    let found = inline_problems(DocKind::Scenario, "scenario.yaml", scenario);
    assert!(found.is_empty(), "{}", describe(&found));
    let found = inline_problems(
        DocKind::Scenario,
        "scenario.yaml",
        &format!("{scenario}colour: red\n"),
    );
    assert!(!found.is_empty(), "a scenario with `colour` was accepted");

    let script =
        "ruleset: asg\nseed: 42\nsubmissions:\n  - player: P1\n    actions: [{type: pass}, 17]\n";
    let found = inline_problems(DocKind::MatchScript, "script.yaml", script);
    assert!(found.is_empty(), "{}", describe(&found));
    let found = inline_problems(
        DocKind::MatchScript,
        "script.yaml",
        &format!("{script}seeds: 1\n"),
    );
    assert!(
        !found.is_empty(),
        "a match script with `seeds` was accepted"
    );

    let case = format!("description: passing\n{script}expect:\n  events_include: [{{type: income}}]\n  legal_count: 3\n");
    let found = inline_problems(DocKind::Conformance, "case.yaml", &case);
    assert!(found.is_empty(), "{}", describe(&found));
    let found = inline_problems(
        DocKind::Conformance,
        "case.yaml",
        &format!("{case}  events_exclude: []\n"),
    );
    assert!(!found.is_empty(), "an unknown expectation was accepted");
}
