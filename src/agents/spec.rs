//! Agent specs as written on the command line, `NAME[:key=value,...]`: parsing, checking against a game
//! (names, keys, values), and building the agent for a seat.
use std::sync::Arc;

use super::greedy::GreedyAgent;
use super::mcts::{MctsAgent, MctsConfig, Rollout};
use super::minimax::{MinimaxAgent, MinimaxConfig};
use super::random::{RandomAgent, RandomKindAgent};
use super::remote::{RemoteAgent, RemoteOptions, Target};
use super::Agent;
use crate::diagnostic::closest;
use crate::ir::game::Game;
use crate::model::PlayerIdx;

/// Built-in agent names (the ruleset's evaluation agents come on top of them).
pub const BUILT_IN: &[&str] = &["random", "random_kind", "mcts", "minimax"];

/// A checked agent spec: what to build for a seat, and the text it was written as.
#[derive(Clone, Debug)]
pub struct AgentSpec {
    /// The spec as written (`mcts:iterations=200`): its name in tables and messages.
    pub text: String,
    kind: Recipe,
}

#[derive(Clone, Debug)]
enum Recipe {
    Random,
    RandomKind,
    /// A one-ply lookahead agent on the game's evaluation of that index.
    Eval(usize, String),
    Mcts(MctsConfig),
    Minimax(MinimaxConfig),
    /// An agent outside the process (`exec:`, `http://`) with its deadline and fallback.
    Remote(Target, RemoteOptions),
}

/// The keys each agent takes, with a line of documentation each (shown in usage errors).
fn keys(name: &str) -> &'static [(&'static str, &'static str)] {
    match name {
        "random" => &[(
            "by",
            "`action` (uniform over legal actions) or `kind` (kind first)",
        )],
        "mcts" => &[
            ("iterations", "iterations per decision (default 400)"),
            (
                "time_ms",
                "milliseconds per decision instead (not reproducible)",
            ),
            ("c", "UCT exploration constant (default 0.5)"),
            ("rollout", "`random`, `kind` or `none` (default `random`)"),
            (
                "depth",
                "player-turns until a rollout is scored, the one in progress counting (default 1); `end`",
            ),
            (
                "eval",
                "the evaluation scoring cut-off rollouts (default greedy)",
            ),
            (
                "widen",
                "`yes`: progressive widening, moves ranked by the evaluation (default); `no`",
            ),
            ("bias", "weight of the evaluation's ranking in selection (default 3)"),
        ],
        "minimax" => &[
            ("depth", "decisions searched (default 2)"),
            ("eval", "the evaluation at the leaves (default greedy)"),
            ("samples", "sampled dice per decision, averaged (default 1)"),
        ],
        _ => &[],
    }
}

/// Every agent name `game` knows: the built-in ones and its evaluations.
pub fn known_names(game: &Game) -> Vec<String> {
    let mut names: Vec<String> = vec!["random".into(), "random_kind".into()];
    names.extend(game.evaluations.iter().map(|(n, _)| n.clone()));
    if game.evaluation("greedy").is_none() {
        names.push("greedy".into());
    }
    names.extend(["mcts".to_string(), "minimax".to_string()]);
    names
}

fn int_value(agent: &str, key: &str, v: &str, min: u64, max: u64) -> Result<u64, String> {
    match v.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "agent `{agent}`: `{key}` takes a whole number from {min} to {max}, not `{v}`"
        )),
    }
}

fn float_value(agent: &str, key: &str, v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=1000.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "agent `{agent}`: `{key}` takes a number from 0 to 1000, not `{v}`"
        )),
    }
}

fn eval_value(agent: &str, game: &Game, v: &str) -> Result<Option<usize>, String> {
    if v == "none" {
        return Ok(None);
    }
    match game.evaluation(v) {
        Some(k) => Ok(Some(k)),
        None => {
            let names: Vec<&str> = game.evaluations.iter().map(|(n, _)| n.as_str()).collect();
            Err(format!(
                "agent `{agent}`: `eval={v}` names no evaluation of this ruleset (declared under `agents:`: {}){}",
                if names.is_empty() { "none".to_string() } else { names.join(", ") },
                closest(v, names.iter().copied()).map_or(String::new(), |c| format!("; did you mean `{c}`?"))
            ))
        }
    }
}

impl AgentSpec {
    /// Parses and checks `text` for `game`. The error is a one-line usage message. Agents outside the
    /// process get the default deadline and fallback.
    pub fn new(text: &str, game: &Arc<Game>) -> Result<AgentSpec, String> {
        Self::with_options(text, game, &RemoteOptions::default())
    }

