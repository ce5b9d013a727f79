//! The mutable state of one match: counters, player, cell and unit variables, and the result once decided.
use std::sync::Arc;

use super::value::{PlayerIdx, UnitIdx};
use crate::board::CellId;

/// `owner` of a cell that nobody owns.
pub const NO_OWNER: u8 = u8::MAX;
/// `occupant` of a cell without a unit.
pub const NO_UNIT: u32 = u32::MAX;

/// How a finished match ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// `None` is a draw.
    pub winner: Option<PlayerIdx>,
    pub reason: Arc<str>,
}

/// One unit slot. Destroyed units keep their slot (alive = false) so indices stay stable.
#[derive(Debug, PartialEq)]
pub struct UnitState {
    pub id: Arc<str>,
    /// Row of the unit-type table.
    pub kind: u16,
    pub owner: PlayerIdx,
    pub at: CellId,
    pub alive: bool,
}

impl Clone for UnitState {
    fn clone(&self) -> Self {
        UnitState {
            id: self.id.clone(),
            ..*self
        }
    }

    /// A unit copied over the same unit (as between copies of one match) keeps its id: no reference count
    /// moves.
    fn clone_from(&mut self, s: &Self) {
        if !Arc::ptr_eq(&self.id, &s.id) {
            self.id = s.id.clone();
        }
        self.kind = s.kind;
        self.owner = s.owner;
        self.at = s.at;
        self.alive = s.alive;
    }
}

/// Everything that changes during a match. Variable storage is flat: `vars[entity * slots + slot]`.
#[derive(Debug, Default, PartialEq)]
pub struct MatchState {
    /// Round counter as the ruleset defines it (`turn` in state JSON).
    pub turn: i64,
    /// Player-turns played so far.
    pub ply: i64,
    /// Index of the current phase of the flow.
    pub phase: u16,
    /// Rounds completed in the current phase.
    pub phase_round: i64,
    /// The player whose turn it is (alternating phases).
    pub active: PlayerIdx,
    /// Bit set of players still due to submit in the current turn.
    pub due: u32,
    /// What is left of the current player-turn's budget (batch slots or action points).
    pub points: i64,
    /// Whether the current player-turn has ended and the next one has not started yet.
    pub turn_over: bool,
    /// The current stage of the player-turn, in a phase with stages (0 otherwise).
    pub stage: u16,
    pub player_vars: Vec<i64>,
    /// Owner of each cell. Written only through [`MatchState::set_owner`], which keeps `owner_bits` in step.
    pub owner: Vec<u8>,
    /// The cells each player owns as bits: word `w` of player `p` is `owner_bits[p * words + w]`.
    pub owner_bits: Vec<u64>,
    pub cell_vars: Vec<i64>,
    pub units: Vec<UnitState>,
    pub unit_vars: Vec<i64>,
    /// The unit on each cell. Written only through [`MatchState::set_occupant`] (keeps `occupied_bits`).
    pub occupant: Vec<u32>,
    /// The cells holding a unit as bits.
    pub occupied_bits: Vec<u64>,
    /// The cells holding a unit of each player as bits: word `w` of player `p` is `unit_bits[p * words + w]`.
    pub unit_bits: Vec<u64>,
    /// Units ever created per player (numbers recruited unit ids).
    pub units_created: Vec<u32>,
    /// The living units of each player as bits over unit indices: word `w` of player `p` is
    /// `living[w * players + p]` (a new unit's word is added for every player at once). Written only
    /// through [`MatchState::add_unit`] and [`MatchState::kill_unit`], so a walk over one player's units
    /// visits those alone, in index order.
    pub living: Vec<u64>,
    pub result: Option<GameResult>,
}

/// Copies for lookahead and fair turns: `clone_from` reuses the target's memory, so a search that copies
/// the same-sized state again and again does not allocate.
impl Clone for MatchState {
    fn clone(&self) -> Self {
        let mut c = MatchState::default();
        c.clone_from(self);
        c
    }

