//! Whether the orders of one player of a simultaneous turn can change whether another player's orders are
//! legal. A later player decides on a copy of the turn start (it must not see the orders handed in before
//! its own), and its orders are then applied to the live match, after the earlier players' orders. When no
//! action of the phase writes anything that an action of the phase reads (in its legality or its effects)
//! for another player, an order legal on the copy is legal on the live match, and it is applied there
//! without being checked again (`Engine::submit_orders_decided_on_copy`).
//!
//! The proof is conservative: what it cannot place (scripts, sight, units, cell owners, flow effects) counts
//! as touching everything of its kind. Two accesses of the same variable are apart when both are to the
//! acting player's own part of it: a cell the action requires the player to own (`at.owner == me` among
//! its checks; no action of the phase changes owners, or the proof fails on that), the player's own entry
//! of a per-player variable (`c.incoming[me]`), or the player's own variables (`me.gold`).
use crate::ir::game::{ActionSpec, Game, Phase, Submission};
use crate::ir::{BinOp, Builtin, Expr, ListOp, Place, SetExpr, SetSource, Stmt};

/// Which cells an access may touch.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cells {
    /// Only cells the acting player owns.
    Own,
    Any,
}

/// Which slots of the variables' rows an access may touch.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Slots {
    /// Slots `lo..hi`.
    Range(u16, u16),
    /// The acting player's entry of the per-player variable starting at this slot.
    Actor(u16),
}

/// One read or write of the state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Access {
    Cell(Cells, Slots),
    /// Player variables: of the acting player only (`me.x`), or of anyone.
    Player(bool, u16),
    /// Who owns cells.
    Owner,
    /// Units: where they stand, their variables, which live (and so which cells are empty).
    Units,
}

/// The slots an access may touch, as a range (a player's entry of a per-player variable is one of
/// `players` slots).
fn span(s: Slots, players: u16) -> (u16, u16) {
    match s {
        Slots::Range(lo, hi) => (lo, hi),
        Slots::Actor(base) => (base, base + players),
    }
}

/// Whether a write by one player and a read for another may meet.
fn meet(w: Access, r: Access, players: u16) -> bool {
    match (w, r) {
        (Access::Cell(wc, ws), Access::Cell(rc, rs)) => {
            // Cells owned by two different players are two cells.
            if wc == Cells::Own && rc == Cells::Own {
                return false;
            }
            // Each player's own entry of the same per-player variable.
            if let (Slots::Actor(a), Slots::Actor(b)) = (ws, rs) {
                if a == b {
                    return false;
                }
            }
            let ((a, b), (c, d)) = (span(ws, players), span(rs, players));
            a < d && c < b
        }
        (Access::Player(wme, ws), Access::Player(rme, rs)) => ws == rs && !(wme && rme),
        (Access::Owner, Access::Owner) | (Access::Units, Access::Units) => true,
        _ => false,
    }
}

/// The accesses of one action, gathered from its legality and its effects.
struct Accesses<'g> {
    game: &'g Game,
    /// Local slots of cell parameters the action requires the player to own.
    own_cells: Vec<u16>,
    reads: Vec<Access>,
    writes: Vec<Access>,
    /// Something the proof cannot place was met.
    unknown: bool,
}

