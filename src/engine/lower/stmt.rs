//! Effect statements lowered: the same statements as the IR with compiled operands (run by `engine::exec`).
use super::cell_test::{keeps_other_cells, CellTest};
use super::expr::{Arg, Cond, Ev};
use super::int::IntNode;
use super::set::CSet;
use super::typed::{IntArg, Slot, StoreArg, StoreLeaf};
use super::Lowerer;
use crate::ir::{AssignOp, Expr, Place, Stmt};
use crate::model::{Ty, Value};

/// A writable location with compiled operands.
pub enum CPlace {
    Local(usize),
    PlayerVar(Arg, usize, Ty),
    CellVar(Arg, usize, Ty),
    CellVarOf(Arg, usize, Arg, Ty),
    CellOwner(Arg),
    UnitVar(Arg, usize, Ty),
    UnitAt(Arg),
}

/// A lowered statement.
pub enum CStmt {
    Let(usize, Ev),
    Assign(CPlace, AssignOp, Ev),
    /// An assignment done on the raw slot when its operands allow (a whole number, nothing overflows);
    /// otherwise, and with the same result, by the generic assignment it carries.
    Store {
        slot: Slot,
        op: AssignOp,
        value: StoreArg,
        place: CPlace,
        ev: Ev,
    },
    /// An assignment to a local done on its number when it holds one (see `Lowerer::typed_local_store`);
    /// otherwise, with the same result, by the generic assignment it carries.
    LocalStore {
        slot: usize,
        op: AssignOp,
        value: StoreArg,
        ev: Ev,
    },
    /// Constants stored one after another into variables of the unit in a local: raw slot values by
    /// offset, and the statements they came from (run one by one when the local holds no unit).
    UnitConsts {
        local: usize,
        values: Vec<(usize, i64)>,
        each: Vec<CStmt>,
    },
    /// [`CStmt::UnitConsts`] for each unit of a set of units with no filter (see `CSet::plain_units`), the
    /// set's local left holding the last one as the loop would leave it.
    EachUnitConsts {
        set: CSet,
        values: Vec<(usize, i64)>,
    },
    /// A local given a constant.
    LetConst(usize, Value),
    /// A local given another local's value (`let: {winner: attacker}`), copied without a closure: a
    /// tagged value handed back by one comes back through memory, and its copy waited on that.
    LetLocal(usize, usize),
    /// A local given a whole-number expression computed without tagged values (its number, or none):
    /// the number comes back in registers, where a tagged value comes back through memory and is then
    /// copied whole, which misses store forwarding.
    LetInt(usize, IntNode),
    /// An event: evaluated only when events are logged.
    Emit {
        kind: String,
        fields: Vec<(String, Ev)>,
    },
    If(Cond, Vec<CStmt>, Vec<CStmt>),
    For(CSet, Vec<CStmt>),
    /// A loop over a plain cell set whose body is one branch on a [`CellTest`] of the element, with
    /// statements that cannot change the test for another cell (`cell_test.rs`): the branch runs for the
    /// cells that pass, found as bits when the loop starts. The set's local is left holding the set's last
    /// cell, as the loop would leave it.
    EachCellWhere {
        set: CSet,
        test: CellTest,
        then: Vec<CStmt>,
    },
    Eval(Ev),
    Win(Ev, String),
    Draw(String),
    EndTurn,
    /// See `Stmt::Stage`.
    Stage(Option<u32>),
    CreateUnit {
        kind: Ev,
        owner: Ev,
        at: Ev,
        init: Vec<(usize, Ev)>,
        bind: Option<usize>,
    },
    DestroyUnit(Ev),
}

