//! Victory: the rules that end a match (control of a set of cells, elimination, a limit with ranking keys)
//! and when each is checked; and the invariants a match must keep (checked by simulations).
use super::Cx;
use crate::ir::game::{CheckPoint, Invariant, VictoryRule};
use crate::model::Ty;
use crate::ruleset::compile::{Catalog, Compiler};
use crate::ruleset::raw::RawRuleset;
use crate::ruleset::yaml::pointer_escape as esc;

/// The victory rules in order.
pub(super) fn compile(cx: &mut Cx, cat: &Catalog, raw: &RawRuleset) -> Vec<VictoryRule> {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    let mut victory = Vec::new();
    for (i, v) in raw.victory.iter().enumerate() {
        let base = format!("/victory/{i}");
        let mut c = Compiler::new(cat, symbols, true);
        let check = match v.check.as_deref() {
            None | Some("after_action") => CheckPoint::AfterAction,
            Some("turn_end") => CheckPoint::TurnEnd,
            Some(o) => {
                d.at(
                    rd,
                    &format!("{base}/check"),
                    "ruleset::victory",
                    format!("unknown check point `{o}`"),
                    Some("use after_action or turn_end".into()),
                );
                CheckPoint::AfterAction
            }
        };
        match v.kind.as_str() {
            "control" => match v.cells.as_ref().map(|s| c.json_set(s)) {
                Some(Ok(s)) if s.elem == Ty::Cell => victory.push(VictoryRule::Control {
                    cells: s,
                    check,
                    reason: v.reason.clone(),
                }),
                Some(Ok(_)) => d.at(
                    rd,
                    &format!("{base}/cells"),
                    "ruleset::victory",
                    "`cells` must be a set of cells",
                    None,
                ),
                Some(Err(e)) => d.expr(rd, &format!("{base}/cells"), e),
                None => d.at(
                    rd,
                    &base,
                    "ruleset::victory",
                    "a `control` rule needs `cells`",
                    None,
                ),
            },
            // Without units, a player is eliminated when it owns no cell (`engine::victory`).
            "elimination" => victory.push(VictoryRule::Elimination {
                check,
                reason: v.reason.clone(),
            }),
            "limit" => {
                let when = match v.when.as_ref().map(|w| c.json_cond(w)) {
                    Some(Ok(e)) => e,
                    Some(Err(e)) => {
                        d.expr(rd, &format!("{base}/when"), e);
                        continue;
                    }
                    None => {
                        d.at(
                            rd,
                            &base,
                            "ruleset::victory",
                            "a `limit` rule needs `when`",
                            None,
                        );
                        continue;
                    }
                };
                let mut rank = Vec::new();
                for (j, r) in v.rank.iter().enumerate() {
                    match c.json_expr(r) {
                        Ok((e, t)) if t.is_numeric() => rank.push(e),
                        Ok(_) => d.at(
                            rd,
                            &format!("{base}/rank/{j}"),
                            "ruleset::victory",
                            "ranking keys are numbers",
                            None,
                        ),
                        Err(e) => d.expr(rd, &format!("{base}/rank/{j}"), e),
                    }
                }
                let mut report = Vec::new();
                for (k, r) in &v.report {
                    match c.json_expr(r) {
                        Ok((e, _)) => report.push((k.clone(), e)),
                        Err(e) => d.expr(rd, &format!("{base}/report/{}", esc(k)), e),
                    }
                }
                victory.push(VictoryRule::Limit {
                    when,
                    rank,
                    report,
                    reason: v.reason.clone(),
                });
            }
            o => d.at(
                rd,
                &format!("{base}/kind"),
                "ruleset::victory",
                format!("unknown victory kind `{o}`"),
                Some("use control, elimination or limit".into()),
            ),
        }
        cx.max_locals = cx.max_locals.max(c.locals());
    }
    victory
}

/// The invariants in order.
pub(super) fn invariants(cx: &mut Cx, cat: &Catalog, raw: &RawRuleset) -> Vec<Invariant> {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    let mut invariants = Vec::new();
    for (i, inv) in raw.invariants.iter().enumerate() {
        let mut c = Compiler::new(cat, symbols, false);
        match c.json_cond(&inv.check) {
            Ok(e) => invariants.push(Invariant {
                check: e,
                message: inv.message.clone(),
            }),
            Err(e) => d.expr(rd, &format!("/invariants/{i}/check"), e),
        }
        cx.max_locals = cx.max_locals.max(c.locals());
    }
    invariants
}
