//! The resolved, immutable game: a ruleset instantiated on a scenario with its effective settings.
//! Everything here was proved consistent by analysis; the engine trusts it.
use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;

use super::{Expr, SetExpr, Stmt};
use crate::board::Board;
use crate::model::{MatchState, PlayerIdx, Ty, Value};
use crate::rng::RngKind;

/// Local slots reserved for line-of-sight predicates so they never clobber an action's locals.
pub const SIGHT_SLOT: u16 = 240;

/// What happens when a player is due but has no legal action (and may not hand in nothing).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WhenStuck {
    /// The player's turn ends without an action (the default).
    #[default]
    Pass,
    /// The player loses (in a two-player game the other wins; with more players nobody does).
    Lose,
    /// The game is drawn.
    Draw,
}

impl WhenStuck {
    pub fn name(self) -> &'static str {
        match self {
            WhenStuck::Pass => "pass",
            WhenStuck::Lose => "lose",
            WhenStuck::Draw => "draw",
        }
    }
}

/// Interned strings: identifiers and text values get small integer ids.
#[derive(Debug, Default, Clone)]
pub struct Symbols {
    names: Vec<Arc<str>>,
    index: HashMap<Arc<str>, u32>,
}

impl Symbols {
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let arc: Arc<str> = Arc::from(s);
        let i = self.names.len() as u32;
        self.names.push(arc.clone());
        self.index.insert(arc, i);
        i
    }
    pub fn get(&self, s: &str) -> Option<u32> {
        self.index.get(s).copied()
    }
    pub fn name(&self, i: u32) -> &Arc<str> {
        &self.names[i as usize]
    }
}

/// A declared variable of players, cells or units.
#[derive(Debug, Clone)]
pub struct VarDecl {
    pub name: String,
    pub ty: Ty,
    /// Per-player variables take one slot per player starting at `slot`.
    pub per_player: bool,
    pub slot: u16,
    /// Constant initial value, if any.
    pub initial: Value,
    /// Initial value computed per entity (the entity is bound to slot 0) after the scenario is applied.
    pub initial_expr: Option<Expr>,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// Reset to `initial` at the start of every turn (planning variables).
    pub scratch: bool,
    /// Left out of the state JSON.
    pub hidden: bool,
    /// Shown in a player's view of the state only to its owner (the player for a player variable, the
    /// unit's owner for a unit variable, the indexed player's entry of a per-player cell variable).
    pub owner_only: bool,
    /// Declared `constant`: no effect or script assigns it.
    pub constant: bool,
}

/// A table of plain data (kinds of ground, kinds of unit...).
#[derive(Debug, Clone)]
pub struct Table {
    pub name: String,
    pub keys: Vec<String>,
    pub key_syms: Vec<u32>,
    pub columns: Vec<(String, Ty)>,
    /// rows x columns
    pub cells: Vec<Value>,
}

impl Table {
    pub fn value(&self, row: u16, col: u16) -> Value {
        self.cells[row as usize * self.columns.len() + col as usize]
    }
    pub fn row(&self, key: &str) -> Option<u16> {
        self.keys.iter().position(|k| k == key).map(|i| i as u16)
    }
    pub fn column(&self, name: &str) -> Option<u16> {
        self.columns
            .iter()
            .position(|(c, _)| c == name)
            .map(|i| i as u16)
    }
}

/// One typed action parameter with its validation steps, in the order they are checked.
#[derive(Debug, Clone)]
pub struct ParamSpec {
    pub wire: String,
    pub ty: Ty,
    pub slot: u16,
    /// Reason when the value is missing, mistyped or names nothing.
    pub invalid: String,
    /// Where legal values come from (and the reason when a value is not among them).
    pub source: Option<(SetExpr, String)>,
    /// Test the source after the checks instead of before.
    pub source_last: bool,
    pub min: Option<(Expr, String)>,
    pub max: Option<(Expr, String)>,
    pub checks: Vec<Check>,
    /// A `split` parameter (type list): a total shared out over the elements of a set.
    pub split: Option<Split>,
}

/// An amount shared out over a set: one whole number of at least 0 per element, in the set's order, adding
/// up to `total`.
#[derive(Debug, Clone)]
pub struct Split {
    pub over: SetExpr,
    pub total: Expr,
}

#[derive(Debug, Clone)]
pub struct Check {
    pub cond: Expr,
    pub reason: String,
}

