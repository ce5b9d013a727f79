//! Typing and compiling expressions and sets into the IR (effect lists are in `effects`), with every error
//! collected and follow-up errors (uses of a name whose definition failed) marked as such.
use indexmap::IndexMap;
use serde_json::Value as Json;

use super::expr::{self, Ast, Node};
use super::game::{Symbols, Table, VarDecl};
use super::hints;
use super::ir::*;
use crate::model::{Ty, Value};

mod builtins;
mod names;
mod operators;
mod sets;

/// What names can refer to: the declarations of the ruleset.
pub struct Catalog<'a> {
    pub players: &'a [String],
    pub settings: &'a IndexMap<String, Json>,
    pub tables: &'a [Table],
    pub player_vars: &'a [VarDecl],
    pub cell_vars: &'a [VarDecl],
    pub unit_vars: &'a [VarDecl],
    /// Variables of the whole game (`game.NAME`), stored as the first player's.
    pub game_vars: &'a [VarDecl],
    /// The scenario's board, when it was built: cell literals (`cell('A1')`) are checked against it.
    pub board: Option<&'a crate::board::Board>,
    pub unit_table: Option<u16>,
    /// The names of every stage of the flow (targets of the `stage:` effect).
    pub stages: &'a [String],
    pub script_fns: &'a [(String, usize)],
    /// Grid size (0 for graphs), readable as `board.width` and `board.height`.
    pub board_size: (u32, u32),
    /// Declarations that failed (and were reported): what refers to them is not reported again.
    pub failed: Failed<'a>,
}

/// Declarations of a ruleset that failed with a reported error.
#[derive(Clone, Copy, Default)]
pub struct Failed<'a> {
    /// Variables (of any scope) whose declaration failed.
    pub vars: &'a [String],
    /// `units` names a table that does not exist.
    pub units: bool,
    /// A script did not compile, so its functions are unknown.
    pub scripts: bool,
}

/// An error inside one expression: byte offset in the expression text, message and hint.
#[derive(Debug, Clone)]
pub struct ExprError {
    pub pos: usize,
    pub message: String,
    pub hint: Option<String>,
    /// The error follows from an earlier one that was reported (a name whose own definition failed):
    /// reporting it too would bury the root cause under its consequences.
    pub follow_up: bool,
}

impl ExprError {
    pub fn new(pos: usize, message: impl Into<String>) -> Self {
        ExprError {
            pos,
            message: message.into(),
            hint: None,
            follow_up: false,
        }
    }

    /// The error of using `name`, whose definition already failed with a reported error.
    pub(super) fn follow_up(pos: usize, name: &str) -> Self {
        ExprError {
            follow_up: true,
            ..ExprError::new(
                pos,
                format!("`{name}` could not be defined (see the error there)"),
            )
        }
    }
}

/// Where an effect-list problem is: a JSON pointer relative to the list, a byte offset inside the expression
/// text at that place (0 for non-expression problems), and the problem.
#[derive(Debug, Clone)]
pub struct EffectError {
    pub pointer: String,
    pub error: ExprError,
}

#[derive(Clone)]
pub(super) struct Binding {
    pub(super) name: String,
    pub(super) slot: u16,
    pub(super) ty: Ty,
    /// The name's definition failed (and was reported): uses of it are follow-up errors, not new ones.
    pub(super) failed: bool,
}

/// Compiles expressions for one block of rules (an action, a hook...). Locals get slots as they appear.
pub struct Compiler<'a, 'b> {
    pub cat: &'a Catalog<'a>,
    pub symbols: &'b mut Symbols,
    pub(super) names: Vec<Binding>,
    elems: Vec<(u16, Ty)>,
    next_slot: u16,
    max_slot: u16,
    /// Whether `me` means something here.
    pub has_me: bool,
    /// `split` parameters by local slot, with the set their total is shared over (their lists are also
    /// indexed by its elements).
    pub split_sets: Vec<(u16, SetExpr)>,
}

