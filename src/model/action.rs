//! An action as the engine sees it: a resolved action kind and its typed arguments.
use super::value::Value;

/// Most actions have at most this many parameters; more spill to the heap.
pub const INLINE_ARGS: usize = 4;

#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// Index into the ruleset's action list.
    pub kind: u16,
    pub args: ArgList,
}

impl Action {
    /// An action of kind 0 with no arguments: a slot to decode an action into.
    #[inline(always)]
    pub fn empty() -> Self {
        Action {
            kind: 0,
            args: ArgList::new(),
        }
    }
}

/// Arguments in parameter order, stored inline for the common case.
#[derive(Clone, Debug)]
pub struct ArgList {
    len: u8,
    inline: [Value; INLINE_ARGS],
    spill: Vec<Value>,
    /// The items of list arguments (a list argument is `Value::List(start, len)` into this).
    items: Vec<i64>,
}

/// Equal when the arguments are: the same values in order, list arguments by their items (not by where
/// the items are kept). What a slot held before a `pop` is no argument, so it is not compared.
impl PartialEq for ArgList {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && (0..self.len()).all(|i| match (self.get(i), other.get(i)) {
                (Value::List(..), Value::List(..)) => self.list(i) == other.list(i),
                (a, b) => a == b,
            })
    }
}

impl ArgList {
    pub const fn new() -> Self {
        ArgList {
            len: 0,
            inline: [Value::None; INLINE_ARGS],
            spill: Vec::new(),
            items: Vec::new(),
        }
    }
    /// Empties the list, keeping its memory.
    pub fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
        self.items.clear();
    }
    pub fn from_slice(values: &[Value]) -> Self {
        let mut a = ArgList::new();
        for v in values {
            a.push(*v);
        }
        a
    }
    // Inlined so a value built here is stored field by field: a call would take it through memory and
    // read it back whole, which misses store forwarding (see `engine::legal::Candidate`).
    #[inline(always)]
    pub fn push(&mut self, v: Value) {
        let i = self.len as usize;
        if i < INLINE_ARGS {
            self.inline[i] = v;
        } else {
            self.spill.push(v);
        }
        self.len += 1;
    }
    /// Appends a list argument holding `items`.
    pub fn push_list(&mut self, items: &[i64]) {
        let start = self.items.len() as u32;
        self.items.extend_from_slice(items);
        self.push(Value::List(start, items.len() as u32));
    }
    /// Appends `v`; a list is copied from `store` (where its items are) into the arguments' own.
    #[inline(always)]
    pub fn push_from(&mut self, v: Value, store: &[i64]) {
        match v {
            Value::List(s, n) => self.push_list(&store[s as usize..(s + n) as usize]),
            _ => self.push(v),
        }
    }
    /// The items of list argument `i` (empty if it is not a list).
    pub fn list(&self, i: usize) -> &[i64] {
        match self.get(i) {
            Value::List(s, n) => &self.items[s as usize..(s + n) as usize],
            _ => &[],
        }
    }
    /// Removes the last argument (enumeration backtracking).
    pub fn pop(&mut self) {
        if self.len == 0 {
            return;
        }
        if let Value::List(s, _) = self.get(self.len as usize - 1) {
            self.items.truncate(s as usize);
        }
        if self.len as usize > INLINE_ARGS {
            self.spill.pop();
        }
        self.len -= 1;
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Every argument, when all are held inline (at most [`INLINE_ARGS`]); `None` otherwise.
    #[inline]
    pub fn inline_values(&self) -> Option<&[Value]> {
        self.inline.get(..self.len as usize)
    }
    pub fn get(&self, i: usize) -> Value {
        if i < INLINE_ARGS {
            self.inline[i]
        } else {
            self.spill[i - INLINE_ARGS]
        }
    }
}

impl Default for ArgList {
    fn default() -> Self {
        Self::new()
    }
}

/// A well-spread 64-bit key of an action, built argument by argument so that a key can be computed from
/// the parts of an action without building it (a block of listed actions shares its leading arguments):
/// `key_finish(key_arg(...key_arg(key_start(kind), a0)..., an), n)`. List arguments all mix in alike (by
/// their encoding), so actions that differ only in a list's items share a key: keys find candidates,
/// equality decides.
pub fn key_start(kind: u16) -> u64 {
    key_mix(0, u64::from(kind) + 1)
}

/// `h` followed by argument `v`.
#[inline]
pub fn key_arg(h: u64, v: Value) -> u64 {
    key_mix(h, v.encode() as u64)
}

/// The key of an action of `len` arguments whose kind and arguments gave `h`.
#[inline]
pub fn key_finish(h: u64, len: usize) -> u64 {
    key_mix(h, len as u64)
}

#[inline]
fn key_mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

impl Action {
    /// The action's key (see [`key_start`]).
    pub fn key(&self) -> u64 {
        let mut h = key_start(self.kind);
        for i in 0..self.args.len() {
            h = key_arg(h, self.args.get(i));
        }
        key_finish(h, self.args.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_compare_by_what_they_hold() {
        // A slot left behind by `pop` is not an argument.
        let mut walked = ArgList::new();
        walked.push(Value::Cell(3));
        walked.push(Value::Int(7));
        walked.pop();
        assert_eq!(walked, ArgList::from_slice(&[Value::Cell(3)]));
        assert_ne!(walked, ArgList::from_slice(&[Value::Cell(4)]));
        assert_ne!(walked, ArgList::new());
        // Lists compare by their items, wherever they are kept.
        let mut a = ArgList::new();
        a.push_list(&[1, 2]);
        a.pop();
        a.push_list(&[5, 6]);
        let mut b = ArgList::new();
        b.push_list(&[5, 6]);
        assert_eq!(a, b);
        let mut c = ArgList::new();
        c.push_list(&[5, 7]);
        assert_ne!(a, c);
    }
}
