//! The server's worker threads: each plays the matches given to it (engines and agents cannot move
//! between threads, so a match stays on its worker). Jobs: create a match, hand in a remote seat's
//! submission, list its legal actions, let an agent seat decide (one decision per job, so the matches of
//! a worker take turns), forget an expired match.
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::Value as Json;
use tokio::sync::oneshot;

use super::error::ApiError;
use super::games::{GameCache, ReadyGame, RulesetEntry};
use super::registry::{MatchData, MatchEntry, Seat};
use super::secret;
use crate::agents::remote::Target;
use crate::agents::{Agent, AgentSpec};
use crate::engine::{wire, Engine, SubmitError};
use crate::ir::game::Submission;
use crate::limits::MAX_SUBMISSIONS;
use crate::model::PlayerIdx;
use crate::replay::SubmissionRecord;

/// Engines a worker keeps, one per game (a match's game is loaded again when its engine was dropped).
const ENGINES: usize = 16;

/// What `POST /matches` asks for, checked against the catalogue.
pub struct CreateRequest {
    pub ruleset: RulesetEntry,
    pub scenario: Option<String>,
    pub set: Vec<(String, Json)>,
    pub seed: u64,
    /// Player to `remote` or an agent spec, as given.
    pub seats: IndexMap<String, String>,
    pub worker: usize,
    pub now_ms: u64,
}

pub type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

pub enum Job {
    Create(Box<CreateRequest>, Reply<Arc<MatchEntry>>),
    /// A remote seat's submission; the reply is the events it caused.
    Submit {
        entry: Arc<MatchEntry>,
        player: PlayerIdx,
        actions: Vec<Json>,
        reply: Reply<Vec<Json>>,
    },
    /// A remote seat's legal actions, in wire form.
    Legal {
        entry: Arc<MatchEntry>,
        player: PlayerIdx,
        reply: Reply<Vec<Json>>,
    },
    /// Let an agent seat that is due decide (one decision).
    Drive(Arc<MatchEntry>),
    /// The match expired: drop its agents.
    Forget(String),
}

struct Worker {
    me: Sender<Job>,
    games: Arc<GameCache>,
    engines: IndexMap<u64, Engine>,
    /// Per match, its agents by seat (`None` for remote seats).
    agents: HashMap<String, Vec<Option<Box<dyn Agent>>>>,
}

/// Runs worker `me`'s jobs until the server stops.
pub fn run(me: Sender<Job>, jobs: Receiver<Job>, games: Arc<GameCache>) {
    let mut w = Worker {
        me,
        games,
        engines: IndexMap::new(),
        agents: HashMap::new(),
    };
    for job in jobs {
        match job {
            Job::Create(req, reply) => {
                let made = w.create(*req);
                let entry = made.as_ref().ok().cloned();
                let delivered = reply.send(made).is_ok();
                if let Some(entry) = entry {
                    if delivered {
                        let _ = w.me.send(Job::Drive(entry));
                    } else {
                        // Nobody waits for it any more (the client went away): nobody will know its id.
                        w.agents.remove(&entry.id);
                    }
                }
            }
            Job::Submit {
                entry,
                player,
                actions,
                reply,
            } => {
                let _ = reply.send(w.submit(&entry, player, actions));
                entry.notify();
                let _ = w.me.send(Job::Drive(entry));
            }
            Job::Legal {
                entry,
                player,
                reply,
            } => {
                let _ = reply.send(w.legal(&entry, player));
            }
            Job::Drive(entry) => {
                if w.drive(&entry) {
                    entry.notify();
                    let _ = w.me.send(Job::Drive(entry));
                }
            }
            Job::Forget(id) => {
                w.agents.remove(&id);
            }
        }
    }
}

/// An engine of `ready`'s game, logging, with nothing left in its log.
fn engine<'a>(
    engines: &'a mut IndexMap<u64, Engine>,
    ready: &ReadyGame,
) -> Result<&'a mut Engine, ApiError> {
    if !engines.contains_key(&ready.key) {
        if engines.len() >= ENGINES {
            engines.shift_remove_index(0);
        }
        let mut e = Engine::with_program(ready.game.clone(), ready.prog.clone())
            .map_err(|e| ApiError::internal(format!("the rules failed: {e}")))?;
        e.set_logging(true);
        engines.insert(ready.key, e);
    }
    let e = engines
        .get_mut(&ready.key)
        .ok_or_else(|| ApiError::internal("no engine"))?;
    e.take_log();
    Ok(e)
}

