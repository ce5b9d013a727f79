//! Agents outside the process (INTERFACE.md sections 9 and 10): `exec:COMMAND ARGS...` (a child process
//! speaking the agent protocol as JSON lines on its stdin and stdout) and `http://...` (each message
//! POSTed). Every decision has a deadline; a reply that is late, malformed, missing or useless is a
//! fault, the fallback agent decides instead, and the fault goes into the replay. The only module besides
//! `cli` that starts processes or opens sockets (it never touches files).
pub mod fallback;
pub mod http;
pub mod protocol;
pub mod stdio;
pub mod words;

use std::time::Duration;

use serde_json::{json, Value as Json};

use super::{Agent, AgentSpec, HandedIn};
use crate::engine::{wire, Engine, Match, RunError};
use crate::ir::game::Game;
use crate::model::{Action, PlayerIdx};
use protocol::Reply;

/// `--agent-timeout` when none is given: milliseconds an agent has for each decision.
pub const DEFAULT_TIMEOUT_MS: u64 = 2_000;
/// The longest `--agent-timeout` (an hour).
pub const MAX_TIMEOUT_MS: u64 = 3_600_000;
/// Replies in a row that change nothing (every action refused, the player still due in the same turn)
/// before the fallback decides.
pub const MAX_STALLED: usize = 3;

/// Why an agent outside the process did not decide (the `kind` of a replay's fault).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// No reply within the deadline.
    Timeout,
    /// A reply that is not JSON, not `{"actions": [...]}`, or too long.
    Malformed,
    /// The process exited, could not start, or was stopped.
    Crashed,
    /// An HTTP error: no connection, an error status.
    Http,
    /// Replies that changed nothing, [`MAX_STALLED`] in a row.
    Stalled,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Malformed => "malformed",
            FaultKind::Crashed => "crashed",
            FaultKind::Http => "http",
            FaultKind::Stalled => "stalled",
        }
    }
}

/// A decision an agent outside the process failed to make.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Self {
        Fault {
            kind,
            detail: detail.into(),
        }
    }

    /// The replay's record of it: `decision` is the index of the submission handed in instead.
    pub fn record(&self, player: &str, decision: usize) -> Json {
        json!({"player": player, "decision": decision, "kind": self.kind.name(), "detail": self.detail})
    }
}

/// How messages reach an agent outside the process, and its replies come back.
pub trait Transport {
    /// Sends `start`; an answer is not waited for.
    fn start(&mut self, msg: &Json);
    /// Sends `act` and waits up to `deadline` for the reply.
    fn ask(&mut self, msg: &Json, deadline: Duration) -> Result<Reply, Fault>;
    /// Sends `end` and lets the agent go.
    fn end(&mut self, msg: &Json);
}

/// Where an agent outside the process is.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A command line, split into words.
    Exec(Vec<String>),
    /// A URL every message is POSTed to.
    Http(String),
}

impl Target {
    /// The target `text` names, if it names one (`exec:...`, `http://...`, `https://...`); the error is a
    /// one-line usage message.
    pub fn parse(text: &str) -> Option<Result<Target, String>> {
        let text = text.trim();
        if let Some(line) = text.strip_prefix("exec:") {
            return Some(match words::split(line) {
                Ok(w) if w.is_empty() || w[0].is_empty() => {
                    Err("agent `exec:` needs a command, e.g. `exec:python3 bot.py`".to_string())
                }
                Ok(w) => Ok(Target::Exec(w)),
                Err(e) => Err(format!("agent `{text}`: {e}")),
            });
        }
        let lower = text.to_ascii_lowercase();
        if lower.starts_with("http://") || lower.starts_with("https://") {
            return Some(http::check_url(text).map(|()| Target::Http(text.to_string())));
        }
        None
    }
}

/// What decides when an agent outside the process does not (`--fallback`).
#[derive(Clone, Debug)]
pub enum FallbackSpec {
    /// An empty submission (see [`fallback::pass`]).
    Pass,
    /// An agent of the engine's own.
    Agent(Box<AgentSpec>),
}

/// The settings every agent outside the process of a command shares.
#[derive(Clone, Debug)]
pub struct RemoteOptions {
    /// Milliseconds for each decision (`--agent-timeout`).
    pub timeout_ms: u64,
    pub fallback: FallbackSpec,
}

impl Default for RemoteOptions {
    fn default() -> Self {
        RemoteOptions {
            timeout_ms: DEFAULT_TIMEOUT_MS,
            fallback: FallbackSpec::Pass,
        }
    }
}

impl RemoteOptions {
    /// Checks `--agent-timeout` and `--fallback` for `game`; the error is a one-line usage message.
    pub fn new(
        timeout_ms: Option<u64>,
        fallback: Option<&str>,
        game: &std::sync::Arc<Game>,
    ) -> Result<Self, String> {
        let timeout_ms = timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
        if !(1..=MAX_TIMEOUT_MS).contains(&timeout_ms) {
            return Err(format!(
                "--agent-timeout takes milliseconds from 1 to {MAX_TIMEOUT_MS}, not {timeout_ms}"
            ));
        }
        let fallback = match fallback.map(str::trim) {
            None | Some("pass") => FallbackSpec::Pass,
            Some(text) => {
                if Target::parse(text).is_some() {
                    return Err(format!(
                        "--fallback `{text}`: the fallback must be an agent of the engine's own (`pass`, `random`, ...), which cannot fail"
                    ));
                }
                let spec = AgentSpec::new(text, game)
                    .map_err(|e| format!("--fallback: {e}; or `pass`"))?;
                FallbackSpec::Agent(Box::new(spec))
            }
        };
        Ok(RemoteOptions {
            timeout_ms,
            fallback,
        })
    }
}

