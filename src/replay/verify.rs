//! `replay verify`: re-runs a replay's inputs (ruleset by id, scenario, seed, settings, submissions) and
//! reports the first place where events, result, final state or legal actions differ. The re-run can be
//! watched step by step (the viewer draws each position from it).
use serde_json::Value as Json;

use super::failure::Failure;
use super::json_match::{first_difference, short};
use super::legal::legal_json;
use super::record::{ResultRecord, SubmissionRecord, FORMAT, VERSION};
use crate::engine::{Engine, Match};
use crate::ruleset::schemas::{validator, DocKind};
use crate::ruleset::{load, Loaded};

/// Why a replay did not verify.
#[derive(Debug, Clone)]
pub enum VerifyError {
    /// The document is not a replay this build can read.
    Malformed(String),
    /// Its ruleset or scenario could not be loaded.
    Load(Failure),
    /// Re-running it gave something else.
    Differs(String),
}

impl VerifyError {
    pub fn exit_code(&self) -> i32 {
        match self {
            VerifyError::Load(f) => f.exit_code,
            _ => 1,
        }
    }
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::Malformed(m) => write!(f, "not a readable replay: {m}"),
            VerifyError::Load(e) => write!(f, "cannot load the replay's game: {}", e.summary()),
            VerifyError::Differs(m) => write!(f, "{m}"),
        }
    }
}

fn field<'a>(replay: &'a Json, key: &str) -> Result<&'a Json, VerifyError> {
    replay
        .get(key)
        .ok_or_else(|| VerifyError::Malformed(format!("no `{key}` field")))
}

fn text<'a>(v: &'a Json, what: &str) -> Result<&'a str, VerifyError> {
    v.as_str()
        .ok_or_else(|| VerifyError::Malformed(format!("`{what}` is not a string")))
}

/// The replay against its schema: unknown keys, wrong types and missing fields are refused up front.
fn check_schema(replay: &Json) -> Result<(), VerifyError> {
    let Some(v) = validator(DocKind::Replay) else {
        return Ok(());
    };
    match v.iter_errors(replay).next() {
        None => Ok(()),
        Some(e) => {
            let at = e.instance_path().as_str().to_owned();
            let at = if at.is_empty() { "/".to_string() } else { at };
            Err(VerifyError::Malformed(format!(
                "does not match the replay schema at {at}: {e}"
            )))
        }
    }
}

/// Loads the replay's game: its ruleset by id, its scenario, the recorded `overrides`, and as overrides
/// the settings that differ from what the files give. The recorded settings must name exactly the
/// ruleset's settings: a missing or misspelt one means the replay was not written for this game.
fn load_game(
    id: &str,
    scenario: &str,
    settings: &Json,
    recorded: Option<&Json>,
) -> Result<Loaded, VerifyError> {
    let Json::Object(wanted) = settings else {
        return Err(VerifyError::Malformed("`settings` is not an object".into()));
    };
    let mut overrides: Vec<(String, Json)> = match recorded {
        Some(Json::Object(o)) => o.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => Vec::new(),
    };
    let plain = load(id, Some(scenario), &overrides).map_err(|e| VerifyError::Load(e.into()))?;
    let known = &plain.game.settings;
    if let Some(k) = wanted.keys().find(|k| !known.contains_key(*k)) {
        let near = crate::ruleset::compile::closest(k, known.keys().map(String::as_str))
            .map(|n| format!(" (did you mean `{n}`?)"))
            .unwrap_or_default();
        return Err(VerifyError::Differs(format!(
            "the replay records setting `{k}`, which ruleset `{id}` does not have{near}"
        )));
    }
    if let Some(k) = known.keys().find(|k| !wanted.contains_key(*k)) {
        return Err(VerifyError::Differs(format!(
            "the replay does not record setting `{k}` of ruleset `{id}`"
        )));
    }
    let changed: Vec<(String, Json)> = wanted
        .iter()
        .filter(|(k, v)| known.get(*k) != Some(*v))
        .map(|(k, v)| (format!("settings.{k}"), v.clone()))
        .collect();
    if changed.is_empty() {
        return Ok(plain);
    }
    overrides.extend(changed);
    load(id, Some(scenario), &overrides).map_err(|e| VerifyError::Load(e.into()))
}

/// One position of a re-run: the start (`submission` is `None`) or the position after a submission,
/// with the events it logged.
pub struct Observed<'a> {
    pub submission: Option<&'a SubmissionRecord>,
    pub events: &'a [Json],
    pub engine: &'a Engine,
    pub m: &'a Match,
}

