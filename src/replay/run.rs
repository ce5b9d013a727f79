//! Running a match script: load its game, hand in its submissions in order, and build the replay.
use super::failure::Failure;
use super::legal::legal_json;
use super::record::{Replay, SubmissionRecord};
use super::script::MatchScript;
use crate::engine::{Engine, SubmitError};
use crate::ruleset::load;

/// Runs `script` to its last submission (or the end of the game) and returns the replay, with the legal
/// actions of the final position when `with_legal`.
pub fn run_script(script: &MatchScript, with_legal: bool) -> Result<Replay, Failure> {
    let loaded = load(
        &script.ruleset,
        script.scenario.as_deref(),
        &script.overrides,
    )?;
    let mut engine = Engine::new(loaded.game).map_err(|e| Failure::run(&e))?;
    engine.set_logging(true);
    let mut m = engine.start(script.seed).map_err(|e| Failure::run(&e))?;
    let mut events = engine.take_log();
    let mut submissions = Vec::new();
    for (i, s) in script.submissions.iter().enumerate() {
        if let Err(e) = engine.submit(&mut m, &s.player, &s.actions) {
            let code = match &e {
                SubmitError::GameOver => "match::game_over",
                SubmitError::NotDue { .. } => "match::not_due",
                SubmitError::UnknownPlayer(_) => "match::unknown_player",
                SubmitError::Run(_) => "match::run_error",
            };
            let mut d = script.submission_diag(i, code, e.to_string());
            if let SubmitError::UnknownPlayer(_) = e {
                d = d.hint(format!("players: {}", engine.game.players.join(", ")));
            }
            return Err(Failure::invalid(vec![d]));
        }
        events.extend(engine.take_log());
        submissions.push(SubmissionRecord::new(s.player.clone(), s.actions.clone()));
    }
    let mut replay = Replay::new(&engine, &m, submissions, events);
    if with_legal {
        engine.set_logging(false);
        replay.legal = Some(legal_json(&mut engine, &mut m).map_err(|e| Failure::run(&e))?);
    }
    Ok(replay)
}