    /// As [`AgentSpec::new`], agents outside the process getting `remote`'s deadline and fallback.
    pub fn with_options(
        text: &str,
        game: &Arc<Game>,
        remote: &RemoteOptions,
    ) -> Result<AgentSpec, String> {
        if let Some(target) = Target::parse(text) {
            return Ok(AgentSpec {
                text: text.trim().to_string(),
                kind: Recipe::Remote(target?, remote.clone()),
            });
        }
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (text, None),
        };
        let name = name.trim();
        let is_eval = game.evaluation(name).is_some() || name == "greedy";
        if !BUILT_IN.contains(&name) && !is_eval {
            let known = known_names(game);
            let hint = closest(name, known.iter().map(String::as_str))
                .map_or(String::new(), |c| format!("; did you mean `{c}`?"));
            return Err(format!(
                "unknown agent `{name}` (known: {}){hint}; an agent is NAME[:key=value,...]",
                known.join(", ")
            ));
        }
        let allowed = keys(name);
        let mut pairs: Vec<(String, String)> = Vec::new();
        if let Some(rest) = rest {
            for item in rest.split(',') {
                let Some((k, v)) = item.split_once('=') else {
                    return Err(format!(
                        "agent `{text}`: `{item}` is not key=value (an agent is NAME[:key=value,...])"
                    ));
                };
                let (k, v) = (k.trim(), v.trim());
                if !allowed.iter().any(|(a, _)| *a == k) {
                    let list = if allowed.is_empty() {
                        "it takes none".to_string()
                    } else {
                        format!(
                            "it takes: {}",
                            allowed
                                .iter()
                                .map(|(a, doc)| format!("{a} ({doc})"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    };
                    let hint = closest(k, allowed.iter().map(|(a, _)| *a))
                        .map_or(String::new(), |c| format!("; did you mean `{c}`?"));
                    return Err(format!("agent `{name}` has no key `{k}` ({list}){hint}"));
                }
                if pairs.iter().any(|(p, _)| p == k) {
                    return Err(format!("agent `{text}`: `{k}` is given twice"));
                }
                pairs.push((k.to_string(), v.to_string()));
            }
        }
        let get = |k: &str| pairs.iter().find(|(p, _)| p == k).map(|(_, v)| v.as_str());
        let kind = match name {
            "random" => match get("by") {
                None | Some("action") => Recipe::Random,
                Some("kind") => Recipe::RandomKind,
                Some(o) => {
                    return Err(format!(
                        "agent `random`: `by` is `action` or `kind`, not `{o}`"
                    ))
                }
            },
            "random_kind" => Recipe::RandomKind,
            "mcts" => {
                let mut c = MctsConfig::default();
                if let Some(v) = get("iterations") {
                    c.iterations = int_value(name, "iterations", v, 1, 10_000_000)?;
                }
                if let Some(v) = get("time_ms") {
                    c.time_ms = Some(int_value(name, "time_ms", v, 1, 3_600_000)?);
                    if get("iterations").is_none() {
                        c.iterations = u64::MAX;
                    }
                }
                if let Some(v) = get("c") {
                    c.c = float_value(name, "c", v)?;
                }
                if let Some(v) = get("bias") {
                    c.bias = float_value(name, "bias", v)?;
                }
                if let Some(v) = get("rollout") {
                    c.rollout = match v {
                        "random" => Rollout::Random,
                        "kind" => Rollout::Kind,
                        "none" => Rollout::None,
                        o => {
                            return Err(format!(
                                "agent `mcts`: `rollout` is `random`, `kind` or `none`, not `{o}`"
                            ))
                        }
                    };
                }
                c.eval = game.evaluation("greedy");
                if let Some(v) = get("eval") {
                    c.eval = eval_value(name, game, v)?;
                }
                if let Some(v) = get("depth") {
                    c.depth = if v == "end" {
                        None
                    } else {
                        Some(int_value(name, "depth", v, 0, 100_000)?)
                    };
                }
                match get("widen") {
                    None | Some("yes") => c.widen = true,
                    Some("no") => c.widen = false,
                    Some(o) => {
                        return Err(format!("agent `mcts`: `widen` is `yes` or `no`, not `{o}`"))
                    }
                }
                if c.eval.is_none() {
                    // Without an evaluation, only the end of the game says anything.
                    c.depth = None;
                    if c.rollout == Rollout::None {
                        return Err(
                            "agent `mcts`: `rollout=none` needs an evaluation (`eval=NAME`), and this ruleset declares none".into(),
                        );
                    }
                }
                Recipe::Mcts(c)
            }
            "minimax" => {
                let mut c = MinimaxConfig {
                    eval: game.evaluation("greedy"),
                    ..MinimaxConfig::default()
                };
                if let Some(v) = get("depth") {
                    c.depth = int_value(name, "depth", v, 1, 64)? as u32;
                }
                if let Some(v) = get("samples") {
                    c.samples = int_value(name, "samples", v, 1, 1000)? as u32;
                }
                if let Some(v) = get("eval") {
                    c.eval = eval_value(name, game, v)?;
                }
                Recipe::Minimax(c)
            }
            _ => Recipe::Eval(
                game.evaluation(name).unwrap_or(usize::MAX),
                name.to_string(),
            ),
        };
        Ok(AgentSpec {
            text: text.trim().to_string(),
            kind,
        })
    }

    /// The agent for `player` in the match seeded with `seed`.
    pub fn build(&self, seed: u64, player: PlayerIdx) -> Box<dyn Agent> {
        match &self.kind {
            Recipe::Random => Box::new(RandomAgent::new(seed, player)),
            Recipe::RandomKind => Box::new(RandomKindAgent::new(seed, player)),
            Recipe::Eval(k, name) => Box::new(GreedyAgent::with_evaluation(
                seed,
                player,
                (*k != usize::MAX).then_some(*k),
                name,
            )),
            Recipe::Mcts(c) => Box::new(MctsAgent::new(seed, player, c.clone())),
            Recipe::Minimax(c) => Box::new(MinimaxAgent::new(seed, player, c.clone())),
            Recipe::Remote(target, options) => {
                Box::new(RemoteAgent::new(&self.text, target, options, seed, player))
            }
        }
    }

    /// The command an `exec:` agent runs (its words), for checking that it exists.
    pub fn command(&self) -> Option<&[String]> {
        match &self.kind {
            Recipe::Remote(Target::Exec(argv), _) => Some(argv),
            _ => None,
        }
    }

    /// Whether two runs with the same seed make the same decisions (false for a time budget).
    pub fn reproducible(&self) -> bool {
        !matches!(&self.kind, Recipe::Mcts(c) if c.time_ms.is_some())
            && !matches!(&self.kind, Recipe::Remote(..))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_name_is_reserved_for_rulesets() {
        for n in BUILT_IN {
            assert!(crate::ir::game::BUILT_IN_AGENTS.contains(n), "{n}");
        }
    }
}
