//! What operators and pure built-ins mean on values: arithmetic with overflow and division errors, comparison,
//! and the built-ins that need no state. The front end folds constants with these, the engine runs them.
use super::{BinOp, Builtin};
use crate::model::{RunError, Value};

type R<T> = Result<T, RunError>;

/// Arithmetic and comparison on two values (also used for constant folding).
pub fn arith(op: BinOp, a: Value, b: Value) -> R<Value> {
    use Value::*;
    Ok(match op {
        BinOp::Eq => Bool(values_equal(a, b)),
        BinOp::Ne => Bool(!values_equal(a, b)),
        BinOp::Coalesce => {
            if a.is_none() {
                b
            } else {
                a
            }
        }
        _ => {
            if a.is_none() || b.is_none() {
                return Ok(match op {
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => Bool(false),
                    _ => None,
                });
            }
            match (a, b) {
                (Int(x), Int(y)) => match int_arith(op, x, y) {
                    Some(r) => Int(r?),
                    Option::None => match op {
                        BinOp::Lt => Bool(x < y),
                        BinOp::Le => Bool(x <= y),
                        BinOp::Gt => Bool(x > y),
                        BinOp::Ge => Bool(x >= y),
                        BinOp::And => Bool(x != 0 && y != 0),
                        BinOp::Or => Bool(x != 0 || y != 0),
                        _ => None,
                    },
                },
                (Bool(x), Bool(y)) => match op {
                    BinOp::And => Bool(x && y),
                    BinOp::Or => Bool(x || y),
                    _ => return Err(RunError::new("arithmetic on conditions")),
                },
                _ => {
                    let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) else {
                        return Err(RunError::new("arithmetic on non-numbers"));
                    };
                    match op {
                        BinOp::Add => Float(x + y),
                        BinOp::Sub => Float(x - y),
                        BinOp::Mul => Float(x * y),
                        BinOp::Div => Float(x / y),
                        BinOp::Rem => Float(x.rem_euclid(y)),
                        BinOp::DivTrunc => Float(x / y),
                        BinOp::RemTrunc => Float(x % y),
                        BinOp::Lt => Bool(x < y),
                        BinOp::Le => Bool(x <= y),
                        BinOp::Gt => Bool(x > y),
                        BinOp::Ge => Bool(x >= y),
                        _ => None,
                    }
                }
            }
        }
    })
}

/// Arithmetic on two whole numbers, with the overflow and division errors of [`arith`]; `None` for an
/// operator that is not arithmetic (comparisons, `and`, `or`). The typed fast paths use it too, so both
/// paths mean the same.
#[inline]
pub fn int_arith(op: BinOp, x: i64, y: i64) -> Option<R<i64>> {
    let overflow = || RunError::new("arithmetic overflow");
    Some(match op {
        BinOp::Add => x.checked_add(y).ok_or_else(overflow),
        BinOp::Sub => x.checked_sub(y).ok_or_else(overflow),
        BinOp::Mul => x.checked_mul(y).ok_or_else(overflow),
        BinOp::Div => {
            if y == 0 {
                return Some(Err(RunError::new("division by zero")));
            }
            x.checked_div_euclid(y).ok_or_else(overflow)
        }
        BinOp::Rem => {
            if y == 0 {
                return Some(Err(RunError::new("division by zero")));
            }
            x.checked_rem_euclid(y).ok_or_else(overflow)
        }
        BinOp::DivTrunc => x.checked_div(y).ok_or_else(|| {
            RunError::new(if y == 0 {
                format!("division by zero: {x} / {y}")
            } else {
                format!("division overflow: {x} / {y}")
            })
        }),
        BinOp::RemTrunc => x.checked_rem(y).ok_or_else(|| {
            RunError::new(format!("modulo division by zero or overflow: {x} % {y}"))
        }),
        _ => return Option::None,
    })
}

/// A comparison, with the same meaning as `arith` but no error path: comparisons cannot fail.
#[inline]
pub fn compare(op: BinOp, a: Value, b: Value) -> bool {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return match op {
            BinOp::Eq => x == y,
            BinOp::Ne => x != y,
            BinOp::Lt => x < y,
            BinOp::Le => x <= y,
            BinOp::Gt => x > y,
            _ => x >= y,
        };
    }
    matches!(arith(op, a, b), Ok(Value::Bool(true)))
}

pub fn values_equal(a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => x as f64 == y,
        _ => a == b,
    }
}

/// An integral float as an integer, when it is one (`as` would saturate silently).
pub fn float_to_int(x: f64) -> Option<i64> {
    // 2^63 is exactly representable; every float below it and at least -2^63 fits.
    (x.is_finite() && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&x))
        .then_some(x as i64)
}

/// A float truncated toward zero as an integer, as a script's `to_int` does it: none beyond the integer
/// range (2^63 itself still fits and saturates), 0 for NaN.
pub fn trunc_int(x: f64) -> Option<i64> {
    if x > i64::MAX as f64 || x < i64::MIN as f64 {
        return None;
    }
    Some(x.trunc() as i64)
}

/// Built-ins that need no state (used for folding too).
pub fn pure_builtin(f: Builtin, v: &[Value]) -> Option<Value> {
    use Value::*;
    Some(match (f, v) {
        (Builtin::Min, [Int(a), Int(b)]) => Int(*a.min(b)),
        (Builtin::Max, [Int(a), Int(b)]) => Int(*a.max(b)),
        (Builtin::Min, [a, b]) => Float(a.as_f64()?.min(b.as_f64()?)),
        (Builtin::Max, [a, b]) => Float(a.as_f64()?.max(b.as_f64()?)),
        (Builtin::Abs, [Int(a)]) => Int(a.checked_abs()?),
        (Builtin::Abs, [Float(a)]) => Float(a.abs()),
        (Builtin::Floor, [Int(a)]) => Int(*a),
        (Builtin::Ceil, [Int(a)]) => Int(*a),
        (Builtin::Floor, [Float(a)]) => Int(float_to_int(a.floor())?),
        (Builtin::Ceil, [Float(a)]) => Int(float_to_int(a.ceil())?),
        (Builtin::Float, [a]) => Float(a.as_f64()?),
        (Builtin::FloorFloat, [Float(a)]) => Float(a.floor()),
        (Builtin::TruncInt, [Int(a)]) => Int(*a),
        (Builtin::TruncInt, [Float(a)]) => Int(trunc_int(*a)?),
        (Builtin::Has, [a]) => Bool(!a.is_none()),
        _ => return Option::None,
    })
}

/// Why a numeric built-in has no value for arguments it accepts (none, not a silent none).
pub fn out_of_range(f: Builtin, v: &[Value]) -> Option<RunError> {
    let what = match (f, v) {
        (Builtin::Abs, [Value::Int(i64::MIN)]) => "abs(-9223372036854775808)".to_string(),
        (Builtin::Floor | Builtin::Ceil, [Value::Float(x)])
            if float_to_int(x.floor()).is_none() =>
        {
            format!("{f:?}({x})").to_lowercase()
        }
        (Builtin::TruncInt, [Value::Float(x)]) if trunc_int(*x).is_none() => format!("to_int({x})"),
        _ => return None,
    };
    Some(RunError::new(format!(
        "{what} leaves the 64-bit integer range"
    )))
}
