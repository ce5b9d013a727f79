//! Legality: checking one action and enumerating every legal action, from the same parameter specs.
//! An action is legal exactly when enumeration would list it: both walk the parameters in order, binding
//! each value, testing its source set, bounds and checks, then the action's own checks.
use super::machine::{Machine, RunError};
use crate::limits::MAX_LISTED_ACTIONS;
use crate::model::action::ArgList;
use crate::model::{Action, Ty, Value};
use crate::ruleset::game::{ActionSpec, ParamSpec, Prune};

type R<T> = Result<T, RunError>;

/// How an enumeration walk uses the legal actions it finds.
enum Mode<'o> {
    Collect(&'o mut Vec<Action>),
    Count(u64),
    /// Find the k-th legal action (0-based); holds the remaining k, then the result.
    Pick(u64, Option<Action>),
    /// Every legal action as blocks: an action, or a prefix plus a range (first value, size) for its last
    /// integer parameter. One walk gives both the count and a way to pick any of them.
    Blocks(&'o mut Vec<Block>),
}

/// A run of legal actions found by one walk (see [`Machine::legal_blocks`]).
#[derive(Clone, Debug)]
pub struct Block {
    pub action: Action,
    /// When set, the actions are `action` extended with each of `size` integers from `first`.
    pub range: Option<(i64, u64)>,
}

impl Block {
    pub fn size(&self) -> u64 {
        self.range.map_or(1, |(_, n)| n)
    }
    /// The `k`-th action of the block.
    pub fn get(&self, k: u64) -> Action {
        let mut a = self.action.clone();
        if let Some((first, _)) = self.range {
            a.args.push(Value::Int(first + k as i64));
        }
        a
    }
}

fn too_many_actions() -> RunError {
    RunError::new(format!(
        "more than {MAX_LISTED_ACTIONS} legal actions to list: an agent that needs every action (greedy, `run --legal`) cannot play this position; narrow the parameter's range or use an agent that samples (random)"
    ))
}

impl Machine<'_> {
    /// Checks an action whose arguments were already decoded; `Ok(Err(reason))` when it is not legal.
    pub fn check(&mut self, spec: &ActionSpec, args: &ArgList) -> R<Result<(), String>> {
        if !self.affordable(spec) {
            return Ok(Err("not_enough_points".to_string()));
        }
        for (i, p) in spec.params.iter().enumerate() {
            let v = if i < args.len() {
                args.get(i)
            } else {
                Value::None
            };
            if v.is_none() {
                return Ok(Err(p.invalid.clone()));
            }
            self.set_local(p.slot, v);
            if p.source_last {
                if let Some(reason) = self.param_checks(p, v)? {
                    return Ok(Err(reason.to_string()));
                }
            }
            if let Some((set, reason)) = &p.source {
                if !self.contains(set, v)? {
                    return Ok(Err(reason.clone()));
                }
                self.set_local(p.slot, v);
            }
            if !p.source_last {
                if let Some(reason) = self.param_checks(p, v)? {
                    return Ok(Err(reason.to_string()));
                }
            }
        }
        for c in &spec.checks {
            if !self.cond(&c.cond)? {
                return Ok(Err(c.reason.clone()));
            }
        }
        Ok(Ok(()))
    }

    /// Bounds and checks of one bound parameter; the failing reason, if any.
    fn param_checks<'p>(&mut self, p: &'p ParamSpec, v: Value) -> R<Option<&'p str>> {
        if let Some((e, reason)) = &p.min {
            let lo = self.eval(e)?;
            if !super::eval::compare(crate::ruleset::ir::BinOp::Ge, v, lo) {
                return Ok(Some(reason));
            }
        }
        if let Some((e, reason)) = &p.max {
            let hi = self.eval(e)?;
            if !super::eval::compare(crate::ruleset::ir::BinOp::Le, v, hi) {
                return Ok(Some(reason));
            }
        }
        for c in &p.checks {
            if !self.cond(&c.cond)? {
                return Ok(Some(&c.reason));
            }
        }
        Ok(None)
    }

    /// Appends every legal action of the given kinds, in action order then parameter order.
    pub fn legal(&mut self, kinds: &[u16], out: &mut Vec<Action>) -> R<()> {
        let mut mode = Mode::Collect(out);
        for &k in kinds {
            self.walk_kind(k, &mut mode)?;
        }
        Ok(())
    }

    /// Number of legal actions, without building them where an integer range can be counted directly.
    pub fn count_legal(&mut self, kinds: &[u16]) -> R<u64> {
        let mut mode = Mode::Count(0);
        for &k in kinds {
            self.walk_kind(k, &mut mode)?;
        }
        Ok(match mode {
            Mode::Count(n) => n,
            _ => 0,
        })
    }

    /// Every legal action, as blocks, in one walk.
    pub fn legal_blocks(&mut self, kinds: &[u16], out: &mut Vec<Block>) -> R<()> {
        out.clear();
        let mut mode = Mode::Blocks(out);
        for &k in kinds {
            self.walk_kind(k, &mut mode)?;
        }
        Ok(())
    }

    /// The k-th legal action in enumeration order.
    pub fn nth_legal(&mut self, kinds: &[u16], k: u64) -> R<Option<Action>> {
        let mut mode = Mode::Pick(k, None);
        for &kind in kinds {
            self.walk_kind(kind, &mut mode)?;
            if let Mode::Pick(_, Some(_)) = mode {
                break;
            }
        }
        Ok(match mode {
            Mode::Pick(_, a) => a,
            _ => None,
        })
    }

    /// In a points phase, whether the action's cost fits in what is left of the turn.
    fn affordable(&self, spec: &ActionSpec) -> bool {
        let phase = &self.game.phases[self.st.phase as usize];
        phase.submission != crate::ruleset::game::Submission::Points || spec.cost <= self.st.points
    }

    fn walk_kind(&mut self, kind: u16, mode: &mut Mode) -> R<()> {
        let g = self.game;
        let spec = &g.actions[kind as usize];
        if !self.affordable(spec) {
            return Ok(());
        }
        // Checks that depend on no parameter fail for every candidate alike: test them once.
        for c in &spec.pre_checks {
            if !self.cond(c)? {
                return Ok(());
            }
        }
        let mut args = ArgList::new();
        self.walk(spec, kind, 0, &mut args, mode)
    }

    fn done(mode: &Mode) -> bool {
        matches!(mode, Mode::Pick(_, Some(_)))
    }

    fn walk(
        &mut self,
        spec: &ActionSpec,
        kind: u16,
        i: usize,
        args: &mut ArgList,
        mode: &mut Mode,
    ) -> R<()> {
        if Self::done(mode) {
            return Ok(());
        }
        if i == spec.params.len() {
            for c in &spec.checks {
                if !self.cond(&c.cond)? {
                    return Ok(());
                }
            }
            match mode {
                Mode::Collect(out) => {
                    if out.len() >= MAX_LISTED_ACTIONS {
                        return Err(too_many_actions());
                    }
                    out.push(Action {
                        kind,
                        args: args.clone(),
                    })
                }
                Mode::Count(n) => *n += 1,
                Mode::Blocks(out) => out.push(Block {
                    action: Action {
                        kind,
                        args: args.clone(),
                    },
                    range: None,
                }),
                Mode::Pick(k, found) => {
                    if *k == 0 {
                        *found = Some(Action {
                            kind,
                            args: args.clone(),
                        });
                    } else {
                        *k -= 1;
                    }
                }
            }
            return Ok(());
        }
        let p = &spec.params[i];
        // A last integer parameter with plain bounds can be counted and picked without visiting each value.
        if p.ty == Ty::Int
            && p.source.is_none()
            && p.checks.is_empty()
            && i + 1 == spec.params.len()
            && spec.checks.is_empty()
        {
            if let (Some((lo, _)), Some((hi, _))) = (&p.min, &p.max) {
                let lo = self.eval(lo)?.as_int().unwrap_or(0);
                let hi = self.eval(hi)?.as_int().unwrap_or(-1);
                if hi < lo {
                    return Ok(());
                }
                // At most 2^64 values: lo and hi are both i64.
                let size = (i128::from(hi) - i128::from(lo) + 1).min(u64::MAX as i128) as u64;
                match mode {
                    Mode::Count(n) => {
                        *n += size;
                        return Ok(());
                    }
                    Mode::Pick(k, found) => {
                        if *k < size {
                            let mut a = args.clone();
                            a.push(Value::Int(lo + *k as i64));
                            *found = Some(Action { kind, args: a });
                        } else {
                            *k -= size;
                        }
                        return Ok(());
                    }
                    Mode::Blocks(out) => {
                        out.push(Block {
                            action: Action {
                                kind,
                                args: args.clone(),
                            },
                            range: Some((lo, size)),
                        });
                        return Ok(());
                    }
                    Mode::Collect(_) => {}
                }
            }
        }
        let visit = |m: &mut Self, v: Value, args: &mut ArgList, mode: &mut Mode| -> R<()> {
            m.set_local(p.slot, v);
            if m.param_checks(p, v)?.is_some() {
                return Ok(());
            }
            for pr in &p.prune {
                let ok = match pr {
                    Prune::Range(lo, hi) => {
                        let lo = m.eval(lo)?;
                        let hi = m.eval(hi)?;
                        super::eval::compare(crate::ruleset::ir::BinOp::Le, lo, hi)
                    }
                    Prune::Cond(c) => m.cond(c)?,
                };
                if !ok {
                    return Ok(());
                }
            }
            args.push(v);
            let r = m.walk(spec, kind, i + 1, args, mode);
            args.pop();
            r
        };
        if let Some((set, _)) = &p.source {
            // Plain neighbour sets are walked in place: no buffer, no filter pass.
            if let (crate::ruleset::ir::SetSource::Neighbours(c), None) = (&set.source, &set.filter)
            {
                if let Value::Cell(c) = self.eval(c)? {
                    let g = self.game;
                    for &n in g.board.neighbours(c) {
                        visit(self, Value::Cell(n), args, mode)?;
                        if Self::done(mode) {
                            break;
                        }
                    }
                }
                return Ok(());
            }
            let mut failure = None;
            // Listed first (the walk below may list other sets), into a pooled buffer.
            let mut candidates = self.rt.take_values();
            let listed = self.each(set, &mut |_, v| {
                candidates.push(v);
                Ok(true)
            });
            if let Err(e) = listed {
                self.rt.give_values(candidates);
                return Err(e);
            }
            for &v in &candidates {
                if let Err(e) = visit(self, v, args, mode) {
                    failure = Some(e);
                    break;
                }
                if Self::done(mode) {
                    break;
                }
            }
            self.rt.give_values(candidates);
            if let Some(e) = failure {
                return Err(e);
            }
            return Ok(());
        }
        let g = self.game;
        match p.ty {
            Ty::Cell => {
                let owner = match &p.owner_filter {
                    Some(e) => Some(match self.eval(e)? {
                        Value::Player(o) => o,
                        _ => crate::model::state::NO_OWNER,
                    }),
                    None => None,
                };
                for c in 0..g.board.len() as u32 {
                    if owner.is_some_and(|o| self.st.owner[c as usize] != o) {
                        continue;
                    }
                    visit(self, Value::Cell(c), args, mode)?;
                    if Self::done(mode) {
                        break;
                    }
                }
            }
            Ty::Unit => {
                let owner = match &p.owner_filter {
                    Some(e) => match self.eval(e)? {
                        Value::Player(o) => Some(o),
                        _ => return Ok(()),
                    },
                    None => None,
                };
                for u in 0..self.st.units.len() {
                    if self.st.units[u].alive && owner.is_none_or(|o| self.st.units[u].owner == o) {
                        visit(self, Value::Unit(u as u32), args, mode)?;
                        if Self::done(mode) {
                            break;
                        }
                    }
                }
            }
            Ty::Player => {
                for pl in 0..g.players.len() {
                    visit(self, Value::Player(pl as u8), args, mode)?;
                }
            }
            Ty::Row(t) => {
                for r in 0..g.tables[t as usize].keys.len() {
                    visit(self, Value::Row(t, r as u16), args, mode)?;
                    if Self::done(mode) {
                        break;
                    }
                }
            }
            Ty::Int => {
                let (Some((lo, _)), Some((hi, _))) = (&p.min, &p.max) else {
                    return Ok(());
                };
                let lo = self.eval(lo)?.as_int().unwrap_or(0);
                let hi = self.eval(hi)?.as_int().unwrap_or(-1);
                // A plain loop: `lo..=hi` costs an extra test per step on this hot path.
                let mut x = lo;
                while x <= hi {
                    visit(self, Value::Int(x), args, mode)?;
                    if Self::done(mode) || x == hi {
                        break;
                    }
                    x += 1;
                }
            }
            _ => {}
        }
        Ok(())
    }
}