impl Accesses<'_> {
    fn cells_of(&self, cell: &Expr) -> Cells {
        match cell {
            Expr::Local(s) if self.own_cells.contains(s) => Cells::Own,
            _ => Cells::Any,
        }
    }

    fn cell_var(&self, cell: &Expr, slot: u16) -> Access {
        Access::Cell(self.cells_of(cell), Slots::Range(slot, slot + 1))
    }

    fn cell_var_of(&self, cell: &Expr, base: u16, who: &Expr) -> Access {
        let slots = match who {
            Expr::Me => Slots::Actor(base),
            _ => Slots::Range(base, base + self.game.players.len() as u16),
        };
        Access::Cell(self.cells_of(cell), slots)
    }

    /// The reads of `e` and of every expression inside it.
    fn read(&mut self, e: &Expr) {
        e.visit(&mut |x| self.note(x));
    }

    /// The reads of a set: its elements' source and every expression of it.
    fn set(&mut self, s: &SetExpr) {
        self.set_source(s);
        s.visit(&mut |x| self.note(x));
    }

    /// What one expression node reads itself (the visit reaches the nodes inside it).
    fn note(&mut self, e: &Expr) {
        match e {
            Expr::CellOwner(_) => self.reads.push(Access::Owner),
            Expr::CellUnit(_)
            | Expr::CellEmpty(_)
            | Expr::UnitOwner(_)
            | Expr::UnitAt(_)
            | Expr::UnitType(_)
            | Expr::UnitVar(..) => self.reads.push(Access::Units),
            Expr::CellVar(c, slot, _) => {
                let a = self.cell_var(c, *slot);
                self.reads.push(a);
            }
            Expr::CellVarOf(c, base, who, _) => {
                let a = self.cell_var_of(c, *base, who);
                self.reads.push(a);
            }
            Expr::PlayerVar(p, slot, _) => {
                self.reads
                    .push(Access::Player(matches!(**p, Expr::Me), *slot));
            }
            // Sight reads the board's blocking variables and units in ways not written out here; a
            // script may read anything.
            Expr::Call(Builtin::LineOfSight, _) | Expr::Script(..) => self.unknown = true,
            Expr::Count(s) | Expr::Any(s) | Expr::First(s) | Expr::Sum(s, _) => self.set_source(s),
            Expr::List(ListOp::AtElement(s), _) => self.set_source(s),
            _ => {}
        }
    }

    /// What listing a set's elements reads besides its expressions (the visit reaches those).
    fn set_source(&mut self, s: &SetExpr) {
        if matches!(s.source, SetSource::Units) {
            self.reads.push(Access::Units);
        }
        if s.scan.owner.is_some() {
            self.reads.push(Access::Owner);
        }
        if s.scan.empty.is_some() {
            self.reads.push(Access::Units);
        }
        // Planned scans are made from the filter in the lowering; the game's sets hold none, but a fixed
        // scan's or an owner scan's expressions would be read like the filter.
        for x in s
            .scan
            .fixed
            .iter()
            .chain(s.scan.owner.as_ref().map(|(_, x)| x))
        {
            x.visit(&mut |y| self.note(y));
        }
    }

    /// A write to `place` (a read of it too when added to or taken from).
    fn write(&mut self, place: &Place, reads_old: bool) {
        let a = match place {
            Place::Local(_) => return,
            Place::PlayerVar(p, slot, _) => {
                self.read(p);
                Access::Player(matches!(p, Expr::Me), *slot)
            }
            Place::CellVar(c, slot, _) => {
                self.read(c);
                self.cell_var(c, *slot)
            }
            Place::CellVarOf(c, base, who, _) => {
                self.read(c);
                self.read(who);
                self.cell_var_of(c, *base, who)
            }
            Place::CellOwner(c) => {
                self.read(c);
                Access::Owner
            }
            Place::UnitVar(u, ..) | Place::UnitAt(u) => {
                self.read(u);
                Access::Units
            }
        };
        self.writes.push(a);
        if reads_old {
            self.reads.push(a);
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            match s {
                Stmt::Let(_, e) | Stmt::Eval(e) => self.read(e),
                Stmt::Assign(place, op, e) => {
                    self.read(e);
                    self.write(place, *op != crate::ir::AssignOp::Set);
                }
                Stmt::Emit(spec) => spec.fields.iter().for_each(|(_, e)| self.read(e)),
                Stmt::If(c, a, b) => {
                    self.read(c);
                    self.stmts(a);
                    self.stmts(b);
                }
                Stmt::For(set, body) => {
                    self.set(set);
                    self.stmts(body);
                }
                Stmt::CreateUnit {
                    kind,
                    owner,
                    at,
                    init,
                    ..
                } => {
                    for x in [kind, owner, at] {
                        self.read(x);
                    }
                    init.iter().for_each(|(_, _, e)| self.read(e));
                    self.writes.push(Access::Units);
                }
                Stmt::DestroyUnit(u) => {
                    self.read(u);
                    self.writes.push(Access::Units);
                }
                // Ending the game, the turn or a stage from an order: left to the checked path.
                Stmt::Win(..) | Stmt::Draw(_) | Stmt::EndTurn | Stmt::Stage(_) => {
                    self.unknown = true
                }
            }
        }
    }
}

