//! The moves of a position as a tree search walks them: listed as blocks (`engine::blocks`), each move
//! known by its key without being built, and built only where the search needs the move itself (to compare
//! it with a child's, to play it, to rank every move). A node of MCTS lists its moves on every pass (the
//! tree is open-loop), and most of them are only looked up among its children: building and hashing each
//! one was most of a decision in games with many moves (amounts x neighbours).
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::search::{may_end, Move};
use crate::engine::blocks::BlockList;
use crate::engine::{too_many_actions, Engine, Match, RunError};
use crate::limits::MAX_LISTED_ACTIONS;
use crate::model::{Action, PlayerIdx};

/// The key of [`Move::End`] (an action's key is [`Action::key`]).
const END_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// A well-spread 64-bit key of a move: equal moves have equal keys.
pub fn move_key(mv: &Move) -> u64 {
    match mv {
        Move::End => END_KEY,
        Move::Act(a) => a.key(),
    }
}

/// The moves of one player in one position, in the order of [`super::search::moves`]: `End` first where
/// the player may hand in (or has nothing else), then the legal actions in enumeration order.
#[derive(Default)]
pub struct MoveList {
    end: bool,
    blocks: BlockList,
    keys: Vec<u64>,
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut out = MoveList::default();
        out.clone_from(self);
        out
    }

    /// A copy into the buffers already here.
    fn clone_from(&mut self, from: &Self) {
        self.end = from.end;
        self.blocks.clone_from(&from.blocks);
        self.keys.clone_from(&from.keys);
    }
}

impl MoveList {
    /// Lists the moves of `player` in `m` (none when the player is not due or the game is over).
    pub fn fill(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
    ) -> Result<(), RunError> {
        self.keys.clear();
        self.blocks.clear();
        self.end = false;
        if m.state.is_over() || !m.state.is_due(player) {
            return Ok(());
        }
        engine.block_list(m, player, &mut self.blocks)?;
        // The limit of listing every action, as `moves` would meet it.
        if self.blocks.total() > MAX_LISTED_ACTIONS as u64 {
            return Err(too_many_actions());
        }
        self.end = may_end(engine, m) || self.blocks.total() == 0;
        if self.end {
            self.keys.push(END_KEY);
        }
        self.blocks.keys(&engine.game.board, &mut self.keys);
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The keys of the moves, in order.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The key of move `i` ([`move_key`] of [`MoveList::get`]).
    pub fn key(&self, i: usize) -> u64 {
        self.keys[i]
    }

    /// Move `i`, built (on the engine the list was filled with).
    pub fn get(&self, i: usize, engine: &Engine) -> Result<Move, RunError> {
        let k = match (self.end, i) {
            (true, 0) => return Ok(Move::End),
            (true, i) => i - 1,
            (false, i) => i,
        };
        self.blocks
            .get(k as u64, &engine.game.board)
            .map(Move::Act)
            .ok_or_else(|| RunError::new(format!("listed move {i} could not be built")))
    }

    /// Whether move `i` is `mv` (as `get(i) == mv`, without building move `i`).
    pub fn is(&self, i: usize, mv: &Move, engine: &Engine) -> bool {
        match (self.end, i, mv) {
            (true, 0, mv) => *mv == Move::End,
            (_, _, Move::End) => false,
            (end, i, Move::Act(a)) => {
                self.blocks
                    .is((i - usize::from(end)) as u64, a, &engine.game.board)
            }
        }
    }

    /// Every move, built, in order (`actions` is a reused buffer).
    pub fn all(&self, engine: &Engine, actions: &mut Vec<Action>, out: &mut Vec<Move>) {
        out.clear();
        if self.end {
            out.push(Move::End);
        }
        actions.clear();
        self.blocks.actions(&engine.game.board, actions);
        out.extend(actions.drain(..).map(Move::Act));
    }
}

/// FxHash's multiply-rotate mix: fast, and good enough for move keys, which are already well spread.
#[derive(Default)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
}

pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// A set of move keys as a 256-bit filter (the children of an MCTS node): a move whose key's bit is clear
/// is not in the set, which is what most moves at a node are (widening keeps children few), found without
/// a lookup.
#[derive(Default)]
pub struct KeyFilter([u64; 4]);

impl KeyFilter {
    pub fn add(&mut self, key: u64) {
        self.0[(key >> 6 & 3) as usize] |= 1 << (key & 63);
    }
    pub fn may_hold(&self, key: u64) -> bool {
        self.0[(key >> 6 & 3) as usize] >> (key & 63) & 1 == 1
    }
}