impl Lowerer<'_> {
    pub fn stmts(&mut self, stmts: &[Stmt]) -> Vec<CStmt> {
        let mut flat = Vec::with_capacity(stmts.len());
        flatten(stmts, self.opts.specialise, &mut flat);
        let mut out: Vec<CStmt> = Vec::with_capacity(flat.len());
        for s in flat {
            let c = self.stmt(s);
            // Constants stored into variables of one unit one after another (`set: {u.a: false, u.b: 0}`)
            // become one statement that finds the unit once.
            if let Some((local, offset, value)) = unit_const(&c) {
                match out.last_mut() {
                    Some(CStmt::UnitConsts {
                        local: l,
                        values,
                        each,
                    }) if *l == local => {
                        values.push((offset, value));
                        each.push(c);
                        continue;
                    }
                    Some(prev) if unit_const(prev).is_some_and(|(l, ..)| l == local) => {
                        let (_, o, v) = unit_const(prev).expect("matched above");
                        let values = vec![(o, v), (offset, value)];
                        let joined = CStmt::UnitConsts {
                            local,
                            values,
                            each: Vec::new(),
                        };
                        let first = std::mem::replace(prev, joined);
                        if let CStmt::UnitConsts { each, .. } = prev {
                            each.extend([first, c]);
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            out.push(c);
        }
        out
    }

    fn place(&mut self, p: &Place) -> CPlace {
        match p {
            Place::Local(s) => CPlace::Local(*s as usize),
            Place::PlayerVar(e, s, t) => CPlace::PlayerVar(self.arg(e), *s as usize, *t),
            Place::CellVar(e, s, t) => CPlace::CellVar(self.arg(e), *s as usize, *t),
            Place::CellVarOf(c, s, p, t) => {
                CPlace::CellVarOf(self.arg(c), *s as usize, self.arg(p), *t)
            }
            Place::CellOwner(e) => CPlace::CellOwner(self.arg(e)),
            Place::UnitVar(e, s, t) => CPlace::UnitVar(self.arg(e), *s as usize, *t),
            Place::UnitAt(e) => CPlace::UnitAt(self.arg(e)),
        }
    }

    /// An assignment to a variable: on its raw slot when the operands allow, by the generic assignment otherwise.
    fn store(&mut self, p: &Place, op: AssignOp, e: &Expr) -> CStmt {
        match self.typed_store(p, op, e) {
            Some((slot, value)) => CStmt::Store {
                slot,
                op,
                value,
                place: self.place(p),
                ev: self.ev(e),
            },
            None => CStmt::Assign(self.place(p), op, self.ev(e)),
        }
    }

    fn stmt(&mut self, s: &Stmt) -> CStmt {
        match s {
            Stmt::Let(slot, Expr::Const(v)) if self.opts.specialise => {
                CStmt::LetConst(*slot as usize, *v)
            }
            Stmt::Let(slot, Expr::Local(from)) if self.opts.specialise => {
                CStmt::LetLocal(*slot as usize, *from as usize)
            }
            Stmt::Let(slot, e) => match self.int_node(e) {
                Some(n) => CStmt::LetInt(*slot as usize, n),
                None => CStmt::Let(*slot as usize, self.ev(e)),
            },
            Stmt::Assign(p, op, e) => match self.typed_local_store(p, e) {
                Some((slot, value)) => CStmt::LocalStore {
                    slot,
                    op: *op,
                    value,
                    ev: self.ev(e),
                },
                None => self.store(p, *op, e),
            },
            Stmt::Emit(spec) => CStmt::Emit {
                kind: spec.kind.clone(),
                fields: spec
                    .fields
                    .iter()
                    .map(|(n, e)| (n.clone(), self.ev(e)))
                    .collect(),
            },
            Stmt::If(c, a, b) => CStmt::If(self.cond(c), self.stmts(a), self.stmts(b)),
            Stmt::For(set, body) => {
                let set = self.set(set);
                if let Some((test, then)) = self.cell_test_loop(&set, body) {
                    return CStmt::EachCellWhere {
                        set,
                        test,
                        then: self.stmts(then),
                    };
                }
                let mut body = self.stmts(body);
                match body.as_mut_slice() {
                    // Constants stored into each unit of a plain unit set (`for u in units where owner == me:
                    // set u.ready: false`): the stores change nothing the set is picked by, so the units
                    // are visited in place instead of listed first.
                    [CStmt::UnitConsts { local, values, .. }]
                        if *local == set.slot && set.plain_units() && self.opts.specialise =>
                    {
                        CStmt::EachUnitConsts {
                            values: std::mem::take(values),
                            set,
                        }
                    }
                    _ => CStmt::For(set, body),
                }
            }
            Stmt::Eval(e) => CStmt::Eval(self.ev(e)),
            Stmt::Win(p, reason) => CStmt::Win(self.ev(p), reason.clone()),
            Stmt::Draw(reason) => CStmt::Draw(reason.clone()),
            Stmt::EndTurn => CStmt::EndTurn,
            Stmt::Stage(s) => CStmt::Stage(*s),
            Stmt::CreateUnit {
                kind,
                owner,
                at,
                init,
                bind,
            } => CStmt::CreateUnit {
                kind: self.ev(kind),
                owner: self.ev(owner),
                at: self.ev(at),
                init: init
                    .iter()
                    .map(|(slot, _, e)| (*slot as usize, self.ev(e)))
                    .collect(),
                bind: bind.map(|b| b as usize),
            },
            Stmt::DestroyUnit(e) => CStmt::DestroyUnit(self.ev(e)),
        }
    }

    /// The test and the branch of a loop that can run as [`CStmt::EachCellWhere`]: cells listed by
    /// planned scans alone (see [`CSet::plain_cells`]), a body that is one branch without `else` on a
    /// [`CellTest`] of the element, and statements that keep every other cell's outcome.
    fn cell_test_loop<'s>(&self, set: &CSet, body: &'s [Stmt]) -> Option<(CellTest, &'s [Stmt])> {
        if !self.opts.specialise || !set.plain_cells() {
            return None;
        }
        let [Stmt::If(c, then, els)] = body else {
            return None;
        };
        let slot = u16::try_from(set.slot).ok()?;
        let test = CellTest::of(c, slot)?;
        (els.is_empty() && keeps_other_cells(then, slot)).then_some((test, then.as_slice()))
    }
}

/// The statements in order, with those of a branch on a constant in place of the branch: one YAML entry
/// that makes several statements (`set: {u.a: false, u.b: 0}`, `let: {x: 1, y: 2}`) is a branch on true,
/// and running it as one would enter the statement runner once more for every run of the entry. Locals
/// live in slots, so a branch scopes nothing at run time.
fn flatten<'s>(stmts: &'s [Stmt], specialise: bool, out: &mut Vec<&'s Stmt>) {
    for s in stmts {
        match s {
            Stmt::If(Expr::Const(Value::Bool(b)), then, els) if specialise => {
                flatten(if *b { then } else { els }, specialise, out)
            }
            _ => out.push(s),
        }
    }
}

/// A store of a constant into a variable of the unit in a local: the local, the slot and the raw value.
fn unit_const(s: &CStmt) -> Option<(usize, usize, i64)> {
    match s {
        CStmt::Store {
            slot: Slot::Unit { local, offset },
            op: AssignOp::Set,
            value: StoreArg::Leaf(StoreLeaf::Arg(IntArg::Const(v))),
            ..
        } => Some((*local, *offset, *v)),
        _ => None,
    }
}
