//! Warnings: rulesets that are valid but probably not what their designer meant. They never fail
//! `validate` and are only looked for once a ruleset has no errors.
//!
//! - `ruleset::stuck_unhandled`: no `when_stuck`, and a phase where a due player may have no legal action.
//!   Found statically: a `single` or `points` phase none of whose actions is always legal. An action is
//!   always legal when it has no parameters and no checks (and, in a `points` phase, costs at most 1: a
//!   due player has at least one point left). Batch and order phases never get stuck.
use super::game::{ActionSpec, Game, Submission};
use super::yaml::YamlDoc;
use crate::diagnostic::Diagnostic;

/// Every warning for an analysed game.
pub fn warnings(game: &Game, ruleset: &YamlDoc) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some(d) = stuck_unhandled(game, ruleset) {
        out.push(d);
    }
    out
}

/// Whether `action` can always be taken by a due player in a phase of `submission`.
pub fn always_legal(action: &ActionSpec, submission: Submission) -> bool {
    action.params.is_empty()
        && action.checks.is_empty()
        && (submission != Submission::Points || action.cost <= 1)
}

/// Phases (by index) where a due player may find no legal action.
pub fn phases_that_may_get_stuck(game: &Game) -> Vec<usize> {
    game.phases
        .iter()
        .enumerate()
        .filter(|(_, ph)| matches!(ph.submission, Submission::Single | Submission::Points))
        .filter(|(_, ph)| {
            let free = |kinds: &[u16]| {
                kinds
                    .iter()
                    .any(|&a| always_legal(&game.actions[a as usize], ph.submission))
            };
            // With stages, every stage needs one: a player is due in each of them.
            if ph.stages.is_empty() {
                !free(&ph.actions)
            } else {
                ph.stages.iter().any(|s| !free(&s.actions))
            }
        })
        .map(|(i, _)| i)
        .collect()
}

fn stuck_unhandled(game: &Game, ruleset: &YamlDoc) -> Option<Diagnostic> {
    if game.when_stuck_declared {
        return None;
    }
    let phases = phases_that_may_get_stuck(game);
    let first = *phases.first()?;
    let names: Vec<String> = phases
        .iter()
        .map(|&i| format!("`{}`", game.phases[i].name))
        .collect();
    let (which, them) = if names.len() == 1 {
        (format!("phase {}", names[0]), "its")
    } else {
        (format!("phases {}", names.join(", ")), "their")
    };
    let ptr = format!("/flow/phases/{first}/actions");
    let span = ruleset
        .value_span(&ptr)
        .unwrap_or_else(|| ruleset.span_or_parent(&ptr));
    Some(
        Diagnostic::warning(
            "ruleset::stuck_unhandled",
            format!(
                "in {which} a due player may find none of {them} actions legal, and the ruleset does not say what happens then"
            ),
        )
        .at(ruleset.source.clone(), span)
        .label("none of these is always legal")
        .hint("declare `when_stuck: pass`, `lose` or `draw` (without it the player passes), or offer an action without parameters or checks, such as `pass: {}`"),
    )
}