type R<T> = Result<T, ExprError>;

fn err<T>(pos: usize, message: impl Into<String>) -> R<T> {
    Err(ExprError {
        follow_up: false,
        pos,
        message: message.into(),
        hint: None,
    })
}

fn err_hint<T>(pos: usize, message: impl Into<String>, hint: impl Into<String>) -> R<T> {
    Err(ExprError {
        follow_up: false,
        pos,
        message: message.into(),
        hint: Some(hint.into()),
    })
}

fn syntax(e: expr::SyntaxError) -> ExprError {
    ExprError {
        hint: e.hint,
        ..ExprError::new(e.pos, e.message)
    }
}

/// The first error that is not a follow-up of an earlier one, else the first error, else all values.
fn first_real<T>(results: impl IntoIterator<Item = R<T>>) -> R<Vec<T>> {
    let mut values = Vec::new();
    let mut follow_up = None;
    for r in results {
        match r {
            Ok(v) => values.push(v),
            Err(e) if !e.follow_up => return Err(e),
            Err(e) => follow_up = follow_up.or(Some(e)),
        }
    }
    match follow_up {
        Some(e) => Err(e),
        None => Ok(values),
    }
}

pub use crate::diagnostic::closest;

fn json_to_const(v: &Json, symbols: &mut Symbols) -> Option<(Value, Ty)> {
    Some(match v {
        Json::Bool(b) => (Value::Bool(*b), Ty::Bool),
        Json::Number(n) => match n.as_i64() {
            Some(i) => (Value::Int(i), Ty::Int),
            None => (Value::Float(n.as_f64()?), Ty::Float),
        },
        Json::String(s) => (Value::Text(symbols.intern(s)), Ty::Text),
        Json::Null => (Value::None, Ty::Nothing),
        _ => return None,
    })
}

impl<'a, 'b> Compiler<'a, 'b> {
    pub fn new(cat: &'a Catalog<'a>, symbols: &'b mut Symbols, has_me: bool) -> Self {
        Compiler {
            cat,
            symbols,
            names: Vec::new(),
            elems: Vec::new(),
            next_slot: 0,
            max_slot: 0,
            has_me,
            split_sets: Vec::new(),
        }
    }

    /// Number of local slots this block needs.
    pub fn locals(&self) -> usize {
        self.max_slot as usize
    }

    /// Moves the next free slot up to `slot` (reserved regions).
    pub fn skip_to(&mut self, slot: u16) {
        self.next_slot = self.next_slot.max(slot);
        self.max_slot = self.max_slot.max(self.next_slot);
    }

    pub fn alloc(&mut self) -> u16 {
        let s = self.next_slot;
        self.next_slot += 1;
        self.max_slot = self.max_slot.max(self.next_slot);
        s
    }

    pub fn bind(&mut self, name: &str, ty: Ty) -> u16 {
        let slot = self.alloc();
        self.names.push(Binding {
            name: name.to_string(),
            slot,
            ty,
            failed: false,
        });
        slot
    }

    /// Declares a name whose definition failed with a reported error, so that its uses are not reported
    /// again as unknown names (with unrelated "did you mean" hints).
    pub fn bind_failed(&mut self, name: &str) {
        self.names.push(Binding {
            name: name.to_string(),
            slot: 0,
            ty: Ty::Nothing,
            failed: true,
        });
    }

    /// Binds an element (`it`, and its fields by bare name) for a nested predicate.
    pub fn push_elem(&mut self, ty: Ty) -> u16 {
        let slot = self.alloc();
        self.elems.push((slot, ty));
        slot
    }
    pub fn pop_elem(&mut self) {
        self.elems.pop();
    }

    /// Compiles YAML scalar or expression text.
    pub fn json_expr(&mut self, v: &Json) -> R<(Expr, Ty)> {
        match v {
            Json::String(s) => self.text_expr(s),
            other => match json_to_const(other, self.symbols) {
                Some((v, t)) => Ok((Expr::Const(v), t)),
                None => err(
                    0,
                    "expected an expression (text, number or boolean), found a list or mapping",
                ),
            },
        }
    }

