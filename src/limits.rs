//! Limits on work a single rule, listing or run may do, in one place (docs/limits.md lists them all,
//! with the limits that live beside their code: expression nesting, diagnostics shown, games simulated,
//! chance rolls per cell). Each breach is a diagnostic or a run error with a message, never an abort.

/// Most elements one walk over a set may visit (`count(range(...) where ...)`, `sum(...)`, an action
/// parameter's `in:` set). Counting and summing a plain `range(lo, hi)` and testing membership in it
/// are closed-form and not limited.
pub const MAX_WALK: u64 = 1_000_000;

/// Most legal actions one listing may hold (`run --legal`, the greedy agent, `legal` in a replay).
/// The random agent counts and picks without listing, so it is not limited.
pub const MAX_LISTED_ACTIONS: usize = 1_000_000;
