//! Actions: typed parameters (where their legal values come from, bounds, checks), the action's own checks,
//! its cost and effects; legality must not draw random numbers. And the wire aliases that name actions.
use super::diags::Diags;
use super::types::parse_ty;
use super::Cx;
use crate::ir::game::{ActionSpec, Check, ParamSpec, Split};
use crate::ir::Expr;
use crate::model::{Ty, Value};
use crate::ruleset::compile::{Catalog, Compiler};
use crate::ruleset::raw::{RawAction, RawBound, RawParam, RawRuleset};
use crate::ruleset::yaml::{pointer_escape as esc, YamlDoc};

/// The actions in declaration order, and the wire aliases (alias and action index).
pub(super) fn compile(
    cx: &mut Cx,
    cat: &Catalog,
    raw: &RawRuleset,
) -> (Vec<ActionSpec>, Vec<(String, u16)>) {
    let mut actions = Vec::new();
    for (name, a) in &raw.actions {
        actions.push(action(cx, cat, name, a));
    }
    let (rd, d) = (cx.rd, &mut cx.d);
    let mut wire_aliases = Vec::new();
    for (alias, target) in &raw.wire.aliases {
        if actions.iter().any(|a| a.name == *alias) {
            d.key(
                rd,
                &format!("/wire/aliases/{}", esc(alias)),
                "ruleset::alias_shadows_action",
                format!("alias `{alias}` is also the name of an action"),
                Some(format!(
                    "`{alias}` already means the action `{alias}`: give the alias another name, or drop it"
                )),
            );
            continue;
        }
        match actions.iter().position(|a| a.name == *target) {
            Some(i) => wire_aliases.push((alias.clone(), i as u16)),
            None => d.at(
                rd,
                &format!("/wire/aliases/{}", esc(alias)),
                "ruleset::unknown_action",
                format!("alias of unknown action `{target}`"),
                None,
            ),
        }
    }
    (actions, wire_aliases)
}

/// One action: its parameters in order (each bound to a local slot), checks, cost and effects.
fn action(cx: &mut Cx, cat: &Catalog, name: &str, a: &RawAction) -> ActionSpec {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    let base = format!("/actions/{}", esc(name));
    let mut c = Compiler::new(cat, symbols, true);
    let mut params = Vec::new();
    for (pname, p) in &a.params {
        params.extend(param(&mut c, d, rd, &base, pname, p));
    }
    let mut checks = Vec::new();
    for (i, ch) in a.require.iter().enumerate() {
        match c.json_cond(&ch.when) {
            Ok(e) => checks.push(Check {
                cond: e,
                reason: ch.reason.clone(),
            }),
            Err(e) => d.expr(rd, &format!("{base}/require/{i}/when"), e),
        }
    }
    let cost = match &a.cost {
        None => 1,
        Some(v) => match c.json_const(v) {
            Ok(Value::Int(i)) if i >= 0 => i,
            Ok(_) => {
                d.at(
                    rd,
                    &format!("{base}/cost"),
                    "ruleset::bad_cost",
                    "`cost` is a whole number of points, 0 or more",
                    None,
                );
                1
            }
            Err(e) => {
                d.expr(rd, &format!("{base}/cost"), e);
                1
            }
        },
    };
    // Legality is evaluated while listing actions too: it must not move the match's random stream.
    let draws = params.iter().any(|p| {
        p.source.as_ref().is_some_and(|(s, _)| s.draws())
            || p.min.as_ref().is_some_and(|(e, _)| e.draws())
            || p.max.as_ref().is_some_and(|(e, _)| e.draws())
            || p.checks.iter().any(|c| c.cond.draws())
            || p.split
                .as_ref()
                .is_some_and(|x| x.over.draws() || x.total.draws())
    }) || checks.iter().any(|c| c.cond.draws());
    if draws {
        d.at(
            rd,
            &base,
            "ruleset::random_in_condition",
            format!("action `{name}` draws random numbers in its parameters or conditions"),
            Some("legality is checked while listing actions: draw in `effects` instead".into()),
        );
    }
    let mut errs = Vec::new();
    let effects = c.effects(&a.effects, &format!("{base}/effects"), &mut errs);
    d.effects(rd, errs);
    cx.max_locals = cx.max_locals.max(c.locals());
    ActionSpec {
        name: name.to_string(),
        params,
        checks,
        cost,
        cost_declared: a.cost.is_some(),
        effects,
    }
}