    fn clone_from(&mut self, s: &Self) {
        self.turn = s.turn;
        self.ply = s.ply;
        self.phase = s.phase;
        self.phase_round = s.phase_round;
        self.active = s.active;
        self.due = s.due;
        self.points = s.points;
        self.turn_over = s.turn_over;
        self.stage = s.stage;
        copy_vec(&mut self.player_vars, &s.player_vars);
        copy_vec(&mut self.owner, &s.owner);
        copy_vec(&mut self.owner_bits, &s.owner_bits);
        copy_vec(&mut self.occupied_bits, &s.occupied_bits);
        copy_vec(&mut self.unit_bits, &s.unit_bits);
        copy_vec(&mut self.cell_vars, &s.cell_vars);
        self.units.clone_from(&s.units);
        copy_vec(&mut self.unit_vars, &s.unit_vars);
        copy_vec(&mut self.occupant, &s.occupant);
        copy_vec(&mut self.units_created, &s.units_created);
        copy_vec(&mut self.living, &s.living);
        self.result.clone_from(&s.result);
    }
}

/// `from` copied into `to` with one copy of memory at most (`Vec::clone_from` copies the common part and
/// then extends by the rest, two calls even when the lengths agree, as they do between copies of one
/// game's states).
#[inline]
fn copy_vec<T: Copy>(to: &mut Vec<T>, from: &[T]) {
    if to.len() == from.len() {
        if !from.is_empty() {
            to.copy_from_slice(from);
        }
    } else {
        to.clear();
        to.extend_from_slice(from);
    }
}

impl MatchState {
    /// Words of 64 cells in the bit sets.
    #[inline]
    pub fn words(&self) -> usize {
        self.occupied_bits.len()
    }

    /// Gives cell `c` to player `p` (or nobody, [`NO_OWNER`]).
    #[inline]
    pub fn set_owner(&mut self, c: CellId, p: u8) {
        let words = self.words();
        let (w, bit) = (c as usize / 64, 1u64 << (c % 64));
        let old = self.owner[c as usize];
        if old != NO_OWNER {
            self.owner_bits[old as usize * words + w] &= !bit;
        }
        if p != NO_OWNER {
            self.owner_bits[p as usize * words + w] |= bit;
        }
        self.owner[c as usize] = p;
    }

    /// Puts unit `u` (already in `units`) on cell `c`, or nothing ([`NO_UNIT`]).
    #[inline]
    pub fn set_occupant(&mut self, c: CellId, u: u32) {
        let words = self.words();
        let (w, bit) = (c as usize / 64, 1u64 << (c % 64));
        let old = self.occupant[c as usize];
        if old != NO_UNIT {
            let o = self.units[old as usize].owner as usize;
            self.unit_bits[o * words + w] &= !bit;
        }
        if u == NO_UNIT {
            self.occupied_bits[w] &= !bit;
        } else {
            self.occupied_bits[w] |= bit;
            let o = self.units[u as usize].owner as usize;
            self.unit_bits[o * words + w] |= bit;
        }
        self.occupant[c as usize] = u;
    }

    /// Word `w` of the cells holding a unit of player `p`.
    #[inline]
    pub fn unit_word(&self, p: u8, w: usize) -> u64 {
        self.unit_bits[p as usize * self.words() + w]
    }

    /// Word `w` of the cells owned by `code` (a player, or nobody for [`NO_OWNER`]); bits past the last
    /// cell may be set for nobody, so callers mask the last word.
    #[inline]
    pub fn owner_word(&self, code: u8, w: usize) -> u64 {
        let words = self.words();
        if code == NO_OWNER {
            let players = self.owner_bits.len() / words.max(1);
            !(0..players).fold(0, |acc, p| acc | self.owner_bits[p * words + w])
        } else {
            self.owner_bits[code as usize * words + w]
        }
    }

    /// Adds `unit` (living) as the next unit index, which it returns.
    #[inline]
    pub fn add_unit(&mut self, unit: UnitState, players: usize) -> u32 {
        let u = self.units.len();
        let w = u / 64;
        if self.living.len() < (w + 1) * players {
            self.living.resize((w + 1) * players, 0);
        }
        if (unit.owner as usize) < players && unit.alive {
            self.living[w * players + unit.owner as usize] |= 1 << (u % 64);
        }
        self.units.push(unit);
        u as u32
    }

