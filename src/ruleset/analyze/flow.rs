//! The flow: phases in order, each with its order of play (alternating or simultaneous), how actions are
//! handed in (single, batch, points or orders) with its budget, the actions it allows, who plays first, the
//! hooks at the start and end of each turn, and the steps of simultaneous resolution.
use serde_json::Value as Json;

use super::diags::Diags;
use super::Cx;
use crate::ir::game::{
    ActionSpec, FlowVars, Order, Phase, ResolveStep, Stage, Submission, VarDecl, END_TURN,
};
use crate::model::Value;
use crate::ruleset::compile::{closest, Catalog, Compiler};
use crate::ruleset::raw::{RawPhase, RawRuleset, RawScenario};
use crate::ruleset::yaml::YamlDoc;

/// The phases in order.
pub(super) fn compile(
    cx: &mut Cx,
    cat: &Catalog,
    raw: &RawRuleset,
    scen: &RawScenario,
    actions: &[ActionSpec],
) -> Vec<Phase> {
    let (rd, sd, d) = (cx.rd, cx.sd, &mut cx.d);
    let first_player = match &scen.first_player {
        Some(p) => match raw.players.iter().position(|x| x == p) {
            Some(i) => i as u8,
            None => {
                d.at(
                    sd,
                    "/first_player",
                    "scenario::unknown_player",
                    format!("no player `{p}`"),
                    Some(format!("players: {}", raw.players.join(", "))),
                );
                0
            }
        },
        None => 0,
    };
    let mut phases = Vec::new();
    if raw.flow.phases.is_empty() {
        d.at(
            rd,
            "/flow/phases",
            "ruleset::flow",
            "the flow needs at least one phase",
            None,
        );
    }
    for (pi, ph) in raw.flow.phases.iter().enumerate() {
        phases.push(phase(cx, cat, raw, pi, ph, actions, first_player));
    }
    phases
}

