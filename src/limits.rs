//! Limits on the size of input and on the work a single rule, listing or match may do, in one place
//! (docs/limits.md lists them all, with the limits that live beside their code: expression nesting,
//! diagnostics shown, games simulated, chance rolls per cell). Each breach is a diagnostic or a run error
//! with a message, never an abort.

/// Largest file Arbiter reads (ruleset, scenario, script, match script, replay, conformance case,
/// `arbiter.toml`): 16 MiB. Checked before reading. Parsing YAML or JSON with spans takes about 90 bytes
/// of memory per byte of input, so this bounds one file at about 1.5 GB; the largest shipped file is
/// 190 KB. Breach: diagnostic `io::too_large` (exit 2, like any file that cannot be read).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Most cells a board may have: 65,536 (a 256 x 256 grid). A replay's final state lists every cell
/// (about 50 bytes each), so the replay of a match on the largest board stays far below
/// [`MAX_FILE_BYTES`] and can be verified. Breach: diagnostic `scenario::too_many_cells`.
pub const MAX_CELLS: usize = 1 << 16;

/// Most units one match may ever hold, living and destroyed (destroyed units keep their ids, which are
/// never reused): 10,000. Breach: diagnostic `scenario::too_many_units` for a scenario's units, run error
/// when `create_unit` would create one more.
pub const MAX_UNITS: usize = 10_000;

/// Longest match an agent-driven command (`match`, `simulate`) plays: at most this
/// many submissions, then a run error ("no result after ..."). Matches replayed from files
/// (`run`, `replay verify`) are bounded by [`MAX_FILE_BYTES`] instead.
pub const MAX_SUBMISSIONS: usize = 100_000;

/// Most actions in one agent-driven match, all submissions together; then a run error.
pub const MAX_ACTIONS: usize = 1_000_000;

/// Most elements one walk over a set may visit (`count(range(...) where ...)`, `sum(...)`, an action
/// parameter's `in:` set). Counting and summing a plain `range(lo, hi)` and testing membership in it
/// are closed-form and not limited.
pub const MAX_WALK: u64 = 1_000_000;

/// Most legal actions one listing may hold (`run --legal`, the greedy agent, `legal` in a replay).
/// The random agent counts and picks without listing, so it is not limited.
pub const MAX_LISTED_ACTIONS: usize = 1_000_000;

/// Longest list one expression may make (`roll(n, sides)`, a list literal) and most items the lists of one
/// evaluation may hold together: 10,000 and 1,000,000. Lists are dice pools and allocations; a breach is a
/// run error naming the list.
pub const MAX_LIST_LEN: usize = 10_000;
pub const MAX_LIST_STORE: usize = 1_000_000;
