//! The totals of a run of games of one cell: integer counts and sums only, so totals of any split of a
//! cell's games add up to exactly the totals of the whole (means and intervals are computed at the end).
use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use crate::simulate::summary::GameOutcome;

/// Messages of failed games kept per cell (the first ones, in game order); the count covers all.
pub const MAX_ERRORS: usize = 10;

/// Counts and sums over some games of one cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Totals {
    pub games: u64,
    /// Wins per player id, every player of the cell listed, in player order.
    pub wins: IndexMap<String, u64>,
    pub draws: u64,
    /// Games that ended (a win or a draw): the denominator of the means.
    pub finished: u64,
    /// Sum of the final `turn` over finished games (exact: `simulate` sums the same way).
    pub turns: i128,
    /// Sum of the final `ply` over finished games.
    pub plies: i128,
    /// Finished games by final `turn` (what `report` draws as a histogram). Absent in part files of
    /// earlier versions, which then chart no lengths.
    #[serde(default)]
    pub lengths: BTreeMap<i64, u64>,
    /// Finished games by the reason they ended, where the game gave one.
    #[serde(default)]
    pub reasons: BTreeMap<String, u64>,
    pub error_count: u64,
    /// The first [`MAX_ERRORS`] failed games by game index, with their message.
    pub errors: Vec<(u64, String)>,
}

impl Totals {
    /// No games yet, for a cell whose players are `players`.
    pub fn new(players: &[String]) -> Totals {
        Totals {
            games: 0,
            wins: players.iter().map(|p| (p.clone(), 0)).collect(),
            draws: 0,
            finished: 0,
            turns: 0,
            plies: 0,
            lengths: BTreeMap::new(),
            reasons: BTreeMap::new(),
            error_count: 0,
            errors: Vec::new(),
        }
    }

    /// Adds game `index` of the cell, which ended as `o`.
    pub fn add(&mut self, index: u64, o: &GameOutcome) {
        self.games += 1;
        match o.winner {
            Some(Some(p)) => {
                if let Some((_, w)) = self.wins.get_index_mut(p as usize) {
                    *w += 1;
                }
            }
            Some(None) => self.draws += 1,
            None => {}
        }
        if o.winner.is_some() {
            self.finished += 1;
            self.turns += i128::from(o.turns);
            self.plies += i128::from(o.plies);
            *self.lengths.entry(o.turns).or_insert(0) += 1;
            if let Some(r) = &o.reason {
                *self.reasons.entry(r.clone()).or_insert(0) += 1;
            }
        }
        if let Some(e) = &o.error {
            self.error_count += 1;
            self.errors.push((index, e.clone()));
            self.keep_first_errors();
        }
    }

    /// Adds the totals of other games of the same cell (any order: every field is a sum, and the
    /// messages kept are the first by game index).
    pub fn merge(mut self, other: Totals) -> Totals {
        self.games += other.games;
        for (p, w) in other.wins {
            *self.wins.entry(p).or_insert(0) += w;
        }
        self.draws += other.draws;
        self.finished += other.finished;
        self.turns += other.turns;
        self.plies += other.plies;
        for (t, n) in other.lengths {
            *self.lengths.entry(t).or_insert(0) += n;
        }
        for (r, n) in other.reasons {
            *self.reasons.entry(r).or_insert(0) += n;
        }
        self.error_count += other.error_count;
        self.errors.extend(other.errors);
        self.keep_first_errors();
        self
    }

    fn keep_first_errors(&mut self) {
        if self.errors.len() > 1 {
            self.errors.sort_by_key(|(i, _)| *i);
        }
        self.errors.truncate(MAX_ERRORS);
    }

    /// Mean of the final turn over finished games, as `simulate` computes it.
    pub fn mean_turns(&self) -> f64 {
        mean(self.turns, self.finished)
    }

    /// Mean of the final ply over finished games.
    pub fn mean_plies(&self) -> f64 {
        mean(self.plies, self.finished)
    }
}

fn mean(total: i128, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        total as f64 / n as f64
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
            reason: winner.map(|w| if w.is_some() { "win" } else { "cap" }.to_string()),
            error: error.map(str::to_string),
            failures: Vec::new(),
        }
    }

    fn games() -> Vec<GameOutcome> {
        (0..40)
            .map(|i| match i % 5 {
                0 => outcome(Some(Some(0)), i, None),
                1 => outcome(Some(Some(1)), i + 3, None),
                2 => outcome(Some(None), 7, None),
                3 => outcome(None, 0, Some(&format!("boom {i}"))),
                _ => outcome(Some(Some(1)), 2, None),
            })
            .collect()
    }

    #[test]
    fn any_split_adds_up_to_the_whole() {
        let players = vec!["A".to_string(), "B".to_string()];
        let all = games();
        let mut whole = Totals::new(&players);
        for (i, o) in all.iter().enumerate() {
            whole.add(i as u64, o);
        }
        assert_eq!(whole.games, 40);
        assert_eq!(whole.error_count, 8);
        assert_eq!(whole.errors.len(), 8);
        assert_eq!(whole.lengths.values().sum::<u64>(), whole.finished);
        assert_eq!(whole.reasons.get("cap"), Some(&8));
        assert_eq!(whole.reasons.get("win"), Some(&24));
        for cut in [0, 1, 13, 39, 40] {
            let (mut a, mut b) = (Totals::new(&players), Totals::new(&players));
            for (i, o) in all.iter().enumerate() {
                if i < cut { &mut a } else { &mut b }.add(i as u64, o);
            }
            assert_eq!(b.clone().merge(a.clone()), whole);
            assert_eq!(a.merge(b), whole);
        }
    }

    #[test]
    fn keeps_the_first_messages_by_game() {
        let players = vec!["A".to_string()];
        let mut t = Totals::new(&players);
        for i in (0..30).rev() {
            t.add(i, &outcome(None, 0, Some("x")));
        }
        assert_eq!(t.error_count, 30);
        let kept: Vec<u64> = t.errors.iter().map(|(i, _)| *i).collect();
        assert_eq!(kept, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn round_trips_through_json() {
        let players = vec!["A".to_string(), "B".to_string()];
        let mut t = Totals::new(&players);
        for (i, o) in games().iter().enumerate() {
            t.add(i as u64, o);
        }
        t.turns = i128::from(u64::MAX) * 3;
        let text = serde_json::to_string(&t).unwrap();
        let back: Totals = serde_json::from_str(&text).unwrap();
        assert_eq!(back, t);
    }
}
