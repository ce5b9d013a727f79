//! Loading the game named by `--ruleset`, `--scenario` and `--set`, and seating agents named on the command
//! line.
use super::args::GameArgs;
use super::args::RemoteArgs;
use super::output::{fail, print_diagnostics};
use super::USAGE;
use crate::agents::remote::RemoteOptions;
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

/// `--agent-timeout` and `--fallback`, checked against the game; `Err` carries the exit code.
pub fn remote_options(loaded: &Loaded, a: &RemoteArgs) -> Result<RemoteOptions, i32> {
    RemoteOptions::new(a.agent_timeout, a.fallback.as_deref(), &loaded.game)
        .map_err(|e| fail(USAGE, e))
}

/// The agent spec given to `flag`, checked against the game, agents outside the process getting
/// `remote`'s deadline and fallback (and an `exec:` command that must exist); `Err` carries the exit code.
pub fn agent_spec_with(
    loaded: &Loaded,
    flag: &str,
    text: &str,
    remote: &RemoteOptions,
) -> Result<AgentSpec, i32> {
    let spec = AgentSpec::with_options(text, &loaded.game, remote)
        .map_err(|e| fail(USAGE, format!("{flag}: {e}")))?;
    if let Some(program) = spec.command().and_then(|argv| argv.first()) {
        if !program_exists(program) {
            return Err(fail(
                USAGE,
                format!("{flag}: `{text}`: cannot find the program `{program}` (not a file, and not on PATH)"),
            ));
        }
    }
    Ok(spec)
}

/// Every seat's agent spec (`--p1`, `--p2`) with `remote`'s settings; `Err` carries the exit code.
pub fn seat_specs(
    loaded: &Loaded,
    p1: &str,
    p2: &str,
    remote: &RemoteOptions,
) -> Result<Vec<AgentSpec>, i32> {
    seat_names(loaded, p1, p2)?;
    [("--p1", p1), ("--p2", p2)]
        .into_iter()
        .map(|(flag, text)| agent_spec_with(loaded, flag, text, remote))
        .collect()
}

/// The agents seated by `--p1` and `--p2` for one match seeded with `seed`; `Err` carries the exit code.
pub fn seat_agents(
    loaded: &Loaded,
    p1: &str,
    p2: &str,
    remote: &RemoteArgs,
    seed: u64,
) -> Result<Vec<Box<dyn crate::agents::Agent>>, i32> {
    let remote = remote_options(loaded, remote)?;
    let specs = seat_specs(loaded, p1, p2, &remote)?;
    Ok(specs
        .iter()
        .enumerate()
        .map(|(p, spec)| spec.build(seed, p as u8))
        .collect())
}

/// Whether `program` names a file, as a path or on `PATH` (how the process would be found).
fn program_exists(program: &str) -> bool {
    let p = std::path::Path::new(program);
    if program.contains(std::path::MAIN_SEPARATOR) || program.contains('/') {
        return p.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(p).is_file()))
}
