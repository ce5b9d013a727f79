//! Operators of one function's expressions: arithmetic, comparisons, `!`, `&&` and `||`, with Rhai's
//! meaning on the types they are translated for (and the checks Rhai makes on their operands).
use rhai::Expr as RExpr;

use super::func::{Fun, X};
use super::{refuse, Res, T};
use crate::ir::{BinOp, Expr, Stmt};
use crate::model::{Ty, Value};

impl Fun<'_, '_> {
    /// A condition operand: a boolean (Rhai fails on anything else, `()` included).
    pub fn boolean(&self, x: X, what: &str) -> Res<X> {
        if x.t.ty != Ty::Bool {
            return refuse(format!("`{what}` of a {}", x.t.ty.name()));
        }
        Ok(self.expect(
            x,
            format!("Data type incorrect: () (expecting bool) in `{what}`"),
        ))
    }

    /// A number operand (Rhai fails on `()` and on anything else).
    pub fn number(&self, x: X, what: &str) -> Res<X> {
        if !x.t.ty.is_numeric() {
            return refuse(format!("`{what}` of a {}", x.t.ty.name()));
        }
        Ok(self.expect(x, format!("Function not found: `{what}` of ()")))
    }

    /// `&&` (`and`) or `||`: booleans, the later ones evaluated only as needed.
    pub fn logic(&mut self, list: &[RExpr], and: bool) -> Res<X> {
        let what = if and { "&&" } else { "||" };
        let mut xs = Vec::new();
        for e in list {
            let x = self.expr(e)?;
            xs.push(self.boolean(x, what)?);
        }
        let mut xs = xs.into_iter();
        let Some(first) = xs.next() else {
            return refuse("an empty `&&`");
        };
        let rest: Vec<X> = xs.collect();
        let op = if and { BinOp::And } else { BinOp::Or };
        if rest.iter().all(|x| x.pre.is_empty()) {
            let e = rest.into_iter().fold(first.e, |acc, x| {
                Expr::Bin(op, Box::new(acc), Box::new(x.e))
            });
            return Ok(X {
                pre: first.pre,
                e,
                t: T::of(Ty::Bool),
            });
        }
        // Later operands with statements: `t = a; if t { b's statements; t = b; if t { ... } }`.
        let t = self.slot()?;
        let mut pre = first.pre;
        pre.push(Stmt::Let(t, first.e));
        let mut inner: Vec<Stmt> = Vec::new();
        for x in rest.into_iter().rev() {
            let mut body = x.pre;
            body.push(Stmt::Let(t, x.e));
            if !inner.is_empty() {
                let nested = std::mem::take(&mut inner);
                body.push(if and {
                    Stmt::If(Expr::Local(t), nested, Vec::new())
                } else {
                    Stmt::If(Expr::Local(t), Vec::new(), nested)
                });
            }
            inner = body;
        }
        pre.push(if and {
            Stmt::If(Expr::Local(t), inner, Vec::new())
        } else {
            Stmt::If(Expr::Local(t), Vec::new(), inner)
        });
        Ok(X {
            pre,
            e: Expr::Local(t),
            t: T::of(Ty::Bool),
        })
    }

