//! Vocabulary shared by every layer: values, actions, match state and results. No YAML, no Rhai, no game names.
pub mod action;
pub mod error;
pub mod state;
pub mod value;

pub use action::Action;
pub use error::RunError;
pub use state::{GameResult, MatchState};
pub use value::{PlayerIdx, Ty, UnitIdx, Value};