    pub fn text_expr(&mut self, text: &str) -> R<(Expr, Ty)> {
        let node = expr::parse(text).map_err(syntax)?;
        self.expr(&node)
    }

    pub fn json_set(&mut self, v: &Json) -> R<SetExpr> {
        match v {
            Json::String(s) => {
                let node = expr::parse(s).map_err(syntax)?;
                self.set(&node)
            }
            _ => err(
                0,
                "expected a set expression such as `cells where owner == me`",
            ),
        }
    }

    /// Compiles a condition (must be boolean).
    pub fn json_cond(&mut self, v: &Json) -> R<Expr> {
        let (e, t) = self.json_expr(v)?;
        if t != Ty::Bool {
            return err(
                0,
                format!("expected a condition (true/false), this is {}", t.name()),
            );
        }
        Ok(e)
    }

    /// Compiles an expression and folds it to a constant (settings and literals only).
    pub fn json_const(&mut self, v: &Json) -> R<Value> {
        let (e, _) = self.json_expr(v)?;
        match fold(&e) {
            Some(v) => Ok(v),
            None => err(0, "this must be a constant: literals and settings only"),
        }
    }

    pub fn expr(&mut self, n: &Node) -> R<(Expr, Ty)> {
        let pos = n.pos;
        match &n.ast {
            Ast::Int(i) => Ok((Expr::Const(Value::Int(*i)), Ty::Int)),
            Ast::Float(f) => Ok((Expr::Const(Value::Float(*f)), Ty::Float)),
            Ast::Bool(b) => Ok((Expr::Const(Value::Bool(*b)), Ty::Bool)),
            Ast::None => Ok((Expr::Const(Value::None), Ty::Nothing)),
            Ast::Str(s) => Ok((Expr::Const(Value::Text(self.symbols.intern(s))), Ty::Text)),
            Ast::Name(name) => self.name(name, pos),
            Ast::Field(base, field) => self.field(base, field, pos),
            Ast::Index(base, index) => self.index(base, index, pos),
            Ast::Neg(x) => {
                let (e, t) = self.expr(x)?;
                if !t.is_numeric() {
                    return err(pos, format!("cannot negate {}", t.name()));
                }
                Ok((fold_or(Expr::Neg(Box::new(e))), t))
            }
            Ast::Not(x) => {
                let (e, t) = self.expr(x)?;
                if t != Ty::Bool {
                    return err(pos, format!("`not` needs a condition, found {}", t.name()));
                }
                Ok((Expr::Not(Box::new(e)), Ty::Bool))
            }
            Ast::Binary(op, a, b) => self.binary(op, a, b, pos),
            Ast::Call(f, args) => self.call(f, args, pos),
            Ast::List(items) => self.list_literal(items),
            Ast::Where(..) => err_hint(
                pos,
                "a set is not a value here",
                "wrap it: count(...), sum(..., value), any(...) or first(...)",
            ),
        }
    }
}

/// Folds an expression of constants.
pub fn fold(e: &Expr) -> Option<Value> {
    match e {
        Expr::Const(v) => Some(*v),
        Expr::Neg(x) => match fold(x)? {
            Value::Int(i) => Some(Value::Int(i.checked_neg()?)),
            Value::Float(f) => Some(Value::Float(-f)),
            _ => None,
        },
        Expr::Bin(op, a, b) => {
            let (a, b) = (fold(a)?, fold(b)?);
            crate::ir::ops::arith(*op, a, b).ok()
        }
        Expr::Call(f, args) => {
            let vals: Option<Vec<Value>> = args.iter().map(fold).collect();
            crate::ir::ops::pure_builtin(*f, &vals?)
        }
        _ => None,
    }
}

fn fold_or(e: Expr) -> Expr {
    match fold(&e) {
        Some(v) => Expr::Const(v),
        None => e,
    }
}
