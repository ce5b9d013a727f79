//! The result of many games: wins per player, draws, means, how long games lasted and how they ended,
//! and what went wrong.
use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::Serialize;

/// How one game ended, as far as statistics care.
#[derive(Debug, Clone, PartialEq)]
pub struct GameOutcome {
    /// `Some(Some(p))` a win for player p, `Some(None)` a draw, `None` not finished (an error).
    pub winner: Option<Option<u8>>,
    pub turns: i64,
    pub plies: i64,
    /// The result's reason (`None` unless finished).
    pub reason: Option<String>,
    pub error: Option<String>,
    pub failures: Vec<String>,
}

/// Totals over all games, in game order so they never depend on the number of threads.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub games: u64,
    pub wins: IndexMap<String, u64>,
    pub draws: u64,
    /// Mean of the final `turn` over finished games.
    pub mean_turns: f64,
    /// Mean of the final `ply` over finished games.
    pub mean_plies: f64,
    /// Finished games by their final `turn` (at most one entry per distinct length, so bounded by the
    /// longest match allowed).
    pub lengths: BTreeMap<i64, u64>,
    /// Finished games by their result's reason.
    pub reasons: BTreeMap<String, u64>,
    /// One message per game that failed to finish, the first [`MAX_MESSAGES`] of them.
    pub errors: Vec<String>,
    /// How many games failed to finish (all of them, also past the messages kept).
    pub error_count: u64,
    /// Problems found by per-step checks (empty unless checking), the first [`MAX_MESSAGES`].
    pub check_failures: Vec<String>,
    /// How many problems the per-step checks found.
    pub check_failure_count: u64,
}

/// Most messages kept per kind: a broken ruleset fails every game the same way, and a billion copies of
/// one message would only fill memory.
pub const MAX_MESSAGES: usize = 1_000;

/// Adds games up one at a time, in game order, in constant memory.
#[derive(Debug, Clone)]
pub struct Tally {
    players: Vec<String>,
    summary: Summary,
    finished: u64,
    turns: i128,
    plies: i128,
}

impl Tally {
    pub fn new(players: &[String]) -> Self {
        Tally {
            players: players.to_vec(),
            summary: Summary {
                games: 0,
                wins: players.iter().map(|p| (p.clone(), 0)).collect(),
                draws: 0,
                mean_turns: 0.0,
                mean_plies: 0.0,
                lengths: BTreeMap::new(),
                reasons: BTreeMap::new(),
                errors: Vec::new(),
                error_count: 0,
                check_failures: Vec::new(),
                check_failure_count: 0,
            },
            finished: 0,
            turns: 0,
            plies: 0,
        }
    }

    /// Adds game `i`; games must come in order for the messages to be.
    pub fn add(&mut self, i: u64, o: &GameOutcome) {
        let s = &mut self.summary;
        s.games += 1;
        match o.winner {
            Some(Some(p)) => {
                if let Some(w) = self.players.get(p as usize).and_then(|n| s.wins.get_mut(n)) {
                    *w += 1;
                }
            }
            Some(None) => s.draws += 1,
            None => {}
        }
        if o.winner.is_some() {
            self.finished += 1;
            self.turns += o.turns as i128;
            self.plies += o.plies as i128;
            *s.lengths.entry(o.turns).or_insert(0) += 1;
            if let Some(r) = &o.reason {
                *s.reasons.entry(r.clone()).or_insert(0) += 1;
            }
        }
        if let Some(e) = &o.error {
            s.error_count += 1;
            if s.errors.len() < MAX_MESSAGES {
                s.errors.push(format!("game {i}: {e}"));
            }
        }
        s.check_failure_count += o.failures.len() as u64;
        for f in &o.failures {
            if s.check_failures.len() < MAX_MESSAGES {
                s.check_failures.push(format!("game {i}: {f}"));
            }
        }
    }

    pub fn finish(mut self) -> Summary {
        let finished = self.finished;
        let mean = |total: i128| {
            if finished == 0 {
                0.0
            } else {
                total as f64 / finished as f64
            }
        };
        self.summary.mean_turns = mean(self.turns);
        self.summary.mean_plies = mean(self.plies);
        self.summary
    }
}

impl Summary {
    /// Adds up `outcomes` (game i at index i) for a game with `players`.
    pub fn from_outcomes(players: &[String], outcomes: &[GameOutcome]) -> Self {
        let mut tally = Tally::new(players);
        for (i, o) in outcomes.iter().enumerate() {
            tally.add(i as u64, o);
        }
        tally.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(winner: Option<Option<u8>>, turns: i64, error: Option<&str>) -> GameOutcome {
        GameOutcome {
            winner,
            turns,
            plies: 2 * turns,
            reason: winner.map(|_| "end".to_string()),
            error: error.map(str::to_string),
            failures: Vec::new(),
        }
    }

    #[test]
    fn adds_up_in_game_order() {
        let players = vec!["A".to_string(), "B".to_string()];
        let s = Summary::from_outcomes(
            &players,
            &[
                outcome(Some(Some(1)), 10, None),
                outcome(Some(None), 20, None),
                outcome(None, 0, Some("boom")),
                outcome(Some(Some(1)), 30, None),
            ],
        );
        assert_eq!(s.games, 4);
        assert_eq!(s.wins.get("A"), Some(&0));
        assert_eq!(s.wins.get("B"), Some(&2));
        assert_eq!(s.draws, 1);
        assert_eq!(s.mean_turns, 20.0);
        assert_eq!(s.mean_plies, 40.0);
        assert_eq!(s.lengths, BTreeMap::from([(10, 1), (20, 1), (30, 1)]));
        assert_eq!(s.reasons, BTreeMap::from([("end".to_string(), 3)]));
        assert_eq!(s.errors, vec!["game 2: boom".to_string()]);
        assert_eq!(s.wins.keys().collect::<Vec<_>>(), vec!["A", "B"]);
    }
}
