//! Round robins: every pair of agents plays `games_per_pair` games in each seating on the simulate pool;
//! game g of pair k is seeded from (seed, k, g) alone (both seatings of a game share the seed, so each
//! agent meets the same dice from both seats), so results never depend on the number of threads. Ratings
//! are a Bradley-Terry fit of all results ([`super::ratings`]).
use std::sync::Arc;

use rayon::prelude::*;

use super::pool::{one_game, worker_pool, Worker};
use super::ratings::{bradley_terry, Rating};
use super::summary::MAX_MESSAGES;
use crate::agents::AgentSpec;
use crate::rng::game_seed;
use crate::ruleset::Game;

/// Most games one tournament plays.
pub const MAX_TOURNAMENT_GAMES: u64 = 1 << 32;

pub struct TournamentConfig<'a> {
    /// Agent specs, `NAME[:key=value,...]`, all different.
    pub agents: Vec<String>,
    pub games_per_pair: u64,
    pub seed: u64,
    pub jobs: usize,
    /// Called once after each game (from worker threads).
    pub progress: Option<&'a (dyn Fn() + Sync)>,
}

/// Results of one pair, `a` listed before `b`.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    /// Games that finished (failed ones are in `errors`).
    pub games: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
}

/// Totals of one agent over all its games.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentResult {
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub rating: Rating,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TournamentResult {
    pub agents: Vec<AgentResult>,
    pub pairs: Vec<PairResult>,
    /// The first [`MAX_MESSAGES`] messages of games that failed.
    pub errors: Vec<String>,
    pub error_count: u64,
}

/// The seed of game `g` (both seatings) of pair `pair`.
pub fn pair_game_seed(seed: u64, pair: u64, g: u64) -> u64 {
    game_seed(game_seed(seed, pair), g)
}

/// Every pair (i, j), i < j, in order.
fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

/// Plays the round robin of `cfg` on `game` (a two-player game).
pub fn tournament(game: &Arc<Game>, cfg: &TournamentConfig) -> Result<TournamentResult, String> {
    if game.players.len() != 2 {
        return Err(format!(
            "a tournament seats two players, but this game has {}",
            game.players.len()
        ));
    }
    if cfg.agents.len() < 2 {
        return Err("a tournament needs at least two agents".into());
    }
    let specs = cfg
        .agents
        .iter()
        .map(|a| AgentSpec::new(a, game))
        .collect::<Result<Vec<_>, _>>()?;
    tournament_specs(game, cfg, &specs)
}

/// [`tournament`] with the agents given as checked specs (`cfg.agents` is not read).
pub fn tournament_specs(
    game: &Arc<Game>,
    cfg: &TournamentConfig,
    specs: &[AgentSpec],
) -> Result<TournamentResult, String> {
    if specs.len() < 2 {
        return Err("a tournament needs at least two agents".into());
    }
    for (i, s) in specs.iter().enumerate() {
        if specs[..i].iter().any(|t| t.text == s.text) {
            return Err(format!(
                "agent `{}` is listed twice (give it different keys to compare settings)",
                s.text
            ));
        }
    }
    let pairs = pairs(specs.len());
    let total = (pairs.len() as u64)
        .checked_mul(cfg.games_per_pair)
        .and_then(|x| x.checked_mul(2))
        .filter(|t| *t <= MAX_TOURNAMENT_GAMES)
        .ok_or_else(|| {
            format!("more than {MAX_TOURNAMENT_GAMES} games: fewer agents or fewer games per pair")
        })?;
    let pool = worker_pool(cfg.jobs)?;
    // Job j: pair j / (2N), game (j % 2N) / 2, seating j % 2 (0: a is the first player).
    let per_pair = 2 * cfg.games_per_pair;
    let outcomes: Vec<_> = pool.install(|| {
        (0..total)
            .into_par_iter()
            .map_init(
                || Worker::new(game.clone()),
                |worker, j| {
                    let (k, g, swap) = (j / per_pair, (j % per_pair) / 2, j % 2 == 1);
                    let (a, b) = pairs[k as usize];
                    let seats = if swap {
                        [&specs[b], &specs[a]]
                    } else {
                        [&specs[a], &specs[b]]
                    };
                    let seed = pair_game_seed(cfg.seed, k, g);
                    let o = one_game(worker, &seats, seed, false);
                    if let Some(tick) = cfg.progress {
                        tick();
                    }
                    (o, seed)
                },
            )
            .collect()
    });
    let n = specs.len();
    let mut results: Vec<PairResult> = pairs
        .iter()
        .map(|&(a, b)| PairResult {
            a,
            b,
            games: 0,
            a_wins: 0,
            b_wins: 0,
            draws: 0,
        })
        .collect();
    let mut errors = Vec::new();
    let mut error_count = 0;
    for (j, (o, seed)) in outcomes.iter().enumerate() {
        let (k, swap) = (j as u64 / per_pair, j % 2 == 1);
        let r = &mut results[k as usize];
        match (o.winner, &o.error) {
            (Some(w), None) => {
                r.games += 1;
                // Seat 0 is `a` unless the seating is swapped.
                match w.map(|p| (p == 0) != swap) {
                    Some(true) => r.a_wins += 1,
                    Some(false) => r.b_wins += 1,
                    None => r.draws += 1,
                }
            }
            _ => {
                error_count += 1;
                if errors.len() < MAX_MESSAGES {
                    let (a, b) = pairs[k as usize];
                    let (first, second) = if swap { (b, a) } else { (a, b) };
                    errors.push(format!(
                        "{} vs {} (seed {seed}): {}",
                        specs[first].text,
                        specs[second].text,
                        o.error.as_deref().unwrap_or("the game did not finish")
                    ));
                }
            }
        }
    }
    let mut games = vec![vec![0.0; n]; n];
    let mut score = vec![vec![0.0; n]; n];
    let mut agents: Vec<AgentResult> = specs
        .iter()
        .map(|s| AgentResult {
            name: s.text.clone(),
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            rating: Rating {
                rating: 0.0,
                low: 0.0,
                high: 0.0,
            },
        })
        .collect();
    for r in &results {
        games[r.a][r.b] += r.games as f64;
        games[r.b][r.a] += r.games as f64;
        score[r.a][r.b] += r.a_wins as f64 + 0.5 * r.draws as f64;
        score[r.b][r.a] += r.b_wins as f64 + 0.5 * r.draws as f64;
        for (i, wins, losses) in [(r.a, r.a_wins, r.b_wins), (r.b, r.b_wins, r.a_wins)] {
            let s = &mut agents[i];
            s.games += r.games;
            s.wins += wins;
            s.losses += losses;
            s.draws += r.draws;
        }
    }
    for (s, rating) in agents.iter_mut().zip(bradley_terry(&games, &score)) {
        s.rating = rating;
    }
    Ok(TournamentResult {
        agents,
        pairs: results,
        errors,
        error_count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_in_order() {
        assert_eq!(pairs(3), vec![(0, 1), (0, 2), (1, 2)]);
        assert!(pairs(1).is_empty());
    }
}
