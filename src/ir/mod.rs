//! The typed program of a game: the boundary between the front end (`ruleset`, which builds it from files)
//! and the engine (which lowers and runs it), as `hir` is in rust-analyzer. Expressions and effects have
//! resolved slots, no names and no strings to look up at run time; `game` holds the resolved game, `ops`
//! the meaning of operators and pure built-ins.
pub mod display;
pub mod game;
pub mod ops;

use crate::model::{Ty, Value};

/// Binary operators. `And`/`Or` short-circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    /// `a ?? b`: a unless it is none.
    Coalesce,
    /// Division truncating toward zero (a script's `/`): errors on a zero divisor and on overflow.
    DivTrunc,
    /// Remainder with the sign of the dividend (a script's `%`): errors on a zero divisor and on overflow.
    RemTrunc,
}

impl BinOp {
    /// The arithmetic operators (numbers in, a number out).
    pub fn is_arithmetic(self) -> bool {
        matches!(
            self,
            BinOp::Add
                | BinOp::Sub
                | BinOp::Mul
                | BinOp::Div
                | BinOp::Rem
                | BinOp::DivTrunc
                | BinOp::RemTrunc
        )
    }
}

/// Game-wide counters readable by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    Turn,
    Ply,
    Points,
    Round,
}

/// Built-in functions evaluated natively.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Min,
    Max,
    Abs,
    Floor,
    Ceil,
    Has,
    Adjacent,
    Distance,
    LineOfSight,
    Midpoint,
    Random,
    Coin,
    Chance,
    Float,
    /// The player whose id is the given text, or none.
    PlayerNamed,
    /// Whether events are being recorded.
    Logging,
    /// A float rounded down, staying a float (a script's `x.floor()`).
    FloorFloat,
    /// A number as an integer, truncated toward zero (a script's `x.to_int()`): an error beyond the
    /// integer range, 0 for NaN.
    TruncInt,
}

/// Operations on lists of whole numbers (`Expr::List`), with their operands in order.
#[derive(Clone, Debug)]
pub enum ListOp {
    /// `[a, b, c]`: the operands' values.
    Literal,
    /// `roll(n, sides)`: n draws of `random(1, sides)`, in the order drawn.
    Roll,
    /// `sort(l)`: ascending.
    Sort,
    /// `reverse(l)`.
    Reverse,
    /// `max(l)`, `min(l)`: none for an empty list.
    Max,
    Min,
    /// `sum(l)`.
    Sum,
    /// `len(l)`.
    Len,
    /// `l[i]`: 0-based; none outside the list.
    At,
    /// `l[x]` of a `split` parameter: the item of element `x` of the set the amount was split over
    /// (none if `x` is not in it).
    AtElement(Box<SetExpr>),
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub enum Expr {
    Const(Value),
    Local(u16),
    Me,
    Opponent,
    Counter(Counter),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// Comparison of a row or player with a text: compares the key.
    KeyEq(bool, Box<Expr>, Box<Expr>),
    CellOwner(Box<Expr>),
    CellId(Box<Expr>),
    CellRow(Box<Expr>),
    CellCol(Box<Expr>),
    CellUnit(Box<Expr>),
    CellEmpty(Box<Expr>),
    CellVar(Box<Expr>, u16, Ty),
    /// A per-player cell variable: cell, slot base, player.
    CellVarOf(Box<Expr>, u16, Box<Expr>, Ty),
    PlayerId(Box<Expr>),
    PlayerVar(Box<Expr>, u16, Ty),
    UnitOwner(Box<Expr>),
    UnitAt(Box<Expr>),
    UnitType(Box<Expr>),
    UnitVar(Box<Expr>, u16, Ty),
    RowKey(Box<Expr>),
    /// Column of a row: row expression, table, column index.
    RowCol(Box<Expr>, u16, u16),
    Call(Builtin, Vec<Expr>),
    Count(Box<SetExpr>),
    Sum(Box<SetExpr>, Box<Expr>),
    Any(Box<SetExpr>),
    First(Box<SetExpr>),
    /// Shortest path length through cells satisfying the predicate (bound to the slot).
    Steps {
        from: Box<Expr>,
        to: Box<Expr>,
        max: Box<Expr>,
        slot: u16,
        pred: Box<Expr>,
    },
    Script(u16, Vec<Expr>),
    /// The operand's value, or a run error with the message when it is none (what a script's call of a host
    /// function does with a value it cannot take).
    Expect(Box<Expr>, String),
    /// A list operation (`ListOp`) on its operands.
    List(ListOp, Box<[Expr]>),
}

/// Where the elements of a set come from.
#[derive(Clone, Debug)]
pub enum SetSource {
    Cells,
    /// Living units.
    Units,
    Players,
    Rows(u16),
    Neighbours(Expr),
    Within(Expr, Expr),
    Reachable {
        from: Expr,
        max: Expr,
        slot: u16,
        pred: Expr,
    },
    Range(Expr, Expr),
    /// A single element (none gives the empty set): `cells where it == x` compiles to this.
    One(Expr),
}

/// A set of values: a source, optionally filtered; elements are bound to `slot` while the filter runs.
#[derive(Clone, Debug)]
pub struct SetExpr {
    pub source: SetSource,
    pub slot: u16,
    pub filter: Option<Expr>,
    pub elem: Ty,
    /// Planned by `plan`: a natively tested pre-filter over cells, applied before `filter`.
    pub scan: CellScan,
}

/// Natively evaluated parts of a cell filter, found by the planner.
#[derive(Clone, Debug, Default)]
pub struct CellScan {
    /// Conditions on data that never changes during a match: the matching cells are computed once.
    pub fixed: Option<Expr>,
    /// `owner == x` (or `!=` when the flag is false).
    pub owner: Option<(bool, Expr)>,
    /// `empty` (true) or `not empty` (false).
    pub empty: Option<bool>,
}

/// A writable location.
#[derive(Clone, Debug)]
pub enum Place {
    Local(u16),
    PlayerVar(Expr, u16, Ty),
    CellVar(Expr, u16, Ty),
    CellVarOf(Expr, u16, Expr, Ty),
    CellOwner(Expr),
    UnitVar(Expr, u16, Ty),
    UnitAt(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
}

/// An event template: type name and fields in order.
#[derive(Clone, Debug)]
pub struct EmitSpec {
    pub kind: String,
    pub fields: Vec<(String, Expr)>,
}

/// A compiled effect statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    Let(u16, Expr),
    Assign(Place, AssignOp, Expr),
    Emit(EmitSpec),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    For(SetExpr, Vec<Stmt>),
    Eval(Expr),
    Win(Expr, String),
    Draw(String),
    EndTurn,
    /// Moves the player-turn on to its next stage (`None`), or to the stage named by this symbol.
    Stage(Option<u32>),
    CreateUnit {
        kind: Expr,
        owner: Expr,
        at: Expr,
        init: Vec<(u16, Ty, Expr)>,
        bind: Option<u16>,
    },
    DestroyUnit(Expr),
}

impl Expr {
    /// Collects the local slots this expression reads; returns false if it has side effects or draws
    /// (random numbers, scripts), which must never be evaluated speculatively.
    pub fn reads(&self, out: &mut Vec<u16>) -> bool {
        let mut pure = true;
        self.visit(&mut |e| e.read_by_itself(out, &mut pure));
        pure
    }

