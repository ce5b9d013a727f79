//! `validate --explain`: a short account of how a valid ruleset will be played, as analysis understood it:
//! players, effective settings, each phase with its turn structure and actions (what they cost where cost
//! matters), what happens to a stuck player, and the victory rules. Defaults the ruleset did not write are
//! marked `(default)`, so a designer sees what the engine assumed.
use std::fmt::Write;

use super::game::{CheckPoint, Game, Order, Phase, Submission, VictoryRule};
use super::warnings::{always_legal, phases_that_may_get_stuck};
use crate::model::Ty;

/// The account of `game`, as lines of text ending with a newline.
pub fn explain(game: &Game) -> String {
    let mut out = String::new();
    let _ = write_all(game, &mut out);
    out
}

fn write_all(g: &Game, out: &mut String) -> std::fmt::Result {
    writeln!(
        out,
        "ruleset `{}` {} on scenario `{}`: players {}",
        g.id,
        g.version,
        g.scenario,
        g.players.join(", ")
    )?;
    if !g.settings.is_empty() {
        let settings: Vec<String> = g
            .settings
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        writeln!(out, "  settings: {}", settings.join(", "))?;
    }
    for (i, ph) in g.phases.iter().enumerate() {
        phase(g, i, ph, out)?;
    }
    let may_stall = g
        .phases
        .iter()
        .any(|ph| matches!(ph.submission, Submission::Single | Submission::Points));
    if may_stall {
        let declared = if g.when_stuck_declared {
            ""
        } else {
            " (default: the ruleset does not declare `when_stuck`)"
        };
        let never = if phases_that_may_get_stuck(g).is_empty() {
            "; every single and points phase has an always-legal action"
        } else {
            ""
        };
        writeln!(
            out,
            "  a due player with no legal action: {}{declared}{never}",
            g.when_stuck.name()
        )?;
    }
    for v in &g.victory {
        writeln!(out, "  victory: {}", victory(v))?;
    }
    if g.victory.is_empty() {
        writeln!(
            out,
            "  victory: none (games end only by a `win` or `draw` effect)"
        )?;
    }
    Ok(())
}

fn phase(g: &Game, i: usize, ph: &Phase, out: &mut String) -> std::fmt::Result {
    let order = match ph.order {
        Order::Alternating => "alternating",
        Order::Simultaneous => "simultaneous",
    };
    let turns = match ph.submission {
        Submission::Single => "one action per turn".to_string(),
        Submission::Batch => format!(
            "up to {} actions per turn (every entry uses one, valid or not)",
            ph.budget
        ),
        Submission::Points if !ph.stages.is_empty() => {
            "stages, the turn lasting until it ends".to_string()
        }
        Submission::Points => format!(
            "{} points per turn, each action uses its cost; the turn ends when they run out",
            ph.budget
        ),
        Submission::Orders => "every player's orders, resolved together".to_string(),
    };
    let rounds = match ph.rounds {
        Some(1) => "1 round".to_string(),
        Some(n) => format!("{n} rounds"),
        None => "until the game ends".to_string(),
    };
    let turn = if ph.advances_turn {
        "each round adds 1 to `turn`"
    } else {
        "`turn` does not advance"
    };
    let first = &g.players[ph.first as usize];
    writeln!(
        out,
        "  phase {} `{}`: {order}, {turns}; {rounds}, {turn}; {first} first",
        i + 1,
        ph.name
    )?;
    for (k, st) in ph.stages.iter().enumerate() {
        let budget = match st.budget {
            Some(b) => format!("{b} points"),
            None => "until the player moves on".to_string(),
        };
        let next = match st.next {
            Some(crate::ir::game::END_TURN) => "then the turn ends".to_string(),
            Some(n) => format!("then `{}`", ph.stages[n as usize].name),
            None if k + 1 < ph.stages.len() => format!("then `{}`", ph.stages[k + 1].name),
            None => "then the turn ends".to_string(),
        };
        let names: Vec<&str> = st
            .actions
            .iter()
            .map(|a| g.actions[*a as usize].name.as_str())
            .collect();
        writeln!(
            out,
            "    stage {} `{}`: {}; {budget}, {next}",
            k + 1,
            st.name,
            names.join(", ")
        )?;
    }
    for &a in &ph.actions {
        let spec = &g.actions[a as usize];
        let mut line = format!("    {}", spec.name);
        let params: Vec<String> = spec
            .params
            .iter()
            .map(|p| format!("{} ({})", p.wire, ty_name(g, p.ty)))
            .collect();
        if params.is_empty() {
            line.push_str(": no parameters");
        } else {
            let _ = write!(line, ": {}", params.join(", "));
        }
        if !spec.checks.is_empty() {
            let n = spec.checks.len();
            let _ = write!(line, "; {n} check{}", if n == 1 { "" } else { "s" });
        }
        if ph.submission == Submission::Points {
            let default = if spec.cost_declared { "" } else { " (default)" };
            let _ = write!(line, "; cost {}{default}", spec.cost);
        }
        if matches!(ph.submission, Submission::Single | Submission::Points)
            && always_legal(spec, ph.submission)
        {
            line.push_str("; always legal");
        }
        writeln!(out, "{line}")?;
    }
    if !ph.resolve.is_empty() {
        let n = ph.resolve.len();
        writeln!(
            out,
            "    then {n} resolution step{} once every order is in",
            if n == 1 { "" } else { "s" }
        )?;
    }
    Ok(())
}

fn ty_name(g: &Game, ty: Ty) -> String {
    match ty {
        Ty::Row(t) => format!("row of `{}`", g.tables[t as usize].name),
        other => other.name().to_string(),
    }
}

fn victory(v: &VictoryRule) -> String {
    let at = |c: &CheckPoint| match c {
        CheckPoint::AfterAction => "checked after every action",
        CheckPoint::TurnEnd => "checked at the end of every turn",
    };
    match v {
        VictoryRule::Control {
            check, reason, ..
        } => format!("control of a set of cells, {}, reason `{reason}`", at(check)),
        VictoryRule::Elimination { check, reason } => {
            format!("elimination (no living units), {}, reason `{reason}`", at(check))
        }
        VictoryRule::Limit { rank, reason, .. } if rank.is_empty() => format!(
            "limit: when its condition holds after a turn, the game is drawn, reason `{reason}`"
        ),
        VictoryRule::Limit { rank, reason, .. } => format!(
            "limit: when its condition holds after a turn, players are ranked by {} key{}, reason `{reason}`",
            rank.len(),
            if rank.len() == 1 { "" } else { "s" }
        ),
    }
}