/// Hands `actions` in for `p` to the live match, records them and returns the events they caused.
fn hand_in(
    engine: &mut Engine,
    d: &mut MatchData,
    p: PlayerIdx,
    actions: Vec<Json>,
) -> Result<Vec<Json>, ApiError> {
    let name = engine.game.players[p as usize].clone();
    if d.submissions.len() >= MAX_SUBMISSIONS {
        let why = format!("no result after {MAX_SUBMISSIONS} submissions (docs/limits.md)");
        d.failed = Some(why.clone());
        return Err(ApiError::conflict("failed", why));
    }
    match engine.submit(&mut d.m, &name, &actions) {
        Ok(()) => {}
        Err(SubmitError::Run(e)) => {
            let why = format!("the rules failed: {e}");
            d.failed = Some(why.clone());
            return Err(ApiError::internal(why));
        }
        Err(e) => return Err(ApiError::conflict("not_your_turn", e.to_string())),
    }
    let events = engine.take_log();
    d.events.extend(events.iter().cloned());
    d.submissions.push(SubmissionRecord::new(name, actions));
    Ok(events)
}

/// Once every due seat of a simultaneous turn has handed in, hands them in to the match in seat order;
/// returns the events (none while a seat is still due).
fn resolve_if_complete(engine: &mut Engine, d: &mut MatchData) -> Result<Vec<Json>, ApiError> {
    let n = engine.game.players.len();
    let complete = (0..n).all(|p| !d.m.state.is_due(p as PlayerIdx) || d.pending[p].is_some());
    let mut events = Vec::new();
    if !complete {
        return Ok(events);
    }
    for p in 0..n {
        if let Some(actions) = d.pending[p].take() {
            if d.m.state.is_due(p as PlayerIdx) && !d.m.state.is_over() {
                events.extend(hand_in(engine, d, p as PlayerIdx, actions)?);
            }
        }
    }
    Ok(events)
}

/// Why `p` may not act now, if it may not.
fn not_due(d: &MatchData, entry: &MatchEntry, p: PlayerIdx) -> Option<ApiError> {
    if let Some(why) = &d.failed {
        return Some(ApiError::conflict(
            "failed",
            format!("the match failed: {why}"),
        ));
    }
    if d.m.state.is_over() {
        return Some(ApiError::conflict("game_over", "the game is over"));
    }
    let g = entry.game();
    if d.pending[p as usize].is_some() {
        return Some(ApiError::conflict(
            "not_your_turn",
            format!(
                "{} has handed in for this turn; the turn resolves once every seat has",
                g.players[p as usize]
            ),
        ));
    }
    if !d.m.state.is_due(p) {
        let due: Vec<&str> = (0..g.players.len())
            .filter(|q| d.awaits(*q as PlayerIdx))
            .map(|q| g.players[q].as_str())
            .collect();
        return Some(ApiError::conflict(
            "not_your_turn",
            format!(
                "it is not {}'s decision (due: {})",
                g.players[p as usize],
                due.join(", ")
            ),
        ));
    }
    None
}

impl Worker {
    fn create(&mut self, req: CreateRequest) -> Result<Arc<MatchEntry>, ApiError> {
        let ready = self
            .games
            .get(&req.ruleset, req.scenario.as_deref(), &req.set)?;
        let game = ready.game.clone();
        if let Some(k) = req.seats.keys().find(|k| game.player_index(k).is_none()) {
            return Err(ApiError::bad_body(format!(
                "seat `{k}` is not a player of `{}` (players: {})",
                game.id,
                game.players.join(", ")
            )));
        }
        let mut seats = Vec::new();
        let mut agents: Vec<Option<Box<dyn Agent>>> = Vec::new();
        for (p, name) in game.players.iter().enumerate() {
            let Some(what) = req.seats.get(name) else {
                return Err(ApiError::bad_body(format!(
                    "no seat for player `{name}`: `seats` names every player, `remote` or an agent"
                )));
            };
            if what == "remote" {
                seats.push(Seat::Remote(secret::token().map_err(ApiError::internal)?));
                agents.push(None);
                continue;
            }
            if Target::parse(what).is_some() {
                return Err(ApiError::bad_body(format!(
                    "seat `{name}`: `{what}` would run a program or call a URL from the server; a bot outside the server plays a `remote` seat"
                )));
            }
            let spec = AgentSpec::new(what, &game)
                .map_err(|e| ApiError::bad_body(format!("seat `{name}`: {e}")))?;
            agents.push(Some(spec.build(req.seed, p as PlayerIdx)));
            seats.push(Seat::Agent(spec.text.clone()));
        }
        let engine = engine(&mut self.engines, &ready)?;
        let m = engine
            .start(req.seed)
            .map_err(|e| ApiError::internal(format!("the rules failed: {e}")))?;
        let events = engine.take_log();
        let data = MatchData {
            m,
            submissions: Vec::new(),
            events,
            pending: vec![None; game.players.len()],
            failed: None,
        };
        let id = secret::match_id().map_err(ApiError::internal)?;
        let entry = Arc::new(MatchEntry::new(
            id.clone(),
            req.worker,
            ready,
            seats,
            data,
            req.now_ms,
        ));
        self.agents.insert(id, agents);
        Ok(entry)
    }