    /// What this node alone reads (not its operands): a local into `out`; `pure` cleared when it draws
    /// random numbers or calls a script.
    fn read_by_itself(&self, out: &mut Vec<u16>, pure: &mut bool) {
        match self {
            Expr::Local(s) => out.push(*s),
            Expr::Script(..)
            | Expr::Call(Builtin::Random | Builtin::Coin | Builtin::Chance, _)
            | Expr::List(ListOp::Roll, _) => *pure = false,
            _ => {}
        }
    }

    /// Whether evaluating this draws random numbers.
    pub fn draws(&self) -> bool {
        let mut d = false;
        self.visit(&mut |e| {
            d |= matches!(
                e,
                Expr::Call(Builtin::Random | Builtin::Coin | Builtin::Chance, _)
                    | Expr::List(ListOp::Roll, _)
            )
        });
        d
    }

    /// Calls `f` on this expression and on every expression inside it (those of its sets included).
    pub(crate) fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
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
            | Expr::Expect(a, _) => a.visit(f),
            Expr::Bin(_, a, b) | Expr::KeyEq(_, a, b) | Expr::CellVarOf(a, _, b, _) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Call(_, args) | Expr::Script(_, args) => args.iter().for_each(|a| a.visit(f)),
            Expr::List(op, args) => {
                if let ListOp::AtElement(s) = op {
                    s.visit(f);
                }
                args.iter().for_each(|a| a.visit(f));
            }
            Expr::Count(s) | Expr::Any(s) | Expr::First(s) => s.visit(f),
            Expr::Sum(s, e) => {
                s.visit(f);
                e.visit(f);
            }
            Expr::Steps {
                from,
                to,
                max,
                pred,
                ..
            } => {
                from.visit(f);
                to.visit(f);
                max.visit(f);
                pred.visit(f);
            }
            Expr::Const(_) | Expr::Local(_) | Expr::Me | Expr::Opponent | Expr::Counter(_) => {}
        }
    }
}

impl SetExpr {
    /// Whether listing this set draws random numbers.
    pub fn draws(&self) -> bool {
        let mut d = false;
        self.visit(&mut |e| {
            d |= matches!(
                e,
                Expr::Call(Builtin::Random | Builtin::Coin | Builtin::Chance, _)
                    | Expr::List(ListOp::Roll, _)
            )
        });
        d
    }

    /// [`Expr::reads`] of every expression of the set: the locals it reads (its own element among them)
    /// into `out`; false when listing it draws random numbers or calls a script.
    pub fn reads(&self, out: &mut Vec<u16>) -> bool {
        let mut pure = true;
        self.visit(&mut |e| e.read_by_itself(out, &mut pure));
        pure
    }

    /// Calls [`Expr::visit`] on every expression of the set (its source's operands and its filter).
    pub(crate) fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        match &self.source {
            SetSource::Neighbours(e) | SetSource::One(e) => e.visit(f),
            SetSource::Within(a, b) | SetSource::Range(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            SetSource::Reachable {
                from, max, pred, ..
            } => {
                from.visit(f);
                max.visit(f);
                pred.visit(f);
            }
            _ => {}
        }
        if let Some(c) = &self.filter {
            c.visit(f);
        }
    }
}
