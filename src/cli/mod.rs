//! The command line: the only module that reads argv, prints, touches stdout/stderr and decides exit codes.
//! Every command runs on a thread with a deep stack, because rule scripts may recurse.
pub mod args;
mod config;
pub mod conformance;
pub mod experiment;
pub mod game;
pub mod human;
pub mod output;
pub mod play;
pub mod replay;
pub mod report;
pub mod run;
pub mod serve;
pub mod simulate;
pub mod tournament;
pub mod validate;
pub mod view;
pub mod watch;

use std::ffi::OsString;

use clap::Parser;

use args::{Cli, Command, ExperimentCommand, ReplayCommand};

/// Stack of the thread every command runs on.
pub const MAIN_STACK: usize = 64 << 20;

/// Exit code: success.
pub const OK: i32 = 0;
/// Exit code: the input is invalid (diagnostics printed).
pub const INVALID: i32 = 1;
/// Exit code: usage error or unreadable file.
pub const USAGE: i32 = 2;

/// Runs the command given on the command line and returns the process exit code.
pub fn main() -> i32 {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let worker = std::thread::Builder::new()
        .name("arbiter".into())
        .stack_size(MAIN_STACK)
        .spawn(move || dispatch(argv));
    match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            eprintln!("error: arbiter failed internally (this is a bug; please report it with the command line)");
            101
        }),
        Err(e) => {
            eprintln!("error: cannot start a thread: {e}");
            USAGE
        }
    }
}

/// Parses `argv` and runs the command.
pub fn dispatch(argv: Vec<OsString>) -> i32 {
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            // Help and version go to stdout with 0; usage errors to stderr with 2.
            let _ = e.print();
            return if e.use_stderr() { USAGE } else { OK };
        }
    };
    if let Err(message) = config::apply() {
        eprintln!("{message}");
        return USAGE;
    }
    match cli.command {
        Command::Validate(a) => validate::validate(&a),
        Command::Run(a) => run::run(&a),
        Command::Match(a) => play::play(&a),
        Command::Simulate(a) => simulate::simulate(&a),
        Command::Replay {
            command: ReplayCommand::Verify { file },
        } => replay::verify(&file),
        Command::Conformance(a) => conformance::conformance(&a),
        Command::Tournament(a) => tournament::tournament(&a),
        Command::Watch(a) => watch::watch(&a),
        Command::Play(a) => human::play(&a),
        Command::Serve(a) => serve::serve(&a),
        Command::View(a) => view::view(&a),
        Command::Report(a) => report::report(&a),
        Command::Experiment {
            command: ExperimentCommand::Run(a),
        } => experiment::run(&a),
        Command::Experiment {
            command: ExperimentCommand::Merge(a),
        } => experiment::merge(&a),
    }
}