/// Phase `pi` of the flow (`first_player` is the scenario's).
fn phase(
    cx: &mut Cx,
    cat: &Catalog,
    raw: &RawRuleset,
    pi: usize,
    ph: &RawPhase,
    actions: &[ActionSpec],
    first_player: u8,
) -> Phase {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    let base = format!("/flow/phases/{pi}");
    let order = match ph.order.as_str() {
        "alternating" => Order::Alternating,
        "simultaneous" => Order::Simultaneous,
        o => {
            d.at(
                rd,
                &format!("{base}/order"),
                "ruleset::flow",
                format!("unknown order `{o}`"),
                Some("use alternating or simultaneous".into()),
            );
            Order::Alternating
        }
    };
    let staged = !ph.stages.is_empty();
    let default_submission = if staged { "points" } else { "single" };
    let submission = match ph.submission.as_deref().unwrap_or(default_submission) {
        "single" => Submission::Single,
        "batch" => Submission::Batch,
        "points" => Submission::Points,
        "orders" => Submission::Orders,
        o => {
            d.at(
                rd,
                &format!("{base}/submission"),
                "ruleset::flow",
                format!("unknown submission kind `{o}`"),
                Some("use single, batch, points or orders".into()),
            );
            Submission::Single
        }
    };
    if staged && (order != Order::Alternating || submission != Submission::Points) {
        d.at(
            rd,
            &format!("{base}/stages"),
            "ruleset::flow",
            "stages divide an alternating player-turn that lasts until the player ends it",
            Some("use `order: alternating` and leave out `submission` (it is `points`, each stage with its own budget)".into()),
        );
    }
    if (order == Order::Simultaneous) != (submission == Submission::Orders) {
        d.at(
            rd,
            &format!("{base}/submission"),
            "ruleset::flow",
            "simultaneous phases take `orders`, and `orders` need a simultaneous phase",
            None,
        );
    }
    let mut c = Compiler::new(cat, symbols, true);
    let budget = match &ph.budget {
        Some(_) if staged => {
            d.at(
                rd,
                &format!("{base}/budget"),
                "ruleset::flow",
                "a phase with stages has no budget of its own",
                Some("give each stage its `budget`".into()),
            );
            0
        }
        Some(v) => match c.json_const(v) {
            Ok(Value::Int(i)) if i >= 1 => i,
            Ok(_) => {
                d.at(
                    rd,
                    &format!("{base}/budget"),
                    "ruleset::flow",
                    "`budget` must be a whole number of at least 1",
                    None,
                );
                1
            }
            Err(e) => {
                d.expr(rd, &format!("{base}/budget"), e);
                1
            }
        },
        None => {
            if matches!(submission, Submission::Batch | Submission::Points) && !staged {
                d.at(
                    rd,
                    &base,
                    "ruleset::flow",
                    "batch and points phases need a `budget`",
                    None,
                );
            }
            0
        }
    };
    let rounds = match &ph.rounds {
        Some(v) => match c.json_const(v) {
            Ok(Value::Int(i)) if i >= 1 => Some(i),
            Ok(_) => {
                d.at(
                    rd,
                    &format!("{base}/rounds"),
                    "ruleset::flow",
                    "`rounds` must be at least 1",
                    None,
                );
                None
            }
            Err(e) => {
                d.expr(rd, &format!("{base}/rounds"), e);
                None
            }
        },
        None => None,
    };
    let mut kinds = Vec::new();
    for (i, a) in ph.actions.iter().enumerate() {
        match actions.iter().position(|x| x.name == *a) {
            Some(k) => kinds.push(k as u16),
            None => d.at(
                rd,
                &format!("{base}/actions/{i}"),
                "ruleset::unknown_action",
                format!("no action `{a}`"),
                closest(a, actions.iter().map(|x| x.name.as_str()))
                    .map(|c| format!("did you mean `{c}`?")),
            ),
        }
    }
    let stages = stages(&mut c, rd, d, &base, ph, actions);
    if staged {
        if !ph.actions.is_empty() {
            d.at(
                rd,
                &format!("{base}/actions"),
                "ruleset::flow",
                "a phase with stages lists its actions in each stage",
                Some("move these actions into the stages that allow them".into()),
            );
        }
        for s in &stages {
            for a in &s.actions {
                if !kinds.contains(a) {
                    kinds.push(*a);
                }
            }
        }
    } else if ph.actions.is_empty() {
        d.at(
            rd,
            &base,
            "ruleset::flow",
            "a phase needs `actions` (or `stages`, each with its actions)",
            None,
        );
    }
    let first = match ph.first.as_deref() {
        None | Some("scenario") => first_player,
        Some(p) => match raw.players.iter().position(|x| x == p) {
            Some(i) => i as u8,
            None => {
                d.at(
                    rd,
                    &format!("{base}/first"),
                    "ruleset::unknown_player",
                    format!("no player `{p}`"),
                    Some(format!(
                        "players: {} (or `scenario` for the scenario's first player)",
                        raw.players.join(", ")
                    )),
                );
                0
            }
        },
    };
    let mut errs = Vec::new();
    let on_turn_start = c.effects(
        &ph.on_turn_start,
        &format!("{base}/on_turn_start"),
        &mut errs,
    );
    let on_turn_end = c.effects(&ph.on_turn_end, &format!("{base}/on_turn_end"), &mut errs);
    d.effects(rd, errs);
    let (resolve, flow_vars) = resolve_steps(&ph.resolve, &base, &mut c, cat.cell_vars, rd, d);
    cx.max_locals = cx.max_locals.max(c.locals());
    Phase {
        name: ph.name.clone(),
        order,
        submission,
        budget,
        overflow_reason: ph
            .overflow_reason
            .clone()
            .unwrap_or_else(|| "budget_exceeded".into()),
        actions: kinds,
        rounds,
        advances_turn: ph.advances_turn,
        first,
        on_turn_start,
        on_turn_end,
        resolve,
        flow_vars,
        stages,
    }
}

/// The names of every stage of the flow, for the `stage:` effect.
pub(super) fn stage_names(raw: &RawRuleset) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for ph in &raw.flow.phases {
        for s in &ph.stages {
            if !names.contains(&s.name) {
                names.push(s.name.clone());
            }
        }
    }
    names
}