    /// Built-in operators, with Rhai's meaning on the types they are translated for.
    pub fn operator(&mut self, name: &str, args: &[RExpr]) -> Res<X> {
        match (name, args) {
            ("-", [a]) => {
                let x = self.expr(a)?;
                let x = self.number(x, "-")?;
                let t = T::of(x.t.ty);
                Ok(X {
                    pre: x.pre,
                    e: Expr::Neg(Box::new(x.e)),
                    t,
                })
            }
            ("!", [a]) => {
                let x = self.expr(a)?;
                let x = self.boolean(x, "!")?;
                Ok(X {
                    pre: x.pre,
                    e: Expr::Not(Box::new(x.e)),
                    t: T::of(Ty::Bool),
                })
            }
            ("+" | "-" | "*" | "/" | "%", [a, b]) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                self.arith(name, a, b)
            }
            ("==" | "!=" | "<" | "<=" | ">" | ">=", [a, b]) => self.compare(name, a, b),
            _ => refuse(format!("the operator `{name}`")),
        }
    }

    /// `a op b` on numbers: integers stay integers (overflow and division by zero are errors, division and
    /// remainder truncate), anything with a float is a float.
    pub fn arith(&mut self, op: &str, a: X, b: X) -> Res<X> {
        let a = self.number(a, op)?;
        let b = self.number(b, op)?;
        let ty = if a.t.ty == Ty::Int && b.t.ty == Ty::Int {
            Ty::Int
        } else {
            Ty::Float
        };
        let bop = match op {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::DivTrunc,
            "%" => BinOp::RemTrunc,
            _ => return refuse(format!("the operator `{op}`")),
        };
        let (pre, es) = self.combine(vec![a, b])?;
        let mut es = es.into_iter();
        let (Some(x), Some(y)) = (es.next(), es.next()) else {
            return refuse("an operator without operands");
        };
        Ok(X {
            pre,
            e: Expr::Bin(bop, Box::new(x), Box::new(y)),
            t: T::of(ty),
        })
    }

    /// Comparisons: Rhai compares numbers as numbers, values of one type as themselves, and anything with
    /// `()` as different (never an error). Ids of different kinds (a cell and a player) are refused: Rhai
    /// would compare their text.
    fn compare(&mut self, op: &str, l: &RExpr, r: &RExpr) -> Res<X> {
        let (a, b) = match (l, r) {
            (RExpr::StringConstant(s, _), _) => {
                let b = self.expr(r)?;
                (self.literal(s.as_str(), b.t.ty)?, b)
            }
            (_, RExpr::StringConstant(s, _)) => {
                let a = self.expr(l)?;
                let b = self.literal(s.as_str(), a.t.ty)?;
                (a, b)
            }
            _ => (self.expr(l)?, self.expr(r)?),
        };
        let (ta, tb) = (a.t.ty, b.t.ty);
        let numeric_or_unit = |t: Ty| t.is_numeric() || t == Ty::Nothing;
        let ok = match op {
            "==" | "!=" => {
                ta == Ty::Nothing
                    || tb == Ty::Nothing
                    || ta == tb
                    || (ta.is_numeric() && tb.is_numeric())
            }
            _ => numeric_or_unit(ta) && numeric_or_unit(tb),
        };
        if !ok {
            return refuse(format!(
                "`{op}` between a {} and a {}",
                ta.name(),
                tb.name()
            ));
        }
        let bop = match op {
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            _ => BinOp::Ge,
        };
        let (pre, es) = self.combine(vec![a, b])?;
        let mut es = es.into_iter();
        let (Some(x), Some(y)) = (es.next(), es.next()) else {
            return refuse("a comparison without operands");
        };
        Ok(X {
            pre,
            e: Expr::Bin(bop, Box::new(x), Box::new(y)),
            t: T::of(Ty::Bool),
        })
    }

    /// A string literal standing for a value of type `ty` (a cell id, a player id, a row key, known text).
    pub fn literal(&self, s: &str, ty: Ty) -> Res<X> {
        let g = self.cx.game;
        let v = match ty {
            Ty::Cell => g.board.find(s).map(Value::Cell),
            Ty::Player => g.player_index(s).map(Value::Player),
            Ty::Row(t) => g
                .tables
                .get(t as usize)
                .and_then(|tb| tb.row(s))
                .map(|r| Value::Row(t, r)),
            Ty::Text => g.symbols.get(s).map(Value::Text),
            _ => None,
        };
        match v {
            Some(v) => Ok(X::pure(Expr::Const(v), T::of(ty))),
            None => refuse(format!("the text \"{s}\" as a {}", ty.name())),
        }
    }
}
