//! Legality: checking one action and enumerating every legal action, from the same lowered parameters.
//! An action is legal exactly when enumeration would list it: checking runs every test of every parameter
//! in declared order (so the first failure names the reason), enumeration runs the same tests scheduled
//! by the lowering (each once, as early as the values it reads are bound).
use super::blocks::BlockList;
use super::lower::typed::compare_opt;
use super::lower::{Bounds, CAction, CParam, CSource};
use super::machine::{Machine, RunError};
use crate::board::CellId;
use crate::ir::game::ActionSpec;
use crate::ir::ops::compare;
use crate::ir::BinOp;
use crate::model::action::ArgList;
use crate::model::state::NO_OWNER;
use crate::model::value::ABSENT;
use crate::model::{Action, Ty, Value};

pub use super::sinks::Block;
pub(super) use super::sinks::Sink;
use super::sinks::{Blocks, Collect, Count, Pick};

/// The arguments of an action without parameters.
static NO_ARGS: ArgList = ArgList::new();

type R<T> = Result<T, RunError>;

/// What a walk already established about a candidate before [`Machine::visit`] tests it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Known {
    Nothing,
    /// The parameter's bit tests filtered it.
    BitTests,
    /// Its first range passed and its bounds are kept (see `quick_pass`).
    FirstRange,
}

/// A candidate of a parameter in the shape the walk made it: a cell, unit or number passes as the raw
/// number and `visit` builds its `Value` where it stores it. A `Value` the caller writes field by field
/// and `visit` then reads back as one 16-byte copy misses store forwarding: a stall on every candidate
/// (~5% of a random game of the hex arena went to that one copy).
pub(super) trait Candidate: Copy {
    fn value(self) -> Value;
}

impl Candidate for Value {
    #[inline(always)]
    fn value(self) -> Value {
        self
    }
}

/// A cell candidate ([`Candidate`]).
#[derive(Clone, Copy)]
pub(super) struct CellCandidate(pub CellId);

impl Candidate for CellCandidate {
    #[inline(always)]
    fn value(self) -> Value {
        Value::Cell(self.0)
    }
}

/// A unit candidate ([`Candidate`]).
#[derive(Clone, Copy)]
pub(super) struct UnitCandidate(pub u32);

impl Candidate for UnitCandidate {
    #[inline(always)]
    fn value(self) -> Value {
        Value::Unit(self.0)
    }
}

/// A whole-number candidate ([`Candidate`]).
#[derive(Clone, Copy)]
pub(super) struct IntCandidate(pub i64);

impl Candidate for IntCandidate {
    #[inline(always)]
    fn value(self) -> Value {
        Value::Int(self.0)
    }
}

/// How many whole numbers `lo..=hi` holds (`lo <= hi`), at most `u64::MAX`: the size of a block of them.
#[inline(always)]
pub(super) fn range_size(lo: i64, hi: i64) -> u64 {
    // At most 2^64 values: lo and hi are both i64.
    (i128::from(hi) - i128::from(lo) + 1).min(u64::MAX as i128) as u64
}

