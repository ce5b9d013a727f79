//! What an enumeration does with the legal actions it finds: list them, count them, pick the k-th, or
//! keep them as blocks. Each walk is compiled for its sink, so a sink that takes a whole block (a range of
//! amounts, a bit set of cells, neighbours x amounts) is handed it at once and one that does not is
//! handed the actions one by one.
use super::blocks::{nth_bit, BlockList};
use super::machine::RunError;
use crate::limits::MAX_LISTED_ACTIONS;
use crate::model::action::ArgList;
use crate::model::{Action, Value};

type R<T> = Result<T, RunError>;

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

pub(crate) fn too_many_actions() -> RunError {
    RunError::new(format!(
        "more than {MAX_LISTED_ACTIONS} legal actions to list: an agent that needs every action (greedy, `run --legal`) cannot play this position; narrow the parameter's range or use an agent that samples (random)"
    ))
}

/// What an enumeration does with the legal actions it finds. Each walk is compiled for its sink.
pub(super) trait Sink {
    /// One legal action; false stops the walk.
    fn action(&mut self, kind: u16, args: &ArgList) -> R<bool>;
    /// `size` legal actions: `args` extended with each integer from `first`. `None` when the sink wants
    /// them one at a time.
    fn block(&mut self, kind: u16, args: &ArgList, first: i64, size: u64) -> Option<R<bool>>;
    /// Whether the sink takes the actions of a cell bit set at once (see [`Sink::cells`]).
    fn takes_cells(&self) -> bool {
        false
    }
    /// `count` legal actions: `args` extended with each cell whose bit is set, in board order.
    fn cells(&mut self, _kind: u16, _args: &ArgList, _bits: &[u64], _count: u64) -> R<bool> {
        unreachable!("only sinks that take cells are given cells")
    }
    /// Whether the sink takes the actions of a unit bit set at once (see [`Sink::units`]).
    fn takes_units(&self) -> bool {
        false
    }
    /// `count` legal actions: `args` extended with each unit whose bit is set, in index order.
    fn units(&mut self, _kind: u16, _args: &ArgList, _bits: &[u64], _count: u64) -> R<bool> {
        unreachable!("only sinks that take units are given units")
    }
    /// `cells.len() * size` legal actions: `args` extended with each of `cells` (the neighbours of `of`,
    /// as the board lists them), each followed by each integer of `size` from `first`. `None` when the
    /// sink wants them one at a time.
    fn neighbours_range(
        &mut self,
        _kind: u16,
        _args: &ArgList,
        _of: u32,
        _cells: &[u32],
        _first: i64,
        _size: u64,
    ) -> Option<R<bool>> {
        None
    }
    /// `cells.len() * size` legal actions: `args` extended with `from`, then each of `cells` (the
    /// neighbours of `from`, as the board lists them), each followed by each integer of `size` from
    /// `first`. `None` when the sink wants them one at a time.
    fn cell_neighbours_range(
        &mut self,
        kind: u16,
        args: &mut ArgList,
        from: u32,
        cells: &[u32],
        first: i64,
        size: u64,
    ) -> Option<R<bool>> {
        args.push(Value::Cell(from));
        let r = self.neighbours_range(kind, args, from, cells, first, size);
        args.pop();
        r
    }
}

/// Lists every action. Blocks are taken whole and written out in the order the walk would visit their
/// actions, without a visit per action (search agents list every position they reach).
pub(super) struct Collect<'o>(pub &'o mut Vec<Action>);

impl Collect<'_> {
    /// Fails as listing one action at a time would, once `n` more would pass the limit.
    fn room(&mut self, n: u64) -> R<()> {
        if (self.0.len() as u64).saturating_add(n) > MAX_LISTED_ACTIONS as u64 {
            return Err(too_many_actions());
        }
        self.0.reserve(n as usize);
        Ok(())
    }

    /// `args` extended with `extra`, as one action.
    #[inline]
    fn push_with(&mut self, kind: u16, args: &ArgList, extra: &[Value]) {
        let mut args = args.clone();
        for &v in extra {
            args.push(v);
        }
        self.0.push(Action { kind, args });
    }
}

impl Sink for Collect<'_> {
    fn action(&mut self, kind: u16, args: &ArgList) -> R<bool> {
        if self.0.len() >= MAX_LISTED_ACTIONS {
            return Err(too_many_actions());
        }
        self.0.push(Action {
            kind,
            args: args.clone(),
        });
        Ok(true)
    }
    fn block(&mut self, kind: u16, args: &ArgList, first: i64, size: u64) -> Option<R<bool>> {
        Some(self.room(size).map(|()| {
            for j in 0..size {
                self.push_with(kind, args, &[Value::Int(first + j as i64)]);
            }
            true
        }))
    }
    fn takes_cells(&self) -> bool {
        true
    }
    fn cells(&mut self, kind: u16, args: &ArgList, bits: &[u64], count: u64) -> R<bool> {
        self.room(count)?;
        for (w, &word) in bits.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                let c = (w * 64) as u32 + b.trailing_zeros();
                b &= b - 1;
                self.push_with(kind, args, &[Value::Cell(c)]);
            }
        }
        Ok(true)
    }
    fn neighbours_range(
        &mut self,
        kind: u16,
        args: &ArgList,
        _of: u32,
        cells: &[u32],
        first: i64,
        size: u64,
    ) -> Option<R<bool>> {
        let n = (cells.len() as u64).saturating_mul(size);
        Some(self.room(n).map(|()| {
            for &c in cells {
                for j in 0..size {
                    self.push_with(kind, args, &[Value::Cell(c), Value::Int(first + j as i64)]);
                }
            }
            true
        }))
    }
}

