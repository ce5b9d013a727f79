//! Moving a translated function's local slots (numbered from 0) to the range it was given above every other
//! local, so no rule and no other function shares them.
use super::{refuse, Res};
use crate::ir::{Expr, Place, SetExpr, SetSource, Stmt};

fn at(s: &mut u16, base: u16) -> Res<()> {
    match s.checked_add(base) {
        Some(v) => {
            *s = v;
            Ok(())
        }
        None => refuse("too many local slots"),
    }
}

pub(super) fn stmt(s: &mut Stmt, base: u16) -> Res<()> {
    match s {
        Stmt::Let(slot, e) => {
            at(slot, base)?;
            expr(e, base)
        }
        Stmt::Assign(p, _, e) => {
            match p {
                Place::Local(slot) => at(slot, base)?,
                Place::PlayerVar(x, ..)
                | Place::CellVar(x, ..)
                | Place::UnitVar(x, ..)
                | Place::CellOwner(x)
                | Place::UnitAt(x) => expr(x, base)?,
                Place::CellVarOf(x, _, y, _) => {
                    expr(x, base)?;
                    expr(y, base)?;
                }
            }
            expr(e, base)
        }
        Stmt::Emit(spec) => spec.fields.iter_mut().try_for_each(|(_, e)| expr(e, base)),
        Stmt::If(c, a, b) => {
            expr(c, base)?;
            a.iter_mut().try_for_each(|s| stmt(s, base))?;
            b.iter_mut().try_for_each(|s| stmt(s, base))
        }
        Stmt::For(set, body) => {
            self::set(set, base)?;
            body.iter_mut().try_for_each(|s| stmt(s, base))
        }
        Stmt::Eval(e) | Stmt::Win(e, _) | Stmt::DestroyUnit(e) => expr(e, base),
        Stmt::Draw(_) | Stmt::EndTurn | Stmt::Stage(_) => Ok(()),
        Stmt::CreateUnit {
            kind,
            owner,
            at: cell,
            init,
            bind,
        } => {
            expr(kind, base)?;
            expr(owner, base)?;
            expr(cell, base)?;
            init.iter_mut().try_for_each(|(_, _, e)| expr(e, base))?;
            match bind {
                Some(b) => at(b, base),
                None => Ok(()),
            }
        }
    }
}

fn set(s: &mut SetExpr, base: u16) -> Res<()> {
    at(&mut s.slot, base)?;
    match &mut s.source {
        SetSource::Neighbours(e) | SetSource::One(e) => expr(e, base)?,
        SetSource::Within(a, b) | SetSource::Range(a, b) => {
            expr(a, base)?;
            expr(b, base)?;
        }
        SetSource::Reachable {
            from,
            max,
            slot,
            pred,
        } => {
            expr(from, base)?;
            expr(max, base)?;
            at(slot, base)?;
            expr(pred, base)?;
        }
        SetSource::Cells | SetSource::Units | SetSource::Players | SetSource::Rows(_) => {}
    }
    if let Some(f) = &mut s.filter {
        expr(f, base)?;
    }
    if let Some(f) = &mut s.scan.fixed {
        expr(f, base)?;
    }
    if let Some((_, e)) = &mut s.scan.owner {
        expr(e, base)?;
    }
    Ok(())
}

fn expr(e: &mut Expr, base: u16) -> Res<()> {
    match e {
        Expr::Local(s) => at(s, base),
        Expr::Const(_) | Expr::Me | Expr::Opponent | Expr::Counter(_) => Ok(()),
        Expr::Neg(a)
        | Expr::Not(a)
        | Expr::CellOwner(a)
        | Expr::CellId(a)
        | Expr::CellRow(a)
        | Expr::CellCol(a)
        | Expr::CellUnit(a)
        | Expr::CellEmpty(a)
        | Expr::CellVar(a, ..)
        | Expr::PlayerId(a)
        | Expr::PlayerVar(a, ..)
        | Expr::UnitOwner(a)
        | Expr::UnitAt(a)
        | Expr::UnitType(a)
        | Expr::UnitVar(a, ..)
        | Expr::RowKey(a)
        | Expr::RowCol(a, ..)
        | Expr::Expect(a, _) => expr(a, base),
        Expr::Bin(_, a, b) | Expr::KeyEq(_, a, b) | Expr::CellVarOf(a, _, b, _) => {
            expr(a, base)?;
            expr(b, base)
        }
        Expr::Call(_, args) | Expr::Script(_, args) => {
            args.iter_mut().try_for_each(|a| expr(a, base))
        }
        Expr::Count(s) | Expr::Any(s) | Expr::First(s) => set(s, base),
        Expr::Sum(s, x) => {
            set(s, base)?;
            expr(x, base)
        }
        Expr::Steps {
            from,
            to,
            max,
            slot,
            pred,
        } => {
            expr(from, base)?;
            expr(to, base)?;
            expr(max, base)?;
            at(slot, base)?;
            expr(pred, base)
        }
        Expr::List(op, args) => {
            if let crate::ir::ListOp::AtElement(s) = op {
                set(s, base)?;
            }
            args.iter_mut().try_for_each(|a| expr(a, base))
        }
    }
}
