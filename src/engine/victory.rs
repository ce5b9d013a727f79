//! Victory rules: control of a set, elimination, and limits with ranked tie-breaks.
use serde_json::{Map, Value as Json};

use super::lower::typed::Read;
use super::lower::{CSet, CVictory};
use super::machine::{Machine, RunError};
use crate::ir::game::CheckPoint;
use crate::model::value::ABSENT;
use crate::model::Value;

type R<T> = Result<T, RunError>;

impl Machine<'_> {
    /// Checks the control and elimination rules that apply at this point. Runs after every action, where
    /// most games check none: that case is one test here, without entering the loop's function.
    #[inline(always)]
    pub fn check_victory(&mut self, at: CheckPoint) -> R<()> {
        if self.prog.victory_checked[at as usize] {
            self.check_victory_rules(at)
        } else {
            Ok(())
        }
    }

    /// [`Machine::check_victory`]'s rules: the loop stays small, and each rule's work is its own function.
    fn check_victory_rules(&mut self, at: CheckPoint) -> R<()> {
        let prog = self.prog;
        for rule in &prog.victory {
            if self.st.result.is_some() {
                return Ok(());
            }
            match rule {
                CVictory::Control {
                    cells,
                    named,
                    check,
                    reason,
                } if *check == at => {
                    let winner = match *named {
                        Some(read) => self.holder_of_named_cell(read),
                        None => self.controller(cells)?,
                    };
                    if let Some(p) = winner {
                        self.finish(Some(p), reason, Vec::new());
                    }
                }
                CVictory::Elimination { check, reason } if *check == at => {
                    self.check_elimination(reason)
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The first player owning the cell a cell variable names for them (`cells where it == opponent.home`),
    /// read straight from the state.
    #[inline]
    fn holder_of_named_cell(&mut self, read: Read) -> Option<u8> {
        let saved = self.me;
        let mut winner = None;
        for p in 0..self.game.players.len() as u8 {
            self.me = p;
            if let Some(raw) = read.raw(self) {
                if raw != ABSENT && self.st.owner[raw as usize] == p {
                    winner = Some(p);
                    break;
                }
            }
        }
        self.me = saved;
        winner
    }

    /// The first player who owns every cell of the set (evaluated for each player as `me`), if any.
    #[inline(never)]
    fn controller(&mut self, cells: &CSet) -> R<Option<u8>> {
        let saved = self.me;
        let mut winner = None;
        // A set of one operand: held when that operand is a cell `p` owns (or when it is something other
        // than a cell, as the general loop below would find).
        let one = cells.single();
        for p in 0..self.game.players.len() as u8 {
            self.me = p;
            if let Some(x) = one {
                let held = match cells.single_value(self, x)? {
                    Value::None => false,
                    Value::Cell(c) => self.st.owner[c as usize] == p,
                    _ => true,
                };
                if held {
                    winner = Some(p);
                    break;
                }
                continue;
            }
            let mut any = false;
            let mut all = true;
            cells.each(self, |m, v| {
                any = true;
                if let Value::Cell(c) = v {
                    if m.st.owner[c as usize] != p {
                        all = false;
                        return Ok(false);
                    }
                }
                Ok(true)
            })?;
            if any && all {
                winner = Some(p);
                break;
            }
        }
        self.me = saved;
        Ok(winner)
    }

    /// Ends the game when fewer players than began are left.
    #[inline(never)]
    fn check_elimination(&mut self, reason: &str) {
        let g = self.game;
        // Bit set of players still in the game (at most 8 players): those with a living unit, or in a
        // game without units, those owning a cell.
        let n = g.players.len() as u32;
        // Once every player is seen, nobody is eliminated: most checks stop after a few units.
        let everyone = (1u32 << n) - 1;
        let mut alive = 0u32;
        if g.unit_table.is_some() {
            // The state keeps each player's living units as bits.
            let players = g.players.len();
            for (i, &word) in self.st.living.iter().enumerate() {
                if word != 0 {
                    alive |= 1 << (i % players);
                    if alive == everyone {
                        return;
                    }
                }
            }
        } else {
            for &o in &self.st.owner {
                if o != crate::model::state::NO_OWNER {
                    alive |= 1 << o;
                    if alive == everyone {
                        return;
                    }
                }
            }
        }
        let left = alive.count_ones();
        if left < n {
            match left {
                0 => self.finish(None, reason, Vec::new()),
                1 => self.finish(Some(alive.trailing_zeros() as u8), reason, Vec::new()),
                _ => {}
            }
        }
    }

    /// Checks limit rules after the turn counters moved on.
    pub fn check_limits(&mut self) -> R<()> {
        let (g, prog) = (self.game, self.prog);
        for rule in &prog.victory {
            if self.st.result.is_some() {
                return Ok(());
            }
            let CVictory::Limit {
                when,
                rank,
                report,
                reason,
            } = rule
            else {
                continue;
            };
            if !when(self)? {
                continue;
            }
            let saved = self.me;
            let n = g.players.len();
            let mut keys: Vec<Vec<Value>> = vec![Vec::new(); n];
            for (p, k) in keys.iter_mut().enumerate() {
                self.me = p as u8;
                for e in rank {
                    k.push(e(self)?);
                }
            }
            // The report goes only into the logged `game_end` event: without a log it is still evaluated
            // (an error in it is the same error either way) but not written out.
            let logging = self.logging();
            let mut extra = Vec::new();
            for (name, e) in report {
                let mut m = Map::new();
                for p in 0..n {
                    self.me = p as u8;
                    let v = e(self)?;
                    if logging {
                        m.insert(g.players[p].clone(), self.to_json(v));
                    }
                }
                if logging {
                    extra.push((name.clone(), Json::Object(m)));
                }
            }
            self.me = saved;
            let winner = best(&keys);
            self.finish(winner, reason, extra);
        }
        Ok(())
    }
}

/// The single player with the lexicographically highest keys, or `None` on a tie at the top.
#[allow(clippy::needless_range_loop)] // key position i across players reads clearest indexed
fn best(keys: &[Vec<Value>]) -> Option<u8> {
    let num = |v: &Value| v.as_f64().unwrap_or(f64::NEG_INFINITY);
    let mut candidates: Vec<usize> = (0..keys.len()).collect();
    let depth = keys.first().map_or(0, |k| k.len());
    for i in 0..depth {
        let top = candidates
            .iter()
            .map(|&p| num(&keys[p][i]))
            .fold(f64::NEG_INFINITY, f64::max);
        candidates.retain(|&p| num(&keys[p][i]) == top);
        if candidates.len() == 1 {
            return Some(candidates[0] as u8);
        }
    }
    None
}
