//! Running compiled effect statements: assignments, events, loops, unit creation and game-ending effects.
use std::sync::Arc;

use serde_json::{Map, Value as Json};

use super::lower::typed::{Slot, StoreArg};
use super::lower::{CPlace, CSet, CStmt, CellTest, Ev};
use super::machine::{Machine, RunError};
use crate::ir::ops::arith;
use crate::ir::{AssignOp, BinOp};
use crate::model::state::{GameResult, UnitState, NO_OWNER, NO_UNIT};
use crate::model::value::ABSENT;
use crate::model::{Ty, Value};

type R<T> = Result<T, RunError>;

/// What a statement list asks of the flow after it ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Signals {
    pub end_turn: bool,
    /// A stage move asked for: to the next stage (`Some(None)`) or to the named one (its symbol).
    pub stage: Option<Option<u32>>,
}

impl Machine<'_> {
    /// Runs statements in order; stops early once the game is decided.
    pub fn run(&mut self, stmts: &[CStmt], sig: &mut Signals) -> R<()> {
        if self.st.result.is_some() {
            return Ok(());
        }
        for s in stmts {
            // The statements effects run most, done here without a call: `stmt` is a large function,
            // and entering it costs more than most of these statements do.
            match s {
                CStmt::Store {
                    slot, op, value, ..
                } if self.store_in_place(slot, *op, value) => {}
                CStmt::LocalStore {
                    slot, op, value, ..
                } if self.local_store_in_place(*slot, *op, value) => {}
                CStmt::If(c, then, els) => {
                    let branch = if c(self)? { then } else { els };
                    if !branch.is_empty() {
                        self.run(branch, sig)?;
                    }
                }
                CStmt::Let(slot, e) => {
                    let v = e(self)?;
                    self.rt.locals[*slot] = v;
                }
                CStmt::LetConst(slot, v) => self.rt.locals[*slot] = *v,
                CStmt::LetLocal(slot, from) => self.rt.locals[*slot] = self.rt.locals[*from],
                CStmt::LetInt(slot, n) => {
                    let v = n.get(self)?.map_or(Value::None, Value::Int);
                    self.rt.locals[*slot] = v;
                }
                CStmt::Emit { .. } if !self.logging() => {}
                _ => self.stmt(s, sig)?,
            }
            // Only these end the game (a win, a draw, or one in a block they run): the rest of the
            // statements run unless one of them did.
            if matches!(
                s,
                CStmt::Win(..)
                    | CStmt::Draw(_)
                    | CStmt::If(..)
                    | CStmt::For(..)
                    | CStmt::EachCellWhere { .. }
            ) && self.st.result.is_some()
            {
                return Ok(());
            }
        }
        Ok(())
    }

    /// A [`CStmt::Store`] done on the raw slot; false when it must go the generic way (a value that is
    /// none, a place that names nothing, or an overflow), having changed nothing.
    #[inline(always)]
    fn store_in_place(&mut self, slot: &Slot, op: AssignOp, value: &StoreArg) -> bool {
        if let Some(v) = value.get(self) {
            if let Some(x) = slot.get_mut(self) {
                // Unset counts as 0 when added to, as in the generic assignment.
                let base = if *x == ABSENT { 0 } else { *x };
                if let Some(n) = int_assign(op, base, v) {
                    *x = n;
                    return true;
                }
            }
        }
        false
    }

    /// A [`CStmt::LocalStore`] of a whole number; false when it must go the generic way (not whole
    /// numbers, or an overflow), having changed nothing.
    #[inline(always)]
    fn local_store_in_place(&mut self, slot: usize, op: AssignOp, value: &StoreArg) -> bool {
        let Some(v) = value.get(self) else {
            return false;
        };
        // None counts as 0 when added to, as in the generic assignment; a local holding anything else is
        // left to it.
        let new = match (op, self.rt.locals[slot]) {
            (AssignOp::Set, _) => Some(v),
            (_, Value::Int(base)) => int_assign(op, base, v),
            (_, Value::None) => int_assign(op, 0, v),
            _ => None,
        };
        match new {
            Some(n) => {
                self.rt.locals[slot] = Value::Int(n);
                true
            }
            None => false,
        }
    }

    #[inline(never)]
    fn stmt(&mut self, s: &CStmt, sig: &mut Signals) -> R<()> {
        match s {
            CStmt::Let(slot, e) => {
                let v = e(self)?;
                self.rt.locals[*slot] = v;
            }
            CStmt::Assign(place, op, e) => {
                let v = e(self)?;
                self.assign(place, *op, v)?;
            }
            CStmt::Store {
                slot,
                op,
                value,
                place,
                ev,
            } => {
                if self.store_in_place(slot, *op, value) {
                    return Ok(());
                }
                // None, nothing named or an overflow: the generic assignment gives the same result (or error).
                let v = ev(self)?;
                self.assign(place, *op, v)?;
            }
            CStmt::LocalStore {
                slot,
                op,
                value,
                ev,
            } => {
                if self.local_store_in_place(*slot, *op, value) {
                    return Ok(());
                }
                // Not whole numbers, or an overflow: the generic assignment gives the same result (or error).
                let v = ev(self)?;
                self.assign(&CPlace::Local(*slot), *op, v)?;
            }
            CStmt::LetConst(slot, v) => self.rt.locals[*slot] = *v,
            CStmt::LetLocal(slot, from) => self.rt.locals[*slot] = self.rt.locals[*from],
            CStmt::LetInt(slot, n) => {
                let v = n.get(self)?.map_or(Value::None, Value::Int);
                self.rt.locals[*slot] = v;
            }
            CStmt::UnitConsts {
                local,
                values,
                each,
            } => match self.rt.locals[*local] {
                // Written whether or not the unit lives, as each store alone would.
                Value::Unit(u) if (u as usize) < self.st.units.len() => {
                    let base = u as usize * self.game.unit_slots;
                    for &(offset, v) in values {
                        self.st.unit_vars[base + offset] = v;
                    }
                }
                _ => self.run(each, sig)?,
            },
            CStmt::Emit { kind, fields } => {
                if self.logging() {
                    self.emit(kind, fields)?;
                }
            }
            CStmt::If(c, then, els) => {
                if c(self)? {
                    self.run(then, sig)?;
                } else {
                    self.run(els, sig)?;
                }
            }
            CStmt::For(set, body) => self.for_each(set, body, sig)?,
            CStmt::EachCellWhere { set, test, then } => {
                self.each_cell_where(set, *test, then, sig)?
            }
            CStmt::EachUnitConsts { set, values } => {
                let width = self.game.unit_slots;
                set.each_plain_unit(self, |m, u| {
                    let row = &mut m.st.unit_vars[u * width..(u + 1) * width];
                    for &(offset, v) in values {
                        row[offset] = v;
                    }
                })?
            }
            CStmt::Eval(e) => {
                e(self)?;
            }
            CStmt::Win(p, reason) => {
                if let Value::Player(p) = p(self)? {
                    self.finish(Some(p), reason, Vec::new());
                }
            }
            CStmt::Draw(reason) => self.finish(None, reason, Vec::new()),
            CStmt::EndTurn => sig.end_turn = true,
            CStmt::Stage(s) => sig.stage = Some(*s),
            CStmt::CreateUnit {
                kind,
                owner,
                at,
                init,
                bind,
            } => self.create_unit(kind, owner, at, init, *bind)?,
            CStmt::DestroyUnit(e) => {
                if let Value::Unit(u) = e(self)? {
                    if self.st.kill_unit(u, self.game.players.len()) {
                        let at = self.st.units[u as usize].at as usize;
                        if self.st.occupant[at] == u {
                            self.st.set_occupant(at as u32, NO_UNIT);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Logs an event (only called when events are logged). Kept out of [`Machine::stmt`], as are the
    /// other bulky statements, so the statements every action runs pay for a small function.
    #[inline(never)]
    fn emit(&mut self, kind: &str, fields: &[(String, Ev)]) -> R<()> {
        let mut m = Map::new();
        m.insert("type".into(), Json::String(kind.to_string()));
        for (name, e) in fields {
            let v = e(self)?;
            m.insert(name.clone(), self.to_json(v));
        }
        self.log(Json::Object(m));
        Ok(())
    }

    /// Runs `body` once for each element of `set`, bound to the set's slot.
    #[inline(never)]
    fn for_each(&mut self, set: &CSet, body: &[CStmt], sig: &mut Signals) -> R<()> {
        // Collect first: the body may change what the set would contain.
        let mut items = self.rt.take_values();
        let listed = set.each(self, |_, v| {
            items.push(v);
            Ok(true)
        });
        if let Err(e) = listed {
            self.rt.give_values(items);
            return Err(e);
        }
        let mut outcome = Ok(());
        // A body that is one branch (`if: c.owner != c.unit.owner ...`) is tested here: most elements
        // take no branch, and entering the statement runner for each would cost more than the test. (The
        // same few lines as `run`'s branch, on purpose: one shared inlined helper made the random games
        // of the hex arena ruleset 5% slower, measured with a retrained profile.)
        let branch = match body {
            [CStmt::If(c, then, els)] => Some((c, then, els)),
            _ => None,
        };
        for &v in &items {
            if self.st.result.is_some() {
                break;
            }
            if let Value::Unit(u) = v {
                if !self.st.units[u as usize].alive {
                    continue;
                }
            }
            self.rt.locals[set.slot] = v;
            let done = match branch {
                Some((c, then, els)) => match c(self) {
                    Ok(taken) => {
                        let stmts = if taken { then } else { els };
                        if stmts.is_empty() {
                            Ok(())
                        } else {
                            self.run(stmts, sig)
                        }
                    }
                    Err(e) => Err(e),
                },
                None => self.run(body, sig),
            };
            if let Err(e) = done {
                outcome = Err(e);
                break;
            }
        }
        self.rt.give_values(items);
        outcome
    }

    /// [`CStmt::EachCellWhere`]: the set's cells as bits, those that pass the test found at once (no
    /// cell's outcome can change while the branch runs for another), the branch run for each in order.
    fn each_cell_where(
        &mut self,
        set: &CSet,
        test: CellTest,
        then: &[CStmt],
        sig: &mut Signals,
    ) -> R<()> {
        self.with_cell_words(|m, bits| m.each_cell_where_in(set, test, then, sig, bits))
    }

    fn each_cell_where_in(
        &mut self,
        set: &CSet,
        test: CellTest,
        then: &[CStmt],
        sig: &mut Signals,
        bits: &mut [u64],
    ) -> R<()> {
        if !set.bits(self, bits)? {
            // Lowering builds this loop only over sets that list as bits.
            return Err(RunError::new("a loop over cells could not list its cells"));
        }
        let mut last = None;
        for (w, word) in bits.iter_mut().enumerate() {
            if *word != 0 {
                last = Some(w as u32 * 64 + 63 - word.leading_zeros());
            }
            *word &= test.word(self.st, w);
        }
        for (w, &word) in bits.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                if self.st.result.is_some() {
                    return Ok(());
                }
                let c = w as u32 * 64 + b.trailing_zeros();
                b &= b - 1;
                self.rt.locals[set.slot] = Value::Cell(c);
                self.run(then, sig)?;
            }
        }
        if let Some(c) = last {
            self.rt.locals[set.slot] = Value::Cell(c);
        }
        Ok(())
    }

    /// `create_unit`: a unit of the given type for `owner` at a cell, its listed variables set.
    #[inline(never)]
    fn create_unit(
        &mut self,
        kind: &Ev,
        owner: &Ev,
        at: &Ev,
        init: &[(usize, Ev)],
        bind: Option<usize>,
    ) -> R<()> {
        let kind = kind(self)?;
        let owner = owner(self)?;
        let at = at(self)?;
        let kind = match kind {
            Value::Row(_, r) => r,
            Value::Text(s) => {
                let table = self
                    .game
                    .unit_table()
                    .ok_or_else(|| RunError::new("no unit table"))?;
                let name = self.game.symbols.name(s).clone();
                table
                    .row(&name)
                    .ok_or_else(|| RunError::new(format!("unknown unit type {name}")))?
            }
            _ => return Err(RunError::new("create_unit: type is none")),
        };
        let (Value::Player(owner), Value::Cell(at)) = (owner, at) else {
            return Err(RunError::new("create_unit: owner or cell is none"));
        };
        let u = self.spawn_unit(kind, owner, at, None)?;
        for (slot, e) in init {
            let v = e(self)?;
            let i = u as usize * self.game.unit_slots + *slot;
            self.st.unit_vars[i] = v.encode();
        }
        if let Some(b) = bind {
            self.rt.locals[b] = Value::Unit(u);
        }
        Ok(())
    }

    /// The next id of the ruleset's pattern for `owner` that no unit, living or dead, has had: scenario
    /// ids may leave gaps (`P1-1`, `P1-3`), and a recruit must never take over a unit's identity.
    fn fresh_unit_id(&mut self, owner: u8) -> R<Arc<str>> {
        let g = self.game;
        loop {
            let n = self.st.units_created[owner as usize]
                .checked_add(1)
                .ok_or_else(|| RunError::new("too many units created for one player"))?;
            self.st.units_created[owner as usize] = n;
            let id = g
                .unit_ids
                .replace("{owner}", &g.players[owner as usize])
                .replace("{n}", &n.to_string());
            if self.st.units.iter().all(|u| *u.id != *id) {
                return Ok(Arc::from(id));
            }
        }
    }

    /// Places a new unit; ids follow the ruleset's pattern unless given.
    pub fn spawn_unit(&mut self, kind: u16, owner: u8, at: u32, id: Option<Arc<str>>) -> R<u32> {
        if self.st.units.len() >= crate::limits::MAX_UNITS {
            return Err(RunError::new(format!(
                "cannot create a unit: this match already holds {} units, destroyed ones included, the most one match may hold (docs/limits.md)",
                crate::limits::MAX_UNITS
            )));
        }
        if self.st.occupant[at as usize] != NO_UNIT {
            return Err(RunError::new(format!(
                "cell {} is already occupied",
                self.game.board.id(at)
            )));
        }
        let id = match id {
            // Named units count too, so generated numbers continue after the scenario's units.
            Some(id) => {
                self.st.units_created[owner as usize] += 1;
                id
            }
            None => self.fresh_unit_id(owner)?,
        };
        let g = self.game;
        let unit = UnitState {
            id,
            kind,
            owner,
            at,
            alive: true,
        };
        let u = self.st.add_unit(unit, g.players.len());
        for d in &g.unit_vars {
            self.st.unit_vars.push(d.initial.encode());
        }
        self.st.set_occupant(at, u);
        Ok(u)
    }

    fn assign(&mut self, place: &CPlace, op: AssignOp, v: Value) -> R<()> {
        let g = self.game;
        let combine = |old: Value, v: Value| -> R<Value> {
            Ok(match op {
                AssignOp::Set => v,
                AssignOp::Add => arith(
                    BinOp::Add,
                    if old.is_none() { Value::Int(0) } else { old },
                    v,
                )?,
                AssignOp::Sub => arith(
                    BinOp::Sub,
                    if old.is_none() { Value::Int(0) } else { old },
                    v,
                )?,
            })
        };
        let coerce = |v: Value, ty: Ty| -> Value {
            match (v, ty) {
                (Value::Int(i), Ty::Float) => Value::Float(i as f64),
                // A fraction stored into a whole-number variable is rounded down (scripts may return floats).
                (Value::Float(f), Ty::Int) => Value::Int(f.floor() as i64),
                (Value::Text(s), Ty::Row(t)) => {
                    let name = g.symbols.name(s);
                    g.tables[t as usize]
                        .row(name)
                        .map_or(Value::None, |r| Value::Row(t, r))
                }
                _ => v,
            }
        };
        match place {
            CPlace::Local(s) => {
                let old = self.rt.locals[*s];
                let nv = combine(old, v)?;
                self.rt.locals[*s] = nv;
            }
            CPlace::PlayerVar(p, slot, ty) => {
                if let Value::Player(p) = p.get(self)? {
                    let i = p as usize * g.player_slots + *slot;
                    let nv = combine(Value::decode(self.st.player_vars[i], *ty), v)?;
                    self.st.player_vars[i] = coerce(nv, *ty).encode();
                }
            }
            CPlace::CellVar(c, slot, ty) => {
                if let Value::Cell(c) = c.get(self)? {
                    let i = c as usize * g.cell_slots + *slot;
                    let nv = combine(Value::decode(self.st.cell_vars[i], *ty), v)?;
                    self.st.cell_vars[i] = coerce(nv, *ty).encode();
                }
            }
            CPlace::CellVarOf(c, slot, p, ty) => {
                let c = c.get(self)?;
                let p = p.get(self)?;
                if let (Value::Cell(c), Value::Player(p)) = (c, p) {
                    let i = c as usize * g.cell_slots + *slot + p as usize;
                    let nv = combine(Value::decode(self.st.cell_vars[i], *ty), v)?;
                    self.st.cell_vars[i] = coerce(nv, *ty).encode();
                }
            }
            CPlace::CellOwner(c) => {
                if let Value::Cell(c) = c.get(self)? {
                    let p = match v {
                        Value::Player(p) => p,
                        _ => NO_OWNER,
                    };
                    self.st.set_owner(c, p);
                }
            }
            CPlace::UnitVar(u, slot, ty) => {
                if let Value::Unit(u) = u.get(self)? {
                    let i = u as usize * g.unit_slots + *slot;
                    let nv = combine(Value::decode(self.st.unit_vars[i], *ty), v)?;
                    self.st.unit_vars[i] = coerce(nv, *ty).encode();
                }
            }
            CPlace::UnitAt(u) => {
                if let (Value::Unit(u), Value::Cell(to)) = (u.get(self)?, v) {
                    let from = self.st.units[u as usize].at;
                    if from == to {
                        return Ok(());
                    }
                    if self.st.occupant[to as usize] != NO_UNIT {
                        return Err(RunError::new(format!(
                            "cell {} is already occupied",
                            g.board.id(to)
                        )));
                    }
                    if self.st.occupant[from as usize] == u {
                        self.st.set_occupant(from, NO_UNIT);
                    }
                    self.st.set_occupant(to, u);
                    self.st.units[u as usize].at = to;
                }
            }
        }
        Ok(())
    }

    /// Decides the game and logs `game_end` with any extra fields.
    pub fn finish(&mut self, winner: Option<u8>, reason: &str, extra: Vec<(String, Json)>) {
        if self.st.result.is_some() {
            return;
        }
        self.st.result = Some(GameResult {
            winner,
            reason: Arc::from(reason),
        });
        // A finished game has nobody to act (`active: []`).
        self.st.due = 0;
        // The ply in progress ended the game and counts, as reference records count it. A game decided once a
        // player-turn is over (its end hooks, or the limits checked before the next one) is counted by
        // the turn's end instead.
        if !self.st.turn_over {
            self.st.ply = self.st.ply.saturating_add(1);
        }
        if self.logging() {
            let mut m = Map::new();
            m.insert("type".into(), Json::String("game_end".into()));
            m.insert(
                "winner".into(),
                winner.map_or(Json::Null, |p| {
                    Json::String(self.game.players[p as usize].clone())
                }),
            );
            m.insert("reason".into(), Json::String(reason.to_string()));
            for (k, v) in extra {
                m.insert(k, v);
            }
            self.log(Json::Object(m));
        }
    }
}

/// `set`, `add` or `sub` of whole number `v` on `base`; `None` on overflow (the generic assignment then
/// reports it).
#[inline]
fn int_assign(op: AssignOp, base: i64, v: i64) -> Option<i64> {
    match op {
        AssignOp::Set => Some(v),
        AssignOp::Add => base.checked_add(v),
        AssignOp::Sub => base.checked_sub(v),
    }
}
