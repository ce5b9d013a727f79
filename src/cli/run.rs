//! `arbiter run SCRIPT`: runs a match script and writes its replay.
use super::args::RunArgs;
use super::output::{print_diagnostics, write_output};
use super::USAGE;
use crate::replay::{run_script, MatchScript};
use crate::ruleset::load::read_source;

pub fn run(a: &RunArgs) -> i32 {
    let source = match read_source(&a.script) {
        Ok(s) => s,
        Err(d) => {
            print_diagnostics(&[d]);
            return USAGE;
        }
    };
    let script = match MatchScript::parse(source, &[]) {
        Ok(s) => s,
        Err(diags) => {
            print_diagnostics(&diags);
            return super::INVALID;
        }
    };
    match run_script(&script, a.legal) {
        Ok(replay) => write_output(a.out.as_deref(), &replay.to_text()),
        Err(f) => {
            print_diagnostics(&f.diagnostics);
            f.exit_code
        }
    }
}
