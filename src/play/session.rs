//! One game between a person and an agent, driven a line of input at a time (`arbiter play`): the
//! session keeps the match, plays the agent when it is due, and answers each line with text to show.
//! It never prints; the command line does.
//!
//! Lines: a number (an action of the numbered list), an action as JSON, an action in short text form
//! (`move A2 B2 1`, see [`super::text`]), `legal` (every legal action), `board`, `done` (hand in: batch
//! and orders turns), `help`, `quit`. Anything else gets a message and changes nothing: an action is only
//! played once enumeration lists it as legal; a refused one is tried on a copy to name the reason.
//!
//! Simultaneous turns: the person's orders are collected on a copy of the turn start and handed in with
//! `done`; the agent then decides on its own copy of the turn start, and both submissions reach the match
//! in seat order, exactly as a match script's would. The replay therefore verifies.
use std::sync::Arc;

use serde_json::Value as Json;

use super::text;
use crate::agents::{Agent, AgentSpec, HandedIn, Mark};
use crate::engine::{wire, Applied, Engine, Match, RunError};
use crate::ir::game::Game;
use crate::ir::game::Submission;
use crate::model::{Action, PlayerIdx};
use crate::render;
use crate::replay::{Replay, SubmissionRecord};

/// Legal actions shown after each step before the list is cut (all of them with `legal`).
pub const SHOWN_ACTIONS: usize = 30;
/// Most submissions one session plays (the agent's and the person's together).
const MAX_STEPS: usize = crate::limits::MAX_SUBMISSIONS;

/// What the command line should do after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Read another line.
    Continue,
    /// The person quit.
    Quit,
    /// The game is over.
    Over,
}

pub struct Session {
    engine: Engine,
    game: Arc<Game>,
    m: Match,
    human: PlayerIdx,
    agent: Box<dyn Agent>,
    agent_name: String,
    color: bool,
    submissions: Vec<SubmissionRecord>,
    events: Vec<Json>,
    /// The person's submission in progress: where it started, and its actions on the wire.
    mark: Option<Mark>,
    pending: Vec<Json>,
    /// Orders phases: the copy of the turn start the person's orders are collected on.
    view: Option<Match>,
    /// The numbered actions last shown.
    legal: Vec<Action>,
    steps: usize,
    /// Decisions an agent outside the process failed to make (the replay's `faults`).
    faults: Vec<Json>,
    /// Whether the agent has been told the game is over.
    finished: bool,
}

