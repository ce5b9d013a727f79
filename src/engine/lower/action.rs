//! Actions lowered for checking and for enumeration. Checking an action from outside runs every test in the
//! declared order (the first failing one names the reason). Enumeration runs the same tests, scheduled: each
//! pure test is attached once, to the shallowest parameter whose value it reads (tests that read none run
//! once before the walk), and a later integer parameter whose bounds leave no value prunes its branch early.
use super::expr::{Arg, Cond, Ev};
use super::int::IntNode;
use super::set::{CSet, CSource};
use super::typed::{unit_flag_test, unit_flags_cond, IntArg};
use super::Lowerer;
use crate::ir::game::{ActionSpec, ParamSpec};
use crate::ir::{BinOp, Expr, SetExpr, SetSource};
use crate::model::value::ABSENT;
use crate::model::{Ty, Value};

/// A lowered parameter.
pub struct CParam {
    pub ty: Ty,
    pub slot: usize,
    /// Where legal values come from.
    pub source: Option<CSet>,
    /// Test the source after the bounds and checks (validation order only).
    pub source_last: bool,
    pub min: Option<Ev>,
    pub max: Option<Ev>,
    /// The parameter's own checks, in declared order (validation).
    pub checks: Vec<Cond>,
    /// Enumeration: whether each candidate is tested against `min`/`max` (values drawn from the bounds
    /// themselves need no test unless the bounds read the parameter).
    pub test_bounds: bool,
    /// Enumeration: tests run on each candidate once it is bound, after the bounds.
    pub tests: Vec<Cond>,
    /// Enumeration: bounds of a later integer parameter (its index is the third field) that depend only on
    /// parameters up to this one; a branch where `lo > hi` is skipped, and the bounds are kept for the
    /// later parameter so they are not evaluated again for every candidate in between.
    pub ranges: Vec<(Bounds, usize)>,
    /// Enumeration: this parameter's bounds were evaluated by an earlier parameter (see `ranges`).
    pub bounds_hoisted: bool,
    /// Enumeration of a unit or cell parameter without a source: only elements of this owner are candidates.
    pub owner_filter: Option<Arg>,
    /// Enumeration: the last parameter, an integer with plain bounds and nothing else to test, so its values
    /// are counted and picked as a block instead of visited one by one.
    pub countable: bool,
    /// Enumeration of a cell parameter whose source can be listed as bits in board order (cells within a
    /// radius, or reachable through empty cells): the parts of its tests that are bit operations
    /// (emptiness, a cell's owner, the owner of the unit on it), applied to all candidates at once.
    pub bit_tests: Vec<BitTest>,
    /// The same tests as conditions, for candidates that had to be listed one by one (large boards).
    pub bit_conds: Vec<Cond>,
    /// Whether `bit_tests` read nothing but the state and the player (no parameter, no expression) and
    /// earlier parameters exist: the cells passing them are the same for every candidate of those, so a
    /// walk makes them once and intersects each candidate's set with them (a unit's targets with the
    /// enemy's cells).
    pub bits_invariant: bool,
    /// Whether the whole listing as bits reads no earlier parameter: its source reads none (or it has none,
    /// every cell) and its bit tests are invariant (or it has none), so a walk lists it once and every
    /// candidate of the earlier parameters gets a copy (a unit type's recruitment sites).
    pub listing_invariant: bool,
    /// Whether the source can be listed as bits (then `bit_tests` apply).
    pub bits_listable: bool,
    /// The last parameter, listable as bits with nothing left to test per candidate: its values are
    /// counted and picked as a bit set instead of visited one by one.
    pub cell_block: bool,
    /// The next-to-last parameter, a cell among the neighbours of an earlier one with nothing to test,
    /// followed by a countable integer whose bounds were evaluated before it: every neighbour gets the same
    /// range, so the two are counted and picked together as neighbours x range (`move from to amount`).
    pub product_block: bool,
    /// Enumeration of a cell parameter without a source whose visit tests nothing before its hoisted
    /// ranges (no bit conditions, bounds or tests, none of which could then fail or err first): the index
    /// in `ranges` of the first range when it is typed, tested on each candidate before its visit starts (typed reads
    /// cannot fail), so cells outside it cost a comparison, not a visit (`amount` up to `from.pieces`).
    pub quick_range: Option<usize>,
    /// Enumeration of a unit parameter without a source or bounds whose first tests are flags of the
    /// candidate itself (`not u.done`): each flag's slot and whether it must be set, tested inline on
    /// each unit before its visit starts (flag reads cannot fail), so a unit that has already acted costs a
    /// few loads, not a visit.
    pub unit_flags: Vec<(usize, bool)>,
    /// Enumeration of a unit parameter with nothing to test or bound per candidate (its tests are all
    /// `unit_flags`), followed by a parameter listed as bits: each unit goes straight to the next
    /// parameter's bits (a unit's targets), without a visit.
    pub units_to_bits: bool,
    /// The last parameter, a unit with nothing to test per unit beyond its owner and flags: the passing
    /// units are counted and picked as a bit set instead of visited one by one.
    pub unit_block: bool,
    /// A cell parameter listed as bits, with nothing to test per cell but one hoisted range of typed or
    /// whole-number bounds, followed by a [`CParam::product_block`] of its own neighbours x the amount that
    /// range bounds (`from` of `move from to amount`): each cell's block goes to the sink at once, naming the
    /// cell, without a visit.
    pub bits_to_product: bool,
    /// A cell parameter listed as bits from cells within a radius of an earlier parameter's value, with
    /// bit tests the same for every candidate of that parameter (`bits_invariant`): a unit whose cells
    /// within the radius hold none of the cells passing the tests lists nothing here, so a walk of units
    /// (`units_to_bits`) passes it over on one test of the radius's words against the walk's mask of
    /// passing cells, without listing (a unit with no enemy in range).
    pub within_reject: bool,
}

