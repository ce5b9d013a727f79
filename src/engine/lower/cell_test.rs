//! Tests that compare two facts of one cell (`c.owner != c.unit.owner`), done for every cell at once as bit
//! operations on the state's bit sets, and the proof that lets a loop over cells use them: a loop whose
//! body is one branch on such a test, with statements that cannot change the test's outcome for another
//! cell, runs the branch for exactly the cells that pass the test when the loop starts. The loop then
//! visits only those (usually none or a few) instead of testing every cell of the set.
use crate::ir::{BinOp, Expr, Place, Stmt};
use crate::model::state::MatchState;

/// A test of the cell in a loop's local that reads only that cell's owner and occupant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellTest {
    /// `c.owner == c.unit.owner` (true) or `!=` (false). A cell without a unit has none for its unit's
    /// owner, and an unowned cell none for its owner: none equals none, as the generic comparison has it.
    OwnerIsUnitOwner(bool),
}

impl CellTest {
    /// The test `e` is of the cell in local `slot`, when it has one of the shapes above.
    pub fn of(e: &Expr, slot: u16) -> Option<CellTest> {
        let Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) = e else {
            return None;
        };
        let is_cell = |x: &Expr| matches!(x, Expr::Local(s) if *s == slot);
        let cell_owner = |x: &Expr| matches!(x, Expr::CellOwner(c) if is_cell(c));
        let unit_owner = |x: &Expr| matches!(x, Expr::UnitOwner(u) if matches!(&**u, Expr::CellUnit(c) if is_cell(c)));
        let pair = (cell_owner(a) && unit_owner(b)) || (unit_owner(a) && cell_owner(b));
        pair.then_some(CellTest::OwnerIsUnitOwner(*op == BinOp::Eq))
    }

    /// Word `w` of the cells that pass (bits past the board's last cell are unspecified).
    #[inline]
    pub fn word(self, st: &MatchState, w: usize) -> u64 {
        match self {
            CellTest::OwnerIsUnitOwner(eq) => {
                let words = st.words();
                let players = st.owner_bits.len() / words.max(1);
                // A unit's cell agrees when its player owns it; an empty cell when nobody does.
                let (mut owned, mut agree) = (0u64, 0u64);
                for p in 0..players {
                    let owns = st.owner_bits[p * words + w];
                    owned |= owns;
                    agree |= owns & st.unit_bits[p * words + w];
                }
                agree |= !st.occupied_bits[w] & !owned;
                if eq {
                    agree
                } else {
                    !agree
                }
            }
        }
    }
}

/// Whether running `stmts` for the cell in local `slot` leaves every other cell's owner and occupant as
/// they were, so a [`CellTest`] of another cell has the same outcome before and after: the statements
/// write only locals (never `slot` itself) and the loop cell's owner and variables, and call no script
/// (random draws are refused too: [`Expr::reads`] is the shared notion of a pure expression).
pub fn keeps_other_cells(stmts: &[Stmt], slot: u16) -> bool {
    let pure = |e: &Expr| e.reads(&mut Vec::new());
    let this_cell = |e: &Expr| matches!(e, Expr::Local(s) if *s == slot);
    stmts.iter().all(|s| match s {
        Stmt::Let(local, e) => *local != slot && pure(e),
        Stmt::Assign(Place::Local(local), _, e) => *local != slot && pure(e),
        Stmt::Assign(Place::CellOwner(c) | Place::CellVar(c, ..), _, e) => this_cell(c) && pure(e),
        Stmt::Emit(spec) => spec.fields.iter().all(|(_, e)| pure(e)),
        Stmt::If(c, then, els) => {
            pure(c) && keeps_other_cells(then, slot) && keeps_other_cells(els, slot)
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Value;

    fn local(s: u16) -> Box<Expr> {
        Box::new(Expr::Local(s))
    }
    fn owner_vs_unit(op: BinOp, slot: u16) -> Expr {
        Expr::Bin(
            op,
            Box::new(Expr::CellOwner(local(slot))),
            Box::new(Expr::UnitOwner(Box::new(Expr::CellUnit(local(slot))))),
        )
    }

    #[test]
    fn recognises_the_comparison_of_one_cells_owners_either_way_round() {
        assert_eq!(
            CellTest::of(&owner_vs_unit(BinOp::Ne, 3), 3),
            Some(CellTest::OwnerIsUnitOwner(false))
        );
        let Expr::Bin(_, a, b) = owner_vs_unit(BinOp::Eq, 3) else {
            unreachable!()
        };
        assert_eq!(
            CellTest::of(&Expr::Bin(BinOp::Eq, b, a), 3),
            Some(CellTest::OwnerIsUnitOwner(true))
        );
        // Another cell's owners, or an order comparison, are not this test.
        assert_eq!(CellTest::of(&owner_vs_unit(BinOp::Ne, 3), 4), None);
        assert_eq!(CellTest::of(&owner_vs_unit(BinOp::Lt, 3), 3), None);
    }

    #[test]
    fn bodies_that_touch_other_cells_or_call_scripts_are_refused() {
        let own = Stmt::Assign(
            Place::CellOwner(Expr::Local(3)),
            crate::ir::AssignOp::Set,
            Expr::UnitOwner(Box::new(Expr::CellUnit(local(3)))),
        );
        assert!(keeps_other_cells(std::slice::from_ref(&own), 3));
        let other = Stmt::Assign(
            Place::CellOwner(Expr::Local(4)),
            crate::ir::AssignOp::Set,
            Expr::Const(Value::None),
        );
        assert!(!keeps_other_cells(&[own.clone(), other], 3));
        let rebind = Stmt::Let(3, Expr::Local(4));
        assert!(!keeps_other_cells(&[rebind, own], 3));
        assert!(!keeps_other_cells(&[Stmt::EndTurn], 3));
    }
}