/// Whether `e` is `x.owner == me` (either way round) for a local `x`: that local's slot.
fn owned_by_me(e: &Expr) -> Option<u16> {
    let Expr::Bin(BinOp::Eq, a, b) = e else {
        return None;
    };
    match (&**a, &**b) {
        (Expr::CellOwner(c), Expr::Me) | (Expr::Me, Expr::CellOwner(c)) => match **c {
            Expr::Local(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// Local slots the effects of an action bind (a parameter's slot among them would no longer name the
/// parameter's cell after it).
fn bound_slots(stmts: &[Stmt], out: &mut Vec<u16>) {
    for s in stmts {
        match s {
            Stmt::Let(slot, _) | Stmt::Assign(Place::Local(slot), ..) => out.push(*slot),
            Stmt::If(_, a, b) => {
                bound_slots(a, out);
                bound_slots(b, out);
            }
            Stmt::For(set, body) => {
                out.push(set.slot);
                bound_slots(body, out);
            }
            Stmt::CreateUnit {
                bind: Some(slot), ..
            } => out.push(*slot),
            _ => {}
        }
    }
}

/// The accesses of action `a`: its legality (parameters' sources, bounds and checks, the action's checks)
/// and its effects.
fn accesses<'g>(game: &'g Game, a: &ActionSpec) -> Accesses<'g> {
    let mut bound = Vec::new();
    bound_slots(&a.effects, &mut bound);
    let checks = a.params.iter().flat_map(|p| &p.checks).chain(&a.checks);
    let own_cells = checks
        .filter_map(|c| owned_by_me(&c.cond))
        .filter(|s| {
            !bound.contains(s)
                && a.params
                    .iter()
                    .any(|p| p.slot == *s && p.ty == crate::model::Ty::Cell)
        })
        .collect();
    let mut acc = Accesses {
        game,
        own_cells,
        reads: Vec::new(),
        writes: Vec::new(),
        unknown: false,
    };
    for p in &a.params {
        if let Some((s, _)) = &p.source {
            acc.set(s);
        }
        for (e, _) in p.min.iter().chain(&p.max) {
            acc.read(e);
        }
        for c in &p.checks {
            acc.read(&c.cond);
        }
        if let Some(split) = &p.split {
            acc.set(&split.over);
            acc.read(&split.total);
        }
    }
    for c in &a.checks {
        acc.read(&c.cond);
    }
    acc.stmts(&a.effects);
    acc
}

/// Whether no order of one player of `phase` can change whether another player's order is legal, or what
/// it does to anything that decides legality (see the module's documentation).
pub fn orders_independent(game: &Game, phase: &Phase) -> bool {
    if phase.submission != Submission::Orders {
        return false;
    }
    let all: Vec<Accesses> = phase
        .actions
        .iter()
        .map(|&k| accesses(game, &game.actions[k as usize]))
        .collect();
    if all.iter().any(|a| a.unknown) {
        return false;
    }
    let players = game.players.len() as u16;
    all.iter().flat_map(|a| &a.writes).all(|&w| {
        all.iter()
            .flat_map(|a| &a.reads)
            .all(|&r| !meet(w, r, players))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accesses_to_the_same_variable_meet_unless_both_are_the_actors_own() {
        let (own, any) = (Cells::Own, Cells::Any);
        let one = |c, s| Access::Cell(c, Slots::Range(s, s + 1));
        assert!(!meet(one(own, 1), one(own, 1), 2));
        assert!(meet(one(own, 1), one(any, 1), 2));
        assert!(meet(one(any, 1), one(own, 1), 2));
        assert!(!meet(one(any, 1), one(any, 2), 2));
        // Each player's own entry of a per-player variable, but not another entry of it.
        let mine = Access::Cell(any, Slots::Actor(2));
        assert!(!meet(mine, mine, 2));
        assert!(meet(mine, one(any, 3), 2));
        assert!(!meet(mine, one(any, 4), 2));
        assert!(!meet(Access::Player(true, 0), Access::Player(true, 0), 2));
        assert!(meet(Access::Player(true, 0), Access::Player(false, 0), 2));
        assert!(meet(Access::Owner, Access::Owner, 2));
        assert!(!meet(Access::Owner, Access::Units, 2));
    }
}
