//! Planning one set while it is lowered: conditions on data that never changes during a match (static
//! cell variables, tables, geometry) are split out and computed once per engine; `owner == x` and `empty`
//! become native scans of the state arrays. The meaning of the set is unchanged; only the work to list it
//! shrinks.
use crate::ir::game::{Game, ResolveStep};
use crate::ir::*;
use crate::model::{Ty, Value};

/// Cell-variable slots that no effect, hook or script ever writes.
pub fn constant_cell_slots(game: &Game) -> Vec<bool> {
    let mut constant = vec![true; game.cell_slots];
    for d in &game.cell_vars {
        // A drawn starting value differs between matches, and the fixed sets are kept across matches.
        if d.scratch || d.initial_expr.as_ref().is_some_and(|e| e.draws()) {
            let width = if d.per_player { game.players.len() } else { 1 };
            for k in 0..width {
                constant[d.slot as usize + k] = false;
            }
        }
    }
    let mut mark = |stmts: &[Stmt]| {
        visit_places(stmts, &mut |p| {
            if let Place::CellVar(_, slot, _) | Place::CellVarOf(_, slot, _, _) = p {
                // Per-player variables: every player's slot may be written.
                for k in 0..game.players.len().max(1) {
                    if let Some(c) = constant.get_mut(*slot as usize + k) {
                        *c = false;
                    }
                }
            }
        })
    };
    for a in &game.actions {
        mark(&a.effects);
    }
    for ph in &game.phases {
        mark(&ph.on_turn_start);
        mark(&ph.on_turn_end);
        for step in &ph.resolve {
            if let ResolveStep::Effects(s) = step {
                mark(s);
            }
        }
    }
    for ph in &game.phases {
        if let Some(fv) = &ph.flow_vars {
            for slot in [fv.count, fv.outgoing, fv.incoming] {
                for k in 0..game.players.len() {
                    if let Some(c) = constant.get_mut(slot as usize + k) {
                        *c = false;
                    }
                }
            }
        }
    }
    // Scripts may write any variable they name.
    for s in &game.scripts {
        for (f, name, _) in crate::script::literal_names(&s.text) {
            if f.starts_with("set_cell_var") {
                if let Some(d) = game.cell_vars.iter().find(|d| d.name == name) {
                    let width = if d.per_player { game.players.len() } else { 1 };
                    for k in 0..width {
                        constant[d.slot as usize + k] = false;
                    }
                }
            }
        }
        if s.text.contains("set_cell_var(") || s.text.contains("set_cell_var_of(") {
            // A computed name could reach any variable: only literal names were counted above.
            if crate::script::literal_names(&s.text)
                .iter()
                .filter(|(f, _, _)| f.starts_with("set_cell_var"))
                .count()
                < s.text.matches("set_cell_var").count()
            {
                constant.iter_mut().for_each(|c| *c = false);
            }
        }
    }
    constant
}

fn visit_places(stmts: &[Stmt], f: &mut dyn FnMut(&Place)) {
    for s in stmts {
        match s {
            Stmt::Assign(p, ..) => f(p),
            Stmt::If(_, a, b) => {
                visit_places(a, f);
                visit_places(b, f);
            }
            Stmt::For(_, body) => visit_places(body, f),
            _ => {}
        }
    }
}

/// Whether `e` depends only on the element in `slot` through data that never changes.
pub(super) fn is_fixed(e: &Expr, slot: u16, constant: &[bool]) -> bool {
    let elem = |x: &Expr| matches!(x, Expr::Local(s) if *s == slot);
    match e {
        // `me` is fixed within one player's view: such sets are kept per player.
        Expr::Const(_) | Expr::Me | Expr::Opponent => true,
        Expr::Local(s) => *s == slot,
        Expr::CellVar(c, s, _) => elem(c) && constant.get(*s as usize).copied().unwrap_or(false),
        Expr::CellId(c) | Expr::CellRow(c) | Expr::CellCol(c) => elem(c),
        Expr::RowCol(r, ..) | Expr::RowKey(r) => is_fixed(r, slot, constant),
        Expr::Neg(a) | Expr::Not(a) => is_fixed(a, slot, constant),
        Expr::Bin(_, a, b) | Expr::KeyEq(_, a, b) => {
            is_fixed(a, slot, constant) && is_fixed(b, slot, constant)
        }
        Expr::Call(b, args) => {
            matches!(
                b,
                Builtin::Min
                    | Builtin::Max
                    | Builtin::Abs
                    | Builtin::Floor
                    | Builtin::Ceil
                    | Builtin::Has
                    | Builtin::Float
            ) && args.iter().all(|a| is_fixed(a, slot, constant))
        }
        _ => false,
    }
}

pub(super) fn conjuncts(e: Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Bin(BinOp::And, a, b) => {
            conjuncts(*a, out);
            conjuncts(*b, out);
        }
        other => out.push(other),
    }
}

