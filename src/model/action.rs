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
}

impl ArgList {
    pub fn new() -> Self {
        ArgList {
            len: 0,
            inline: [Value::None; INLINE_ARGS],
            spill: Vec::new(),
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
    /// Removes the last argument (enumeration backtracking).
    pub fn pop(&mut self) {
        if self.len == 0 {
            return;
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