    /// Marks unit `u` destroyed; false when it was already.
    #[inline]
    pub fn kill_unit(&mut self, u: u32, players: usize) -> bool {
        let unit = &mut self.units[u as usize];
        if !unit.alive {
            return false;
        }
        unit.alive = false;
        let (w, o) = (u as usize / 64, unit.owner as usize);
        if o < players {
            self.living[w * players + o] &= !(1 << (u % 64));
        }
        true
    }

    /// Word `w` of player `p`'s living units (`players` players).
    #[inline]
    pub fn living_word(&self, p: u8, w: usize, players: usize) -> u64 {
        self.living[w * players + p as usize]
    }

    /// Builds the bit sets from `owner`, `occupant` and `units` (once, for a state made outside the
    /// setters).
    pub fn rebuild_bits(&mut self, players: usize) {
        self.living = vec![0; self.units.len().div_ceil(64) * players];
        for (u, unit) in self.units.iter().enumerate() {
            if unit.alive && (unit.owner as usize) < players {
                self.living[(u / 64) * players + unit.owner as usize] |= 1 << (u % 64);
            }
        }
        let words = self.owner.len().div_ceil(64);
        self.owner_bits = vec![0; players * words];
        self.occupied_bits = vec![0; words];
        self.unit_bits = vec![0; players * words];
        for c in 0..self.owner.len() {
            let (w, bit) = (c / 64, 1u64 << (c % 64));
            let o = self.owner[c];
            if o != NO_OWNER && (o as usize) < players {
                self.owner_bits[o as usize * words + w] |= bit;
            }
            let u = self.occupant[c];
            if u != NO_UNIT {
                self.occupied_bits[w] |= bit;
                if let Some(o) = self.units.get(u as usize).map(|x| x.owner as usize) {
                    if o < players {
                        self.unit_bits[o * words + w] |= bit;
                    }
                }
            }
        }
    }

    /// Whether the bit sets agree with `owner` and `occupant` (the per-step checks test this).
    pub fn bits_agree(&self, players: usize) -> bool {
        let mut copy = MatchState {
            owner: self.owner.clone(),
            occupant: self.occupant.clone(),
            units: self.units.clone(),
            ..MatchState::default()
        };
        copy.rebuild_bits(players);
        copy.owner_bits == self.owner_bits
            && copy.occupied_bits == self.occupied_bits
            && copy.unit_bits == self.unit_bits
            && copy.living == self.living
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }
    pub fn owner_of(&self, c: CellId) -> Option<PlayerIdx> {
        let o = self.owner[c as usize];
        (o != NO_OWNER).then_some(o)
    }
    pub fn occupant_of(&self, c: CellId) -> Option<UnitIdx> {
        let u = self.occupant[c as usize];
        (u != NO_UNIT).then_some(u)
    }
    pub fn is_due(&self, p: PlayerIdx) -> bool {
        self.due & (1 << p) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(owner: PlayerIdx, at: CellId) -> UnitState {
        UnitState {
            id: Arc::from(format!("u{at}").as_str()),
            kind: 0,
            owner,
            at,
            alive: true,
        }
    }

    /// Living units kept by `add_unit` and `kill_unit` are what a rebuild from the units finds, across a
    /// word boundary, and one player's bits name exactly that player's living units.
    #[test]
    fn living_bits_follow_added_and_destroyed_units() {
        let players = 2;
        let mut st = MatchState {
            owner: vec![NO_OWNER; 200],
            occupant: vec![NO_UNIT; 200],
            ..MatchState::default()
        };
        st.rebuild_bits(players);
        for i in 0..70u32 {
            assert_eq!(st.add_unit(unit((i % 3 == 0) as u8, i), players), i);
        }
        for u in [0, 5, 64, 69] {
            assert!(st.kill_unit(u, players));
        }
        assert!(!st.kill_unit(5, players), "a unit dies once");
        assert!(st.bits_agree(players));
        for p in 0..players as u8 {
            let listed: Vec<usize> = (0..2)
                .flat_map(|w| {
                    let word = st.living_word(p, w, players);
                    (0..64)
                        .filter(move |b| word >> b & 1 == 1)
                        .map(move |b| w * 64 + b)
                })
                .collect();
            let expected: Vec<usize> = (0..70)
                .filter(|&u| st.units[u].alive && st.units[u].owner == p)
                .collect();
            assert_eq!(listed, expected, "player {p}");
        }
    }
}
