//! What the ruleset tells agents: the greedy agent's evaluation of a position (a number, for `me`).
use super::Cx;
use crate::ir::Expr;
use crate::model::Ty;
use crate::ruleset::compile::{Catalog, Compiler};
use crate::ruleset::raw::RawRuleset;

/// The greedy agent's evaluation, if the ruleset gives one.
pub(super) fn greedy(cx: &mut Cx, cat: &Catalog, raw: &RawRuleset) -> Option<Expr> {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    raw.agents.greedy.as_ref().and_then(|g| {
        let mut c = Compiler::new(cat, symbols, true);
        let r = match c.json_expr(&g.evaluate) {
            Ok((e, t)) if t.is_numeric() || t == Ty::Nothing => Some(e),
            Ok((_, t)) => {
                d.at(
                    rd,
                    "/agents/greedy/evaluate",
                    "ruleset::expression",
                    format!("the evaluation must be a number, this is {}", t.name()),
                    None,
                );
                None
            }
            Err(e) => {
                d.expr(rd, "/agents/greedy/evaluate", e);
                None
            }
        };
        cx.max_locals = cx.max_locals.max(c.locals());
        r
    })
}
