//! Serde mirror of the YAML documents (ruleset and scenario). No logic: analysis gives these meaning.
//! Expressions and effect lists stay `serde_json::Value` here; analysis compiles them with spans.
use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value as Json;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRuleset {
    pub id: String,
    pub version: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    pub players: Vec<String>,
    pub default_scenario: String,
    #[serde(default)]
    pub scripts: Vec<String>,
    #[serde(default)]
    pub wire: RawWire,
    #[serde(default)]
    pub settings: IndexMap<String, Json>,
    #[serde(default)]
    pub limits: IndexMap<String, RawLimit>,
    pub board: RawBoard,
    #[serde(default)]
    pub tables: IndexMap<String, RawTable>,
    #[serde(default)]
    pub state: RawState,
    #[serde(default)]
    pub units: Option<RawUnits>,
    pub actions: IndexMap<String, RawAction>,
    pub flow: RawFlow,
    #[serde(default)]
    pub victory: Vec<RawVictory>,
    #[serde(default)]
    pub invariants: Vec<RawInvariant>,
    #[serde(default)]
    pub agents: RawAgents,
    #[serde(default)]
    pub when_stuck: Option<WhenStuck>,
    #[serde(default)]
    pub display: Option<super::display::RawDisplay>,
}

pub use crate::ir::game::WhenStuck;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWire {
    #[serde(default = "default_discriminator")]
    pub discriminator: String,
    #[serde(default)]
    pub aliases: IndexMap<String, String>,
    #[serde(default)]
    pub ignore: Vec<String>,
}

impl Default for RawWire {
    fn default() -> Self {
        RawWire {
            discriminator: default_discriminator(),
            aliases: IndexMap::new(),
            ignore: Vec::new(),
        }
    }
}

