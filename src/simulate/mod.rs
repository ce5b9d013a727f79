//! Playing matches between agents: one match (optionally recorded for a replay, optionally checked step by
//! step), many matches in parallel with results that never depend on the number of threads, statistics,
//! and round-robin tournaments with Bradley-Terry ratings.
pub mod check;
pub mod play;
pub mod pool;
pub mod ratings;
pub mod stats;
pub mod summary;
pub mod tournament;

pub use play::{play_match, play_match_observed, PlayOptions, Played, Step};
pub use pool::{simulate, simulate_specs, SimConfig, MAX_GAMES};
pub use summary::Summary;
pub use tournament::{tournament, tournament_specs, TournamentConfig, TournamentResult};
