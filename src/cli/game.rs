//! Loading the game named by `--ruleset`, `--scenario` and `--set`, and seating agents named on the command
//! line.
use super::args::GameArgs;
use super::output::{fail, print_diagnostics};
use super::USAGE;
use crate::agents;
use crate::ruleset::load::{load, parse_override};
use crate::ruleset::Loaded;

/// Loads the game, printing diagnostics; `Err` carries the exit code.
pub fn load_game(a: &GameArgs) -> Result<Loaded, i32> {
    let mut overrides = Vec::new();
    for kv in &a.set {
        match parse_override(kv) {
            Ok(o) => overrides.push(o),
            Err(e) => return Err(fail(USAGE, format!("--set {e}"))),
        }
    }
    load(&a.ruleset, a.scenario.as_deref(), &overrides).map_err(|e| {
        print_diagnostics(e.diagnostics());
        e.exit_code()
    })
}

/// Checks `--p1`/`--p2` against the known agents and the game's players; `Err` carries the exit code.
pub fn seat_names(loaded: &Loaded, p1: &str, p2: &str) -> Result<Vec<String>, i32> {
    for name in [p1, p2] {
        if !agents::NAMES.contains(&name) {
            return Err(fail(
                USAGE,
                format!(
                    "unknown agent `{name}` (known: {})",
                    agents::NAMES.join(", ")
                ),
            ));
        }
    }
    let n = loaded.game.players.len();
    if n != 2 {
        return Err(fail(
            USAGE,
            format!("--p1 and --p2 seat two players, but this game has {n}"),
        ));
    }
    Ok(vec![p1.to_string(), p2.to_string()])
}