const HELP: &str = "\
Type one of:
  a number            play that action of the list
  an action           in short form, the action then its values in order: move A2 B2 1
                      (or name=value pairs: move from=A2 to=B2 amount=1)
  {\"...\": ...}        an action as JSON, as in a match script
  done                hand in the rest of your turn (turns of several actions, orders)
  legal               list every legal action
  board               draw the board again
  help                this text
  quit                stop (the replay, with --out, holds the game so far)
A prefix of an action (move A2) lists the legal actions that start with it.";

impl Session {
    /// A new game; returns the session and the text to show first.
    pub fn new(
        game: Arc<Game>,
        human: PlayerIdx,
        opponent: &AgentSpec,
        seed: u64,
        color: bool,
    ) -> Result<(Session, String), RunError> {
        let mut engine = Engine::new(game.clone())?;
        engine.set_logging(true);
        let m = engine.start(seed)?;
        let events = engine.take_log();
        let other = if human == 0 { 1 } else { 0 };
        let mut s = Session {
            engine,
            game,
            m,
            human,
            agent: opponent.build(seed, other),
            agent_name: opponent.text.clone(),
            color,
            submissions: Vec::new(),
            events: events.clone(),
            mark: None,
            pending: Vec::new(),
            view: None,
            legal: Vec::new(),
            steps: 0,
            faults: Vec::new(),
            finished: false,
        };
        let mut out = format!(
            "You are {} ({}); {} plays {}. Type `help` for help.\n",
            s.game.players[human as usize],
            s.game.display.marks[human as usize],
            s.agent_name,
            s.game.players[other as usize],
        );
        for e in &events {
            out.push_str(&format!("  {}\n", render::events::describe(e)));
        }
        out.push_str(&s.advance()?);
        Ok((s, out))
    }

    pub fn is_over(&self) -> bool {
        self.m.state.is_over()
    }

    /// The prompt to show before reading a line.
    pub fn prompt(&self) -> String {
        let name = &self.game.players[self.human as usize];
        if self.pending.is_empty() {
            format!("{name}> ")
        } else {
            format!("{name} ({} so far)> ", self.pending.len())
        }
    }

    /// The replay of the game so far.
    pub fn replay(&self) -> Replay {
        let mut r = Replay::new(
            &self.engine,
            &self.m,
            self.submissions.clone(),
            self.events.clone(),
        );
        r.faults = self.faults.clone();
        r
    }

    /// Stops: a turn of several actions already begun on the match is handed in as it stands (orders
    /// collected on the copy are dropped), so that the replay re-runs to this very position.
    pub fn quit(&mut self) -> Result<(), RunError> {
        if self.view.is_none() && !self.pending.is_empty() {
            if let Some(mark) = self.mark {
                if mark.open(&self.m, self.human) && self.may_end() {
                    self.engine.end_submission(&mut self.m, self.human)?;
                    let events = self.engine.take_log();
                    self.events.extend(events);
                }
            }
            self.finish_submission();
        }
        Ok(())
    }

    fn phase_kind(&self) -> Submission {
        self.game.phase(&self.m.state).submission
    }

    fn may_end(&self) -> bool {
        matches!(self.phase_kind(), Submission::Batch | Submission::Orders)
    }

    fn frame(&self, events: &[Json]) -> String {
        let shown = self.view.as_ref().unwrap_or(&self.m);
        let mut out = render::frame(&self.game, &shown.state, events, self.color);
        if self.view.is_some() && !self.pending.is_empty() {
            let orders: Vec<String> = self
                .pending
                .iter()
                .map(|w| text::short(&self.game, w))
                .collect();
            out.push_str(&format!("Your orders so far: {}\n", orders.join("; ")));
        }
        out
    }

    /// The numbered list of legal actions (the first `limit`).
    fn list(&mut self, limit: usize) -> Result<String, RunError> {
        let human = self.human;
        let mut legal = std::mem::take(&mut self.legal);
        // The match the decision is made on: the copy in an orders phase, the match otherwise.
        let dm = match &mut self.view {
            Some(v) => v,
            None => &mut self.m,
        };
        let r = self.engine.legal(dm, human, &mut legal);
        self.legal = legal;
        r?;
        let st = &self.view.as_ref().unwrap_or(&self.m).state;
        let mut out = String::new();
        for (i, a) in self.legal.iter().take(limit).enumerate() {
            let w = wire::encode(&self.game, st, a);
            out.push_str(&format!("{:>4}. {}\n", i + 1, text::short(&self.game, &w)));
        }
        if self.legal.len() > limit {
            out.push_str(&format!(
                "      ... and {} more: type `legal` for all, or the start of an action to filter\n",
                self.legal.len() - limit
            ));
        }
        if self.may_end() {
            out.push_str(&format!(
                "      done: hand in {}\n",
                if self.phase_kind() == Submission::Orders {
                    "your orders"
                } else {
                    "the rest of your turn"
                }
            ));
        }
        Ok(out)
    }

    /// Plays the agent while the person is not due, then shows the board and the person's choices (or
    /// the result).
    fn advance(&mut self) -> Result<String, RunError> {
        let mut out = String::new();
        while !self.m.state.is_over() && !self.m.state.is_due(self.human) {
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return Err(RunError::new("the game is too long (docs/limits.md)"));
            }
            let Some(&p) = self.engine.due(&self.m).first() else {
                return Err(RunError::new("the game is not over but nobody is due"));
            };
            let (ply, due) = (self.m.state.ply, self.m.state.due);
            let actions = self.agent.act(&mut self.engine, &mut self.m, p)?;
            let mut events = self.engine.take_log();
            if !self.m.state.is_over()
                && self.m.state.ply == ply
                && self.m.state.due == due
                && actions.is_empty()
            {
                if !self.engine.is_stuck(&mut self.m, p)? {
                    return Err(RunError::new("the agent handed in nothing"));
                }
                self.engine.settle_stuck(&mut self.m, p)?;
                events.extend(self.engine.take_log());
            }
            let mut handed = self.agent.take_handed_in();
            if handed.is_empty() {
                handed.push(HandedIn {
                    actions: actions
                        .iter()
                        .map(|a| wire::encode(&self.game, &self.m.state, a))
                        .collect(),
                    rationale: None,
                    fault: None,
                });
            }
            for h in handed {
                out.push_str(&self.agent_played(p, &h.actions));
                self.record_agent(p, h);
            }
            self.events.extend(events.iter().cloned());
            out.push_str(&self.frame(&events));
        }
        if self.m.state.is_over() {
            if !self.finished {
                self.finished = true;
                let other = if self.human == 0 { 1 } else { 0 };
                self.agent.finish(&self.engine, &self.m, other);
            }
            return Ok(out);
        }
        // The person is due: a new submission, and in an orders phase its copy of the turn start.
        if self.mark.is_none() {
            self.mark = Some(Mark::new(&self.m));
            self.pending.clear();
            if self.phase_kind() == Submission::Orders {
                self.view = Some(self.m.clone());
            }
            // No legal action where one is needed: the ruleset's `when_stuck` decides.
            if self.view.is_none() && self.engine.is_stuck(&mut self.m, self.human)? {
                let name = self.game.players[self.human as usize].clone();
                self.engine
                    .submit(&mut self.m, &name, &[])
                    .map_err(|e| RunError::new(e.to_string()))?;
                let events = self.engine.take_log();
                out.push_str("You have no legal action.\n");
                self.submissions
                    .push(SubmissionRecord::new(name, Vec::new()));
                self.events.extend(events.iter().cloned());
                self.mark = None;
                out.push_str(&self.frame(&events));
                let more = self.advance()?;
                out.push_str(&more);
                return Ok(out);
            }
        }
        out.push_str(&self.list(SHOWN_ACTIONS)?);
        Ok(out)
    }

    fn agent_played(&self, p: PlayerIdx, wire: &[Json]) -> String {
        let who = format!("{} ({})", self.game.players[p as usize], self.agent_name);
        if wire.is_empty() {
            return format!("{who} handed in nothing.\n");
        }
        let acts: Vec<String> = wire.iter().map(|w| text::short(&self.game, w)).collect();
        format!("{who} played: {}\n", acts.join("; "))
    }

    /// Records a submission of the agent's (with its fault, if it had one).
    fn record_agent(&mut self, p: PlayerIdx, h: HandedIn) {
        let name = self.game.players[p as usize].clone();
        if let Some(f) = &h.fault {
            self.faults.push(f.record(&name, self.submissions.len()));
        }
        self.submissions.push(SubmissionRecord {
            player: name,
            actions: h.actions,
            rationale: h.rationale,
        });
    }

    /// Records the person's finished submission.
    fn finish_submission(&mut self) {
        self.submissions.push(SubmissionRecord::new(
            self.game.players[self.human as usize].clone(),
            std::mem::take(&mut self.pending),
        ));
        self.mark = None;
        self.view = None;
    }

    /// Hands in the orders collected on the copy, with the agent's (decided on its own copy of the turn
    /// start), in seat order.
    fn hand_in_orders(&mut self) -> Result<String, RunError> {
        let mut out = String::new();
        let orders = std::mem::take(&mut self.pending);
        self.view = None;
        self.mark = None;
        let start = self.m.clone();
        let mut seats: Vec<(PlayerIdx, HandedIn)> = Vec::new();
        for p in self.engine.due(&self.m) {
            let plain = |actions| HandedIn {
                actions,
                rationale: None,
                fault: None,
            };
            if p == self.human {
                seats.push((p, plain(orders.clone())));
            } else {
                let mut copy = start.clone();
                let decided = self.agent.act(&mut self.engine, &mut copy, p);
                // What the copy logged is not the match's.
                self.engine.take_log();
                let acts = decided?;
                let handed = self.agent.take_handed_in();
                if handed.is_empty() {
                    let wire: Vec<Json> = acts
                        .iter()
                        .map(|a| wire::encode(&self.game, &copy.state, a))
                        .collect();
                    seats.push((p, plain(wire)));
                }
                seats.extend(handed.into_iter().map(|h| (p, h)));
            }
        }
        let mut events = Vec::new();
        for (p, h) in seats {
            let name = self.game.players[p as usize].clone();
            if !self.m.state.is_due(p) {
                continue;
            }
            self.engine
                .submit(&mut self.m, &name, &h.actions)
                .map_err(|e| RunError::new(format!("handing in {name}'s orders: {e}")))?;
            if p != self.human {
                out.push_str(&self.agent_played(p, &h.actions));
                self.record_agent(p, h);
            } else {
                self.submissions
                    .push(SubmissionRecord::new(name, h.actions));
            }
            events.extend(self.engine.take_log());
        }
        self.events.extend(events.iter().cloned());
        out.push_str(&self.frame(&events));
        Ok(out)
    }

    /// Plays `a`, legal for the person now.
    fn play(&mut self, a: Action) -> Result<String, RunError> {
        let human = self.human;
        let st_before = self.view.as_ref().unwrap_or(&self.m).state.clone();
        let w = wire::encode(&self.game, &st_before, &a);
        let mut out = format!("You played: {}\n", text::short(&self.game, &w));
        if let Some(v) = &mut self.view {
            // Orders on the copy: their events are not the match's (they come when handed in).
            let r = self.engine.apply_listed(v, human, &a);
            self.engine.take_log();
            r?;
            self.pending.push(w);
            out.push_str(&self.frame(&[]));
            out.push_str(&self.list(SHOWN_ACTIONS)?);
            return Ok(out);
        }
        self.engine.apply_listed(&mut self.m, human, &a)?;
        let events = self.engine.take_log();
        self.events.extend(events.iter().cloned());
        self.pending.push(w);
        let open = self.mark.is_some_and(|k| k.open(&self.m, human));
        if !open {
            self.finish_submission();
            out.push_str(&self.frame(&events));
            out.push_str(&self.advance()?);
        } else {
            out.push_str(&self.frame(&events));
            out.push_str(&self.list(SHOWN_ACTIONS)?);
        }
        Ok(out)
    }

    /// `done`.
    fn done(&mut self) -> Result<String, RunError> {
        match self.phase_kind() {
            Submission::Orders => {
                let mut out = self.hand_in_orders()?;
                out.push_str(&self.advance()?);
                Ok(out)
            }
            Submission::Batch => {
                self.engine.end_submission(&mut self.m, self.human)?;
                let events = self.engine.take_log();
                self.events.extend(events.iter().cloned());
                self.finish_submission();
                let mut out = self.frame(&events);
                out.push_str(&self.advance()?);
                Ok(out)
            }
            Submission::Single | Submission::Points => Ok(
                "`done` is not available here: this turn ends with an action (or when its points run out).\n"
                    .into(),
            ),
        }
    }

    /// Plays the action given as wire JSON if it is legal now; otherwise says why not.
    fn try_json(&mut self, json: &Json) -> Result<String, RunError> {
        let human = self.human;
        let st = self.view.as_ref().unwrap_or(&self.m).state.clone();
        let a = match wire::decode(&self.game, &st, json) {
            Ok(a) => a,
            Err(reason) => return Ok(format!("Not an action here ({reason}): {json}\n")),
        };
        let mut legal = std::mem::take(&mut self.legal);
        // The match the decision is made on: the copy in an orders phase, the match otherwise.
        let dm = match &mut self.view {
            Some(v) => v,
            None => &mut self.m,
        };
        let r = self.engine.legal(dm, human, &mut legal);
        self.legal = legal;
        r?;
        if self.legal.contains(&a) {
            return self.play(a);
        }
        // Why not: try it on a copy, which is then dropped.
        let mut copy = self.view.as_ref().unwrap_or(&self.m).clone();
        let verdict = self.engine.apply(&mut copy, human, &a);
        self.engine.take_log();
        Ok(match verdict? {
            Applied::Invalid(reason) => {
                format!(
                    "Refused ({reason}): {}; nothing changed.\n",
                    text::short(&self.game, json)
                )
            }
            Applied::Done => format!(
                "Refused: {} is not listed as legal; nothing changed.\n",
                json
            ),
        })
    }

    /// Answers one line of input.
    pub fn handle(&mut self, line: &str) -> Result<(Outcome, String), RunError> {
        let line = line.trim();
        if self.m.state.is_over() {
            return Ok((Outcome::Over, String::new()));
        }
        let out = match line {
            "" => "Type a number, an action, `legal`, `help` or `quit`.\n".to_string(),
            "quit" | "exit" => {
                self.quit()?;
                return Ok((Outcome::Quit, "Bye.\n".into()));
            }
            "help" | "?" => format!("{HELP}\n"),
            "legal" => self.list(usize::MAX)?,
            "board" => {
                let mut s = self.frame(&[]);
                s.push_str(&self.list(SHOWN_ACTIONS)?);
                s
            }
            "done" => self.done()?,
            _ if line.starts_with('{') || line.starts_with('[') => {
                match serde_json::from_str::<Json>(line) {
                    Ok(j @ Json::Object(_)) => self.try_json(&j)?,
                    Ok(_) => "An action in JSON is an object: {\"type\": ...}\n".into(),
                    Err(e) => format!("Not JSON: {e}\n"),
                }
            }
            _ if line.chars().all(|c| c.is_ascii_digit()) => {
                let k: usize = line.parse().unwrap_or(0);
                if k >= 1 && k <= self.legal.len() {
                    let a = self.legal[k - 1].clone();
                    self.play(a)?
                } else {
                    format!(
                        "No action {line}: the list has {} (type `legal` to see them).\n",
                        self.legal.len()
                    )
                }
            }
            _ => match text::parse(&self.game, line) {
                Ok(j) => self.try_json(&j)?,
                Err(e) => self.filter(line).unwrap_or(format!("{e}\n")),
            },
        };
        let outcome = if self.m.state.is_over() {
            Outcome::Over
        } else {
            Outcome::Continue
        };
        Ok((outcome, out))
    }

    /// The numbered legal actions whose short form starts with `prefix`, if any does.
    fn filter(&self, prefix: &str) -> Option<String> {
        let st = &self.view.as_ref().unwrap_or(&self.m).state;
        let words: Vec<&str> = prefix.split_whitespace().collect();
        let hits: Vec<String> = self
            .legal
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                let s = text::short(&self.game, &wire::encode(&self.game, st, a));
                let sw: Vec<&str> = s.split_whitespace().collect();
                let matches = words.len() <= sw.len()
                    && words.iter().zip(&sw).enumerate().all(|(k, (w, x))| {
                        if k + 1 == words.len() {
                            x.starts_with(w)
                        } else {
                            w == x
                        }
                    });
                matches.then(|| format!("{:>4}. {s}\n", i + 1))
            })
            .collect();
        if hits.is_empty() {
            return None;
        }
        let mut out = format!("{} legal actions start with `{prefix}`:\n", hits.len());
        for h in hits.iter().take(SHOWN_ACTIONS) {
            out.push_str(h);
        }
        if hits.len() > SHOWN_ACTIONS {
            out.push_str(&format!(
                "      ... and {} more\n",
                hits.len() - SHOWN_ACTIONS
            ));
        }
        Some(out)
    }

    /// The closing text: the final board is already shown; the result line.
    pub fn result(&self) -> String {
        render::status(&self.game, &self.m.state)
    }
}