/// The bounds of an integer parameter as tested early: read in place when both are typed reads, computed
/// without tagged values when both are whole-number expressions over such reads (`from.count - from.sent`).
pub enum Bounds {
    Typed(IntArg, IntArg),
    Int(IntNode, IntNode),
    Generic(Arg, Arg),
}

/// A test of a cell parameter that is a bit operation on the state's bit sets.
pub enum BitTest {
    /// `x.empty` (true) or `not x.empty` (false).
    Empty(bool),
    /// `x.owner == y` (true) or `!=` (false), `y` not reading `x`.
    Owner(bool, Arg),
    /// `x.unit.owner == y` (true: a unit of `y` is there) or `!=` (false: no unit of `y` is there).
    UnitOwner(bool, Arg),
    /// `x.flag` (true) or `not x.flag` (false), the flag at this offset of the cell's row of variables.
    CellFlag(usize, bool),
    /// `x.var == n` (true) or `x.var != n` (false), the whole number at this offset of the cell's row.
    CellVarIs(usize, bool, i64),
    /// A test of data that never changes during a match (`plan::is_fixed`): the cells passing it are
    /// made once per player (cache index, the test, the parameter's slot; the cache is shared with the
    /// same test in `bit_conds`, whose mark of an error makes the listing test candidates one by one).
    Fixed(usize, Cond, usize),
}

/// A lowered action.
pub struct CAction {
    pub kind: u16,
    pub params: Vec<CParam>,
    /// The action's checks, in declared order (validation).
    pub checks: Vec<Cond>,
    /// Enumeration: checks that read no parameter, tested once before the walk.
    pub pre: Vec<Cond>,
    /// Enumeration: checks tested when every parameter is bound.
    pub leaf: Vec<Cond>,
    pub effects: Vec<super::CStmt>,
}

/// Where enumeration runs a test: before the walk, at a parameter, or at the leaf.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Pre,
    Param(usize),
    Leaf,
}

