//! List operations lowered to closures (`Expr::List`): literals, `roll`, `sort`, `reverse`, `max`, `min`,
//! `sum`, `len` and indexing. A list is a `Value::List` into the runtime's list store (`engine::list`).
use super::expr::Ev;
use super::Lowerer;
use crate::engine::machine::{Machine, RunError};
use crate::ir::{Expr, ListOp};
use crate::model::Value;

type R<T> = Result<T, RunError>;

macro_rules! ev {
    (|$m:ident| $body:expr) => {
        Box::new(move |$m: &mut Machine<'_>| -> R<Value> { $body }) as Ev
    };
}

impl Lowerer<'_> {
    /// Lowers list operation `op` on its operands.
    pub fn list(&mut self, op: &ListOp, args: &[Expr]) -> Ev {
        let mut ops: Vec<Ev> = args.iter().map(|a| self.ev(a)).collect();
        match op {
            ListOp::Literal => ev!(|m| {
                let mut items = Vec::with_capacity(ops.len());
                for o in &ops {
                    match o(m)? {
                        Value::Int(i) => items.push(i),
                        // A none item makes no sense as a die or an amount: the list is none.
                        _ => return Ok(Value::None),
                    }
                }
                m.new_list(&items)
            }),
            ListOp::Roll => {
                let (n, sides) = (ops.remove(0), ops.remove(0));
                ev!(|m| {
                    let (Value::Int(n), Value::Int(sides)) = (n(m)?, sides(m)?) else {
                        return Ok(Value::None);
                    };
                    if n < 0 || n as usize > crate::limits::MAX_LIST_LEN || sides < 1 {
                        return Err(RunError::new(format!(
                            "roll({n}, {sides}): roll 0 to {} dice of at least 1 side",
                            crate::limits::MAX_LIST_LEN
                        )));
                    }
                    let items: Vec<i64> = (0..n).map(|_| m.rng.int_in(1, sides)).collect();
                    m.new_list(&items)
                })
            }
            ListOp::Sort | ListOp::Reverse => {
                let sort = matches!(op, ListOp::Sort);
                let l = ops.remove(0);
                ev!(|m| {
                    let v = l(m)?;
                    if !matches!(v, Value::List(..)) {
                        return Ok(Value::None);
                    }
                    let mut items = m.list_items(v).to_vec();
                    if sort {
                        items.sort_unstable();
                    } else {
                        items.reverse();
                    }
                    m.new_list(&items)
                })
            }
            ListOp::Max | ListOp::Min | ListOp::Sum | ListOp::Len => {
                let l = ops.remove(0);
                let op = op.clone();
                ev!(|m| {
                    let v = l(m)?;
                    if !matches!(v, Value::List(..)) {
                        return Ok(Value::None);
                    }
                    let items = m.list_items(v);
                    Ok(match op {
                        ListOp::Max => items.iter().max().map_or(Value::None, |x| Value::Int(*x)),
                        ListOp::Min => items.iter().min().map_or(Value::None, |x| Value::Int(*x)),
                        ListOp::Len => Value::Int(items.len() as i64),
                        _ => {
                            let mut total = 0i64;
                            for x in items {
                                total = total
                                    .checked_add(*x)
                                    .ok_or_else(|| RunError::new("arithmetic overflow"))?;
                            }
                            Value::Int(total)
                        }
                    })
                })
            }
            ListOp::At => {
                let (l, i) = (ops.remove(0), ops.remove(0));
                ev!(|m| {
                    let (v, i) = (l(m)?, i(m)?);
                    let Value::Int(i) = i else {
                        return Ok(Value::None);
                    };
                    Ok(usize::try_from(i)
                        .ok()
                        .and_then(|i| m.list_items(v).get(i).copied())
                        .map_or(Value::None, Value::Int))
                })
            }
            ListOp::AtElement(set) => {
                let set = self.set(set);
                let (l, x) = (ops.remove(0), ops.remove(0));
                ev!(|m| {
                    let (v, x) = (l(m)?, x(m)?);
                    // The position of `x` in the set, in the set's order (the split's order).
                    let mut at = None;
                    let mut k = 0usize;
                    set.each(m, |_, e| {
                        if e == x {
                            at = Some(k);
                            return Ok(false);
                        }
                        k += 1;
                        Ok(true)
                    })?;
                    Ok(at
                        .and_then(|i| m.list_items(v).get(i).copied())
                        .map_or(Value::None, Value::Int))
                })
            }
        }
    }
}
