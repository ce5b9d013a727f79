//! Values written by their type's name, checked at analysis: `cell('A1')` (against the scenario's board),
//! a table's row `kinds('plain')`, and typed nones (`cell(none)`, `unit(none)`, `TABLE(none)`); and the
//! refusal to assign a variable declared `constant`.
use super::compile::{closest, Compiler, ExprError};
use super::expr::{Ast, Node};
use crate::ir::game::VarDecl;
use crate::ir::Expr;
use crate::model::{Ty, Value};

type R<T> = Result<T, ExprError>;

fn err<T>(pos: usize, message: impl Into<String>) -> R<T> {
    Err(ExprError::new(pos, message))
}

fn err_hint<T>(pos: usize, message: impl Into<String>, hint: impl Into<String>) -> R<T> {
    Err(ExprError {
        hint: Some(hint.into()),
        ..ExprError::new(pos, message)
    })
}

impl Compiler<'_, '_> {
    /// Refuses an assignment to a variable declared `constant` (found among `decls` by its slot).
    pub(super) fn assignable<'d>(
        &self,
        mut decls: impl Iterator<Item = &'d VarDecl>,
        slot: u16,
        text: &str,
    ) -> R<()> {
        match decls.find(|d| d.slot == slot && d.constant) {
            Some(d) => err_hint(
                0,
                format!("`{text}` cannot be assigned: `{}` is declared `constant`", d.name),
                "a constant keeps the value it starts with; drop `constant: true` if the rules change it",
            ),
            None => Ok(()),
        }
    }

    /// A value of a type written by the type's name: `cell('A1')` (checked against the board), a table's
    /// row `kinds('plain')`, and with `none`, that type's none (`cell(none)`, `player(none)`,
    /// `unit(none)`): a typed start for a `let` that is filled in later.
    pub(super) fn typed_literal(
        &mut self,
        f: &str,
        args: &[Node],
        pos: usize,
    ) -> Option<R<(Expr, Ty)>> {
        let table = self.cat.tables.iter().position(|t| t.name == f);
        let ty = match f {
            "cell" => Ty::Cell,
            "unit" => Ty::Unit,
            _ => Ty::Row(table? as u16),
        };
        if ty == Ty::Unit && self.cat.unit_table.is_none() && !self.cat.failed.units {
            return None;
        }
        if args.len() != 1 {
            return Some(err(
                pos,
                format!("`{f}` takes one argument: an id as quoted text, or none"),
            ));
        }
        let what = match ty {
            Ty::Cell => "a cell id".to_string(),
            Ty::Unit => "none".to_string(),
            _ => format!("a row key of table `{f}`"),
        };
        let hint = format!("write `{f}(none)` for no value, or {what} in quotes");
        Some(match (&args[0].ast, ty) {
            (Ast::None, _) => Ok((Expr::Const(Value::None), ty)),
            (Ast::Str(id), Ty::Cell) => match self.cat.board {
                Some(b) => match b.find(id) {
                    Some(c) => Ok((Expr::Const(Value::Cell(c)), Ty::Cell)),
                    None => {
                        let ids = (0..b.len() as u32).map(|c| b.id(c));
                        let near = closest(id, ids);
                        err_hint(
                            args[0].pos,
                            format!("no cell '{id}' on this scenario's board"),
                            match near {
                                Some(c) => format!("did you mean '{c}'?"),
                                None => format!(
                                    "cells go from '{}' to '{}'",
                                    b.id(0),
                                    b.id(b.len() as u32 - 1)
                                ),
                            },
                        )
                    }
                },
                // No board (it failed and was reported): nothing to check the id against.
                None => Err(ExprError::follow_up(pos, "board")),
            },
            (Ast::Str(key), Ty::Row(t)) => {
                let tb = &self.cat.tables[t as usize];
                match tb.row(key) {
                    Some(r) => Ok((Expr::Const(Value::Row(t, r)), ty)),
                    None => err_hint(
                        args[0].pos,
                        format!("table `{f}` has no row '{key}'"),
                        match closest(key, tb.keys.iter().map(String::as_str)) {
                            Some(k) => format!("did you mean '{k}'?"),
                            None => format!("rows: {}", tb.keys.join(", ")),
                        },
                    ),
                }
            }
            _ => err_hint(
                args[0].pos,
                format!("`{f}(...)` takes {what} written as a literal, or none"),
                if ty == Ty::Cell {
                    "for a cell named by a computed text, use `first(cells where id == x)`"
                        .to_string()
                } else {
                    hint
                },
            ),
        })
    }
}
