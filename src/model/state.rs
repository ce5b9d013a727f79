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
#[derive(Clone, Debug, PartialEq)]
pub struct UnitState {
    pub id: Arc<str>,
    /// Row of the unit-type table.
    pub kind: u16,
    pub owner: PlayerIdx,
    pub at: CellId,
    pub alive: bool,
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
    pub player_vars: Vec<i64>,
    pub owner: Vec<u8>,
    pub cell_vars: Vec<i64>,
    pub units: Vec<UnitState>,
    pub unit_vars: Vec<i64>,
    pub occupant: Vec<u32>,
    /// Units ever created per player (numbers recruited unit ids).
    pub units_created: Vec<u32>,
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
        self.player_vars.clone_from(&s.player_vars);
        self.owner.clone_from(&s.owner);
        self.cell_vars.clone_from(&s.cell_vars);
        self.units.clone_from(&s.units);
        self.unit_vars.clone_from(&s.unit_vars);
        self.occupant.clone_from(&s.occupant);
        self.units_created.clone_from(&s.units_created);
        self.result.clone_from(&s.result);
    }
}

impl MatchState {
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
