//! The result of many games: wins per player, draws, means, and what went wrong.
use indexmap::IndexMap;
use serde::Serialize;

/// How one game ended, as far as statistics care.
#[derive(Debug, Clone, PartialEq)]
pub struct GameOutcome {
    /// `Some(Some(p))` a win for player p, `Some(None)` a draw, `None` not finished (an error).
    pub winner: Option<Option<u8>>,
    pub turns: i64,
    pub plies: i64,
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
    /// One message per game that failed to finish.
    pub errors: Vec<String>,
    /// Problems found by per-step checks (empty unless checking).
    pub check_failures: Vec<String>,
}

impl Summary {
    /// Adds up `outcomes` (game i at index i) for a game with `players`.
    pub fn from_outcomes(players: &[String], outcomes: &[GameOutcome]) -> Self {
        let mut wins: IndexMap<String, u64> = players.iter().map(|p| (p.clone(), 0)).collect();
        let (mut draws, mut finished, mut turns, mut plies) = (0, 0u64, 0i128, 0i128);
        let mut errors = Vec::new();
        let mut check_failures = Vec::new();
        for (i, o) in outcomes.iter().enumerate() {
            match o.winner {
                Some(Some(p)) => {
                    if let Some(w) = players.get(p as usize).and_then(|name| wins.get_mut(name)) {
                        *w += 1;
                    }
                }
                Some(None) => draws += 1,
                None => {}
            }
            if o.winner.is_some() {
                finished += 1;
                turns += o.turns as i128;
                plies += o.plies as i128;
            }
            if let Some(e) = &o.error {
                errors.push(format!("game {i}: {e}"));
            }
            check_failures.extend(o.failures.iter().map(|f| format!("game {i}: {f}")));
        }
        let mean = |total: i128| {
            if finished == 0 {
                0.0
            } else {
                total as f64 / finished as f64
            }
        };
        Summary {
            games: outcomes.len() as u64,
            wins,
            draws,
            mean_turns: mean(turns),
            mean_plies: mean(plies),
            errors,
            check_failures,
        }
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
        assert_eq!(s.errors, vec!["game 2: boom".to_string()]);
        assert_eq!(s.wins.keys().collect::<Vec<_>>(), vec!["A", "B"]);
    }
}
