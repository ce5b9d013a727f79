//! Many games in parallel: a rayon pool of `jobs` threads with deep stacks (scripts recurse), one engine per
//! worker, game i seeded from (seed, i) alone.
use std::sync::Arc;

use rayon::prelude::*;

use super::play::{play_match, PlayOptions};
use super::summary::{GameOutcome, Summary, Tally};
use crate::agents::{Agent, AgentSpec};
use crate::engine::{Engine, RunError};
use crate::rng::game_seed;
use crate::ruleset::Game;

/// Stack of every worker thread.
pub const WORKER_STACK: usize = 16 << 20;

/// What to simulate.
pub struct SimConfig<'a> {
    /// Agent name per player, in player order.
    pub agents: Vec<String>,
    pub games: u64,
    pub seed: u64,
    pub jobs: usize,
    /// Run the per-step checks.
    pub check: bool,
    /// Called once after each game (from worker threads).
    pub progress: Option<&'a (dyn Fn() + Sync)>,
}

/// What a worker thread keeps from one game to the next: its engine, and the agents of the last game
/// (with the spec each was built from), restarted in place for the next game when they can be.
pub struct Worker {
    engine: Result<Engine, RunError>,
    agents: Vec<Box<dyn Agent>>,
    /// The spec each agent was built from.
    built_from: Vec<*const AgentSpec>,
}

impl Worker {
    pub fn new(game: Arc<Game>) -> Worker {
        Worker {
            engine: Engine::new(game),
            agents: Vec::new(),
            built_from: Vec::new(),
        }
    }

    /// The agents for a game seeded with `seed` between `specs` (in seat order): each seat's agent of
    /// the last game restarted when it was built from the same spec and can restart, else a new one.
    fn seat(&mut self, specs: &[&AgentSpec], seed: u64) {
        self.agents.truncate(specs.len());
        self.built_from.truncate(specs.len());
        for (p, spec) in specs.iter().enumerate() {
            let key: *const AgentSpec = *spec;
            if p == self.agents.len() {
                self.agents.push(spec.build(seed, p as u8));
                self.built_from.push(key);
            } else if self.built_from[p] != key || !self.agents[p].restart(seed, p as u8) {
                self.agents[p] = spec.build(seed, p as u8);
                self.built_from[p] = key;
            }
        }
    }
}

/// Plays one game seeded with `seed` between `specs` (in seat order).
pub fn one_game(worker: &mut Worker, specs: &[&AgentSpec], seed: u64, check: bool) -> GameOutcome {
    let fail = |e: String| GameOutcome {
        winner: None,
        turns: 0,
        plies: 0,
        reason: None,
        error: Some(e),
        failures: Vec::new(),
    };
    worker.seat(specs, seed);
    let Worker { engine, agents, .. } = worker;
    let engine = match engine {
        Ok(e) => e,
        Err(e) => return fail(e.to_string()),
    };
    let opts = PlayOptions {
        record: false,
        check,
    };
    match play_match(engine, agents, seed, opts) {
        Ok(played) => {
            let outcome = GameOutcome {
                winner: played.m.state.result.as_ref().map(|r| r.winner),
                turns: played.m.state.turn,
                plies: played.m.state.ply,
                reason: played.m.state.result.as_ref().map(|r| r.reason.to_string()),
                error: None,
                failures: played.failures,
            };
            // The next game on this thread starts in the same memory.
            engine.recycle(played.m);
            outcome
        }
        Err(e) => {
            // An agent that failed may be mid-decision: the next game builds new ones.
            agents.clear();
            fail(format!("seed {seed}: {e}"))
        }
    }
}

/// Most games one `simulate` plays: counts and means stay exact in a double up to 2^53.
pub const MAX_GAMES: u64 = 1 << 53;
/// Games played between two additions to the totals.
const CHUNK: u64 = 4_096;

/// Plays `cfg.games` games of `game` and adds them up.
pub fn simulate(game: &Arc<Game>, cfg: &SimConfig) -> Result<Summary, String> {
    if cfg.agents.len() != game.players.len() {
        return Err(format!(
            "{} agents given for {} players",
            cfg.agents.len(),
            game.players.len()
        ));
    }
    let specs = cfg
        .agents
        .iter()
        .map(|a| AgentSpec::new(a, game))
        .collect::<Result<Vec<_>, _>>()?;
    simulate_specs(game, cfg, &specs)
}

/// [`simulate`] with the agents given as checked specs (`cfg.agents` is not read): agents outside the
/// process with a deadline and fallback of their own, say.
pub fn simulate_specs(
    game: &Arc<Game>,
    cfg: &SimConfig,
    specs: &[AgentSpec],
) -> Result<Summary, String> {
    if specs.len() != game.players.len() {
        return Err(format!(
            "{} agents given for {} players",
            specs.len(),
            game.players.len()
        ));
    }
    let seats: Vec<&AgentSpec> = specs.iter().collect();
    let pool = worker_pool(cfg.jobs)?;
    if cfg.games > MAX_GAMES {
        return Err(format!(
            "--games {} is more than {MAX_GAMES} (2^53), the most whose counts stay exact",
            cfg.games
        ));
    }
    // Games are played in chunks and added up in game order, so memory stays constant however many
    // games are asked for and the totals never depend on the number of threads.
    let mut tally = Tally::new(&game.players);
    let mut next = 0u64;
    while next < cfg.games {
        let end = next.saturating_add(CHUNK).min(cfg.games);
        let outcomes: Vec<GameOutcome> = pool.install(|| {
            (next..end)
                .into_par_iter()
                .map_init(
                    || Worker::new(game.clone()),
                    |worker, i| {
                        let o = one_game(worker, &seats, game_seed(cfg.seed, i), cfg.check);
                        if let Some(tick) = cfg.progress {
                            tick();
                        }
                        o
                    },
                )
                .collect()
        });
        for (k, o) in outcomes.iter().enumerate() {
            tally.add(next + k as u64, o);
        }
        next = end;
    }
    Ok(tally.finish())
}

/// A pool of `jobs` worker threads with deep stacks.
pub fn worker_pool(jobs: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .stack_size(WORKER_STACK)
        .build()
        .map_err(|e| format!("cannot start worker threads: {e}"))
}
