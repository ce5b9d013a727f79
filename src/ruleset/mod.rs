//! Rulesets and scenarios: raw YAML (with spans) -> schema check -> analysis (all diagnostics) -> `Game`.
pub mod analyze;
pub mod compile;
pub mod effects;
pub mod explain;
pub mod expr;
pub mod game;
pub mod hints;
pub mod initial;
pub mod ir;
pub mod load;
pub mod plan;
pub mod raw;
pub mod schema;
pub mod schemas;
pub mod settings;
pub mod warnings;
pub mod yaml;

pub use game::Game;
pub use load::{load, LoadError, Loaded};