impl Lowerer<'_> {
    /// The shallowest place a test can run: after the last parameter it reads (`None` if it is impure or
    /// reads a local that is not a parameter).
    fn depth(&self, e: &Expr, slots: &[u16]) -> Option<At> {
        let mut used = Vec::new();
        if !e.reads(&mut used) {
            return None;
        }
        let mut last = None;
        for s in used {
            let i = slots.iter().position(|x| *x == s)?;
            last = Some(last.map_or(i, |l: usize| l.max(i)));
        }
        Some(last.map_or(At::Pre, At::Param))
    }

    pub(super) fn action(&mut self, kind: u16, a: &ActionSpec) -> CAction {
        let slots: Vec<u16> = a.params.iter().map(|p| p.slot).collect();
        let n = a.params.len();
        let hoist = self.opts.hoist;
        // Every enumeration test with the place it runs.
        let mut scheduled: Vec<(At, &Expr)> = Vec::new();
        let mut owner_filters: Vec<Option<&Expr>> = vec![None; n];
        // A last cell parameter drawn from no set is listed from the whole board as bits: its owner, emptiness
        // and cell-variable tests are word operations, and with nothing else to test its cells are one block.
        // So is one the player must own that is followed by its own neighbours x an amount (`move from to
        // amount`): each cell's neighbours x amounts then go to the sink as one block
        // (`CParam::bits_to_product`).
        let product_after = |j: usize| {
            j + 3 == n
                && matches!(
                    &a.params[j + 1].source,
                    Some((SetExpr { source: SetSource::Neighbours(Expr::Local(s)), filter: None, .. }, _))
                        if *s == a.params[j].slot
                )
                && a.params[j + 2].ty == Ty::Int
                && a.params[j + 2].source.is_none()
        };
        let whole_board: Vec<bool> = a
            .params
            .iter()
            .enumerate()
            .map(|(j, p)| {
                hoist
                    && self.opts.scan
                    && (j + 1 == n || (product_after(j) && owner_filter(p).is_some()))
                    && p.ty == Ty::Cell
                    && p.source.is_none()
                    && p.min.is_none()
                    && p.max.is_none()
            })
            .collect();
        for (j, p) in a.params.iter().enumerate() {
            // A whole-board parameter's owner test is one of its bit tests instead.
            if hoist && !whole_board[j] {
                owner_filters[j] = owner_filter(p);
            }
            for c in &p.checks {
                if hoist && owner_filters[j].is_some_and(|x| is_owner_check(&c.cond, p.slot, x)) {
                    // The candidates are filtered by owner natively: the test would always pass.
                    continue;
                }
                let at = match self.depth(&c.cond, &slots) {
                    Some(at) if hoist => at,
                    _ => At::Param(j),
                };
                scheduled.push((at, &c.cond));
            }
        }
        for c in &a.checks {
            let at = match self.depth(&c.cond, &slots) {
                Some(At::Param(i)) if hoist => At::Param(i),
                Some(At::Pre) => At::Pre,
                _ => At::Leaf,
            };
            // Without parameters every check runs before the (empty) walk.
            let at = if n == 0 { At::Pre } else { at };
            scheduled.push((at, &c.cond));
        }
        let mut ranges: Vec<Vec<(Bounds, usize)>> = (0..n).map(|_| Vec::new()).collect();
        let mut hoisted = vec![false; n];
        if hoist {
            for (j, p) in a.params.iter().enumerate() {
                if let (Some((lo, _)), Some((hi, _))) = (&p.min, &p.max) {
                    if let (Some(x), Some(y)) = (self.depth(lo, &slots), self.depth(hi, &slots)) {
                        let i = match (x, y) {
                            (At::Param(x), At::Param(y)) => Some(x.max(y)),
                            (At::Param(x), _) | (_, At::Param(x)) => Some(x),
                            _ => None,
                        };
                        if let Some(i) = i.filter(|i| *i < j) {
                            let bounds = match (IntArg::of(lo), IntArg::of(hi)) {
                                (Some(l), Some(h)) if self.opts.specialise => Bounds::Typed(l, h),
                                _ => match (self.int_node(lo), self.int_node(hi)) {
                                    (Some(l), Some(h)) => Bounds::Int(l, h),
                                    _ => Bounds::Generic(self.arg(lo), self.arg(hi)),
                                },
                            };
                            ranges[i].push((bounds, j));
                            hoisted[j] = true;
                        }
                    }
                }
            }
        }
        let mut pre = Vec::new();
        let mut leaf = Vec::new();
        let mut at_param: Vec<Vec<&Expr>> = (0..n).map(|_| Vec::new()).collect();
        for (at, e) in scheduled {
            match at {
                At::Pre => pre.push(self.cond(e)),
                At::Param(i) => at_param[i].push(e),
                At::Leaf => leaf.push(self.cond(e)),
            }
        }
        // Per parameter: its tests, split into bit operations and the rest where the source lists as bits.
        let mut tests: Vec<Vec<Cond>> = Vec::with_capacity(n);
        let mut own_flags: Vec<Vec<(usize, bool)>> = vec![Vec::new(); n];
        let mut bits: Vec<(bool, Vec<BitTest>, Vec<Cond>)> = Vec::with_capacity(n);
        // Sources are lowered (and planned) first: a cell set whose filter the planned scans took over
        // lists as bits too.
        let mut sources: Vec<Option<CSet>> = a
            .params
            .iter()
            .zip(&whole_board)
            .map(|(p, &whole)| match &p.source {
                Some((s, _)) => Some(self.set(s)),
                // Every cell, in board order: what the walk of a cell parameter without a source visits.
                None if whole => Some(self.set(&SetExpr {
                    source: SetSource::Cells,
                    slot: p.slot,
                    filter: None,
                    elem: Ty::Cell,
                    scan: Default::default(),
                })),
                None => None,
            })
            .collect();
        for (j, exprs) in at_param.into_iter().enumerate() {
            let listable = hoist
                && (bits_listable(&a.params[j])
                    || (a.params[j].ty == Ty::Cell
                        && sources[j].as_ref().is_some_and(CSet::scans_as_bits)));
            let (mut rest, mut bit_tests, mut bit_conds) = (Vec::new(), Vec::new(), Vec::new());
            let mut k = 0;
            while k < exprs.len() {
                let e = exprs[k];
                k += 1;
                if !listable || !e.reads(&mut Vec::new()) {
                    // A run of flag tests of one unit is one condition (they cannot fail with an error, so
                    // testing them together stops at the same candidates).
                    if let Some((u, slot, want)) =
                        unit_flag_test(e).filter(|_| self.opts.specialise && !listable)
                    {
                        let mut flags = vec![(slot, want)];
                        while let Some((_, slot, want)) = exprs
                            .get(k)
                            .and_then(|x| unit_flag_test(x))
                            .filter(|(v, ..)| *v == u)
                        {
                            flags.push((slot, want));
                            k += 1;
                        }
                        let p = &a.params[j];
                        if p.ty == Ty::Unit
                            && u == p.slot as usize
                            && rest.is_empty()
                            && own_flags[j].is_empty()
                            && p.source.is_none()
                            && p.min.is_none()
                            && p.max.is_none()
                        {
                            // The candidate's own flags, first of its tests: tested in the walk's loop.
                            own_flags[j] = flags;
                            continue;
                        }
                        if flags.len() > 1 {
                            rest.push(unit_flags_cond(u, flags));
                            continue;
                        }
                    }
                    let slot = a.params[j].slot;
                    let fixed = self.opts.scan
                        && a.params[j].ty == Ty::Cell
                        && super::plan::is_fixed(e, slot, &self.constant_slots);
                    let c = self.cond(e);
                    rest.push(if fixed { self.fixed_test(c, slot) } else { c });
                    continue;
                }
                let mut parts = Vec::new();
                super::plan::conjuncts(e.clone(), &mut parts);
                let mut others = Vec::new();
                // Cells reachable through empty cells are empty: listed as bits, `x.empty` holds for each
                // (a walk that lists them one by one still tests it, by `bit_conds`).
                let all_empty = matches!(
                    sources[j].as_ref().map(|s| &s.source),
                    Some(CSource::Reachable {
                        empty_test: true,
                        ..
                    })
                );
                for part in parts {
                    let slot = a.params[j].slot;
                    if self.opts.scan && super::plan::is_fixed(&part, slot, &self.constant_slots) {
                        // One cache of the cells for both: the one-by-one test marks it when it errs.
                        let i = self.fixed_index();
                        bit_tests.push(BitTest::Fixed(i, self.cond(&part), slot as usize));
                        let c = self.cond(&part);
                        bit_conds.push(self.fixed_test_at(i, c, slot));
                        continue;
                    }
                    match self.bit_test(&part, a.params[j].slot) {
                        Some(t) => {
                            if !(all_empty && matches!(t, BitTest::Empty(true))) {
                                bit_tests.push(t);
                            }
                            bit_conds.push(self.cond(&part));
                        }
                        None => others.push(part),
                    }
                }
                if let Some(e) = super::plan::join(others) {
                    rest.push(self.cond(&e));
                }
            }
            tests.push(rest);
            bits.push((listable, bit_tests, bit_conds));
        }
        let mut params = Vec::with_capacity(n);
        for (j, ((p, (tests, ranges)), (bits_listable, bit_tests, bit_conds))) in a
            .params
            .iter()
            .zip(tests.into_iter().zip(ranges))
            .zip(bits)
            .enumerate()
        {
            let reads_self = |e: &Option<(Expr, String)>| {
                e.as_ref().is_none_or(|(e, _)| {
                    let mut used = Vec::new();
                    !e.reads(&mut used) || used.contains(&p.slot)
                })
            };
            // Values drawn from the bounds satisfy them, unless the bounds read the value itself.
            let from_bounds = p.ty == Ty::Int && p.source.is_none();
            let test_bounds = !hoist || !from_bounds || reads_self(&p.min) || reads_self(&p.max);
            let countable = from_bounds
                && j + 1 == n
                && p.min.is_some()
                && p.max.is_some()
                && !test_bounds
                && tests.is_empty()
                && leaf.is_empty();
            let cell_block = bits_listable && j + 1 == n && tests.is_empty() && leaf.is_empty();
            let unit_block = hoist
                && p.ty == Ty::Unit
                && j + 1 == n
                && p.source.is_none()
                && p.min.is_none()
                && p.max.is_none()
                && tests.is_empty()
                && bit_conds.is_empty()
                && ranges.is_empty()
                && leaf.is_empty();
            // (Only a later parameter's tests: the first's run once per walk anyway.)
            let bits_invariant = j > 0
                && !bit_tests.is_empty()
                && bit_tests.iter().all(|t| match t {
                    BitTest::Empty(_)
                    | BitTest::CellFlag(..)
                    | BitTest::CellVarIs(..)
                    | BitTest::Fixed(..) => true,
                    BitTest::Owner(_, x) | BitTest::UnitOwner(_, x) => {
                        matches!(x, Arg::Me | Arg::Opponent | Arg::Const(_))
                    }
                });
            let source_reads_no_parameter = match &p.source {
                Some((set, _)) => {
                    let mut used = Vec::new();
                    set.reads(&mut used)
                        && !used
                            .iter()
                            .any(|u| a.params[..j].iter().any(|q| q.slot == *u))
                }
                None => whole_board[j],
            };
            let listing_invariant = j > 0
                && bits_listable
                && source_reads_no_parameter
                && (bit_tests.is_empty() || bits_invariant);
            let within_reject = self.opts.scan
                && bits_invariant
                && !listing_invariant
                && sources[j].as_ref().is_some_and(|s| {
                    s.filter.is_none()
                        && !s.live
                        && matches!(s.source, super::set::CSource::Within(..))
                });
            params.push(CParam {
                within_reject,
                bits_invariant,
                listing_invariant,
                bit_tests,
                bit_conds,
                bits_listable,
                cell_block,
                ty: p.ty,
                slot: p.slot as usize,
                source: sources[j].take(),
                source_last: p.source_last,
                min: p.min.as_ref().map(|(e, _)| self.ev(e)),
                max: p.max.as_ref().map(|(e, _)| self.ev(e)),
                checks: p.checks.iter().map(|c| self.cond(&c.cond)).collect(),
                test_bounds,
                tests,
                ranges,
                bounds_hoisted: hoisted[j],
                owner_filter: owner_filters[j].map(|e| self.arg(e)),
                countable,
                product_block: false,
                quick_range: None,
                unit_flags: std::mem::take(&mut own_flags[j]),
                units_to_bits: false,
                unit_block,
                bits_to_product: false,
            });
        }
        for p in params.iter_mut() {
            if p.ty == Ty::Cell
                && p.source.is_none()
                && p.min.is_none()
                && p.max.is_none()
                && p.tests.is_empty()
                && p.bit_conds.is_empty()
            {
                // Only the first range: an earlier one could fail with an error first.
                p.quick_range =
                    matches!(p.ranges.first(), Some((Bounds::Typed(..), _))).then_some(0);
            }
        }
        for j in 0..n.saturating_sub(1) {
            let (p, next) = (&params[j], &params[j + 1]);
            let units_to_bits = p.ty == Ty::Unit
                && p.source.is_none()
                && p.min.is_none()
                && p.max.is_none()
                && p.tests.is_empty()
                && p.bit_conds.is_empty()
                && p.ranges.is_empty()
                && next.bits_listable
                && !next.product_block;
            params[j].units_to_bits = units_to_bits;
            let (p, next) = (&params[j], &params[j + 1]);
            params[j].product_block = j + 2 == n
                && p.ty == Ty::Cell
                && p.source.as_ref().is_some_and(|s| {
                    s.filter.is_none() && matches!(s.source, super::set::CSource::Neighbours(_))
                })
                && p.min.is_none()
                && p.max.is_none()
                && p.tests.is_empty()
                && p.ranges.is_empty()
                && !p.bits_listable
                && p.owner_filter.is_none()
                && next.countable
                && next.bounds_hoisted;
        }
        for j in 0..n.saturating_sub(2) {
            let (p, next) = (&params[j], &params[j + 1]);
            let own_neighbours = matches!(
                next.source.as_ref().map(|s| &s.source),
                Some(super::set::CSource::Neighbours(Arg::Local(s))) if *s as usize == p.slot
            );
            params[j].bits_to_product = p.ty == Ty::Cell
                && p.bits_listable
                && next.product_block
                && own_neighbours
                && (!p.test_bounds || (p.min.is_none() && p.max.is_none()))
                && p.tests.is_empty()
                && matches!(
                    p.ranges[..],
                    [(Bounds::Typed(..) | Bounds::Int(..), k)] if k == j + 2
                );
        }
        CAction {
            kind,
            params,
            checks: a.checks.iter().map(|c| self.cond(&c.cond)).collect(),
            pre,
            leaf,
            effects: self.stmts(&a.effects),
        }
    }
}