#[derive(Debug, Clone)]
pub struct ActionSpec {
    pub name: String,
    pub params: Vec<ParamSpec>,
    pub checks: Vec<Check>,
    /// Budget or action points the action uses.
    pub cost: i64,
    /// Whether the ruleset wrote `cost` (else it is the default, 1).
    pub cost_declared: bool,
    pub effects: Vec<Stmt>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Alternating,
    Simultaneous,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Submission {
    /// One valid action ends the player-turn.
    Single,
    /// A list of actions; the first `budget` are processed; the list ends the player-turn.
    Batch,
    /// Actions cost points; the player-turn ends when points run out or an action ends it.
    Points,
    /// Orders collected from every player before the turn resolves.
    Orders,
}

/// A built-in step of simultaneous resolution.
#[derive(Debug, Clone)]
pub enum ResolveStep {
    Depart,
    ArriveFriendly,
    ArriveNeutral {
        chance: f64,
        event: String,
        contest_event: String,
        hit: f64,
    },
    ArriveHostile {
        hit: f64,
        defender_first: bool,
        event: String,
    },
    Cap {
        max: i64,
    },
    Grow {
        amount: i64,
        max: i64,
        event: String,
    },
    Effects(Vec<Stmt>),
}

/// Configuration of the flow resolver: which variables hold counts and planned movements.
#[derive(Debug, Clone)]
pub struct FlowVars {
    pub count: u16,
    pub count_name: String,
    pub outgoing: u16,
    pub incoming: u16,
}

/// One step of a player-turn in a phase with stages: its actions, until the player moves on or the budget
/// is used up.
#[derive(Debug, Clone)]
pub struct Stage {
    pub name: String,
    /// The name's symbol (what a `stage:` effect names).
    pub sym: u32,
    pub actions: Vec<u16>,
    /// Points the stage lasts for (each action uses its `cost`); `None`: until the player moves on.
    pub budget: Option<i64>,
    /// The stage after this one: an index, [`END_TURN`] (`next: end`), or `None` for the next in the list
    /// (the turn ends after the last).
    pub next: Option<u16>,
}

/// `Stage::next` of a stage after which the player-turn ends.
pub const END_TURN: u16 = u16::MAX;

#[derive(Debug, Clone)]
pub struct Phase {
    pub name: String,
    pub order: Order,
    pub submission: Submission,
    pub budget: i64,
    pub overflow_reason: String,
    pub actions: Vec<u16>,
    pub rounds: Option<i64>,
    pub advances_turn: bool,
    pub first: PlayerIdx,
    pub on_turn_start: Vec<Stmt>,
    pub on_turn_end: Vec<Stmt>,
    pub resolve: Vec<ResolveStep>,
    pub flow_vars: Option<FlowVars>,
    /// The stages of each player-turn, in order (empty: the phase has none, `actions` are allowed
    /// throughout). A phase with stages is a `points` phase whose budget is the current stage's.
    pub stages: Vec<Stage>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckPoint {
    AfterAction,
    TurnEnd,
}

#[derive(Debug, Clone)]
pub enum VictoryRule {
    /// A player wins when it owns every cell of its target set (evaluated with `me` = that player).
    Control {
        cells: SetExpr,
        check: CheckPoint,
        reason: String,
    },
    /// A player without living units loses; both without is a draw.
    Elimination { check: CheckPoint, reason: String },
    /// When the condition holds after a turn, rank players by each key in turn; equal on all keys is a draw.
    Limit {
        when: Expr,
        rank: Vec<Expr>,
        report: Vec<(String, Expr)>,
        reason: String,
    },
}

#[derive(Debug, Clone)]
pub struct Invariant {
    pub check: Expr,
    pub message: String,
}

/// Line-of-sight predicates (each with the looked-at cell in slot 0; `see_over` gets the viewer's cell).
#[derive(Debug, Clone)]
pub struct Sight {
    pub opaque: Option<Expr>,
    pub screens: Option<Expr>,
    pub see_over: Option<Expr>,
}

#[derive(Debug, Clone)]
pub struct ScriptSource {
    pub name: String,
    pub path: String,
    pub text: Arc<str>,
}

/// A script function translated into the IR (`script::native`): the engine runs it as rules, with the
/// meaning it has in Rhai.
#[derive(Debug, Clone)]
pub struct NativeFn {
    /// Each parameter's local slot and the type its argument must have for the native body to run; any other
    /// argument (none included) is passed to Rhai instead.
    pub params: Vec<(u16, Ty)>,
    /// Statements over local slots of this function's own (no other function or rule uses them).
    pub body: Vec<Stmt>,
    /// The slot holding the function's value when the body is done.
    pub result: u16,
    /// Slots of the variables (parameters included) that only ever hold a whole number or `()`, as the
    /// translation typed them: read as numbers, not tagged values, by the lowered body.
    pub int_locals: Vec<u16>,
}

/// The resolved game.
#[derive(Debug)]
pub struct Game {
    pub id: String,
    pub version: String,
    pub digest: String,
    pub scenario: String,
    pub players: Vec<String>,
    pub player_syms: Vec<u32>,
    pub settings: IndexMap<String, serde_json::Value>,
    /// `--set` overrides of the ruleset outside `settings` (path and value, in the order given): replays
    /// record them, since the recorded settings alone would not rebuild this game.
    pub rule_overrides: Vec<(String, serde_json::Value)>,
    pub rng: RngKind,
    pub board: Board,
    pub cell_syms: Vec<u32>,
    pub sight: Option<Sight>,
    /// Owner of each cell at the start, computed per cell (slot 0) where the scenario gives none.
    pub initial_owner: Option<Expr>,
    pub scenario_owned: Vec<bool>,
    pub symbols: Symbols,
    pub tables: Vec<Table>,
    pub player_vars: Vec<VarDecl>,
    pub cell_vars: Vec<VarDecl>,
    pub unit_vars: Vec<VarDecl>,
    /// Variables of the whole game (`game.NAME`): stored as player variables of the first player, in the
    /// slots after `player_vars`, so every engine path that reads or writes player variables serves them.
    pub game_vars: Vec<VarDecl>,
    pub player_slots: usize,
    pub cell_slots: usize,
    pub unit_slots: usize,
    pub unit_table: Option<u16>,
    pub unit_ids: String,
    pub wire_key: String,
    pub wire_aliases: Vec<(String, u16)>,
    pub actions: Vec<ActionSpec>,
    pub phases: Vec<Phase>,
    pub victory: Vec<VictoryRule>,
    pub invariants: Vec<Invariant>,
    /// The evaluations declared under `agents:`, by name in declaration order (`greedy` is one of them).
    pub evaluations: Vec<(String, Expr)>,
    /// What a drawing of the board shows (the `display` section and the scenario's node positions).
    pub display: super::display::Display,
    /// What happens to a due player with no legal action (`when_stuck`).
    pub when_stuck: WhenStuck,
    /// Whether the ruleset said so (else `when_stuck` is the default).
    pub when_stuck_declared: bool,
    pub scripts: Vec<ScriptSource>,
    pub script_fns: Vec<(String, usize)>,
    /// Per script function (same order as `script_fns`), its native translation when it has one.
    pub script_native: Vec<Option<NativeFn>>,
    /// Statements run once per match before the first turn (hooks excluded).
    pub initial: MatchState,
    pub max_locals: usize,
}

impl Game {
    pub fn player_index(&self, id: &str) -> Option<PlayerIdx> {
        self.players
            .iter()
            .position(|p| p == id)
            .map(|i| i as PlayerIdx)
    }
    pub fn action_index(&self, wire: &str) -> Option<u16> {
        if let Some(i) = self.actions.iter().position(|a| a.name == wire) {
            return Some(i as u16);
        }
        self.wire_aliases
            .iter()
            .find(|(a, _)| a == wire)
            .map(|(_, i)| *i)
    }
    pub fn unit_table(&self) -> Option<&Table> {
        self.unit_table.map(|t| &self.tables[t as usize])
    }
    pub fn phase(&self, state: &MatchState) -> &Phase {
        &self.phases[state.phase as usize]
    }
    /// The actions allowed now: the current stage's in a phase with stages, else the phase's.
    pub fn allowed_actions(&self, state: &MatchState) -> &[u16] {
        let phase = self.phase(state);
        match phase.stages.get(state.stage as usize) {
            Some(s) => &s.actions,
            None => &phase.actions,
        }
    }
    /// The index of the evaluation declared under `agents:` as `name`.
    pub fn evaluation(&self, name: &str) -> Option<usize> {
        self.evaluations.iter().position(|(n, _)| n == name)
    }
}

/// Agent names with a built-in meaning, which the `agents:` of a ruleset cannot declare.
pub const BUILT_IN_AGENTS: &[&str] = &[
    "random",
    "random_kind",
    "mcts",
    "minimax",
    "exec",
    "http",
    "https",
];
