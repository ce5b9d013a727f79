//! The matches a server holds: each one's shared record (its match, submissions, events and the orders
//! held back until a simultaneous turn is complete), its seats' tokens, its worker, and the limits on how
//! many there are and how long an idle one is kept.
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};
use tokio::sync::watch;

use super::error::ApiError;
use super::games::{GameCache, ReadyGame, RulesetEntry};
use super::secret;
use super::worker::Job;
use crate::engine::state_json::{state_json, state_view, Viewer};
use crate::engine::Match;
use crate::ir::game::Game;
use crate::model::PlayerIdx;
use crate::replay::record::{Replay, ResultRecord, RulesetRef, FORMAT, VERSION};
use crate::replay::SubmissionRecord;

/// The limits of a server (`arbiter serve` flags).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Matches held at once (ongoing or finished, until they expire); more is 429.
    pub max_matches: usize,
    /// A match nobody has touched for this long is dropped, with its replay.
    pub idle: Duration,
    /// The largest request body; more is 413.
    pub max_body: usize,
}

/// What a seat is: a remote player with a token, or an agent on the server.
#[derive(Clone, Debug)]
pub enum Seat {
    Remote(String),
    Agent(String),
}

/// What changes as a match is played (behind the entry's lock).
pub struct MatchData {
    pub m: Match,
    pub submissions: Vec<SubmissionRecord>,
    pub events: Vec<Json>,
    /// Simultaneous turns: what each seat has handed in, held back (and shown to nobody) until every due
    /// seat has; then handed in to the match in seat order.
    pub pending: Vec<Option<Vec<Json>>>,
    /// Why the match cannot go on (the rules or a server-side agent failed).
    pub failed: Option<String>,
}

impl MatchData {
    /// Whether seat `p` is expected to hand something in now.
    pub fn awaits(&self, p: PlayerIdx) -> bool {
        self.failed.is_none()
            && !self.m.state.is_over()
            && self.m.state.is_due(p)
            && self.pending[p as usize].is_none()
    }
}

/// One match on the server.
pub struct MatchEntry {
    pub id: String,
    /// The worker thread that plays it (agents and engines live there).
    pub worker: usize,
    pub ready: Arc<ReadyGame>,
    pub seats: Vec<Seat>,
    data: Mutex<MatchData>,
    /// Bumped after every change, for long-polling.
    pub changed: watch::Sender<u64>,
    /// When it was last touched, in milliseconds since the server started.
    touched: AtomicU64,
}

impl MatchEntry {
    pub fn new(
        id: String,
        worker: usize,
        ready: Arc<ReadyGame>,
        seats: Vec<Seat>,
        data: MatchData,
        now_ms: u64,
    ) -> Self {
        MatchEntry {
            id,
            worker,
            ready,
            seats,
            data: Mutex::new(data),
            changed: watch::Sender::new(0),
            touched: AtomicU64::new(now_ms),
        }
    }

    pub fn game(&self) -> &Game {
        &self.ready.game
    }

    pub fn data(&self) -> MutexGuard<'_, MatchData> {
        self.data.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Wakes everybody waiting for news of this match.
    pub fn notify(&self) {
        self.changed.send_modify(|v| *v += 1);
    }

    pub fn touch(&self, now_ms: u64) {
        self.touched.fetch_max(now_ms, Ordering::Relaxed);
    }

    /// The seat whose token `token` is (compared in constant time with every seat's).
    pub fn seat_of(&self, token: &str) -> Option<PlayerIdx> {
        let mut found = None;
        for (p, seat) in self.seats.iter().enumerate() {
            if let Seat::Remote(t) = seat {
                if secret::same(t, token) {
                    found = Some(p as PlayerIdx);
                }
            }
        }
        found
    }

    /// `GET /matches/{id}`.
    pub fn status_json(&self) -> Json {
        let d = self.data();
        let g = self.game();
        let status = if d.failed.is_some() {
            "failed"
        } else if d.m.state.is_over() {
            "finished"
        } else {
            "ongoing"
        };
        let active: Vec<&str> = (0..g.players.len())
            .filter(|p| d.awaits(*p as PlayerIdx))
            .map(|p| g.players[p].as_str())
            .collect();
        let seats: serde_json::Map<String, Json> = g
            .players
            .iter()
            .zip(&self.seats)
            .map(|(p, s)| {
                let what = match s {
                    Seat::Remote(_) => "remote".to_string(),
                    Seat::Agent(a) => a.clone(),
                };
                (p.clone(), Json::String(what))
            })
            .collect();
        let mut v = json!({
            "id": self.id,
            "status": status,
            "active": active,
            "turn": d.m.state.turn,
            "ply": d.m.state.ply,
            "result": ResultRecord::of(g, &d.m.state),
            "seats": seats,
        });
        if let Some(why) = &d.failed {
            v["error"] = json!(why);
        }
        v
    }

