//! What the ruleset tells agents: its named evaluations of a position (a number, for `me`), each an agent
//! (`greedy` and any other name that is not a built-in agent).
use super::Cx;
use crate::ir::Expr;
use crate::model::Ty;
use crate::ruleset::compile::{Catalog, Compiler};
use crate::ruleset::raw::{RawRuleset, BUILT_IN_AGENTS};
use crate::ruleset::yaml::pointer_escape as esc;

/// The evaluations declared under `agents:`, by name, in the order written.
pub(super) fn evaluations(cx: &mut Cx, cat: &Catalog, raw: &RawRuleset) -> Vec<(String, Expr)> {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    let mut evaluations = Vec::new();
    for (name, g) in &raw.agents {
        let ptr = format!("/agents/{}", esc(name));
        if BUILT_IN_AGENTS.contains(&name.as_str()) {
            d.key(
                rd,
                &ptr,
                "ruleset::reserved_name",
                format!("`{name}` is a built-in agent"),
                Some("give the evaluation another name".into()),
            );
            continue;
        }
        let eptr = format!("{ptr}/evaluate");
        let mut c = Compiler::new(cat, symbols, true);
        match c.json_expr(&g.evaluate) {
            Ok((e, t)) if t.is_numeric() || t == Ty::Nothing => evaluations.push((name.clone(), e)),
            Ok((_, t)) => d.at(
                rd,
                &eptr,
                "ruleset::expression",
                format!("the evaluation must be a number, this is {}", t.name()),
                None,
            ),
            Err(e) => d.expr(rd, &eptr, e),
        }
        cx.max_locals = cx.max_locals.max(c.locals());
    }
    evaluations
}