impl Lowerer<'_> {
    fn bit_test(&mut self, e: &Expr, slot: u16) -> Option<BitTest> {
        let is_p = |x: &Expr| matches!(x, Expr::Local(s) if *s == slot);
        match e {
            Expr::CellEmpty(c) if is_p(c) => Some(BitTest::Empty(true)),
            Expr::Call(crate::ir::Builtin::Has, args) if matches!(args.first(), Some(Expr::CellUnit(c)) if is_p(c)) => {
                Some(BitTest::Empty(false))
            }
            Expr::Not(x) => match &**x {
                Expr::CellEmpty(c) if is_p(c) => Some(BitTest::Empty(false)),
                Expr::CellVar(c, off, Ty::Bool) if is_p(c) => {
                    Some(BitTest::CellFlag(*off as usize, false))
                }
                _ => None,
            },
            Expr::CellVar(c, off, Ty::Bool) if is_p(c) => {
                Some(BitTest::CellFlag(*off as usize, true))
            }
            Expr::Bin(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                for (side, other) in [(a, b), (b, a)] {
                    let mut used = Vec::new();
                    if !other.reads(&mut used) || used.contains(&slot) {
                        continue;
                    }
                    let eq = *op == BinOp::Eq;
                    if let (Expr::CellVar(x, off, Ty::Int), Expr::Const(Value::Int(n))) =
                        (&**side, &**other)
                    {
                        // Unset is none, which equals no number: the raw unset code must not be `n`.
                        if is_p(x) && *n != ABSENT {
                            return Some(BitTest::CellVarIs(*off as usize, eq, *n));
                        }
                    }
                    match &**side {
                        Expr::CellOwner(x) if is_p(x) => {
                            return Some(BitTest::Owner(eq, self.arg(other)));
                        }
                        Expr::UnitOwner(u) if matches!(&**u, Expr::CellUnit(x) if is_p(x)) => {
                            return Some(BitTest::UnitOwner(eq, self.arg(other)));
                        }
                        _ => {}
                    }
                }
                None
            }
            _ => None,
        }
    }
}

