//! The evaluation context: a game, a match state, per-thread scratch space and the event log.
use serde_json::Value as Json;

use crate::board::{CellId, SearchScratch};
use crate::ir::game::Game;
use crate::model::{MatchState, PlayerIdx, Value};
use crate::rng::Rng;
use crate::script::ScriptHost;

use super::lower::Program;

pub use crate::model::RunError;

/// The Rhai side of a runtime. Built on the first call that needs Rhai: most games run every script
/// function natively, and building the Rhai engine costs as much as a few hundred random games' worth
/// of actions (measured: ~3.5M instructions), paid by every lookahead engine of a search agent.
pub enum Scripts {
    Unbuilt,
    Ready(Box<ScriptHost>),
    /// Inside a script call (or scratch space for queries made from one): Rhai cannot be entered again.
    Busy,
}

impl Scripts {
    /// Whether a script may be called now (no script call is in progress).
    pub fn available(&self) -> bool {
        !matches!(self, Scripts::Busy)
    }
}

/// Per-thread mutable helpers reused across actions so the hot path does not allocate.
pub struct Runtime {
    pub locals: Vec<Value>,
    /// Bounds of integer parameters evaluated early by enumeration, by parameter index.
    pub bounds: Vec<(Value, Value)>,
    pub search: SearchScratch,
    /// Bit-set scratch of searches: the cells reached.
    pub reached: Vec<u64>,
    /// The candidate cells of a parameter enumerated as a bit set.
    pub cell_bits: Vec<u64>,
    /// The cells passing the bit tests of one parameter whose tests read no other parameter
    /// ([`crate::engine::lower::CParam::bits_invariant`]), made once per walk of its action, and the
    /// address of that parameter (0: none; every walk of an action starts with none).
    pub bit_mask: Vec<u64>,
    pub bit_mask_of: usize,
    /// The passing units of a parameter listed as one block of units.
    pub unit_bits: Vec<u64>,
    /// Values and row offsets of cells summed a word at a time (`lower/column_term.rs`).
    pub lanes: Vec<i64>,
    pub lane_rows: Vec<usize>,
    /// Facts of the simultaneous turn being resolved.
    pub flow: super::resolve::FlowSnapshot,
    cell_bufs: Vec<Vec<CellId>>,
    pair_bufs: Vec<Vec<(CellId, u32)>>,
    value_bufs: Vec<Vec<Value>>,
    /// The items of the lists made while rules run (`Value::List` points into it). Lists never reach the
    /// state, so the store is emptied whenever the engine starts an evaluation (`Engine::machine`).
    pub lists: Vec<i64>,
    /// Events are recorded only when a log is present (replays), not in bulk simulation.
    pub log: Option<Vec<Json>>,
    pub scripts: Scripts,
    /// Cells passing each set's fixed pre-filter as bits, by the set's index and the player
    /// (`index * players + me`).
    pub fixed: Vec<Option<std::rc::Rc<[u64]>>>,
}

impl Runtime {
    pub fn new(game: &Game) -> Self {
        Runtime {
            locals: vec![Value::None; game.max_locals.max(8)],
            bounds: Vec::new(),
            search: SearchScratch::default(),
            reached: Vec::new(),
            cell_bits: Vec::new(),
            bit_mask: Vec::new(),
            bit_mask_of: 0,
            unit_bits: Vec::new(),
            lanes: Vec::new(),
            lane_rows: Vec::new(),
            flow: Default::default(),
            cell_bufs: Vec::new(),
            pair_bufs: Vec::new(),
            value_bufs: Vec::new(),
            lists: Vec::new(),
            log: None,
            scripts: Scripts::Unbuilt,
            fixed: Default::default(),
        }
    }
    /// Scratch space without scripts, for rule queries made from inside a script call.
    pub fn without_scripts(game: &Game) -> Self {
        Runtime {
            locals: vec![Value::None; game.max_locals.max(8)],
            bounds: Vec::new(),
            search: SearchScratch::default(),
            reached: Vec::new(),
            cell_bits: Vec::new(),
            bit_mask: Vec::new(),
            bit_mask_of: 0,
            unit_bits: Vec::new(),
            lanes: Vec::new(),
            lane_rows: Vec::new(),
            flow: Default::default(),
            cell_bufs: Vec::new(),
            pair_bufs: Vec::new(),
            value_bufs: Vec::new(),
            lists: Vec::new(),
            log: None,
            scripts: Scripts::Busy,
            fixed: Default::default(),
        }
    }
    pub fn take_cells(&mut self) -> Vec<CellId> {
        let mut v = self.cell_bufs.pop().unwrap_or_default();
        v.clear();
        v
    }
    pub fn give_cells(&mut self, v: Vec<CellId>) {
        self.cell_bufs.push(v);
    }
    pub fn take_values(&mut self) -> Vec<Value> {
        let mut v = self.value_bufs.pop().unwrap_or_default();
        v.clear();
        v
    }
    pub fn give_values(&mut self, v: Vec<Value>) {
        self.value_bufs.push(v);
    }
    pub fn take_pairs(&mut self) -> Vec<(CellId, u32)> {
        let mut v = self.pair_bufs.pop().unwrap_or_default();
        v.clear();
        v
    }
    pub fn give_pairs(&mut self, v: Vec<(CellId, u32)>) {
        self.pair_bufs.push(v);
    }
}

/// Everything needed to evaluate rules for one player against one state.
pub struct Machine<'a> {
    pub game: &'a Game,
    pub prog: &'a Program,
    pub st: &'a mut MatchState,
    pub rng: &'a mut Rng,
    pub rt: &'a mut Runtime,
    pub me: PlayerIdx,
}

impl Machine<'_> {
    pub fn st_rng(&mut self) -> &mut Rng {
        self.rng
    }

    pub fn logging(&self) -> bool {
        self.rt.log.is_some()
    }

    pub fn log(&mut self, event: Json) {
        if let Some(l) = &mut self.rt.log {
            l.push(event);
        }
    }

    pub fn call_script(&mut self, f: u16, args: &[Value]) -> Result<Value, RunError> {
        let game = self.game;
        let mut scripts = match std::mem::replace(&mut self.rt.scripts, Scripts::Busy) {
            Scripts::Ready(host) => host,
            Scripts::Unbuilt => match ScriptHost::new(game) {
                Ok(host) => Box::new(host),
                Err(e) => {
                    self.rt.scripts = Scripts::Unbuilt;
                    return Err(e);
                }
            },
            Scripts::Busy => return Err(RunError::new("a script called back into a script")),
        };
        let r = scripts.call(
            game,
            self.st,
            self.rng,
            &mut self.rt.log,
            self.me,
            self.prog,
            f,
            args,
        );
        self.rt.scripts = Scripts::Ready(scripts);
        r
    }
}
