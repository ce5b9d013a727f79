//! Rulesets and scenarios: raw YAML (with spans) -> schema check -> analysis (all diagnostics) -> `Game`.
pub mod analyze;
pub mod compile;
pub mod display;
pub mod effects;
pub mod explain;
pub mod expr;
pub mod hints;
pub mod lists;
pub mod literals;
pub mod load;
pub mod raw;
pub mod schema;
pub mod schemas;
pub mod warnings;
pub mod yaml;

pub use crate::ir::game;
pub use crate::ir::game::Game;
// The IR moved to its own module; these paths stay for the front end's readers.
pub use crate::ir;
pub use load::{load, LoadError, Loaded};