/// Re-runs `replay` and checks that it comes out identical.
pub fn verify(replay: &Json) -> Result<(), VerifyError> {
    verify_observed(replay, &mut |_| {})
}

/// [`verify`], calling `observe` with the starting position and after every submission. A replay that
/// fails to verify may have been observed in part.
pub fn verify_observed(
    replay: &Json,
    observe: &mut dyn FnMut(&Observed),
) -> Result<(), VerifyError> {
    if replay.get("format").and_then(Json::as_str) != Some(FORMAT) {
        return Err(VerifyError::Malformed(format!(
            "`format` is not \"{FORMAT}\""
        )));
    }
    if replay.get("version").and_then(Json::as_u64) != Some(VERSION) {
        return Err(VerifyError::Malformed(format!(
            "`version` is not {VERSION}"
        )));
    }
    check_schema(replay)?;
    let ruleset = field(replay, "ruleset")?;
    let id = text(field(ruleset, "id")?, "ruleset.id")?;
    let scenario = text(field(replay, "scenario")?, "scenario")?;
    let seed = field(replay, "seed")?
        .as_u64()
        .ok_or_else(|| VerifyError::Malformed("`seed` is not a non-negative integer".into()))?;
    let submissions: Vec<SubmissionRecord> =
        serde_json::from_value(field(replay, "submissions")?.clone())
            .map_err(|e| VerifyError::Malformed(format!("`submissions`: {e}")))?;
    let Json::Array(events) = field(replay, "events")? else {
        return Err(VerifyError::Malformed("`events` is not a list".into()));
    };

    let loaded = load_game(
        id,
        scenario,
        field(replay, "settings")?,
        replay.get("overrides"),
    )?;
    let version = text(field(ruleset, "version")?, "ruleset.version")?;
    if version != loaded.game.version {
        return Err(VerifyError::Differs(format!(
            "the replay was recorded with version {version} of ruleset `{id}`, which is at version {} now",
            loaded.game.version
        )));
    }
    let digest = text(field(ruleset, "digest")?, "ruleset.digest")?;
    if digest != loaded.game.digest {
        return Err(VerifyError::Differs(format!(
            "ruleset `{id}` has changed since the replay was recorded: digest {} now, {digest} in the replay",
            loaded.game.digest
        )));
    }
    let differs = VerifyError::Differs;
    let run_err =
        |e: crate::engine::RunError| differs(format!("the rules failed while re-running: {e}"));
    let mut engine = Engine::new(loaded.game).map_err(run_err)?;
    engine.set_logging(true);
    let mut m = engine.start(seed).map_err(run_err)?;
    let mut got = engine.take_log();
    observe(&Observed {
        submission: None,
        events: &got,
        engine: &engine,
        m: &m,
    });
    for (i, s) in submissions.iter().enumerate() {
        engine
            .submit(&mut m, &s.player, &s.actions)
            .map_err(|e| differs(format!("submission {i} was refused: {e}")))?;
        let from = got.len();
        got.extend(engine.take_log());
        observe(&Observed {
            submission: Some(s),
            events: &got[from..],
            engine: &engine,
            m: &m,
        });
    }

    if let Some(i) = (0..events.len().min(got.len())).find(|&i| events[i] != got[i]) {
        return Err(differs(format!(
            "event {i} differs: replay has {}, re-run gives {}",
            short(&events[i]),
            short(&got[i])
        )));
    }
    if events.len() != got.len() {
        let (i, extra) = if got.len() > events.len() {
            (events.len(), &got[events.len()])
        } else {
            (got.len(), &events[got.len()])
        };
        let who = if got.len() > events.len() {
            "re-run gives"
        } else {
            "replay has"
        };
        return Err(differs(format!(
            "{} events in the replay, {} in the re-run; first extra event {i}: {who} {}",
            events.len(),
            got.len(),
            short(extra)
        )));
    }
    let result =
        serde_json::to_value(ResultRecord::of(&engine.game, &m.state)).unwrap_or(Json::Null);
    if let Some(d) = first_difference(field(replay, "result")?, &result, "result") {
        return Err(differs(d));
    }
    let state = engine.state_json(&m);
    if let Some(d) = first_difference(field(replay, "state")?, &state, "state") {
        return Err(differs(d));
    }
    if let Some(legal) = replay.get("legal") {
        engine.set_logging(false);
        let again = legal_json(&mut engine, &mut m).map_err(run_err)?;
        if let Some(d) = first_difference(legal, &again, "legal") {
            return Err(differs(d));
        }
    }
    Ok(())
}
