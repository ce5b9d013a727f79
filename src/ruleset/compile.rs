//! Typing and compiling expressions and sets into the IR (effect lists are in `effects`), with every error
//! collected and follow-up errors (uses of a name whose definition failed) marked as such.
use indexmap::IndexMap;
use serde_json::Value as Json;

use super::expr::{self, Ast, Node};
use super::game::{Symbols, Table, VarDecl};
use super::hints;
use super::ir::*;
use crate::model::{Ty, Value};

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

    fn name(&mut self, name: &str, pos: usize) -> R<(Expr, Ty)> {
        if let Some(b) = self.names.iter().rev().find(|b| b.name == name) {
            if b.failed {
                return Err(ExprError::follow_up(pos, name));
            }
            return Ok((Expr::Local(b.slot), b.ty));
        }
        if name == "it" {
            return match self.elems.last() {
                Some(&(slot, ty)) => Ok((Expr::Local(slot), ty)),
                None => err(
                    pos,
                    "`it` is only defined inside `where` filters and predicates",
                ),
            };
        }
        if let Some(&(slot, ty)) = self.elems.last() {
            match self.field_of(Expr::Local(slot), ty, name, pos) {
                Ok(r) => return Ok(r),
                Err(e) if e.follow_up => return Err(e),
                Err(_) => {}
            }
        }
        match name {
            "me" if self.has_me => return Ok((Expr::Me, Ty::Player)),
            "opponent" if self.has_me => {
                if self.cat.players.len() != 2 {
                    return err(pos, "`opponent` needs exactly two players");
                }
                return Ok((Expr::Opponent, Ty::Player));
            }
            "turn" => return Ok((Expr::Counter(Counter::Turn), Ty::Int)),
            "ply" => return Ok((Expr::Counter(Counter::Ply), Ty::Int)),
            "points" => return Ok((Expr::Counter(Counter::Points), Ty::Int)),
            "round" => return Ok((Expr::Counter(Counter::Round), Ty::Int)),
            _ => {}
        }
        if let Some(i) = self.cat.players.iter().position(|p| p == name) {
            return Ok((Expr::Const(Value::Player(i as u8)), Ty::Player));
        }
        err_hint(
            pos,
            format!("unknown name `{name}`"),
            self.unknown_name_hint(name),
        )
    }

    /// Help for an unknown bare name: a name of the right kind written without its prefix, a word of
    /// another language, a close local name; always the reminder that text needs quotes.
    fn unknown_name_hint(&self, name: &str) -> String {
        let quote = format!("to write text, quote it: '{name}'");
        if self.cat.settings.contains_key(name) {
            return format!("settings are read with their prefix: `settings.{name}`");
        }
        if self.cat.player_vars.iter().any(|v| v.name == name) && self.has_me {
            return format!(
                "`{name}` is a player variable: write `me.{name}` (or `p.{name}` for a player p)"
            );
        }
        if let Some(v) = self.cat.cell_vars.iter().find(|v| v.name == name) {
            let index = if v.per_player { "[player]" } else { "" };
            return format!(
                "`{name}` is a cell variable: read it from a cell, as in `c.{name}{index}`"
            );
        }
        if self.cat.unit_vars.iter().any(|v| v.name == name) {
            return format!("`{name}` is a unit variable: read it from a unit, as in `u.{name}`");
        }
        let is_set = ["cells", "units", "players"].contains(&name)
            || self.cat.tables.iter().any(|t| t.name == name);
        if is_set {
            return format!("`{name}` is a set, not a value: wrap it: count({name}), any({name} where ...), first(...) or sum(..., value)");
        }
        if let Some(h) = super::hints::foreign_name(name) {
            return h.to_string();
        }
        let mut known: Vec<&str> = self
            .names
            .iter()
            .filter(|b| !b.failed)
            .map(|b| b.name.as_str())
            .collect();
        known.extend([
            "me", "opponent", "turn", "ply", "points", "round", "settings", "it",
        ]);
        known.extend(self.cat.players.iter().map(String::as_str));
        if let Some(c) = closest(name, known.iter().copied()) {
            return format!("did you mean `{c}`? ({quote})");
        }
        // A misspelt variable or setting written without what it belongs to.
        let mut prefixed: Vec<(&str, String)> = Vec::new();
        for v in self.cat.cell_vars {
            let index = if v.per_player { "[player]" } else { "" };
            prefixed.push((&v.name, format!("c.{}{index}` (a cell variable", v.name)));
        }
        if self.has_me {
            for v in self.cat.player_vars {
                prefixed.push((&v.name, format!("me.{}` (a player variable", v.name)));
            }
        }
        for v in self.cat.unit_vars {
            prefixed.push((&v.name, format!("u.{}` (a unit variable", v.name)));
        }
        for k in self.cat.settings.keys() {
            prefixed.push((k, format!("settings.{k}` (a setting")));
        }
        match closest(name, prefixed.iter().map(|(n, _)| *n)) {
            Some(c) => {
                let full = prefixed.iter().find(|(n, _)| *n == c).map_or("", |(_, f)| f.as_str());
                format!("did you mean `{full})? ({quote})")
            }
            None => format!("names available here: parameters, `let` names, me, opponent, turn, ply, points, round, settings.NAME; {quote}"),
        }
    }

    fn var_field(decls: &[VarDecl], name: &str) -> Option<VarDecl> {
        decls.iter().find(|d| d.name == name).cloned()
    }

    /// Resolves `base.field` where base has type `ty`.
    fn field_of(&mut self, base: Expr, ty: Ty, field: &str, pos: usize) -> R<(Expr, Ty)> {
        let b = Box::new(base);
        match ty {
            Ty::Cell => match field {
                "owner" => Ok((Expr::CellOwner(b), Ty::Player)),
                "id" => Ok((Expr::CellId(b), Ty::Text)),
                "row" => Ok((Expr::CellRow(b), Ty::Int)),
                "col" => Ok((Expr::CellCol(b), Ty::Int)),
                "unit" => Ok((Expr::CellUnit(b), Ty::Unit)),
                "empty" => Ok((Expr::CellEmpty(b), Ty::Bool)),
                _ => match Self::var_field(self.cat.cell_vars, field) {
                    Some(d) if d.per_player => err_hint(
                        pos,
                        format!("`{field}` has one value per player"),
                        format!("index it with a player: {field}[me]"),
                    ),
                    Some(d) => Ok((Expr::CellVar(b, d.slot, d.ty), d.ty)),
                    None => self.unknown_field(
                        "cell",
                        field,
                        pos,
                        self.cat.cell_vars,
                        &["owner", "id", "row", "col", "unit", "empty"],
                    ),
                },
            },
            Ty::Unit => match field {
                "owner" => Ok((Expr::UnitOwner(b), Ty::Player)),
                "at" => Ok((Expr::UnitAt(b), Ty::Cell)),
                "id" => Ok((*b, Ty::Unit)),
                "type" => match self.cat.unit_table {
                    Some(t) => Ok((Expr::UnitType(b), Ty::Row(t))),
                    None if self.cat.failed.units => Err(ExprError::follow_up(pos, "units")),
                    None => err(pos, "this ruleset declares no units"),
                },
                _ => match Self::var_field(self.cat.unit_vars, field) {
                    Some(d) => Ok((Expr::UnitVar(b, d.slot, d.ty), d.ty)),
                    None => self.unknown_field(
                        "unit",
                        field,
                        pos,
                        self.cat.unit_vars,
                        &["owner", "at", "id", "type"],
                    ),
                },
            },
            Ty::Player => match field {
                "id" => Ok((Expr::PlayerId(b), Ty::Text)),
                _ => match Self::var_field(self.cat.player_vars, field) {
                    Some(d) => Ok((Expr::PlayerVar(b, d.slot, d.ty), d.ty)),
                    None => self.unknown_field("player", field, pos, self.cat.player_vars, &["id"]),
                },
            },
            Ty::Row(t) => {
                let table = &self.cat.tables[t as usize];
                if field == "key" {
                    return Ok((Expr::RowKey(b), Ty::Text));
                }
                match table.column(field) {
                    Some(c) => Ok((Expr::RowCol(b, t, c), table.columns[c as usize].1)),
                    None => {
                        let names: Vec<&str> =
                            table.columns.iter().map(|(c, _)| c.as_str()).collect();
                        let hint = match closest(field, names.iter().copied()) {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => format!("columns of `{}`: {}", table.name, names.join(", ")),
                        };
                        err_hint(
                            pos,
                            format!("table `{}` has no column `{field}`", table.name),
                            hint,
                        )
                    }
                }
            }
            other => err(pos, format!("{} has no fields (`.{field}`)", other.name())),
        }
    }

    fn unknown_field<T>(
        &self,
        what: &str,
        field: &str,
        pos: usize,
        decls: &[VarDecl],
        builtins: &[&str],
    ) -> R<T> {
        if self.cat.failed.vars.iter().any(|v| v == field) {
            return Err(ExprError::follow_up(pos, field));
        }
        let mut names: Vec<&str> = decls.iter().map(|d| d.name.as_str()).collect();
        names.extend(builtins);
        let hint = match closest(field, names.iter().copied()) {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("{what} fields: {}", names.join(", ")),
        };
        err_hint(pos, format!("a {what} has no field `{field}`"), hint)
    }

    fn field(&mut self, base: &Node, field: &str, pos: usize) -> R<(Expr, Ty)> {
        if let Ast::Name(n) = &base.ast {
            if n == "board" && !self.names.iter().any(|b| b.name == "board") {
                return match field {
                    "width" => Ok((
                        Expr::Const(Value::Int(self.cat.board_size.0 as i64)),
                        Ty::Int,
                    )),
                    "height" => Ok((
                        Expr::Const(Value::Int(self.cat.board_size.1 as i64)),
                        Ty::Int,
                    )),
                    _ => err_hint(
                        pos,
                        format!("the board has no field `{field}`"),
                        "board fields: width, height",
                    ),
                };
            }
            if n == "game" && !self.names.iter().any(|b| b.name == "game") {
                return match Self::var_field(self.cat.game_vars, field) {
                    // Stored as the first player's variable (see `Game::game_vars`).
                    Some(d) => Ok((
                        Expr::PlayerVar(Box::new(Expr::Const(Value::Player(0))), d.slot, d.ty),
                        d.ty,
                    )),
                    None => self.unknown_field("game", field, pos, self.cat.game_vars, &[]),
                };
            }
            if n == "settings" && !self.names.iter().any(|b| b.name == "settings") {
                return match self.cat.settings.get(field) {
                    Some(v) => match json_to_const(v, self.symbols) {
                        Some((v, t)) => Ok((Expr::Const(v), t)),
                        None => err(pos, format!("setting `{field}` is not a scalar")),
                    },
                    None => {
                        let hint =
                            match closest(field, self.cat.settings.keys().map(|s| s.as_str())) {
                                Some(c) => format!("did you mean `{c}`?"),
                                None => "declare it under `settings:`".into(),
                            };
                        err_hint(pos, format!("unknown setting `{field}`"), hint)
                    }
                };
            }
        }
        let (b, ty) = self.expr(base)?;
        self.field_of(b, ty, field, pos)
    }

    fn index(&mut self, base: &Node, index: &Node, pos: usize) -> R<(Expr, Ty)> {
        const ONLY: &str =
            "only per-player cell variables can be indexed, as in `cell.var[player]`";
        // A bare per-player variable inside a cell filter means the element's: `count[me]`.
        let implicit;
        let (cell, var): (&Node, &String) = match &base.ast {
            Ast::Field(cell, var) => (cell, var),
            Ast::Name(var)
                if matches!(self.elems.last(), Some((_, Ty::Cell)))
                    && !self.names.iter().any(|b| b.name == *var) =>
            {
                implicit = Node {
                    ast: Ast::Name("it".into()),
                    pos: base.pos,
                };
                (&implicit, var)
            }
            _ => {
                // What the base is comes first: an unknown name is that, not an indexing problem.
                let (b, ty) = self.expr(base)?;
                if ty == Ty::List {
                    let over = match &b {
                        Expr::Local(s) => self
                            .split_sets
                            .iter()
                            .find(|x| x.0 == *s)
                            .map(|x| x.1.clone()),
                        _ => None,
                    };
                    return self.list_index(b, over, index);
                }
                return err_hint(pos, format!("{} cannot be indexed", ty.name()), ONLY);
            }
        };
        let (c, cty) = self.expr(cell)?;
        if cty != Ty::Cell {
            // `me.gold[P1]`: an unknown field is reported as such; a known one cannot be indexed.
            self.field_of(c, cty, var, base.pos)?;
            return err_hint(
                pos,
                format!("`{var}` is not a per-player cell variable, so it cannot be indexed"),
                ONLY,
            );
        }
        const BUILTIN: [&str; 6] = ["owner", "id", "row", "col", "unit", "empty"];
        let Some(d) = Self::var_field(self.cat.cell_vars, var) else {
            if self.cat.failed.vars.contains(var) {
                return Err(ExprError::follow_up(base.pos, var));
            }
            if BUILTIN.contains(&var.as_str()) {
                return err_hint(
                    pos,
                    format!("`{var}` is not a per-player variable"),
                    format!("it has one value per cell: write `cell.{var}` without `[...]`"),
                );
            }
            let per_player: Vec<&str> = self
                .cat
                .cell_vars
                .iter()
                .filter(|d| d.per_player)
                .map(|d| d.name.as_str())
                .collect();
            let all = self.cat.cell_vars.iter().map(|d| d.name.as_str());
            let hint = match closest(var, per_player.iter().copied()).or_else(|| closest(var, all))
            {
                Some(near) => format!("did you mean `{near}`?"),
                None if per_player.is_empty() => {
                    "this ruleset declares no per-player cell variables".into()
                }
                None => format!("per-player cell variables: {}", per_player.join(", ")),
            };
            return err_hint(base.pos, format!("unknown variable `{var}`"), hint);
        };
        if !d.per_player {
            return err_hint(
                pos,
                format!("`{var}` is not a per-player variable"),
                format!("it has one value per cell: write `cell.{var}` without `[...]`"),
            );
        }
        let (p, pty) = self.expr(index)?;
        if pty != Ty::Player {
            return err(
                index.pos,
                format!("index `{var}` with a player, not {}", pty.name()),
            );
        }
        Ok((
            Expr::CellVarOf(Box::new(c), d.slot, Box::new(p), d.ty),
            d.ty,
        ))
    }

    fn binary(&mut self, op: &str, a: &Node, b: &Node, pos: usize) -> R<(Expr, Ty)> {
        let (ra, rb) = (self.expr(a), self.expr(b));
        let (ra, rb) = if matches!(op, "==" | "!=") {
            let ty = |r: &R<(Expr, Ty)>| r.as_ref().ok().map(|x| x.1);
            let (ta, tb) = (ty(&ra), ty(&rb));
            (self.text_hint(ra, a, tb), self.text_hint(rb, b, ta))
        } else {
            (ra, rb)
        };
        let mut both = first_real([ra, rb])?.into_iter();
        let (Some((ea, ta)), Some((eb, tb))) = (both.next(), both.next()) else {
            return err(pos, "internal: a binary operator without two operands");
        };
        if (ta == Ty::List || tb == Ty::List) && op != "??" {
            return err_hint(
                pos,
                format!("`{op}` does not apply to lists"),
                "compare or add their items: max(dice), sum(dice), dice[0], len(dice)",
            );
        }
        let bin = |o: BinOp| Expr::Bin(o, Box::new(ea.clone()), Box::new(eb.clone()));
        match op {
            "+" | "-" | "*" | "/" | "%" => {
                if !ta.is_numeric() || !tb.is_numeric() {
                    return err(
                        pos,
                        format!(
                            "`{op}` needs numbers, found {} and {}",
                            ta.name(),
                            tb.name()
                        ),
                    );
                }
                let o = match op {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "/" => BinOp::Div,
                    _ => BinOp::Rem,
                };
                let ty = if ta == Ty::Float || tb == Ty::Float {
                    Ty::Float
                } else {
                    Ty::Int
                };
                Ok((fold_or(bin(o)), ty))
            }
            "<" | "<=" | ">" | ">=" => {
                if !ta.is_numeric() || !tb.is_numeric() {
                    return err(
                        pos,
                        format!(
                            "`{op}` compares numbers, found {} and {}",
                            ta.name(),
                            tb.name()
                        ),
                    );
                }
                let o = match op {
                    "<" => BinOp::Lt,
                    "<=" => BinOp::Le,
                    ">" => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                Ok((fold_or(bin(o)), Ty::Bool))
            }
            "==" | "!=" => {
                let eq = op == "==";
                let keyed = |t: Ty| matches!(t, Ty::Row(_) | Ty::Player | Ty::Unit);
                if keyed(ta) && tb == Ty::Text {
                    self.check_key(ta, &eb, b.pos)?;
                    return Ok((Expr::KeyEq(eq, Box::new(ea), Box::new(eb)), Ty::Bool));
                }
                if keyed(tb) && ta == Ty::Text {
                    self.check_key(tb, &ea, a.pos)?;
                    return Ok((Expr::KeyEq(eq, Box::new(eb), Box::new(ea)), Ty::Bool));
                }
                let compatible = ta == tb
                    || ta == Ty::Nothing
                    || tb == Ty::Nothing
                    || (ta.is_numeric() && tb.is_numeric());
                if !compatible {
                    return err(
                        pos,
                        format!("cannot compare {} with {}", ta.name(), tb.name()),
                    );
                }
                Ok((
                    fold_or(bin(if eq { BinOp::Eq } else { BinOp::Ne })),
                    Ty::Bool,
                ))
            }
            "and" | "or" => {
                if ta != Ty::Bool || tb != Ty::Bool {
                    return err(
                        pos,
                        format!(
                            "`{op}` joins conditions, found {} and {}",
                            ta.name(),
                            tb.name()
                        ),
                    );
                }
                Ok((
                    bin(if op == "and" { BinOp::And } else { BinOp::Or }),
                    Ty::Bool,
                ))
            }
            "??" => {
                let ty = if ta == Ty::Nothing { tb } else { ta };
                Ok((bin(BinOp::Coalesce), ty))
            }
            _ => err(pos, format!("unknown operator {op}")),
        }
    }

    /// `c.kind == grass`: an unknown bare name compared with text, a row or a player was most likely meant
    /// as text; say that first (a row of that table, if it is one), even when a local name is close.
    fn text_hint(&self, r: R<(Expr, Ty)>, node: &Node, other: Option<Ty>) -> R<(Expr, Ty)> {
        let mut e = match r {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        let (Ast::Name(name), Some(ty)) = (&node.ast, other) else {
            return Err(e);
        };
        if e.follow_up || e.message != format!("unknown name `{name}`") {
            return Err(e);
        }
        let quoted = match ty {
            Ty::Row(t) => {
                let table = &self.cat.tables[t as usize];
                match table.row(name) {
                    Some(_) => format!("`{name}` is a row of table `{}`: quote it: '{name}'", table.name),
                    None => match closest(name, table.keys.iter().map(String::as_str)) {
                        Some(k) => format!("to compare with a row of table `{}`, quote its key: did you mean '{k}'?", table.name),
                        None => format!("to compare with a row of table `{}`, quote its key (rows: {})", table.name, table.keys.join(", ")),
                    },
                }
            }
            Ty::Text => format!("to compare with text, quote it: '{name}'"),
            Ty::Player => {
                e.hint = Some(
                    match closest(name, self.cat.players.iter().map(String::as_str)) {
                        Some(p) => format!("did you mean the player `{p}`?"),
                        None => format!("players: {}", self.cat.players.join(", ")),
                    },
                );
                return Err(e);
            }
            _ => return Err(e),
        };
        let local = self
            .names
            .iter()
            .filter(|b| !b.failed)
            .map(|b| b.name.as_str());
        e.hint = Some(match closest(name, local) {
            Some(near) => format!("{quoted} (or did you mean the name `{near}`?)"),
            None => quoted,
        });
        Err(e)
    }

    /// A literal compared with a row or player must be one of its keys: catches typos at analysis.
    pub(super) fn check_key(&mut self, ty: Ty, lit: &Expr, pos: usize) -> R<()> {
        let Expr::Const(Value::Text(sym)) = lit else {
            return Ok(());
        };
        let text = self.symbols.name(*sym).to_string();
        match ty {
            Ty::Row(t) => {
                let table = &self.cat.tables[t as usize];
                if table.row(&text).is_none() {
                    let hint = match closest(&text, table.keys.iter().map(|s| s.as_str())) {
                        Some(c) => format!("did you mean '{c}'?"),
                        None => format!("rows: {}", table.keys.join(", ")),
                    };
                    return err_hint(
                        pos,
                        format!("table `{}` has no row '{text}'", table.name),
                        hint,
                    );
                }
            }
            Ty::Player if !self.cat.players.contains(&text) => {
                return err_hint(
                    pos,
                    format!("no player '{text}'"),
                    format!("players: {}", self.cat.players.join(", ")),
                );
            }
            _ => {}
        }
        Ok(())
    }

    fn args(&mut self, f: &str, args: &[Node], n: usize, pos: usize) -> R<Vec<(Expr, Ty)>> {
        if args.len() != n {
            return err(
                pos,
                format!("`{f}` takes {n} argument(s), found {}", args.len()),
            );
        }
        let compiled: Vec<R<(Expr, Ty)>> = args.iter().map(|a| self.expr(a)).collect();
        first_real(compiled)
    }

    fn want(&self, f: &str, got: Ty, want: Ty, pos: usize) -> R<()> {
        let ok = got == want || got == Ty::Nothing || (want == Ty::Float && got == Ty::Int);
        if ok {
            Ok(())
        } else {
            err(
                pos,
                format!("`{f}` expects {} here, found {}", want.name(), got.name()),
            )
        }
    }

    fn call(&mut self, f: &str, args: &[Node], pos: usize) -> R<(Expr, Ty)> {
        if let Some(r) = self.list_call(f, args, pos) {
            return r;
        }
        let simple =
            |b: Builtin, v: Vec<(Expr, Ty)>| Expr::Call(b, v.into_iter().map(|(e, _)| e).collect());
        match f {
            "min" | "max" => {
                let v = self.args(f, args, 2, pos)?;
                if !v[0].1.is_numeric() || !v[1].1.is_numeric() {
                    return err(pos, format!("`{f}` needs numbers"));
                }
                let ty = if v[0].1 == Ty::Float || v[1].1 == Ty::Float {
                    Ty::Float
                } else {
                    Ty::Int
                };
                Ok((
                    fold_or(simple(
                        if f == "min" {
                            Builtin::Min
                        } else {
                            Builtin::Max
                        },
                        v,
                    )),
                    ty,
                ))
            }
            "abs" => {
                let v = self.args(f, args, 1, pos)?;
                let ty = v[0].1;
                if !ty.is_numeric() {
                    return err(pos, "`abs` needs a number");
                }
                Ok((fold_or(simple(Builtin::Abs, v)), ty))
            }
            "floor" | "ceil" => {
                let v = self.args(f, args, 1, pos)?;
                if !v[0].1.is_numeric() {
                    return err(pos, format!("`{f}` needs a number"));
                }
                Ok((
                    fold_or(simple(
                        if f == "floor" {
                            Builtin::Floor
                        } else {
                            Builtin::Ceil
                        },
                        v,
                    )),
                    Ty::Int,
                ))
            }
            "float" => {
                let v = self.args(f, args, 1, pos)?;
                if !v[0].1.is_numeric() {
                    return err(pos, "`float` needs a number");
                }
                Ok((fold_or(simple(Builtin::Float, v)), Ty::Float))
            }
            "has" => {
                let v = self.args(f, args, 1, pos)?;
                Ok((simple(Builtin::Has, v), Ty::Bool))
            }
            "adjacent" | "distance" | "line_of_sight" | "midpoint" => {
                let v = self.args(f, args, 2, pos)?;
                self.want(f, v[0].1, Ty::Cell, args[0].pos)?;
                self.want(f, v[1].1, Ty::Cell, args[1].pos)?;
                let (b, ty) = match f {
                    "adjacent" => (Builtin::Adjacent, Ty::Bool),
                    "distance" => (Builtin::Distance, Ty::Int),
                    "line_of_sight" => (Builtin::LineOfSight, Ty::Bool),
                    _ => (Builtin::Midpoint, Ty::Cell),
                };
                Ok((simple(b, v), ty))
            }
            "random" => {
                let v = self.args(f, args, 2, pos)?;
                self.want(f, v[0].1, Ty::Int, args[0].pos)?;
                self.want(f, v[1].1, Ty::Int, args[1].pos)?;
                Ok((simple(Builtin::Random, v), Ty::Int))
            }
            "coin" => {
                let v = self.args(f, args, 0, pos)?;
                Ok((simple(Builtin::Coin, v), Ty::Bool))
            }
            "chance" => {
                let v = self.args(f, args, 1, pos)?;
                self.want(f, v[0].1, Ty::Float, args[0].pos)?;
                Ok((simple(Builtin::Chance, v), Ty::Bool))
            }
            "count" | "any" | "first" => {
                if args.len() != 1 {
                    return err(pos, format!("`{f}` takes one set"));
                }
                let s = self.set(&args[0])?;
                let elem = s.elem;
                Ok(match f {
                    "count" => (Expr::Count(Box::new(s)), Ty::Int),
                    "any" => (Expr::Any(Box::new(s)), Ty::Bool),
                    _ => (Expr::First(Box::new(s)), elem),
                })
            }
            "sum" => {
                if args.len() != 2 {
                    return err(
                        pos,
                        "`sum` takes a set and a value: sum(units where owner == me, type.cost)",
                    );
                }
                let s = self.set(&args[0])?;
                self.elems.push((s.slot, s.elem));
                let r = self.expr(&args[1]);
                self.elems.pop();
                let (e, ty) = r?;
                if !ty.is_numeric() {
                    return err(args[1].pos, "`sum` adds numbers");
                }
                Ok((Expr::Sum(Box::new(s), Box::new(e)), ty))
            }
            "steps" => {
                if args.len() != 4 {
                    return err(pos, "`steps` takes from, to, max and a passability test: steps(a, b, 3, it.empty)");
                }
                let (from, t0) = self.expr(&args[0])?;
                let (to, t1) = self.expr(&args[1])?;
                let (max, t2) = self.expr(&args[2])?;
                self.want(f, t0, Ty::Cell, args[0].pos)?;
                self.want(f, t1, Ty::Cell, args[1].pos)?;
                self.want(f, t2, Ty::Int, args[2].pos)?;
                let slot = self.push_elem(Ty::Cell);
                let r = self.expr(&args[3]);
                self.pop_elem();
                let (pred, tp) = r?;
                if tp != Ty::Bool {
                    return err(
                        args[3].pos,
                        "the passability test must be a condition on `it`",
                    );
                }
                Ok((
                    Expr::Steps {
                        from: Box::new(from),
                        to: Box::new(to),
                        max: Box::new(max),
                        slot,
                        pred: Box::new(pred),
                    },
                    Ty::Int,
                ))
            }
            "cell" | "unit" => self
                .typed_literal(f, args, pos)
                .unwrap_or_else(|| err(pos, "this ruleset declares no units")),
            "player" => {
                let v = self.args(f, args, 1, pos)?;
                if !matches!(v[0].1, Ty::Text | Ty::Nothing) {
                    return err(args[0].pos, "`player` takes a player id as text");
                }
                Ok((simple(Builtin::PlayerNamed, v), Ty::Player))
            }
            _ if self.cat.tables.iter().any(|t| t.name == f) => self
                .typed_literal(f, args, pos)
                .unwrap_or_else(|| err(pos, "unknown table")),
            _ => {
                if let Some(i) = self.cat.script_fns.iter().position(|(n, _)| n == f) {
                    let arity = self.cat.script_fns[i].1;
                    if arity != args.len() {
                        return err(
                            pos,
                            format!(
                                "script function `{f}` takes {arity} argument(s), found {}",
                                args.len()
                            ),
                        );
                    }
                    let compiled: Vec<R<(Expr, Ty)>> = args.iter().map(|a| self.expr(a)).collect();
                    let v = first_real(compiled)?;
                    if let Some(k) = v.iter().position(|(_, t)| *t == Ty::List) {
                        return err_hint(
                            args[k].pos,
                            "a script takes single values, not lists",
                            "pass its items, or compute with the list functions: max, min, sum, len, sort",
                        );
                    }
                    let v: Vec<Expr> = v.into_iter().map(|(e, _)| e).collect();
                    return Ok((Expr::Script(i as u16, v), Ty::Int));
                }
                let mut names = vec![
                    "roll",
                    "sort",
                    "reverse",
                    "len",
                    "cell",
                    "min",
                    "max",
                    "abs",
                    "floor",
                    "ceil",
                    "float",
                    "has",
                    "adjacent",
                    "distance",
                    "line_of_sight",
                    "midpoint",
                    "random",
                    "coin",
                    "chance",
                    "count",
                    "any",
                    "first",
                    "sum",
                    "steps",
                    "player",
                ];
                if self.cat.failed.scripts && closest(f, names.iter().copied()).is_none() {
                    // Most likely a function of the script that did not compile.
                    return Err(ExprError::follow_up(pos, f));
                }
                names.extend(self.cat.script_fns.iter().map(|(n, _)| n.as_str()));
                let hint = hints::unknown_function(f, closest(f, names.iter().copied()), false);
                let message = if hints::SET_FUNCTIONS.contains(&f) {
                    format!("`{f}(...)` is a set, not a value")
                } else {
                    format!("unknown function `{f}`")
                };
                err_hint(pos, message, hint)
            }
        }
    }

    /// Compiles a set expression: a source optionally followed by `where`.
    pub fn set(&mut self, n: &Node) -> R<SetExpr> {
        match &n.ast {
            Ast::Where(base, cond) => {
                let mut s = self.set(base)?;
                if s.filter.is_some() {
                    return err(
                        n.pos,
                        "only one `where` per set: join conditions with `and`",
                    );
                }
                self.elems.push((s.slot, s.elem));
                let r = self.expr(cond);
                self.elems.pop();
                let (c, t) = r?;
                if t != Ty::Bool {
                    return err(cond.pos, "a `where` filter must be a condition");
                }
                // `S where it == x` over a whole collection is the single element x: no scan needed.
                if let (
                    SetSource::Cells | SetSource::Units | SetSource::Players,
                    Expr::Bin(BinOp::Eq, a, b),
                ) = (&s.source, &c)
                {
                    for (elem, other) in [(a, b), (b, a)] {
                        if matches!(**elem, Expr::Local(x) if x == s.slot) {
                            let mut used = Vec::new();
                            if other.reads(&mut used) && !used.contains(&s.slot) {
                                s.source = SetSource::One((**other).clone());
                                return Ok(s);
                            }
                        }
                    }
                }
                s.filter = Some(c);
                Ok(s)
            }
            _ => {
                let (source, elem) = self.set_source(n)?;
                let slot = self.alloc();
                Ok(SetExpr {
                    source,
                    slot,
                    filter: None,
                    elem,
                    scan: Default::default(),
                })
            }
        }
    }

    fn set_source(&mut self, n: &Node) -> R<(SetSource, Ty)> {
        let pos = n.pos;
        match &n.ast {
            Ast::Name(name) => match name.as_str() {
                "cells" => Ok((SetSource::Cells, Ty::Cell)),
                "units" => Ok((SetSource::Units, Ty::Unit)),
                "players" => Ok((SetSource::Players, Ty::Player)),
                other => match self.cat.tables.iter().position(|t| t.name == other) {
                    Some(t) => Ok((SetSource::Rows(t as u16), Ty::Row(t as u16))),
                    None => {
                        if let Some(b) = self.names.iter().rev().find(|b| b.name == other) {
                            if b.failed {
                                return Err(ExprError::follow_up(pos, other));
                            }
                        }
                        let mut sets = vec!["cells", "units", "players"];
                        sets.extend(self.cat.tables.iter().map(|t| t.name.as_str()));
                        let hint = match closest(other, sets.iter().copied()) {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => "sets: cells, units, players, a table name, neighbours(c), within(c, r), reachable(c, max, test), range(a, b)".into(),
                        };
                        err_hint(pos, format!("`{other}` is not a set"), hint)
                    }
                },
            },
            Ast::Call(f, args) => match f.as_str() {
                "neighbours" => {
                    let v = self.args(f, args, 1, pos)?;
                    self.want(f, v[0].1, Ty::Cell, args[0].pos)?;
                    Ok((SetSource::Neighbours(v.into_iter().next().map(|x| x.0).unwrap_or(Expr::Const(Value::None))), Ty::Cell))
                }
                "within" => {
                    let mut v = self.args(f, args, 2, pos)?;
                    self.want(f, v[0].1, Ty::Cell, args[0].pos)?;
                    self.want(f, v[1].1, Ty::Int, args[1].pos)?;
                    let r = v.pop().map(|x| x.0).unwrap_or(Expr::Const(Value::None));
                    let c = v.pop().map(|x| x.0).unwrap_or(Expr::Const(Value::None));
                    Ok((SetSource::Within(c, r), Ty::Cell))
                }
                "range" => {
                    let mut v = self.args(f, args, 2, pos)?;
                    self.want(f, v[0].1, Ty::Int, args[0].pos)?;
                    self.want(f, v[1].1, Ty::Int, args[1].pos)?;
                    let hi = v.pop().map(|x| x.0).unwrap_or(Expr::Const(Value::None));
                    let lo = v.pop().map(|x| x.0).unwrap_or(Expr::Const(Value::None));
                    Ok((SetSource::Range(lo, hi), Ty::Int))
                }
                "reachable" => {
                    if args.len() != 3 {
                        return err(pos, "`reachable` takes a start cell, a maximum of steps and a test: reachable(u.at, 3, it.empty)");
                    }
                    let (from, t0) = self.expr(&args[0])?;
                    let (max, t1) = self.expr(&args[1])?;
                    self.want(f, t0, Ty::Cell, args[0].pos)?;
                    self.want(f, t1, Ty::Int, args[1].pos)?;
                    let slot = self.push_elem(Ty::Cell);
                    let r = self.expr(&args[2]);
                    self.pop_elem();
                    let (pred, tp) = r?;
                    if tp != Ty::Bool {
                        return err(args[2].pos, "the test of `reachable` must be a condition on `it`");
                    }
                    Ok((SetSource::Reachable { from, max, slot, pred }, Ty::Cell))
                }
                _ => {
                    let near = closest(f, hints::SET_FUNCTIONS);
                    let hint = match hints::foreign_function(f) {
                        Some(h) => h,
                        None => match near {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => "set functions: neighbours, within, reachable, range".into(),
                        },
                    };
                    err_hint(pos, format!("`{f}(...)` is not a set"), hint)
                }
            },
            _ => err_hint(pos, "expected a set", "sets: cells, units, players, a table name, neighbours(c), within(c, r), reachable(c, max, test), range(a, b)"),
        }
    }

    /// Compiles an assignment target such as `to.count[me]`, `me.score`, `unit.ready` or a `let` name.
    pub fn place(&mut self, text: &str) -> R<(Place, Ty)> {
        let node = expr::parse(text).map_err(syntax)?;
        match self.expr(&node)? {
            (Expr::Local(s), t) => {
                if self.elems.iter().any(|(slot, _)| *slot == s) {
                    return err(0, "a loop element cannot be assigned");
                }
                Ok((Place::Local(s), t))
            }
            (Expr::PlayerVar(p, s, t), _) => {
                let decls = self.cat.player_vars.iter().chain(self.cat.game_vars);
                self.assignable(decls, s, text)?;
                Ok((Place::PlayerVar(*p, s, t), t))
            }
            (Expr::CellVar(c, s, t), _) => {
                self.assignable(self.cat.cell_vars.iter(), s, text)?;
                Ok((Place::CellVar(*c, s, t), t))
            }
            (Expr::CellVarOf(c, s, p, t), _) => {
                self.assignable(self.cat.cell_vars.iter(), s, text)?;
                Ok((Place::CellVarOf(*c, s, *p, t), t))
            }
            (Expr::CellOwner(c), _) => Ok((Place::CellOwner(*c), Ty::Player)),
            (Expr::UnitVar(u, s, t), _) => {
                self.assignable(self.cat.unit_vars.iter(), s, text)?;
                Ok((Place::UnitVar(*u, s, t), t))
            }
            (Expr::UnitAt(u), _) => Ok((Place::UnitAt(*u), Ty::Cell)),
            _ => err_hint(0, format!("`{text}` cannot be assigned"), "assign variables: me.VAR, cell.VAR, cell.VAR[player], cell.owner, unit.VAR, unit.at, or a `let` name"),
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
