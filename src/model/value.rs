//! Runtime values of the rule language and their static types.
use crate::board::CellId;

/// Index of a player in the ruleset's `players` list.
pub type PlayerIdx = u8;
/// Index of a unit slot in the match state (slots are never reused, so indices stay stable).
pub type UnitIdx = u32;

/// The static type of an expression, known after analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    Float,
    Bool,
    /// An interned string (table keys, literal text, identifiers).
    Text,
    Cell,
    Unit,
    Player,
    /// A row of the given table.
    Row(u16),
    /// The type of `none` before it meets anything else.
    Nothing,
    /// A list of whole numbers (dice, an allocation): a value of expressions, events and parameters,
    /// never of a state variable.
    List,
}

impl Ty {
    pub fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Float => "float",
            Ty::Bool => "bool",
            Ty::Text => "text",
            Ty::Cell => "cell",
            Ty::Unit => "unit",
            Ty::Player => "player",
            Ty::Row(_) => "table row",
            Ty::Nothing => "none",
            Ty::List => "list",
        }
    }
    pub fn is_numeric(self) -> bool {
        matches!(self, Ty::Int | Ty::Float)
    }
}

/// A value during evaluation. Small and `Copy` so evaluation never allocates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    None,
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(u32),
    Cell(CellId),
    Unit(UnitIdx),
    Player(PlayerIdx),
    Row(u16, u16),
    /// A list of whole numbers: `len` items from `start` in the evaluation's list store (the runtime's
    /// while rules run, an action's own when it is an argument). Lists are never stored in the state.
    List(u32, u32),
}

/// The slot encoding of "no value" in integer state storage.
pub const ABSENT: i64 = i64::MIN;

impl Value {
    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(i),
            Value::Float(f) => Some(f as i64),
            Value::Bool(b) => Some(b as i64),
            _ => None,
        }
    }
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(i as f64),
            Value::Float(f) => Some(f),
            _ => None,
        }
    }
    pub fn truthy(self) -> bool {
        match self {
            Value::Bool(b) => b,
            Value::Int(i) => i != 0,
            Value::None => false,
            _ => true,
        }
    }
    pub fn is_none(self) -> bool {
        matches!(self, Value::None)
    }

    /// Encodes a value of type `ty` into an i64 state slot.
    pub fn encode(self) -> i64 {
        match self {
            Value::None => ABSENT,
            Value::Int(i) => i,
            Value::Float(f) => f.to_bits() as i64,
            Value::Bool(b) => b as i64,
            Value::Text(s) => s as i64,
            Value::Cell(c) => c as i64,
            Value::Unit(u) => u as i64,
            Value::Player(p) => p as i64,
            Value::Row(_, r) => r as i64,
            // Analysis keeps lists out of the state: nothing encodes one.
            Value::List(..) => ABSENT,
        }
    }

    /// Decodes an i64 state slot of static type `ty`.
    #[inline]
    pub fn decode(raw: i64, ty: Ty) -> Value {
        if raw == ABSENT {
            return Value::None;
        }
        match ty {
            Ty::Int => Value::Int(raw),
            Ty::Float => Value::Float(f64::from_bits(raw as u64)),
            Ty::Bool => Value::Bool(raw != 0),
            Ty::Text => Value::Text(raw as u32),
            Ty::Cell => Value::Cell(raw as CellId),
            Ty::Unit => Value::Unit(raw as UnitIdx),
            Ty::Player => Value::Player(raw as PlayerIdx),
            Ty::Row(t) => Value::Row(t, raw as u16),
            Ty::Nothing | Ty::List => Value::None,
        }
    }
}