impl Machine<'_> {
    /// Checks an action whose arguments were already decoded; `Ok(Err(reason))` when it is not legal.
    pub fn check(&mut self, kind: u16, args: &ArgList) -> R<Result<(), String>> {
        let (game, prog) = (self.game, self.prog);
        let spec = &game.actions[kind as usize];
        let act = &prog.actions[kind as usize];
        if !self.affordable(spec) {
            return Ok(Err("not_enough_points".to_string()));
        }
        for (i, (p, cp)) in spec.params.iter().zip(&act.params).enumerate() {
            if i >= args.len() {
                return Ok(Err(p.invalid.clone()));
            }
            self.bind_arg(args, i, cp.slot)?;
            let v = self.rt.locals[cp.slot];
            if v.is_none() {
                return Ok(Err(p.invalid.clone()));
            }
            if cp.ty == Ty::List && !self.split_ok(kind, i, v)? {
                return Ok(Err(p.invalid.clone()));
            }
            if cp.source_last {
                if let Some(reason) = self.param_checks(kind, i, v)? {
                    return Ok(Err(reason));
                }
            }
            if let (Some(set), Some((_, reason))) = (&cp.source, &p.source) {
                if !set.contains(self, v)? {
                    return Ok(Err(reason.clone()));
                }
                self.rt.locals[cp.slot] = v;
            }
            if !cp.source_last {
                if let Some(reason) = self.param_checks(kind, i, v)? {
                    return Ok(Err(reason));
                }
            }
        }
        for (c, ch) in act.checks.iter().zip(&spec.checks) {
            if !c(self)? {
                return Ok(Err(ch.reason.clone()));
            }
        }
        Ok(Ok(()))
    }

    /// Bounds and checks of bound parameter `i`, in declared order; the failing reason, if any.
    fn param_checks(&mut self, kind: u16, i: usize, v: Value) -> R<Option<String>> {
        let (game, prog) = (self.game, self.prog);
        let p = &game.actions[kind as usize].params[i];
        let cp = &prog.actions[kind as usize].params[i];
        if let (Some(e), Some((_, reason))) = (&cp.min, &p.min) {
            let lo = e(self)?;
            if !compare(BinOp::Ge, v, lo) {
                return Ok(Some(reason.clone()));
            }
        }
        if let (Some(e), Some((_, reason))) = (&cp.max, &p.max) {
            let hi = e(self)?;
            if !compare(BinOp::Le, v, hi) {
                return Ok(Some(reason.clone()));
            }
        }
        for (c, ch) in cp.checks.iter().zip(&p.checks) {
            if !c(self)? {
                return Ok(Some(ch.reason.clone()));
            }
        }
        Ok(None)
    }

    /// Appends every legal action of the given kinds, in action order then parameter order.
    pub fn legal(&mut self, kinds: &[u16], out: &mut Vec<Action>) -> R<()> {
        let mut sink = Collect(out);
        let mut args = ArgList::new();
        for &k in kinds {
            if !self.walk_kind(k, &mut args, &mut sink)? {
                break;
            }
        }
        Ok(())
    }

    /// Number of legal actions, without building them where an integer range can be counted directly.
    pub fn count_legal(&mut self, kinds: &[u16]) -> R<u64> {
        let mut sink = Count(0);
        let mut args = ArgList::new();
        for &k in kinds {
            self.walk_kind(k, &mut args, &mut sink)?;
        }
        Ok(sink.0)
    }

    /// Every legal action, as blocks, in one walk.
    pub fn legal_blocks(&mut self, kinds: &[u16], out: &mut Vec<Block>) -> R<()> {
        out.clear();
        let mut sink = Blocks(out);
        let mut args = ArgList::new();
        for &k in kinds {
            self.walk_kind(k, &mut args, &mut sink)?;
        }
        Ok(())
    }

    /// Every legal action in a compact block list, in one walk.
    pub fn block_list(&mut self, kinds: &[u16], out: &mut BlockList) -> R<()> {
        self.block_list_with(kinds, out, &mut ArgList::new())
    }

    /// [`Machine::block_list`] with the caller's argument list as the walk's (each kind's walk empties
    /// it), so a caller listing again and again makes one.
    pub fn block_list_with(
        &mut self,
        kinds: &[u16],
        out: &mut BlockList,
        args: &mut ArgList,
    ) -> R<()> {
        out.clear();
        for &k in kinds {
            self.walk_kind(k, args, out)?;
        }
        Ok(())
    }

    /// The k-th legal action in enumeration order.
    pub fn nth_legal(&mut self, kinds: &[u16], k: u64) -> R<Option<Action>> {
        let mut sink = Pick(k, None);
        let mut args = ArgList::new();
        for &kind in kinds {
            if !self.walk_kind(kind, &mut args, &mut sink)? {
                break;
            }
        }
        Ok(sink.1)
    }

    /// In a points phase, whether the action's cost fits in what is left of the turn.
    fn affordable(&self, spec: &ActionSpec) -> bool {
        let phase = &self.game.phases[self.st.phase as usize];
        phase.submission != crate::ir::game::Submission::Points || spec.cost <= self.st.points
    }

    /// Walks one action kind; false when the sink asked to stop. `args` is the caller's list, reused from
    /// kind to kind (emptied here) so a listing makes one, not one per kind.
    fn walk_kind<S: Sink>(&mut self, kind: u16, args: &mut ArgList, sink: &mut S) -> R<bool> {
        let g = self.game;
        if !self.affordable(&g.actions[kind as usize]) {
            return Ok(true);
        }
        let act = &self.prog.actions[kind as usize];
        // Tests that read no parameter fail for every candidate alike: run them once.
        for c in &act.pre {
            if !c(self)? {
                return Ok(true);
            }
        }
        // An action without parameters is one action: its leaf tests, then the sink, with no walk.
        if act.params.is_empty() {
            return self.leaf(act, &NO_ARGS, sink);
        }
        if self.rt.bounds.len() < act.params.len() {
            self.rt
                .bounds
                .resize(act.params.len(), (Value::None, Value::None));
        }
        // Invariant bit masks are made afresh by each walk (the state may have changed since the last).
        self.rt.bit_mask_of = 0;
        args.clear();
        self.walk(act, 0, args, sink)
    }

    /// Binds parameter `i` to each candidate in turn and walks on; false when the sink asked to stop.
    fn walk<S: Sink>(
        &mut self,
        act: &CAction,
        i: usize,
        args: &mut ArgList,
        sink: &mut S,
    ) -> R<bool> {
        let Some(p) = act.params.get(i) else {
            return self.leaf(act, args, sink);
        };
        if p.countable {
            let (lo, hi) = self.bounds(i, p)?;
            let lo = lo.as_int().unwrap_or(0);
            let hi = hi.as_int().unwrap_or(-1);
            if hi < lo {
                return Ok(true);
            }
            let size = range_size(lo, hi);
            if let Some(r) = sink.block(act.kind, args, lo, size) {
                return r;
            }
        }
        if p.bits_listable {
            if let Some(r) = self.walk_bits(act, p, i, args, sink)? {
                return Ok(r);
            }
        }
        if p.product_block {
            if let Some(r) = self.walk_product(act, p, i, args, sink)? {
                return r;
            }
        }
        if let Some(set) = &p.source {
            // Plain neighbour sets are walked in place: no buffer, no filter pass.
            if let (CSource::Neighbours(c), None) = (&set.source, &set.filter) {
                if let Some(c) = c.cell(self)? {
                    let g = self.game;
                    for &n in g.board.neighbours(c) {
                        if !self.visit(act, p, i, CellCandidate(n), args, sink, Known::Nothing)? {
                            return Ok(false);
                        }
                    }
                }
                return Ok(true);
            }
            // Listed first (the walk below may list other sets), into a pooled buffer.
            let mut candidates = self.rt.take_values();
            let listed = set.each(self, |_, v| {
                candidates.push(v);
                Ok(true)
            });
            let mut outcome = listed.map(|_| true);
            if outcome.is_ok() {
                for &v in &candidates {
                    match self.visit(act, p, i, v, args, sink, Known::Nothing) {
                        Ok(true) => {}
                        other => {
                            outcome = other;
                            break;
                        }
                    }
                }
            }
            self.rt.give_values(candidates);
            return outcome;
        }
        let g = self.game;
        match p.ty {
            Ty::Cell => {
                let owner = match &p.owner_filter {
                    Some(e) => Some(match e.get(self)? {
                        Value::Player(o) => o,
                        _ => NO_OWNER,
                    }),
                    None => None,
                };
                let n = g.board.len();
                match owner {
                    // The owner's cells, a word of 64 at a time (visiting never changes the state).
                    Some(o) => {
                        for w in 0..n.div_ceil(64) {
                            let mut bits = self.st.owner_word(o, w);
                            if (w + 1) * 64 > n {
                                bits &= (1u64 << (n % 64)) - 1;
                            }
                            while bits != 0 {
                                let c = (w * 64) as u32 + bits.trailing_zeros();
                                bits &= bits - 1;
                                let Some(known) = self.quick_pass(p, c) else {
                                    continue;
                                };
                                if !self.visit(act, p, i, CellCandidate(c), args, sink, known)? {
                                    return Ok(false);
                                }
                            }
                        }
                    }
                    None => {
                        if let Some(r) = self.walk_cells_by_column(act, p, i, args, sink)? {
                            return Ok(r);
                        }
                        for c in 0..n as u32 {
                            let Some(known) = self.quick_pass(p, c) else {
                                continue;
                            };
                            if !self.visit(act, p, i, CellCandidate(c), args, sink, known)? {
                                return Ok(false);
                            }
                        }
                    }
                }
            }
            Ty::Unit => {
                let owner = match &p.owner_filter {
                    Some(e) => match e.get(self)? {
                        Value::Player(o) => Some(o),
                        _ => return Ok(true),
                    },
                    None => None,
                };
                if p.unit_block && sink.takes_units() {
                    return self.unit_block(act, p, owner, args, sink);
                }
                for w in 0..self.st.units.len().div_ceil(64) {
                    // The word's candidates found first: visiting never changes the state.
                    let mut word = self.unit_candidates(p, owner, w);
                    while word != 0 {
                        let u = w * 64 + word.trailing_zeros() as usize;
                        word &= word - 1;
                        if !self.unit_visit(act, p, i, u, args, sink)? {
                            return Ok(false);
                        }
                    }
                }
            }
            Ty::Player => {
                for pl in 0..g.players.len() {
                    if !self.visit(
                        act,
                        p,
                        i,
                        Value::Player(pl as u8),
                        args,
                        sink,
                        Known::Nothing,
                    )? {
                        return Ok(false);
                    }
                }
            }
            Ty::Row(t) => {
                for r in 0..g.tables[t as usize].keys.len() {
                    if !self.visit(
                        act,
                        p,
                        i,
                        Value::Row(t, r as u16),
                        args,
                        sink,
                        Known::Nothing,
                    )? {
                        return Ok(false);
                    }
                }
            }
            Ty::List => return self.walk_split(act, p, i, args, sink),
            Ty::Int => {
                if p.min.is_none() || p.max.is_none() {
                    return Ok(true);
                }
                let (lo, hi) = self.bounds(i, p)?;
                let lo = lo.as_int().unwrap_or(0);
                let hi = hi.as_int().unwrap_or(-1);
                // A plain loop: `lo..=hi` costs an extra test per step on this hot path.
                let mut x = lo;
                while x <= hi {
                    if !self.visit(act, p, i, IntCandidate(x), args, sink, Known::Nothing)? {
                        return Ok(false);
                    }
                    if x == hi {
                        break;
                    }
                    x += 1;
                }
            }
            _ => {}
        }
        Ok(true)
    }

    /// An action with every parameter bound: its leaf tests, then the sink; false when the sink asked to
    /// stop.
    #[inline(always)]
    fn leaf<S: Sink>(&mut self, act: &CAction, args: &ArgList, sink: &mut S) -> R<bool> {
        for c in &act.leaf {
            if !c(self)? {
                return Ok(true);
            }
        }
        sink.action(act.kind, args)
    }

    /// Whether cell `c` passes the first hoisted range of a parameter that tests nothing else first (see
    /// [`CParam::quick_range`]): a cell that fails it would be skipped by `visit` anyway, so the rest of
    /// the visit is not started for it.
    /// When it passes, the range's bounds are kept as `visit` would keep them (`Known::FirstRange`), so
    /// they are not read twice.
    #[inline(always)]
    fn quick_pass(&mut self, p: &CParam, c: u32) -> Option<Known> {
        let Some(k) = p.quick_range else {
            return Some(Known::Nothing);
        };
        let (Bounds::Typed(lo, hi), j) = &p.ranges[k] else {
            return Some(Known::Nothing);
        };
        self.rt.locals[p.slot] = Value::Cell(c);
        let (lo, hi) = (lo.get(self), hi.get(self));
        if !compare_opt(BinOp::Le, lo, hi) {
            return None;
        }
        let v = |x: Option<i64>| x.map_or(Value::None, Value::Int);
        self.rt.bounds[*j] = (v(lo), v(hi));
        Some(Known::FirstRange)
    }

    /// Hands the sink every neighbour of a [`CParam::product_block`] parameter times the next parameter's
    /// range at once; `None` when the sink wants the actions one at a time.
    fn walk_product<S: Sink>(
        &mut self,
        act: &CAction,
        p: &CParam,
        i: usize,
        args: &ArgList,
        sink: &mut S,
    ) -> R<Option<R<bool>>> {
        let Some(CSource::Neighbours(c)) = p.source.as_ref().map(|s| &s.source) else {
            return Ok(None);
        };
        let (lo, hi) = self.rt.bounds[i + 1];
        let lo = lo.as_int().unwrap_or(0);
        let hi = hi.as_int().unwrap_or(-1);
        if hi < lo {
            return Ok(Some(Ok(true)));
        }
        let Some(c) = c.cell(self)? else {
            return Ok(Some(Ok(true)));
        };
        let size = range_size(lo, hi);
        let cells = self.game.board.neighbours(c);
        Ok(sink.neighbours_range(act.kind, args, c, cells, lo, size))
    }

    /// Whether unit `u` is a candidate of unit parameter `p`: living, of `owner` when the parameter filters
    /// by owner, and with the flags `p.unit_flags` asks for (tested before any visit: flag reads cannot fail).
    #[inline(always)]
    fn unit_candidate(&self, p: &CParam, owner: Option<u8>, u: usize) -> bool {
        let unit = &self.st.units[u];
        unit.alive && owner.is_none_or(|o| unit.owner == o) && self.unit_flags_pass(p, u)
    }

    /// Whether unit `u` has the flags `p.unit_flags` asks for.
    #[inline(always)]
    fn unit_flags_pass(&self, p: &CParam, u: usize) -> bool {
        let slots = self.game.unit_slots;
        p.unit_flags.iter().all(|&(offset, want)| {
            let raw = self.st.unit_vars[u * slots + offset];
            (raw != ABSENT && raw != 0) == want
        })
    }

    /// Word `w` (units `64 w` to `64 w + 63`) of the candidates of unit parameter `p`, as bits: for a
    /// parameter of one player's units, that player's living units of the word are all that is tested
    /// (the state keeps them as bits); otherwise every unit of the word.
    #[inline(always)]
    fn unit_candidates(&self, p: &CParam, owner: Option<u8>, w: usize) -> u64 {
        let players = self.game.players.len();
        let mut passing = 0u64;
        match owner {
            Some(o) if (o as usize) < players => {
                let mut living = self.st.living_word(o, w, players);
                while living != 0 {
                    let bit = living.trailing_zeros();
                    living &= living - 1;
                    passing |= u64::from(self.unit_flags_pass(p, w * 64 + bit as usize)) << bit;
                }
            }
            _ => {
                let end = self.st.units.len().min(w * 64 + 64);
                for u in w * 64..end {
                    passing |= u64::from(self.unit_candidate(p, owner, u)) << (u % 64);
                }
            }
        }
        passing
    }

    /// Candidate unit `u` of unit parameter `i` (`p`): bound, then the next parameter walked (or the unit
    /// visited, when it has tests of its own). False when the sink asked to stop.
    #[inline(always)]
    fn unit_visit<S: Sink>(
        &mut self,
        act: &CAction,
        p: &CParam,
        i: usize,
        u: usize,
        args: &mut ArgList,
        sink: &mut S,
    ) -> R<bool> {
        if p.units_to_bits {
            // What a visit would do with nothing to test: bind, then the next parameter.
            let v = Value::Unit(u as u32);
            self.rt.locals[p.slot] = v;
            let next = &act.params[i + 1];
            if next.within_reject && self.lists_nothing_within(next)? {
                return Ok(true);
            }
            args.push(v);
            let go = match self.walk_bits(act, next, i + 1, args, sink)? {
                Some(go) => go,
                None => self.walk(act, i + 1, args, sink)?,
            };
            args.pop();
            return Ok(go);
        }
        self.visit(
            act,
            p,
            i,
            UnitCandidate(u as u32),
            args,
            sink,
            Known::Nothing,
        )
    }

    /// Hands the sink the units of a [`CParam::unit_block`] parameter that pass its owner and flags, as one
    /// bit set (in index order, as the walk would visit them).
    fn unit_block<S: Sink>(
        &mut self,
        act: &CAction,
        p: &CParam,
        owner: Option<u8>,
        args: &ArgList,
        sink: &mut S,
    ) -> R<bool> {
        let units = self.st.units.len();
        let mut bits = std::mem::take(&mut self.rt.unit_bits);
        bits.clear();
        bits.resize(units.div_ceil(64), 0);
        let mut count = 0u64;
        for (w, word) in bits.iter_mut().enumerate() {
            *word = self.unit_candidates(p, owner, w);
            count += u64::from(word.count_ones());
        }
        let r = if count == 0 {
            Ok(true)
        } else {
            sink.units(act.kind, args, &bits, count)
        };
        self.rt.unit_bits = bits;
        r
    }

    /// The bounds of integer parameter `i`: kept by an earlier parameter when hoisted, evaluated otherwise.
    #[inline]
    fn bounds(&mut self, i: usize, p: &CParam) -> R<(Value, Value)> {
        if p.bounds_hoisted {
            return Ok(self.rt.bounds[i]);
        }
        let (Some(lo), Some(hi)) = (&p.min, &p.max) else {
            return Ok((Value::None, Value::None));
        };
        Ok((lo(self)?, hi(self)?))
    }

    /// Tests candidate `v` of parameter `i` and walks on when it passes (`known`: what the walk already
    /// established about it).
    #[inline]
    #[allow(clippy::too_many_arguments)] // the walk's state, passed explicitly on the hot path
    pub(super) fn visit<S: Sink, C: Candidate>(
        &mut self,
        act: &CAction,
        p: &CParam,
        i: usize,
        candidate: C,
        args: &mut ArgList,
        sink: &mut S,
        known: Known,
    ) -> R<bool> {
        let v = candidate.value();
        self.rt.locals[p.slot] = v;
        if known != Known::BitTests {
            for c in &p.bit_conds {
                if !c(self)? {
                    return Ok(true);
                }
            }
        }
        if p.test_bounds {
            if let Some(e) = &p.min {
                let lo = e(self)?;
                if !compare(BinOp::Ge, v, lo) {
                    return Ok(true);
                }
            }
            if let Some(e) = &p.max {
                let hi = e(self)?;
                if !compare(BinOp::Le, v, hi) {
                    return Ok(true);
                }
            }
        }
        for c in &p.tests {
            if !c(self)? {
                return Ok(true);
            }
        }
        let done = usize::from(known == Known::FirstRange);
        for (bounds, j) in &p.ranges[done..] {
            let (lo, hi) = match bounds {
                Bounds::Typed(lo, hi) => {
                    let (lo, hi) = (lo.get(self), hi.get(self));
                    if !compare_opt(BinOp::Le, lo, hi) {
                        return Ok(true);
                    }
                    let v = |x: Option<i64>| x.map_or(Value::None, Value::Int);
                    (v(lo), v(hi))
                }
                Bounds::Int(lo, hi) => {
                    let (lo, hi) = (lo.get(self)?, hi.get(self)?);
                    if !compare_opt(BinOp::Le, lo, hi) {
                        return Ok(true);
                    }
                    let v = |x: Option<i64>| x.map_or(Value::None, Value::Int);
                    (v(lo), v(hi))
                }
                Bounds::Generic(lo, hi) => {
                    let (lo, hi) = (lo.get(self)?, hi.get(self)?);
                    if !compare(BinOp::Le, lo, hi) {
                        return Ok(true);
                    }
                    (lo, hi)
                }
            };
            self.rt.bounds[*j] = (lo, hi);
        }
        args.push_from(v, &self.rt.lists);
        // A last neighbour x amount pair goes to the sink at once, without the walk's general dispatch
        // (which would reach the same `walk_product`: such a parameter is neither counted nor bits).
        // The outcome is read as a flag rather than passed on whole: copying a result the callee just wrote
        // byte by byte misses store forwarding (see `Candidate`). An error ends the whole walk, whose
        // argument list is its own, so nothing is popped then.
        let go = match act.params.get(i + 1) {
            // The last parameter bound: the action is whole, tested here rather than in another walk.
            None => self.leaf(act, args, sink)?,
            Some(next) if next.product_block => {
                match self.walk_product(act, next, i + 1, args, sink)? {
                    Some(r) => r?,
                    None => self.walk(act, i + 1, args, sink)?,
                }
            }
            _ => self.walk(act, i + 1, args, sink)?,
        };
        args.pop();
        Ok(go)
    }
}
