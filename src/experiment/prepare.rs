//! Validating every cell before anything runs: the ruleset loads, each override value on its own and each
//! cell's combination of them is accepted by the ruleset, and each agent exists for the cell's game; every
//! problem is a diagnostic at the experiment file's line (followed by the ruleset's own diagnostics). What
//! passes is a plan: the cells with their games and agents, and the description whose digest names the
//! experiment.
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use sha2::{Digest, Sha256};

use super::cells::Cell;
use super::parse::Experiment;
use crate::agents::AgentSpec;
use crate::diagnostic::{Diagnostic, SourceFile};
use crate::ruleset::load::{load, read_source, LoadError};
use crate::ruleset::Game;

/// A cell ready to run.
#[derive(Debug, Clone)]
pub struct PreparedCell {
    pub cell: Cell,
    pub game: Arc<Game>,
    pub specs: Vec<AgentSpec>,
}

/// A validated experiment.
#[derive(Debug, Clone)]
pub struct Plan {
    pub cells: Vec<PreparedCell>,
    pub description: Description,
    /// `sha256:...` of the description.
    pub digest: String,
}

/// What the experiment is, as written into every directory of its results: two runs with the same
/// description (so the same digest) play the same games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Description {
    /// The version of Arbiter that plays the games.
    pub arbiter: String,
    pub ruleset: RulesetRef,
    pub scenario: ScenarioRef,
    pub seed: u64,
    /// Games per cell.
    pub games: u64,
    pub cells: Vec<CellRef>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetRef {
    pub id: String,
    pub version: String,
    /// The ruleset's digest, as replays record it (its text and scripts).
    pub digest: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioRef {
    pub name: String,
    /// `sha256:...` of the scenario file's text.
    pub digest: String,
}

/// A cell as results name it (`{overrides..., "p1", "p2"}`) and its game's players.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellRef {
    pub cell: Json,
    pub players: Vec<String>,
}

impl Description {
    /// `sha256:` and the hex digest of the description's JSON.
    pub fn digest(&self) -> String {
        sha256(&serde_json::to_string(self).unwrap_or_default())
    }
}