pub(super) struct Count(pub u64);
impl Sink for Count {
    fn action(&mut self, _: u16, _: &ArgList) -> R<bool> {
        self.0 += 1;
        Ok(true)
    }
    fn block(&mut self, _: u16, _: &ArgList, _: i64, size: u64) -> Option<R<bool>> {
        self.0 = self.0.saturating_add(size);
        Some(Ok(true))
    }
    fn takes_cells(&self) -> bool {
        true
    }
    fn cells(&mut self, _: u16, _: &ArgList, _: &[u64], count: u64) -> R<bool> {
        self.0 = self.0.saturating_add(count);
        Ok(true)
    }
    fn takes_units(&self) -> bool {
        true
    }
    fn units(&mut self, _: u16, _: &ArgList, _: &[u64], count: u64) -> R<bool> {
        self.0 = self.0.saturating_add(count);
        Ok(true)
    }
    fn neighbours_range(
        &mut self,
        _: u16,
        _: &ArgList,
        _: u32,
        cells: &[u32],
        _: i64,
        size: u64,
    ) -> Option<R<bool>> {
        self.0 = self
            .0
            .saturating_add((cells.len() as u64).saturating_mul(size));
        Some(Ok(true))
    }
}

/// Finds the k-th legal action (0-based).
pub(super) struct Pick(pub u64, pub Option<Action>);
impl Sink for Pick {
    fn action(&mut self, kind: u16, args: &ArgList) -> R<bool> {
        if self.0 == 0 {
            self.1 = Some(Action {
                kind,
                args: args.clone(),
            });
            return Ok(false);
        }
        self.0 -= 1;
        Ok(true)
    }
    fn block(&mut self, kind: u16, args: &ArgList, first: i64, size: u64) -> Option<R<bool>> {
        if self.0 < size {
            let mut a = args.clone();
            a.push(Value::Int(first + self.0 as i64));
            self.1 = Some(Action { kind, args: a });
            return Some(Ok(false));
        }
        self.0 -= size;
        Some(Ok(true))
    }
    fn takes_cells(&self) -> bool {
        true
    }
    fn cells(&mut self, kind: u16, args: &ArgList, bits: &[u64], count: u64) -> R<bool> {
        if self.0 < count {
            let mut a = args.clone();
            if let Some(c) = nth_bit(bits, self.0) {
                a.push(Value::Cell(c));
            }
            self.1 = Some(Action { kind, args: a });
            return Ok(false);
        }
        self.0 -= count;
        Ok(true)
    }
    fn neighbours_range(
        &mut self,
        kind: u16,
        args: &ArgList,
        _: u32,
        cells: &[u32],
        first: i64,
        size: u64,
    ) -> Option<R<bool>> {
        let total = (cells.len() as u64).saturating_mul(size);
        if self.0 < total {
            let mut a = args.clone();
            a.push(Value::Cell(cells[(self.0 / size) as usize]));
            a.push(Value::Int(first + (self.0 % size) as i64));
            self.1 = Some(Action { kind, args: a });
            return Some(Ok(false));
        }
        self.0 -= total;
        Some(Ok(true))
    }
}

impl Sink for BlockList {
    #[inline]
    fn action(&mut self, kind: u16, args: &ArgList) -> R<bool> {
        self.push_one(kind, args);
        Ok(true)
    }
    #[inline]
    fn block(&mut self, kind: u16, args: &ArgList, first: i64, size: u64) -> Option<R<bool>> {
        self.push_range(kind, args, first, size);
        Some(Ok(true))
    }
    #[inline]
    fn takes_cells(&self) -> bool {
        true
    }
    #[inline]
    fn cells(&mut self, kind: u16, args: &ArgList, bits: &[u64], count: u64) -> R<bool> {
        self.push_cells(kind, args, bits, count);
        Ok(true)
    }
    #[inline]
    fn takes_units(&self) -> bool {
        true
    }
    #[inline]
    fn units(&mut self, kind: u16, args: &ArgList, bits: &[u64], count: u64) -> R<bool> {
        self.push_units(kind, args, bits, count);
        Ok(true)
    }
    #[inline]
    fn neighbours_range(
        &mut self,
        kind: u16,
        args: &ArgList,
        of: u32,
        cells: &[u32],
        first: i64,
        size: u64,
    ) -> Option<R<bool>> {
        if !cells.is_empty() {
            self.push_neighbours(kind, args, of, false, cells.len() as u32, first, size);
        }
        Some(Ok(true))
    }
    #[inline]
    fn cell_neighbours_range(
        &mut self,
        kind: u16,
        args: &mut ArgList,
        from: u32,
        cells: &[u32],
        first: i64,
        size: u64,
    ) -> Option<R<bool>> {
        if !cells.is_empty() {
            self.push_neighbours(kind, args, from, true, cells.len() as u32, first, size);
        }
        Some(Ok(true))
    }
}

pub(super) struct Blocks<'o>(pub &'o mut Vec<Block>);
impl Sink for Blocks<'_> {
    fn action(&mut self, kind: u16, args: &ArgList) -> R<bool> {
        self.0.push(Block {
            action: Action {
                kind,
                args: args.clone(),
            },
            range: None,
        });
        Ok(true)
    }
    fn block(&mut self, kind: u16, args: &ArgList, first: i64, size: u64) -> Option<R<bool>> {
        self.0.push(Block {
            action: Action {
                kind,
                args: args.clone(),
            },
            range: Some((first, size)),
        });
        Some(Ok(true))
    }
}