    /// The state as `viewer` may see it; `None` shows what every player may see.
    pub fn state_json(&self, viewer: Option<PlayerIdx>) -> Json {
        let d = self.data();
        match viewer {
            Some(p) => state_view(self.game(), &d.m.state, Viewer::Player(p)),
            // A viewer who is none of the players sees only what is shown to everybody.
            None if hides_anything(self.game()) && !d.m.state.is_over() => {
                state_view(self.game(), &d.m.state, Viewer::Player(PlayerIdx::MAX))
            }
            None => state_json(self.game(), &d.m.state),
        }
    }

    /// The replay of section 5 as the match stands.
    pub fn replay_json(&self) -> Json {
        let d = self.data();
        let g = self.game();
        let replay = Replay {
            format: FORMAT,
            version: VERSION,
            ruleset: RulesetRef {
                id: g.id.clone(),
                version: g.version.clone(),
                digest: g.digest.clone(),
            },
            scenario: g.scenario.clone(),
            seed: d.m.seed,
            settings: g.settings.clone(),
            overrides: g.rule_overrides.iter().cloned().collect(),
            submissions: d.submissions.clone(),
            events: d.events.clone(),
            result: ResultRecord::of(g, &d.m.state),
            state: state_json(g, &d.m.state),
            legal: None,
            faults: Vec::new(),
        };
        replay.to_json()
    }
}

/// Whether a game keeps anything from some player (a variable shown only to its owner).
pub fn hides_anything(g: &Game) -> bool {
    g.player_vars
        .iter()
        .chain(&g.cell_vars)
        .chain(&g.unit_vars)
        .any(|d| d.owner_only && !d.hidden)
}

/// Every match of a server, the catalogue, the games, and the workers.
pub struct Registry {
    pub catalogue: Vec<RulesetEntry>,
    pub games: Arc<GameCache>,
    pub limits: Limits,
    matches: Mutex<HashMap<String, Arc<MatchEntry>>>,
    /// Matches held or being created: what the limit counts.
    held: AtomicUsize,
    workers: Vec<Sender<Job>>,
    next_worker: AtomicUsize,
    started: Instant,
}

/// A place for one more match, given back unless the match is kept.
pub struct Slot<'a> {
    registry: &'a Registry,
    kept: bool,
}

impl Slot<'_> {
    pub fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if !self.kept {
            self.registry.held.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

impl Registry {
    pub fn new(
        catalogue: Vec<RulesetEntry>,
        games: Arc<GameCache>,
        limits: Limits,
        workers: Vec<Sender<Job>>,
    ) -> Self {
        Registry {
            catalogue,
            games,
            limits,
            matches: Mutex::new(HashMap::new()),
            held: AtomicUsize::new(0),
            workers,
            next_worker: AtomicUsize::new(0),
            started: Instant::now(),
        }
    }

    /// Milliseconds since the server started.
    pub fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<MatchEntry>>> {
        self.matches.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for a new match, or 429 when the server holds as many as it may.
    pub fn reserve(&self) -> Result<Slot<'_>, ApiError> {
        let before = self.held.fetch_add(1, Ordering::AcqRel);
        let slot = Slot {
            registry: self,
            kept: false,
        };
        if before >= self.limits.max_matches {
            return Err(ApiError::too_many_matches(self.limits.max_matches));
        }
        Ok(slot)
    }

    /// The worker for the next new match (round robin).
    pub fn pick_worker(&self) -> usize {
        self.next_worker.fetch_add(1, Ordering::Relaxed) % self.workers.len()
    }

    /// Hands `job` to worker `w`.
    pub fn send(&self, w: usize, job: Job) -> Result<(), ApiError> {
        self.workers[w]
            .send(job)
            .map_err(|_| ApiError::internal("the server's worker has stopped"))
    }

    pub fn insert(&self, entry: Arc<MatchEntry>, slot: Slot<'_>) {
        self.lock().insert(entry.id.clone(), entry);
        slot.keep();
    }

    /// The match `id`, touched; 404 when there is none (or it expired).
    pub fn get(&self, id: &str) -> Result<Arc<MatchEntry>, ApiError> {
        let entry =
            self.lock().get(id).cloned().ok_or_else(|| {
                ApiError::not_found(format!("no match `{id}` (or it has expired)"))
            })?;
        entry.touch(self.now_ms());
        Ok(entry)
    }

    /// Drops every match idle for longer than the limit (its worker forgets its agents); returns how many.
    pub fn expire(&self) -> usize {
        let now = self.now_ms();
        let idle = self.limits.idle.as_millis() as u64;
        let gone: Vec<Arc<MatchEntry>> = {
            let mut matches = self.lock();
            let old: Vec<String> = matches
                .iter()
                .filter(|(_, e)| now.saturating_sub(e.touched.load(Ordering::Relaxed)) > idle)
                .map(|(id, _)| id.clone())
                .collect();
            old.iter().filter_map(|id| matches.remove(id)).collect()
        };
        for e in &gone {
            self.held.fetch_sub(1, Ordering::AcqRel);
            let _ = self.send(e.worker, Job::Forget(e.id.clone()));
            e.notify();
        }
        gone.len()
    }

    /// Matches held now.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Acquire)
    }
}
