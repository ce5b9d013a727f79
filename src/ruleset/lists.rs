//! Lists of whole numbers in expressions: literals `[a, b]`, `roll(n, sides)`, `sort`, `reverse`, `len`,
//! `max`/`min`/`sum` of one list, and indexing `l[i]` (or `l[x]` by an element of the set a `split`
//! parameter shares its total over). Lists are values of `let` names, event fields and parameters, never
//! of state variables.
use super::compile::{Compiler, ExprError};
use super::expr::{Ast, Node};
use crate::ir::{Expr, ListOp, SetExpr};
use crate::model::Ty;

type R<T> = Result<T, ExprError>;

fn err<T>(pos: usize, message: impl Into<String>, hint: impl Into<String>) -> R<T> {
    Err(ExprError {
        hint: Some(hint.into()),
        ..ExprError::new(pos, message)
    })
}

/// The functions of lists, for "did you mean" among all functions.
pub const LIST_FUNCTIONS: [&str; 4] = ["roll", "sort", "reverse", "len"];

impl Compiler<'_, '_> {
    /// `[a, b, c]`: every item a whole number.
    pub(super) fn list_literal(&mut self, items: &[Node]) -> R<(Expr, Ty)> {
        let mut out = Vec::new();
        for n in items {
            let (e, t) = self.expr(n)?;
            if !matches!(t, Ty::Int | Ty::Nothing) {
                return err(
                    n.pos,
                    format!("a list holds whole numbers, this is {}", t.name()),
                    "lists are of whole numbers: dice, amounts, counts",
                );
            }
            out.push(e);
        }
        Ok((Expr::List(ListOp::Literal, out.into()), Ty::List))
    }

    /// A list function, or `max`/`min`/`sum` of one list; `None` when `f(args)` is something else.
    pub(super) fn list_call(
        &mut self,
        f: &str,
        args: &[Node],
        pos: usize,
    ) -> Option<R<(Expr, Ty)>> {
        let one_list = matches!(f, "max" | "min" | "sum") && args.len() == 1;
        if !(LIST_FUNCTIONS.contains(&f) || one_list) {
            return None;
        }
        if f == "len" && args.len() == 1 && self.is_set(&args[0]) {
            return None; // a set: the usual hint (count)
        }
        Some(self.list_function(f, args, pos))
    }

    fn list_function(&mut self, f: &str, args: &[Node], pos: usize) -> R<(Expr, Ty)> {
        if f == "roll" {
            if args.len() != 2 {
                return err(
                    pos,
                    "`roll` takes a number of dice and their sides",
                    "roll(3, 6): three six-sided dice, as a list in the order rolled",
                );
            }
            let mut ops = Vec::new();
            for a in args {
                let (e, t) = self.expr(a)?;
                if !matches!(t, Ty::Int | Ty::Nothing) {
                    return err(
                        a.pos,
                        format!("`roll` takes whole numbers, this is {}", t.name()),
                        "roll(3, 6): three six-sided dice",
                    );
                }
                ops.push(e);
            }
            return Ok((Expr::List(ListOp::Roll, ops.into()), Ty::List));
        }
        if args.len() != 1 {
            return err(
                pos,
                format!("`{f}` takes one list, found {} arguments", args.len()),
                format!("{f}(dice)"),
            );
        }
        let (e, t) = self.expr(&args[0])?;
        if !matches!(t, Ty::List | Ty::Nothing) {
            let hint = match f {
                "max" | "min" => format!("`{f}` takes two numbers, or one list: {f}(a, b), {f}(dice)"),
                "sum" => "`sum` takes a set and a value, or one list: sum(units where owner == me, type.cost), sum(dice)".into(),
                _ => format!("{f}(dice), where dice is a list such as roll(3, 6) or [1, 2]"),
            };
            return err(
                args[0].pos,
                format!("`{f}` needs a list, this is {}", t.name()),
                hint,
            );
        }
        let (op, ty) = match f {
            "sort" => (ListOp::Sort, Ty::List),
            "reverse" => (ListOp::Reverse, Ty::List),
            "len" => (ListOp::Len, Ty::Int),
            "max" => (ListOp::Max, Ty::Int),
            "min" => (ListOp::Min, Ty::Int),
            _ => (ListOp::Sum, Ty::Int),
        };
        Ok((Expr::List(op, vec![e].into()), ty))
    }

    /// `base[index]` where `base` is a list: by position (0 first), or by an element of the set a `split`
    /// parameter was shared over.
    pub(super) fn list_index(
        &mut self,
        base: Expr,
        split_over: Option<SetExpr>,
        index: &Node,
    ) -> R<(Expr, Ty)> {
        let (i, t) = self.expr(index)?;
        if let Some(set) = split_over {
            if t == set.elem && t != Ty::Int {
                let op = ListOp::AtElement(Box::new(set));
                return Ok((Expr::List(op, vec![base, i].into()), Ty::Int));
            }
        }
        if !matches!(t, Ty::Int | Ty::Nothing) {
            return err(
                index.pos,
                format!("a list is indexed by a position (0 first), this is {}", t.name()),
                "dice[0] is the first item; an amount `split` over a set is also indexed by its elements",
            );
        }
        Ok((Expr::List(ListOp::At, vec![base, i].into()), Ty::Int))
    }

    /// Whether `n` is written as a set (a set source, or `S where ...`).
    fn is_set(&self, n: &Node) -> bool {
        match &n.ast {
            Ast::Where(..) => true,
            Ast::Name(s) => {
                ["cells", "units", "players"].contains(&s.as_str())
                    || self.cat.tables.iter().any(|t| t.name == *s)
            }
            Ast::Call(f, _) => super::hints::SET_FUNCTIONS.contains(&f.as_str()),
            _ => false,
        }
    }
}