    fn submit(
        &mut self,
        entry: &MatchEntry,
        p: PlayerIdx,
        actions: Vec<Json>,
    ) -> Result<Vec<Json>, ApiError> {
        let mut d = entry.data();
        if let Some(e) = not_due(&d, entry, p) {
            return Err(e);
        }
        let engine = engine(&mut self.engines, &entry.ready)?;
        if entry.game().phase(&d.m.state).submission == Submission::Orders {
            d.pending[p as usize] = Some(actions);
            resolve_if_complete(engine, &mut d)
        } else {
            hand_in(engine, &mut d, p, actions)
        }
    }

    fn legal(&mut self, entry: &MatchEntry, p: PlayerIdx) -> Result<Vec<Json>, ApiError> {
        let mut d = entry.data();
        if let Some(e) = not_due(&d, entry, p) {
            return Err(e);
        }
        let engine = engine(&mut self.engines, &entry.ready)?;
        let mut buf = Vec::new();
        engine
            .legal(&mut d.m, p, &mut buf)
            .map_err(|e| ApiError::internal(format!("the rules failed: {e}")))?;
        Ok(buf
            .iter()
            .map(|a| wire::encode(&engine.game, &d.m.state, a))
            .collect())
    }

    /// Lets one agent seat that is due decide, on a copy of the match (in a simultaneous turn, the turn
    /// start: nothing handed in is applied before the turn resolves), and hands its submission in through
    /// the checked path. Returns whether it did (so there may be more to do).
    fn drive(&mut self, entry: &MatchEntry) -> bool {
        let Some(agents) = self.agents.get_mut(&entry.id) else {
            return false;
        };
        let (p, mut copy) = {
            let d = entry.data();
            let n = entry.game().players.len();
            let Some(p) = (0..n).find(|p| d.awaits(*p as PlayerIdx) && agents[*p].is_some()) else {
                return false;
            };
            (p, d.m.clone())
        };
        let Ok(engine) = engine(&mut self.engines, &entry.ready) else {
            return false;
        };
        let Some(agent) = agents[p].as_mut() else {
            return false;
        };
        let before = copy.state.clone();
        let decided = agent.act(engine, &mut copy, p as PlayerIdx);
        // What the copy logged is not the match's: the live match logs the submission when it arrives.
        engine.take_log();
        let mut d = entry.data();
        let actions = match decided {
            Ok(a) => a,
            Err(e) => {
                d.failed = Some(format!(
                    "the agent of {} failed: {e}",
                    entry.game().players[p]
                ));
                return true;
            }
        };
        // Unit ids never change, so the state after encodes the actions as the state before would.
        let handed: Vec<Json> = actions
            .iter()
            .map(|a| wire::encode(&engine.game, &copy.state, a))
            .collect();
        let result = if entry.game().phase(&d.m.state).submission == Submission::Orders {
            d.pending[p] = Some(handed);
            resolve_if_complete(engine, &mut d)
        } else {
            let r = hand_in(engine, &mut d, p as PlayerIdx, handed);
            if r.is_ok() && d.m.state == before {
                d.failed = Some(format!(
                    "the agent of {} handed in nothing although it has legal actions",
                    entry.game().players[p]
                ));
            }
            r
        };
        if let Err(e) = result {
            d.failed.get_or_insert(e.message);
        }
        true
    }
}