/// The stages of a phase: their actions, budgets and where each leads.
fn stages(
    c: &mut Compiler,
    rd: &YamlDoc,
    d: &mut Diags,
    base: &str,
    ph: &RawPhase,
    actions: &[ActionSpec],
) -> Vec<Stage> {
    let mut out: Vec<Stage> = Vec::new();
    for (si, s) in ph.stages.iter().enumerate() {
        let sptr = format!("{base}/stages/{si}");
        if ph.stages[..si].iter().any(|x| x.name == s.name) {
            d.at(
                rd,
                &format!("{sptr}/name"),
                "ruleset::flow",
                format!("stage `{}` is declared twice in this phase", s.name),
                None,
            );
        }
        let mut kinds = Vec::new();
        for (i, a) in s.actions.iter().enumerate() {
            match actions.iter().position(|x| x.name == *a) {
                Some(k) => kinds.push(k as u16),
                None => d.at(
                    rd,
                    &format!("{sptr}/actions/{i}"),
                    "ruleset::unknown_action",
                    format!("no action `{a}`"),
                    closest(a, actions.iter().map(|x| x.name.as_str()))
                        .map(|c| format!("did you mean `{c}`?")),
                ),
            }
        }
        let budget = match &s.budget {
            None => None,
            Some(v) => match c.json_const(v) {
                Ok(Value::Int(i)) if i >= 1 => Some(i),
                Ok(_) => {
                    d.at(
                        rd,
                        &format!("{sptr}/budget"),
                        "ruleset::flow",
                        "a stage's `budget` must be a whole number of at least 1",
                        Some(
                            "leave it out for a stage that lasts until the player moves on".into(),
                        ),
                    );
                    None
                }
                Err(e) => {
                    d.expr(rd, &format!("{sptr}/budget"), e);
                    None
                }
            },
        };
        let next = match s.next.as_deref() {
            None => None,
            Some("end") => Some(END_TURN),
            Some(n) => match ph.stages.iter().position(|x| x.name == n) {
                Some(i) => Some(i as u16),
                None => {
                    let names = ph.stages.iter().map(|x| x.name.as_str());
                    d.at(
                        rd,
                        &format!("{sptr}/next"),
                        "ruleset::unknown_stage",
                        format!("phase `{}` has no stage `{n}`", ph.name),
                        Some(match closest(n, names.clone()) {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => format!(
                                "stages: {} (or `end` to end the turn)",
                                names.collect::<Vec<_>>().join(", ")
                            ),
                        }),
                    );
                    None
                }
            },
        };
        out.push(Stage {
            name: s.name.clone(),
            sym: c.symbols.intern(&s.name),
            actions: kinds,
            budget,
            next,
        });
    }
    out
}
/// Compiles the resolution steps of a simultaneous phase.
fn resolve_steps(
    list: &[Json],
    base: &str,
    c: &mut Compiler,
    cell_vars: &[VarDecl],
    rd: &YamlDoc,
    d: &mut Diags,
) -> (Vec<ResolveStep>, Option<FlowVars>) {
    let mut steps = Vec::new();
    let mut fv = None;
    for (i, item) in list.iter().enumerate() {
        let ptr = format!("{base}/resolve/{i}");
        let Json::Object(m) = item else {
            d.at(
                rd,
                &ptr,
                "ruleset::resolve",
                "a resolution step is a mapping such as `{step: depart}`",
                None,
            );
            continue;
        };
        let Some(Json::String(step)) = m.get("step") else {
            d.at(
                rd,
                &ptr,
                "ruleset::resolve",
                "a resolution step needs `step: <name>`",
                None,
            );
            continue;
        };
        let num = |key: &str, d: &mut Diags, c: &mut Compiler| -> Option<Value> {
            let v = m.get(key)?;
            match c.json_const(v) {
                Ok(v) => Some(v),
                Err(e) => {
                    d.expr(rd, &format!("{ptr}/{key}"), e);
                    None
                }
            }
        };
        let text = |key: &str, d: &mut Diags| match m.get(key).and_then(|v| v.as_str()) {
            Some(t) => t.to_string(),
            None => {
                d.at(
                    rd,
                    &ptr,
                    "ruleset::resolve",
                    format!("step `{step}` needs `{key}: <event type>`"),
                    None,
                );
                String::new()
            }
        };
        let prob = |v: Option<Value>, key: &str, d: &mut Diags, positive: bool| -> f64 {
            match v.and_then(|v| v.as_f64()) {
                Some(p) if (0.0..=1.0).contains(&p) && (!positive || p > 0.0) => p,
                _ => {
                    let range = if positive {
                        "more than 0 and at most 1"
                    } else {
                        "between 0 and 1"
                    };
                    d.at(
                        rd,
                        &format!("{ptr}/{key}"),
                        "ruleset::resolve",
                        format!("`{key}` must be a probability {range}"),
                        Some("a zero chance here would let a procedure never end".into())
                            .filter(|_| positive),
                    );
                    0.5
                }
            }
        };
        if step == "flows" {
            let var = |key: &str, d: &mut Diags| -> Option<(u16, String)> {
                let name = m.get(key).and_then(|v| v.as_str());
                match name.and_then(|n| cell_vars.iter().find(|v| v.name == n)) {
                    Some(v) => Some((v.slot, v.name.clone())),
                    None => {
                        d.at(
                            rd,
                            &format!("{ptr}/{key}"),
                            "ruleset::resolve",
                            format!("`{key}` must name a cell variable"),
                            None,
                        );
                        None
                    }
                }
            };
            let (count, outgoing, incoming) =
                (var("count", d), var("outgoing", d), var("incoming", d));
            if let (Some(count), Some(outgoing), Some(incoming)) = (count, outgoing, incoming) {
                fv = Some(FlowVars {
                    count: count.0,
                    count_name: count.1,
                    outgoing: outgoing.0,
                    incoming: incoming.0,
                });
            }
            continue;
        }
        let s = match step.as_str() {
            "depart" => ResolveStep::Depart,
            "arrive_friendly" => ResolveStep::ArriveFriendly,
            "arrive_neutral" => {
                let chance = prob(num("chance", d, c), "chance", d, false);
                let hit = prob(num("contest_hit", d, c), "contest_hit", d, true);
                ResolveStep::ArriveNeutral {
                    chance,
                    hit,
                    event: text("event", d),
                    contest_event: text("contest_event", d),
                }
            }
            "arrive_hostile" => {
                let hit = prob(num("hit", d, c), "hit", d, true);
                let first = m
                    .get("first")
                    .and_then(|v| v.as_str())
                    .unwrap_or("defender");
                if first != "defender" && first != "attacker" {
                    d.at(
                        rd,
                        &format!("{ptr}/first"),
                        "ruleset::resolve",
                        "`first` is `defender` or `attacker`",
                        None,
                    );
                }
                ResolveStep::ArriveHostile {
                    hit,
                    defender_first: first == "defender",
                    event: text("event", d),
                }
            }
            "cap" => ResolveStep::Cap {
                max: num("max", d, c)
                    .and_then(|v| v.as_int())
                    .unwrap_or(i64::MAX),
            },
            "grow" => ResolveStep::Grow {
                amount: num("amount", d, c).and_then(|v| v.as_int()).unwrap_or(1),
                max: num("max", d, c)
                    .and_then(|v| v.as_int())
                    .unwrap_or(i64::MAX),
                event: text("event", d),
            },
            "effects" => {
                let list = m
                    .get("do")
                    .and_then(|v| v.as_array())
                    .cloned()
                    .unwrap_or_default();
                let mut errs = Vec::new();
                let stmts = c.effects(&list, &format!("{ptr}/do"), &mut errs);
                d.effects(rd, errs);
                ResolveStep::Effects(stmts)
            }
            o => {
                d.at(rd, &format!("{ptr}/step"), "ruleset::resolve", format!("unknown resolution step `{o}`"), Some("steps: flows, depart, arrive_friendly, arrive_neutral, arrive_hostile, cap, grow, effects".into()));
                continue;
            }
        };
        steps.push(s);
    }
    let needs_vars = steps.iter().any(|s| !matches!(s, ResolveStep::Effects(_)));
    if needs_vars && fv.is_none() {
        d.at(rd, &format!("{base}/resolve"), "ruleset::resolve", "built-in steps need a `{step: flows, count, outgoing, incoming}` entry naming the cell variables they use", None);
    }
    (steps, fv)
}