fn default_discriminator() -> String {
    "type".into()
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RawLimit {
    /// A number, or a constant expression of settings (text).
    pub min: Option<Json>,
    pub max: Option<Json>,
    #[serde(default)]
    pub min_exclusive: bool,
    #[serde(default)]
    pub one_of: Vec<Json>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBoard {
    pub topology: String,
    #[serde(default)]
    pub layout: Option<String>,
    #[serde(default)]
    pub diagonal: bool,
    #[serde(default)]
    pub ids: Option<RawIds>,
    #[serde(default)]
    pub line_of_sight: Option<RawSight>,
    #[serde(default)]
    pub initial_owner: Option<Json>,
    #[serde(default)]
    pub require_connected: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawIds {
    pub first: String,
    pub rows: String,
    pub cols: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSight {
    #[serde(default)]
    pub opaque: Option<Json>,
    #[serde(default)]
    pub screens: Option<Json>,
    #[serde(default)]
    pub see_over: Option<Json>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    #[serde(default)]
    pub defaults: IndexMap<String, Json>,
    pub rows: IndexMap<String, IndexMap<String, Json>>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RawState {
    #[serde(default)]
    pub turn: Option<i64>,
    #[serde(default)]
    pub player: IndexMap<String, RawVar>,
    #[serde(default)]
    pub cell: IndexMap<String, RawVar>,
    #[serde(default)]
    pub unit: IndexMap<String, RawVar>,
    /// Variables of the whole game (one value, read as `game.NAME`).
    #[serde(default)]
    pub game: IndexMap<String, RawVar>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVar {
    #[serde(rename = "type")]
    pub ty: String,
    #[serde(default)]
    pub table: Option<String>,
    #[serde(default)]
    pub initial: Option<Json>,
    #[serde(default)]
    pub min: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
    #[serde(default)]
    pub per_player: bool,
    #[serde(default)]
    pub scratch: bool,
    #[serde(default)]
    pub hidden: bool,
    /// `all` (default) or `owner`: who sees the variable in a player's view of the state.
    #[serde(default)]
    pub visible: Option<String>,
    /// Never assigned by the rules: a fixed value per entity (per player with a mapping `initial`).
    #[serde(default)]
    pub constant: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnits {
    pub table: String,
    #[serde(default = "default_unit_ids")]
    pub ids: String,
}

fn default_unit_ids() -> String {
    "{owner}-{n}".into()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAction {
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub params: IndexMap<String, RawParam>,
    #[serde(default)]
    pub require: Vec<RawCheck>,
    #[serde(default)]
    pub cost: Option<Json>,
    #[serde(default)]
    pub effects: Vec<Json>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawParam {
    #[serde(rename = "type")]
    pub ty: String,
    #[serde(default)]
    pub table: Option<String>,
    pub invalid: String,
    #[serde(default, rename = "in")]
    pub in_set: Option<Json>,
    #[serde(default)]
    pub not_in: Option<String>,
    /// Test `in` after `require` (true) instead of before it, to choose which reason a value gets.
    #[serde(default)]
    pub in_last: bool,
    #[serde(default)]
    pub min: Option<RawBound>,
    #[serde(default)]
    pub max: Option<RawBound>,
    #[serde(default)]
    pub require: Vec<RawCheck>,
    /// `type: split`: the set whose elements share the total, in its order.
    #[serde(default)]
    pub over: Option<Json>,
    /// `type: split`: the amount shared out.
    #[serde(default)]
    pub total: Option<Json>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBound {
    pub value: Json,
    pub reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCheck {
    pub when: Json,
    pub reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFlow {
    pub phases: Vec<RawPhase>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPhase {
    pub name: String,
    pub order: String,
    /// `single` unless given (`points` in a phase with stages).
    #[serde(default)]
    pub submission: Option<String>,
    #[serde(default)]
    pub budget: Option<Json>,
    #[serde(default)]
    pub overflow_reason: Option<String>,
    #[serde(default)]
    pub actions: Vec<String>,
    /// Steps of each player-turn, in order (instead of `actions`).
    #[serde(default)]
    pub stages: Vec<RawStage>,
    #[serde(default)]
    pub rounds: Option<Json>,
    #[serde(default = "yes")]
    pub advances_turn: bool,
    #[serde(default)]
    pub first: Option<String>,
    #[serde(default)]
    pub on_turn_start: Vec<Json>,
    #[serde(default)]
    pub on_turn_end: Vec<Json>,
    #[serde(default)]
    pub resolve: Vec<Json>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStage {
    pub name: String,
    pub actions: Vec<String>,
    #[serde(default)]
    pub budget: Option<Json>,
    /// The stage after this one (a stage name, or `end`); default the next in the list.
    #[serde(default)]
    pub next: Option<String>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVictory {
    pub kind: String,
    pub reason: String,
    #[serde(default)]
    pub check: Option<String>,
    #[serde(default)]
    pub cells: Option<Json>,
    #[serde(default)]
    pub when: Option<Json>,
    #[serde(default)]
    pub rank: Vec<Json>,
    #[serde(default)]
    pub report: IndexMap<String, Json>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInvariant {
    pub check: Json,
    pub message: String,
}

pub use crate::ir::game::BUILT_IN_AGENTS;

/// Evaluation agents by name (`greedy` and any other name the ruleset declares).
pub type RawAgents = IndexMap<String, RawEvaluation>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvaluation {
    pub evaluate: Json,
}

/// A scenario: a map and a starting position for one ruleset.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub ruleset: String,
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub settings: IndexMap<String, Json>,
    #[serde(default)]
    pub first_player: Option<String>,
    #[serde(default)]
    pub players: IndexMap<String, IndexMap<String, Json>>,
    pub board: RawScenarioBoard,
    #[serde(default)]
    pub units: Vec<RawUnit>,
    /// Units drawn as a grid: one legend symbol per cell.
    #[serde(default)]
    pub unit_layer: Option<RawUnitLayer>,
}

/// Units as a grid of symbols, each standing for a unit type and owner (`.` for no unit).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnitLayer {
    pub legend: IndexMap<String, RawLegendUnit>,
    pub rows: Vec<String>,
}

#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawLegendUnit {
    #[serde(rename = "type")]
    pub kind: String,
    pub owner: String,
    #[serde(default)]
    pub vars: IndexMap<String, Json>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenarioBoard {
    #[serde(default)]
    pub nodes: Vec<IndexMap<String, Json>>,
    #[serde(default)]
    pub edges: Vec<Vec<String>>,
    #[serde(default)]
    pub width: Option<u32>,
    #[serde(default)]
    pub height: Option<u32>,
    #[serde(default)]
    pub layers: IndexMap<String, Vec<String>>,
    #[serde(default)]
    pub cells: IndexMap<String, IndexMap<String, Json>>,
}

#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub owner: String,
    pub at: String,
    #[serde(default)]
    pub vars: IndexMap<String, Json>,
}