/// The fallback agent as built for a seat.
enum Fallback {
    Pass,
    Agent(Box<dyn Agent>),
}

/// An agent outside the process, seen through the protocol.
pub struct RemoteAgent {
    name: String,
    transport: Box<dyn Transport>,
    timeout_ms: u64,
    fallback: Fallback,
    /// An engine of the same game for trying actions on copies (`pass` in phases that end with an action).
    trial: Option<Engine>,
    started: bool,
    handed: Vec<HandedIn>,
}

impl RemoteAgent {
    /// The agent at `target` for `player` of the match seeded with `seed` (its fallback is seeded so).
    pub fn new(
        name: &str,
        target: &Target,
        options: &RemoteOptions,
        seed: u64,
        player: PlayerIdx,
    ) -> Self {
        let transport: Box<dyn Transport> = match target {
            Target::Exec(argv) => Box::new(stdio::Stdio::new(argv.clone())),
            Target::Http(url) => Box::new(http::Http::new(url)),
        };
        Self::with_transport(name, transport, options, seed, player)
    }

    /// The agent behind `transport`.
    pub fn with_transport(
        name: &str,
        transport: Box<dyn Transport>,
        options: &RemoteOptions,
        seed: u64,
        player: PlayerIdx,
    ) -> Self {
        let fallback = match &options.fallback {
            FallbackSpec::Pass => Fallback::Pass,
            FallbackSpec::Agent(spec) => Fallback::Agent(spec.build(seed, player)),
        };
        RemoteAgent {
            name: name.to_string(),
            transport,
            timeout_ms: options.timeout_ms,
            fallback,
            trial: None,
            started: false,
            handed: Vec::new(),
        }
    }

    /// The fallback decides this decision; `fault` says why.
    fn fall_back(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
        fault: Fault,
        mut applied: Vec<Action>,
    ) -> Result<Vec<Action>, RunError> {
        let (actions, handed) = match &mut self.fallback {
            Fallback::Agent(agent) => {
                let actions = agent.act(engine, m, player)?;
                // Unit ids never change, so the state after encodes the actions as the state before would.
                let handed = actions
                    .iter()
                    .map(|a| wire::encode(&engine.game, &m.state, a))
                    .collect();
                (actions, handed)
            }
            Fallback::Pass => fallback::pass(engine, m, player, &mut self.trial)?,
        };
        self.handed.push(HandedIn {
            actions: handed,
            rationale: None,
            fault: Some(fault),
        });
        applied.extend(actions);
        Ok(applied)
    }

    /// Asks the agent and hands in its reply as it came; asks again while a reply changes nothing (up to
    /// [`MAX_STALLED`] times), and lets the fallback decide on a fault. Returns the actions that decoded
    /// (the submissions themselves: [`Agent::take_handed_in`]).
    fn ask_and_hand_in(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
    ) -> Result<Vec<Action>, RunError> {
        if !self.started {
            self.started = true;
            self.transport.start(&protocol::start(&engine.game, player));
        }
        let name = engine.game.players[player as usize].clone();
        let deadline = Duration::from_millis(self.timeout_ms);
        let mut applied = Vec::new();
        for _ in 0..MAX_STALLED {
            let before = m.state.clone();
            let msg = protocol::act(engine, m, player, self.timeout_ms)?;
            let reply = match self.transport.ask(&msg, deadline) {
                Ok(r) => r,
                Err(fault) => return self.fall_back(engine, m, player, fault, applied),
            };
            applied.extend(
                reply
                    .actions
                    .iter()
                    .filter_map(|a| wire::decode(&engine.game, &m.state, a).ok()),
            );
            engine
                .submit(m, &name, &reply.actions)
                .map_err(|e| RunError::new(format!("handing in {name}'s reply: {e}")))?;
            self.handed.push(HandedIn {
                actions: reply.actions,
                rationale: reply.rationale,
                fault: None,
            });
            if m.state != before || m.state.is_over() || !m.state.is_due(player) {
                return Ok(applied);
            }
        }
        let fault = Fault::new(
            FaultKind::Stalled,
            format!("{MAX_STALLED} replies in a row changed nothing (every action refused)"),
        );
        self.fall_back(engine, m, player, fault, applied)
    }
}

impl Agent for RemoteAgent {
    fn name(&self) -> &str {
        &self.name
    }

    /// See [`RemoteAgent::ask_and_hand_in`].
    fn act_into(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<Action>,
    ) -> Result<(), RunError> {
        *out = self.ask_and_hand_in(engine, m, player)?;
        Ok(())
    }

    fn take_handed_in(&mut self) -> Vec<HandedIn> {
        std::mem::take(&mut self.handed)
    }

    fn finish(&mut self, engine: &Engine, m: &Match, player: PlayerIdx) {
        if self.started {
            self.transport.end(&protocol::end(engine, m, player));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_recognised_by_their_prefix() {
        assert_eq!(
            Target::parse("exec:python3 'my bot.py' -v"),
            Some(Ok(Target::Exec(vec![
                "python3".into(),
                "my bot.py".into(),
                "-v".into()
            ])))
        );
        assert!(matches!(Target::parse("exec:"), Some(Err(_))));
        assert!(matches!(Target::parse("exec:a 'b"), Some(Err(_))));
        assert_eq!(
            Target::parse("http://127.0.0.1:9000/act"),
            Some(Ok(Target::Http("http://127.0.0.1:9000/act".into())))
        );
        assert!(matches!(Target::parse("http://"), Some(Err(_))));
        assert_eq!(Target::parse("random"), None);
        assert_eq!(Target::parse("mcts:iterations=5"), None);
    }
}
