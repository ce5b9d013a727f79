//! The entry points the fuzz targets (`fuzz/fuzz_targets/*.rs`) and their regression corpus
//! (`tests/fuzz_regressions.rs`) share: each takes arbitrary bytes and runs one stage of Arbiter on them
//! the way a user's input would reach it. Any panic, abort or hang is a finding; errors are expected.
#![allow(dead_code)]
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbiter::agents::{by_name, Agent};
use arbiter::diagnostic::{render_json, render_text, Diagnostic, SourceFile};
use arbiter::engine::Engine;
use arbiter::replay::run::run_script;
use arbiter::replay::script::MatchScript;
use arbiter::replay::verify::verify;
use arbiter::ruleset::{load, Game};
use arbiter::simulate::{play_match, PlayOptions};

/// Separates a ruleset from its scenario in a `ruleset` input.
pub const SCENARIO_MARK: &str = "\n#---scenario---\n";

/// A scratch folder of this process (fuzzers run one input at a time per process).
fn scratch(kind: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-fuzz-{kind}-{}", std::process::id()));
    let _ = fs::create_dir_all(&dir);
    dir
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// Both renderings of diagnostics (the renderer panicked on long lines once); the codes, as the outcome.
fn render(d: &[Diagnostic]) -> String {
    let _ = render_text(d, false);
    let _ = render_json(d);
    let found: Vec<String> = d
        .iter()
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    format!("invalid: {}", found.join("; "))
}

fn load_and_render(ruleset: &Path, scenario: Option<&Path>) -> Result<Arc<Game>, String> {
    let scenario = scenario.map(|s| s.display().to_string());
    load(&ruleset.display().to_string(), scenario.as_deref(), &[])
        .map(|l| l.game)
        .map_err(|e| render(e.diagnostics()))
}

/// Plays one short match (random against `p1`) on a loaded game; errors are fine.
fn play_one(game: Arc<Game>, p1: &str) -> String {
    let Ok(mut engine) = Engine::new(game.clone()) else {
        return "no engine".into();
    };
    let mut agents: Vec<Box<dyn Agent>> = (0..game.players.len() as u8)
        .filter_map(|p| by_name(if p == 0 { p1 } else { "random" }, 0, p))
        .collect();
    match play_match(
        &mut engine,
        &mut agents,
        0,
        PlayOptions {
            record: true,
            check: false,
        },
    ) {
        Ok(_) => "played".into(),
        Err(e) => format!("run error: {e}"),
    }
}

/// What an entry point made of its input, for the regression tests to check.
pub type Outcome = String;

/// (a) A ruleset (and, after [`SCENARIO_MARK`], its scenario) loaded and analysed from arbitrary YAML.
pub fn ruleset(data: &[u8]) -> Outcome {
    let Some(text) = text(data) else {
        return "not text".into();
    };
    let dir = scratch("ruleset");
    let (rs, sc) = text.split_once(SCENARIO_MARK).unwrap_or((text, ""));
    let _ = fs::write(dir.join("ruleset.yaml"), rs);
    let _ = fs::write(dir.join("scenario.yaml"), sc);
    load_and_render(&dir.join("ruleset.yaml"), Some(&dir.join("scenario.yaml")))
        .map_or_else(|e| e, |g| play_one(g, "random"))
}

/// (b) An expression through the compiler: Strategic Influence's greedy evaluation replaced by the input,
/// then, when it compiles, one greedy match that evaluates it.
pub fn expression(root: &Path, data: &[u8]) -> Outcome {
    let Some(expr) = text(data) else {
        return "not text".into();
    };
    if expr.contains('\r') {
        return "carriage return".into();
    }
    let Ok(canonical) = fs::read_to_string(root.join("rulesets/strategic_influence/ruleset.yaml"))
    else {
        return "no ruleset".into();
    };
    let Some(at) = canonical.find("    evaluate: >-") else {
        return "no evaluation".into();
    };
    let block: String = expr.lines().map(|l| format!("      {l}\n")).collect();
    let ruleset = format!("{}    evaluate: |-\n{block}", &canonical[..at]);
    let dir = scratch("expression");
    let _ = fs::write(dir.join("ruleset.yaml"), ruleset);
    let scenario = root.join("scenarios/strategic_influence/standard_5x5.yaml");
    load_and_render(&dir.join("ruleset.yaml"), Some(&scenario))
        .map_or_else(|e| e, |g| play_one(g, "greedy"))
}

/// (c) A match script, run with the legal actions of its final position.
pub fn match_script(root: &Path, data: &[u8]) -> Outcome {
    let Some(text) = text(data) else {
        return "not text".into();
    };
    let _ = std::env::set_current_dir(root);
    let source = SourceFile::new("fuzz.yaml", text);
    match MatchScript::parse(source, &[]) {
        Ok(script) => match run_script(&script, true) {
            Ok(_) => "played".into(),
            Err(f) => render(&f.diagnostics),
        },
        Err(d) => render(&d),
    }
}

/// (d) A replay, verified.
pub fn replay(root: &Path, data: &[u8]) -> Outcome {
    let _ = std::env::set_current_dir(root);
    match serde_json::from_slice::<serde_json::Value>(data) {
        Ok(json) => match verify(&json) {
            Ok(()) => "verified".into(),
            Err(e) => format!("refused: {e}"),
        },
        Err(_) => "not JSON".into(),
    }
}

/// (e) A Rhai script through the sandbox: ASG's combat script replaced by the input, then, when the
/// ruleset still validates, one random match (combat calls the script).
pub fn rhai(root: &Path, data: &[u8]) -> Outcome {
    let Some(script) = text(data) else {
        return "not text".into();
    };
    let dir = scratch("rhai");
    let asg = root.join("rulesets/asg");
    let Ok(ruleset) = fs::read_to_string(asg.join("ruleset.yaml")) else {
        return "no ruleset".into();
    };
    let _ = fs::write(dir.join("ruleset.yaml"), ruleset);
    let _ = fs::write(dir.join("combat.rhai"), script);
    let scenario = root.join("scenarios/asg/scenario_01.yaml");
    load_and_render(&dir.join("ruleset.yaml"), Some(&scenario))
        .map_or_else(|e| e, |g| play_one(g, "random"))
}
