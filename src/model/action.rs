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

/// Arguments in parameter order, stored inline for the common case.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgList {
    len: u8,
    inline: [Value; INLINE_ARGS],
    spill: Vec<Value>,
    /// The items of list arguments (a list argument is `Value::List(start, len)` into this).
    items: Vec<i64>,
}

impl ArgList {
    pub fn new() -> Self {
        ArgList {
            len: 0,
            inline: [Value::None; INLINE_ARGS],
            spill: Vec::new(),
            items: Vec::new(),
        }
    }
    pub fn from_slice(values: &[Value]) -> Self {
        let mut a = ArgList::new();
        for v in values {
            a.push(*v);
        }
        a
    }
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
    #[inline]
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