fn sha256(text: &str) -> String {
    let h = Sha256::digest(text.as_bytes());
    let hex: String = h.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// Why an experiment cannot run: diagnostics, and whether a file could not be read (exit 2) rather than
/// something being invalid (exit 1).
#[derive(Debug)]
pub struct Refused {
    pub diagnostics: Vec<Diagnostic>,
    pub unreadable: bool,
}

/// Checks every cell of `e` and loads its game.
pub fn prepare(e: &Experiment, cells: Vec<Cell>) -> Result<Plan, Refused> {
    let src = &e.source;
    let ruleset = e.ruleset.value.as_str();
    let scenario = e.scenario.as_ref().map(|s| s.value.as_str());
    let load_with = |overrides: &[(String, Json)]| load(ruleset, scenario, overrides);

    let base = load_with(&[]).map_err(|err| {
        let unreadable = matches!(err, LoadError::Unreadable(_));
        let (span, what) = match (&e.scenario, err.diagnostics().first()) {
            (Some(s), Some(d)) if d.code == "io::no_scenario" => (s.span.clone(), "scenario"),
            _ => (e.ruleset.span.clone(), "ruleset"),
        };
        let mut diags = vec![wrap(
            src,
            "experiment::ruleset",
            format!("the {what} does not load"),
            span,
            err.diagnostics(),
        )];
        diags.extend(located(err.diagnostics()));
        Refused {
            diagnostics: diags,
            unreadable,
        }
    })?;

    // Each problem at the experiment file, followed by the ruleset's own diagnostics, reported in the
    // order of the file.
    let mut problems: Vec<Vec<Diagnostic>> = Vec::new();
    // Each override value on its own, once, so a bad value is reported once, at that value.
    let mut bad_values: Vec<(String, Json)> = Vec::new();
    let mut checked: Vec<(String, Json)> = Vec::new();
    for c in &cells {
        for ((path, value), (key_span, value_span)) in c.overrides.iter().zip(&c.origin.overrides) {
            let one = (path.clone(), value.clone());
            if checked.contains(&one) {
                continue;
            }
            checked.push(one.clone());
            if let Err(err) = load_with(std::slice::from_ref(&one)) {
                let first = err.diagnostics().first();
                // A path that names nothing is the key's fault, a refused value the value's.
                let at_key = first.is_some_and(|d| d.code.starts_with("set::"));
                let span = if at_key { key_span } else { value_span };
                problems.push(group(
                    wrap(
                        src,
                        "experiment::bad_override",
                        format!("`{path} = {value}` is refused by the ruleset"),
                        span.clone(),
                        err.diagnostics(),
                    ),
                    err.diagnostics(),
                ));
                bad_values.push(one);
            }
        }
    }

    // Each distinct combination once; cells that differ only in seats share the game.
    let mut games: HashMap<String, Option<Arc<Game>>> = HashMap::new();
    let mut prepared = Vec::new();
    let mut bad_agents: Vec<(Range<usize>, String)> = Vec::new();
    for c in cells {
        if c.overrides.iter().any(|o| bad_values.contains(o)) {
            continue;
        }
        let key = serde_json::to_string(&c.overrides).unwrap_or_default();
        let game = match games.get(&key) {
            Some(g) => g.clone(),
            None => {
                let g = match load_with(&c.overrides) {
                    Ok(l) => Some(l.game),
                    Err(err) => {
                        problems.push(group(
                            wrap(
                                src,
                                "experiment::bad_cell",
                                format!(
                                    "the ruleset refuses this combination of overrides: {}",
                                    c.describe_overrides()
                                ),
                                c.origin.span.clone(),
                                err.diagnostics(),
                            ),
                            err.diagnostics(),
                        ));
                        None
                    }
                };
                games.insert(key, g.clone());
                g
            }
        };
        let Some(game) = game else { continue };
        if c.seats.len() != game.players.len() {
            let d = Diagnostic::error(
                "experiment::seats",
                format!(
                    "{} agents for a game of {} players ({})",
                    c.seats.len(),
                    game.players.len(),
                    game.players.join(", ")
                ),
            )
            .at(src.clone(), c.origin.seats_span.clone())
            .hint("give one agent per player, in player order");
            if !problems.iter().any(|g| g.contains(&d)) {
                problems.push(vec![d]);
            }
            continue;
        }
        let mut specs = Vec::new();
        for (text, span) in c.seats.iter().zip(&c.origin.seats) {
            match AgentSpec::new(text, &game) {
                Ok(s) => specs.push(s),
                Err(message) => {
                    if !bad_agents.contains(&(span.clone(), message.clone())) {
                        bad_agents.push((span.clone(), message.clone()));
                        problems.push(vec![Diagnostic::error(
                            "experiment::bad_agent",
                            format!("agent `{text}`: {message}"),
                        )
                        .at(src.clone(), span.clone())]);
                    }
                }
            }
        }
        if specs.len() == c.seats.len() {
            prepared.push(PreparedCell {
                cell: c,
                game,
                specs,
            });
        }
    }
    if !problems.is_empty() {
        problems.sort_by_key(|g| {
            g.first()
                .and_then(|d| d.span.as_ref())
                .map_or(0, |s| s.start)
        });
        return Err(Refused {
            diagnostics: problems.into_iter().flatten().collect(),
            unreadable: false,
        });
    }

    let scenario_text = read_source(&base.scenario_path).map_err(|d| Refused {
        diagnostics: vec![d],
        unreadable: true,
    })?;
    let description = Description {
        arbiter: env!("CARGO_PKG_VERSION").to_string(),
        ruleset: RulesetRef {
            id: base.game.id.clone(),
            version: base.game.version.clone(),
            digest: base.game.digest.clone(),
        },
        scenario: ScenarioRef {
            name: base.game.scenario.clone(),
            digest: sha256(&scenario_text.text),
        },
        seed: e.seed,
        games: e.games.value,
        cells: prepared
            .iter()
            .map(|p| CellRef {
                cell: p.cell.to_json(),
                players: p.game.players.clone(),
            })
            .collect(),
    };
    Ok(Plan {
        cells: prepared,
        digest: description.digest(),
        description,
    })
}

/// A diagnostic at the experiment file whose message ends with the first of the ruleset's reasons.
fn wrap(
    src: &Arc<SourceFile>,
    code: &str,
    message: String,
    span: Range<usize>,
    inner: &[Diagnostic],
) -> Diagnostic {
    let mut d = match inner.first() {
        Some(first) => Diagnostic::error(code, format!("{message}: {}", first.message)),
        None => Diagnostic::error(code, message),
    };
    d = d.at(src.clone(), span);
    match inner.first().and_then(|f| f.hint.clone()) {
        Some(h) => d.hint(h),
        None => d,
    }
}

/// A problem at the experiment file followed by the ruleset's diagnostics behind it.
fn group(head: Diagnostic, inner: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut g = vec![head];
    g.extend(located(inner));
    g
}

/// The ruleset's diagnostics that point into its files (the others only repeat the message).
fn located(inner: &[Diagnostic]) -> Vec<Diagnostic> {
    inner
        .iter()
        .filter(|d| d.file.as_ref().is_some_and(|f| !f.text.is_empty()))
        .cloned()
        .collect()
}
