//! Loading the game named by `--ruleset`, `--scenario` and `--set`, and seating agents named on the command
//! line.
use super::args::GameArgs;
use super::output::{fail, print_diagnostics};
use super::USAGE;
use crate::agents::AgentSpec;
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

/// Checks `--p1`/`--p2` (agent specs, `NAME[:key=value,...]`) against the game and its players; `Err`
/// carries the exit code.
pub fn seat_names(loaded: &Loaded, p1: &str, p2: &str) -> Result<Vec<String>, i32> {
    for (flag, text) in [("--p1", p1), ("--p2", p2)] {
        agent_spec(loaded, flag, text)?;
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

/// The agent spec given to `flag`, checked against the game; `Err` carries the exit code.
pub fn agent_spec(loaded: &Loaded, flag: &str, text: &str) -> Result<AgentSpec, i32> {
    AgentSpec::new(text, &loaded.game).map_err(|e| fail(USAGE, format!("{flag}: {e}")))
}
