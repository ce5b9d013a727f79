//! `arbiter match`: plays one match between agents and writes its replay.
use super::args::MatchArgs;
use super::game::{load_game, seat_agents};
use super::output::{fail, write_output};
use super::INVALID;
use crate::engine::Engine;
use crate::replay::legal::legal_json;
use crate::simulate::{play_match, PlayOptions};

pub fn play(a: &MatchArgs) -> i32 {
    let loaded = match load_game(&a.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut seats = match seat_agents(&loaded, &a.p1, &a.p2, &a.remote, a.seed) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut engine = match Engine::new(loaded.game) {
        Ok(e) => e,
        Err(e) => return fail(INVALID, format!("the rules failed: {e}")),
    };
    let mut played = match play_match(
        &mut engine,
        &mut seats,
        a.seed,
        PlayOptions {
            record: true,
            check: false,
        },
    ) {
        Ok(p) => p,
        Err(e) => return fail(INVALID, format!("the match failed: {e}")),
    };
    let mut replay = played.replay(&engine);
    if a.legal {
        engine.set_logging(false);
        match legal_json(&mut engine, &mut played.m) {
            Ok(l) => replay.legal = Some(l),
            Err(e) => return fail(INVALID, format!("the rules failed: {e}")),
        }
    }
    write_output(a.out.as_deref(), &replay.to_text())
}
