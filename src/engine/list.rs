//! Lists at run time: the store their items live in while rules run, list arguments bound for the rules,
//! and `split` parameters: checking one (one whole number of at least 0 per element of its set, adding up
//! to its total) and listing every legal one (each way of sharing the total, in lexicographic order).
use super::legal::Sink;
use super::lower::{CAction, CParam};
use super::machine::{Machine, RunError};
use crate::limits::{MAX_LIST_LEN, MAX_LIST_STORE, MAX_WALK};
use crate::model::action::ArgList;
use crate::model::Value;

type R<T> = Result<T, RunError>;

impl Machine<'_> {
    /// The items of list `v` (none for anything else).
    pub fn list_items(&self, v: Value) -> &[i64] {
        match v {
            Value::List(s, n) => &self.rt.lists[s as usize..(s + n) as usize],
            _ => &[],
        }
    }

    /// A new list holding `items`.
    pub fn new_list(&mut self, items: &[i64]) -> R<Value> {
        if items.len() > MAX_LIST_LEN || self.rt.lists.len() + items.len() > MAX_LIST_STORE {
            return Err(RunError::new(format!(
                "a list of {} items: lists hold at most {MAX_LIST_LEN} items, and one evaluation's lists {MAX_LIST_STORE} (docs/limits.md)",
                items.len()
            )));
        }
        let start = self.rt.lists.len() as u32;
        self.rt.lists.extend_from_slice(items);
        Ok(Value::List(start, items.len() as u32))
    }

    /// Binds argument `i` of an action to local `slot` as the rules see it: a list is copied into the
    /// store; anything else goes from the arguments to the local in one statement (held across the
    /// branch, the compiler split it into overlapping pieces whose reload missed store forwarding).
    #[inline(always)]
    pub fn bind_arg(&mut self, args: &ArgList, i: usize, slot: usize) -> R<()> {
        if let Value::List(..) = args.get(i) {
            let v = self.new_list(args.list(i))?;
            self.rt.locals[slot] = v;
        } else {
            self.rt.locals[slot] = args.get(i);
        }
        Ok(())
    }

    /// The size of the set and the total of split parameter `i` of action `kind`, now.
    fn split_shape(&mut self, kind: u16, i: usize) -> R<Option<(usize, i64)>> {
        let prog = self.prog;
        let Some((over, total)) = &prog.splits[kind as usize][i] else {
            return Ok(None);
        };
        let mut k = 0usize;
        over.each(self, |_, _| {
            k += 1;
            Ok(true)
        })?;
        Ok(match total(self)? {
            Value::Int(t) => Some((k, t)),
            _ => None,
        })
    }

    /// Whether list `v` shares split parameter `i`'s total over its set: one item per element, each at
    /// least 0, adding up to the total.
    pub fn split_ok(&mut self, kind: u16, i: usize, v: Value) -> R<bool> {
        let Some((k, total)) = self.split_shape(kind, i)? else {
            return Ok(false);
        };
        let items = self.list_items(v);
        let sum = items.iter().try_fold(0i64, |a, x| a.checked_add(*x));
        Ok(items.len() == k && items.iter().all(|x| *x >= 0) && sum == Some(total))
    }

    /// Walks every way of sharing split parameter `i`'s total over its set, in lexicographic order (the
    /// first element's share smallest first), each visited like any other candidate.
    pub(super) fn walk_split<S: Sink>(
        &mut self,
        act: &CAction,
        p: &CParam,
        i: usize,
        args: &mut ArgList,
        sink: &mut S,
    ) -> R<bool> {
        let Some((k, total)) = self.split_shape(act.kind, i)? else {
            return Ok(true);
        };
        if total < 0 || (k == 0 && total != 0) {
            return Ok(true);
        }
        if ways(k, total) > u128::from(MAX_WALK) {
            return Err(RunError::new(format!(
                "sharing {total} over {k} elements has more than {MAX_WALK} ways to list; lower the total or the set (docs/limits.md)"
            )));
        }
        // One region of the store holds the candidate; what its tests make goes after it and is dropped.
        let mut parts = vec![0i64; k];
        if let Some(last) = parts.last_mut() {
            *last = total;
        }
        let region = self.rt.lists.len();
        let v = self.new_list(&parts)?;
        let end = self.rt.lists.len();
        let r = loop {
            self.rt.lists[region..end].copy_from_slice(&parts);
            match self.visit(act, p, i, v, args, sink, super::legal::Known::Nothing) {
                Ok(true) => {}
                other => break other,
            }
            self.rt.lists.truncate(end);
            if !next_share(&mut parts) {
                break Ok(true);
            }
        };
        self.rt.lists.truncate(region);
        r
    }
}

/// The number of ways to share `total` over `k` elements: C(total + k - 1, k - 1), saturating.
fn ways(k: usize, total: i64) -> u128 {
    if k == 0 {
        return 1;
    }
    let (n, r) = (total as u128 + k as u128 - 1, k as u128 - 1);
    let mut c: u128 = 1;
    for j in 0..r {
        c = c.saturating_mul(n - j) / (j + 1);
        if c > u128::from(u64::MAX) {
            return c;
        }
    }
    c
}

/// The next share in lexicographic order (the last element takes what is left); false after the last.
fn next_share(parts: &mut [i64]) -> bool {
    let k = parts.len();
    if k < 2 {
        return false;
    }
    if parts[k - 1] > 0 {
        parts[k - 2] += 1;
        parts[k - 1] -= 1;
        return true;
    }
    // The tail is empty: carry the rightmost non-zero share (before the last) one place left.
    let Some(j) = (0..k - 1).rev().find(|&j| parts[j] > 0) else {
        return false;
    };
    if j == 0 {
        return false;
    }
    parts[j - 1] += 1;
    parts[k - 1] = parts[j] - 1;
    parts[j] = 0;
    true
}

#[cfg(test)]
mod tests {
    use super::{next_share, ways};

    #[test]
    fn shares_are_listed_once_each_in_order() {
        let mut p = vec![0, 0, 3];
        let mut all = vec![p.clone()];
        while next_share(&mut p) {
            all.push(p.clone());
        }
        assert_eq!(all.len() as u128, ways(3, 3));
        assert_eq!(all.first(), Some(&vec![0, 0, 3]));
        assert_eq!(all.last(), Some(&vec![3, 0, 0]));
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, all, "strictly increasing, so no share twice");
        assert!(all.iter().all(|s| s.iter().sum::<i64>() == 3));
        assert_eq!(ways(5, 10), 1001);
    }
}