/// Whether a cell parameter's source can be listed as bits in board order: cells within a radius, or
/// reachable through empty cells, without a filter.
fn bits_listable(p: &ParamSpec) -> bool {
    let Some((set, _)) = &p.source else {
        return false;
    };
    p.ty == Ty::Cell
        && set.filter.is_none()
        && match &set.source {
            crate::ir::SetSource::Within(..) => true,
            crate::ir::SetSource::Reachable { pred, slot, .. } => {
                super::expr::is_empty_test(pred, *slot)
            }
            _ => false,
        }
}

/// `p.owner == x` among a unit or cell parameter's checks (x not reading p): enumeration filters the
/// candidates by owner natively.
fn owner_filter(p: &ParamSpec) -> Option<&Expr> {
    if p.source.is_some() || !matches!(p.ty, Ty::Unit | Ty::Cell) {
        return None;
    }
    p.checks.iter().find_map(|c| owner_side(&c.cond, p.slot))
}

/// In `x.owner == y` or `y.owner == x` with `x` the parameter in `slot` and `y` not reading it: `y`.
fn owner_side(e: &Expr, slot: u16) -> Option<&Expr> {
    let Expr::Bin(BinOp::Eq, a, b) = e else {
        return None;
    };
    for (side, other) in [(a, b), (b, a)] {
        let owner_of_p = matches!(&**side, Expr::UnitOwner(x) | Expr::CellOwner(x) if matches!(**x, Expr::Local(s) if s == slot));
        let mut used = Vec::new();
        if owner_of_p && other.reads(&mut used) && !used.contains(&slot) {
            return Some(other);
        }
    }
    None
}

/// Whether `e` is the owner check that `filter` came from.
fn is_owner_check(e: &Expr, slot: u16, filter: &Expr) -> bool {
    owner_side(e, slot).is_some_and(|x| std::ptr::eq(x, filter))
}
