//! Match scripts, replays and conformance cases: reading a script, running it into a replay, listing the
//! legal actions of a final position, verifying a replay by re-running it, and checking expectations.
pub mod conformance;
pub mod failure;
pub mod json_match;
pub mod legal;
pub mod patterns;
pub mod record;
pub mod run;
pub mod script;
pub mod verify;

pub use failure::Failure;
pub use record::{Replay, SubmissionRecord};
pub use run::run_script;
pub use script::MatchScript;
pub use verify::{verify, verify_observed, Observed, VerifyError};