/// One parameter, bound in `c` (a parameter whose type fails is still declared, and `None`).
fn param(
    c: &mut Compiler,
    d: &mut Diags,
    rd: &YamlDoc,
    base: &str,
    pname: &str,
    p: &RawParam,
) -> Option<ParamSpec> {
    let tables = c.cat.tables;
    let pptr = format!("{base}/params/{}", esc(pname));
    if p.ty == "split" {
        return split_param(c, d, rd, &pptr, pname, p);
    }
    if p.over.is_some() || p.total.is_some() {
        let key = if p.over.is_some() { "over" } else { "total" };
        d.key(
            rd,
            &format!("{pptr}/{key}"),
            "ruleset::bad_type",
            format!("`{key}` belongs to `type: split` parameters"),
            Some("remove it, or declare the parameter `type: split`".into()),
        );
    }
    let ty = match parse_ty(&p.ty, p.table.as_deref(), tables) {
        Ok(t) => t,
        Err(bad) => {
            bad.report(d, rd, &pptr);
            // Declared anyway: its uses are not further mistakes.
            c.bind_failed(pname);
            return None;
        }
    };
    if matches!(ty, Ty::Float | Ty::Bool | Ty::Text) {
        d.at(
            rd,
            &format!("{pptr}/type"),
            "ruleset::bad_type",
            "action parameters are cells, units, players, table rows or ints",
            None,
        );
    }
    let source = match &p.in_set {
        Some(s) => match c.json_set(s) {
            Ok(set) => {
                if set.elem != ty {
                    d.at(
                        rd,
                        &format!("{pptr}/in"),
                        "ruleset::expression",
                        format!(
                            "this set holds {}s but the parameter is a {}",
                            set.elem.name(),
                            ty.name()
                        ),
                        None,
                    );
                }
                Some((set, p.not_in.clone().unwrap_or_else(|| p.invalid.clone())))
            }
            Err(e) => {
                d.expr(rd, &format!("{pptr}/in"), e);
                None
            }
        },
        None => None,
    };
    let slot = c.bind(pname, ty);
    let bound = |b: &Option<RawBound>,
                 key: &str,
                 c: &mut Compiler,
                 d: &mut Diags|
     -> Option<(Expr, String)> {
        let b = b.as_ref()?;
        match c.json_expr(&b.value) {
            Ok((e, t)) if t.is_numeric() => Some((e, b.reason.clone())),
            Ok((_, t)) => {
                d.at(
                    rd,
                    &format!("{pptr}/{key}/value"),
                    "ruleset::expression",
                    format!("a bound is a number, this is {}", t.name()),
                    None,
                );
                None
            }
            Err(e) => {
                d.expr(rd, &format!("{pptr}/{key}/value"), e);
                None
            }
        }
    };
    let min = bound(&p.min, "min", c, d);
    let max = bound(&p.max, "max", c, d);
    // Bounds that were written but failed are reported where they failed, not again here.
    if ty == Ty::Int && p.in_set.is_none() && (p.min.is_none() || p.max.is_none()) {
        d.at(rd, &pptr, "ruleset::unbounded_param", format!("integer parameter `{pname}` needs `min` and `max` (or `in`) so its legal values can be listed"), None);
    }
    let mut checks = Vec::new();
    for (i, ch) in p.require.iter().enumerate() {
        match c.json_cond(&ch.when) {
            Ok(e) => checks.push(Check {
                cond: e,
                reason: ch.reason.clone(),
            }),
            Err(e) => d.expr(rd, &format!("{pptr}/require/{i}/when"), e),
        }
    }
    Some(ParamSpec {
        wire: pname.to_string(),
        ty,
        slot,
        invalid: p.invalid.clone(),
        source,
        source_last: p.in_last,
        min,
        max,
        checks,
        split: None,
    })
}

/// A `split` parameter: a list of whole numbers, one per element of `over`, adding up to `total`.
fn split_param(
    c: &mut Compiler,
    d: &mut Diags,
    rd: &YamlDoc,
    pptr: &str,
    pname: &str,
    p: &RawParam,
) -> Option<ParamSpec> {
    let over = match &p.over {
        Some(s) => match c.json_set(s) {
            Ok(set) => Some(set),
            Err(e) => {
                d.expr(rd, &format!("{pptr}/over"), e);
                None
            }
        },
        None => {
            d.at(rd, pptr, "ruleset::bad_type", format!("split parameter `{pname}` needs `over`: the set whose elements share the total"), Some("over: \"cells where field\"".into()));
            None
        }
    };
    let total = match &p.total {
        Some(v) => match c.json_expr(v) {
            Ok((e, Ty::Int)) => Some(e),
            Ok((_, t)) => {
                let msg = format!("a split's `total` is a whole number, this is {}", t.name());
                d.at(rd, &format!("{pptr}/total"), "ruleset::bad_type", msg, None);
                None
            }
            Err(e) => {
                d.expr(rd, &format!("{pptr}/total"), e);
                None
            }
        },
        None => {
            d.at(
                rd,
                pptr,
                "ruleset::bad_type",
                format!("split parameter `{pname}` needs `total`: the amount shared out"),
                Some("total: settings.troops".into()),
            );
            None
        }
    };
    for key in ["in", "min", "max"] {
        let given = match key {
            "in" => p.in_set.is_some(),
            "min" => p.min.is_some(),
            _ => p.max.is_some(),
        };
        if given {
            d.key(
                rd,
                &format!("{pptr}/{key}"),
                "ruleset::bad_type",
                format!("a split parameter takes `over` and `total`, not `{key}`"),
                Some("test the amounts with `require` (`max(troops) <= 5`)".into()),
            );
        }
    }
    let slot = c.bind(pname, Ty::List);
    let (Some(over), Some(total)) = (over, total) else {
        return None;
    };
    c.split_sets.push((slot, over.clone()));
    let mut checks = Vec::new();
    for (i, ch) in p.require.iter().enumerate() {
        match c.json_cond(&ch.when) {
            Ok(e) => checks.push(Check {
                cond: e,
                reason: ch.reason.clone(),
            }),
            Err(e) => d.expr(rd, &format!("{pptr}/require/{i}/when"), e),
        }
    }
    Some(ParamSpec {
        wire: pname.to_string(),
        ty: Ty::List,
        slot,
        invalid: p.invalid.clone(),
        source: None,
        source_last: false,
        min: None,
        max: None,
        checks,
        split: Some(Split { over, total }),
    })
}