pub(super) fn join(mut parts: Vec<Expr>) -> Option<Expr> {
    let first = if parts.is_empty() {
        return None;
    } else {
        parts.remove(0)
    };
    Some(parts.into_iter().fold(first, |acc, e| {
        Expr::Bin(BinOp::And, Box::new(acc), Box::new(e))
    }))
}

/// Units: `owner == x` becomes a native scan of the unit table.
fn plan_unit_set(s: &mut SetExpr) {
    let Some(filter) = s.filter.take() else {
        return;
    };
    let mut parts = Vec::new();
    conjuncts(filter, &mut parts);
    let mut rest = Vec::new();
    for p in parts {
        if let Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) = &p {
            if s.scan.owner.is_none() {
                let owner_side = |x: &Expr| matches!(x, Expr::UnitOwner(u) if matches!(**u, Expr::Local(v) if v == s.slot));
                let independent = |x: &Expr| {
                    let mut used = Vec::new();
                    x.reads(&mut used) && !used.contains(&s.slot)
                };
                if owner_side(a) && independent(b) {
                    s.scan.owner = Some((*op == BinOp::Eq, (**b).clone()));
                    continue;
                }
                if owner_side(b) && independent(a) {
                    s.scan.owner = Some((*op == BinOp::Eq, (**a).clone()));
                    continue;
                }
            }
        }
        rest.push(p);
    }
    s.filter = join(rest);
}

/// The cell `x` of a conjunct `it == x` (either way round) where `x` is cell-typed, pure and does not
/// read the element `it` (in `slot`).
fn single_cell(p: &Expr, slot: u16) -> Option<&Expr> {
    let Expr::Bin(BinOp::Eq, a, b) = p else {
        return None;
    };
    let elem = |x: &Expr| matches!(x, Expr::Local(v) if *v == slot);
    let cell_typed = |x: &Expr| {
        matches!(
            x,
            Expr::PlayerVar(_, _, Ty::Cell)
                | Expr::CellVar(_, _, Ty::Cell)
                | Expr::CellVarOf(_, _, _, Ty::Cell)
                | Expr::UnitVar(_, _, Ty::Cell)
                | Expr::UnitAt(_)
                | Expr::Const(Value::Cell(_))
        )
    };
    let independent = |x: &Expr| {
        let mut used = Vec::new();
        x.reads(&mut used) && !used.contains(&slot)
    };
    let x: &Expr = if elem(a) {
        b
    } else if elem(b) {
        a
    } else {
        return None;
    };
    (cell_typed(x) && independent(x)).then_some(x)
}

/// Moves the natively testable parts of a set's filter into its scan (children are planned when lowered).
pub fn plan_set(s: &mut SetExpr, constant: &[bool]) {
    if matches!(s.source, SetSource::Units) {
        return plan_unit_set(s);
    }
    if !matches!(s.source, SetSource::Cells) || s.elem != Ty::Cell {
        return;
    }
    let Some(filter) = s.filter.take() else {
        return;
    };
    let mut parts = Vec::new();
    conjuncts(filter, &mut parts);
    // `it == x` with x a cell that does not depend on `it`: the set holds that one cell at most.
    if let Some(k) = parts.iter().position(|p| single_cell(p, s.slot).is_some()) {
        let p = parts.remove(k);
        if let Some(x) = single_cell(&p, s.slot) {
            s.source = SetSource::One(x.clone());
        }
        s.filter = join(parts);
        return;
    }
    let (mut fixed, mut rest) = (Vec::new(), Vec::new());
    let elem = |x: &Expr| matches!(x, Expr::Local(v) if *v == s.slot);
    for p in parts {
        if is_fixed(&p, s.slot, constant) {
            fixed.push(p);
            continue;
        }
        match &p {
            Expr::CellEmpty(c) if elem(c) && s.scan.empty.is_none() => s.scan.empty = Some(true),
            Expr::Not(inner)
                if matches!(&**inner, Expr::CellEmpty(c) if elem(c)) && s.scan.empty.is_none() =>
            {
                s.scan.empty = Some(false)
            }
            Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) if s.scan.owner.is_none() => {
                let owner_side = |x: &Expr| matches!(x, Expr::CellOwner(c) if elem(c));
                let independent = |x: &Expr| {
                    let mut used = Vec::new();
                    x.reads(&mut used) && !used.contains(&s.slot)
                };
                if owner_side(a) && independent(b) {
                    s.scan.owner = Some((*op == BinOp::Eq, (**b).clone()));
                } else if owner_side(b) && independent(a) {
                    s.scan.owner = Some((*op == BinOp::Eq, (**a).clone()));
                } else {
                    rest.push(p);
                }
            }
            _ => rest.push(p),
        }
    }
    s.scan.fixed = join(fixed);
    s.filter = join(rest);
}
