//! Every legal action of a position as a few blocks, from one enumeration walk: a single action, an
//! action whose last integer parameter takes each value of a range, or one whose last cell parameter
//! takes each cell of a bit set. Counting them is a sum and the k-th action is found without listing the
//! others, which is all a uniform random pick needs. A move to any neighbour with any amount of one range
//! is one block of neighbours x amounts that names the cell whose neighbours they are (the k-th is decoded
//! on the board it was listed on). Arguments are kept in one flat buffer, so filling the list again for the
//! next position does not allocate.
use crate::board::Board;
use crate::model::action::{key_arg, key_finish, key_start, ArgList};
use crate::model::{Action, Value};

#[derive(Clone, Copy, Debug)]
enum Tail {
    /// The action as its arguments give it.
    One,
    /// Followed by each integer from this one on.
    Range(i64),
    /// Followed by each cell of the bit set at this offset of the bit buffer.
    Cells(u32),
    /// Followed by each unit of the bit set of `words` words at offset `at` of the bit buffer.
    Units { at: u32, words: u32 },
    /// Followed by each of the `count` neighbours of cell `of` (as the board lists them; after `of`
    /// itself when `lead`), each followed by each of `n` integers from `first` (neighbour-major, as
    /// enumeration visits them): nothing is copied from the board.
    Neighbours {
        of: u32,
        lead: bool,
        count: u32,
        first: i64,
        n: u64,
    },
}

/// How a member of a block's bit set (a cell or unit index) becomes an argument.
type MemberValue = fn(u32) -> Value;

#[derive(Clone, Copy, Debug)]
struct Head {
    kind: u16,
    args: u32,
    len: u8,
    size: u64,
    /// How many actions this block and the ones before it hold (saturating): the block holding action
    /// `k` is found by counting the blocks that end at or before `k`.
    end: u64,
    tail: Tail,
}

/// The legal actions of one position, in enumeration order.
#[derive(Debug, Default)]
pub struct BlockList {
    heads: Vec<Head>,
    args: Vec<Value>,
    /// Items of list arguments (a list in `args` points into it).
    items: Vec<i64>,
    bits: Vec<u64>,
    words: usize,
    total: u64,
}

impl Clone for BlockList {
    fn clone(&self) -> Self {
        let mut out = BlockList::default();
        out.clone_from(self);
        out
    }

    /// A copy into the buffers already here (a search keeps listings this way without allocating).
    fn clone_from(&mut self, from: &Self) {
        self.heads.clone_from(&from.heads);
        self.args.clone_from(&from.args);
        self.items.clone_from(&from.items);
        self.bits.clone_from(&from.bits);
        self.words = from.words;
        self.total = from.total;
    }
}

impl BlockList {
    /// Room for `heads` blocks and `args` arguments before the first listing grows anything (an agent made
    /// for one game would otherwise grow its buffers step by step during its first listings).
    pub fn with_capacity(heads: usize, args: usize) -> BlockList {
        BlockList {
            heads: Vec::with_capacity(heads),
            args: Vec::with_capacity(args),
            ..BlockList::default()
        }
    }

    pub fn clear(&mut self) {
        self.heads.clear();
        self.args.clear();
        self.items.clear();
        self.bits.clear();
        self.total = 0;
    }

    /// How many legal actions the blocks hold.
    pub fn total(&self) -> u64 {
        self.total
    }

    #[inline]
    fn head(&mut self, kind: u16, args: &ArgList, size: u64, tail: Tail) {
        let start = self.args.len() as u32;
        // Most argument lists are a few plain values: copied at once.
        if let Some(values) = args
            .inline_values()
            .filter(|vs| !vs.iter().any(|v| matches!(v, Value::List(..))))
        {
            // Most blocks of a listing's first parameter have no leading arguments: no copy at all.
            if !values.is_empty() {
                self.args.extend_from_slice(values);
            }
        } else {
            self.push_args(args);
        }
        self.total = self.total.saturating_add(size);
        self.heads.push(Head {
            kind,
            args: start,
            len: args.len() as u8,
            size,
            end: self.total,
            tail,
        });
    }

    /// Appends the arguments one by one, copying list items into the blocks' own.
    fn push_args(&mut self, args: &ArgList) {
        for i in 0..args.len() {
            match args.get(i) {
                Value::List(..) => {
                    let items = args.list(i);
                    let s = self.items.len() as u32;
                    self.items.extend_from_slice(items);
                    self.args.push(Value::List(s, items.len() as u32));
                }
                v => self.args.push(v),
            }
        }
    }

    #[inline]
    pub(crate) fn push_one(&mut self, kind: u16, args: &ArgList) {
        self.head(kind, args, 1, Tail::One);
    }

    #[inline]
    pub(crate) fn push_range(&mut self, kind: u16, args: &ArgList, first: i64, size: u64) {
        self.head(kind, args, size, Tail::Range(first));
    }

    #[inline]
    pub(crate) fn push_cells(&mut self, kind: u16, args: &ArgList, bits: &[u64], count: u64) {
        self.words = bits.len();
        let at = self.push_bits(bits);
        self.head(kind, args, count, Tail::Cells(at));
    }

    #[inline]
    pub(crate) fn push_units(&mut self, kind: u16, args: &ArgList, bits: &[u64], count: u64) {
        let at = self.push_bits(bits);
        let words = bits.len() as u32;
        self.head(kind, args, count, Tail::Units { at, words });
    }

    /// Appends a block's bit set, returning where it starts. The few words of a small board are copied
    /// without a call: `extend_from_slice` calls the library's `memcpy`, which costs more than the stores
    /// for three words (a listing may add a set of cells per unit and kind).
    #[inline(always)]
    fn push_bits(&mut self, bits: &[u64]) -> u32 {
        let at = self.bits.len() as u32;
        // Arrays of a known length: their copies are plain moves.
        match *bits {
            [a] => self.bits.push(a),
            [a, b] => self.bits.extend([a, b]),
            [a, b, c] => self.bits.extend([a, b, c]),
            [a, b, c, d] => self.bits.extend([a, b, c, d]),
            _ => self.bits.extend_from_slice(bits),
        }
        at
    }

    /// `count` neighbours of `of` x `n` integers from `first`, after `of` itself when `lead`.
    #[inline]
    #[allow(clippy::too_many_arguments)] // one block's fields, on the listing's hot path
    pub(crate) fn push_neighbours(
        &mut self,
        kind: u16,
        args: &ArgList,
        of: u32,
        lead: bool,
        count: u32,
        first: i64,
        n: u64,
    ) {
        let size = u64::from(count).saturating_mul(n);
        self.head(
            kind,
            args,
            size,
            Tail::Neighbours {
                of,
                lead,
                count,
                first,
                n,
            },
        );
    }

    /// The `k`-th legal action (0-based), as listing them all would give it, on the board it was listed on.
    pub fn get(&self, k: u64, board: &Board) -> Option<Action> {
        let mut a = Action::empty();
        self.get_into(k, board, &mut a).then_some(a)
    }

    /// Writes action `k` into `out` (false, and `out` unspecified, when there is none): built where it
    /// stays, as a copy of an action built a moment ago stalls on store forwarding.
    pub fn get_into(&self, k: u64, board: &Board, out: &mut Action) -> bool {
        let Some((h, k)) = self.locate(k) else {
            return false;
        };
        self.decode(h, k, board, out).is_some()
    }

    /// The block holding action `k`, and the action's place in it. The blocks ending at or before `k` are
    /// counted without a branch: a scan stopping at the block mispredicted its exit once per random pick
    /// (the block is as random as `k`).
    fn locate(&self, k: u64) -> Option<(&Head, u64)> {
        if k >= self.total {
            return None;
        }
        let i = self
            .heads
            .iter()
            .map(|h| usize::from(h.end <= k))
            .sum::<usize>();
        // The blocks' own ends are exact below the total, so the block's start is its predecessor's end.
        let start = i.checked_sub(1).map_or(0, |j| self.heads[j].end);
        let h = self.heads.get(i)?;
        Some((h, k - start))
    }

    /// Whether the `k`-th action is `a` (as `get(k) == Some(a)`, without building it).
    pub fn is(&self, k: u64, a: &Action, board: &Board) -> bool {
        let Some((h, k)) = self.locate(k) else {
            return false;
        };
        let (mut tail, mut n) = ([Value::None; 3], 0);
        let pushed = self.tail(h, k, board, |v| {
            tail[n] = v;
            n += 1;
        });
        if pushed.is_none() {
            return false;
        }
        let start = h.args as usize;
        let lead = &self.args[start..start + h.len as usize];
        a.kind == h.kind
            && a.args.len() == lead.len() + n
            && lead.iter().enumerate().all(|(j, v)| match *v {
                Value::List(s, len) => {
                    matches!(a.args.get(j), Value::List(..))
                        && a.args.list(j) == &self.items[s as usize..(s + len) as usize]
                }
                v => a.args.get(j) == v,
            })
            && tail[..n]
                .iter()
                .enumerate()
                .all(|(t, v)| a.args.get(lead.len() + t) == *v)
    }

    /// Appends every action the blocks hold, in order (as listing them one by one gives them).
    pub fn actions(&self, board: &Board, out: &mut Vec<Action>) {
        for h in &self.heads {
            out.extend((0..h.size).map_while(|k| {
                let mut a = Action::empty();
                self.decode(h, k, board, &mut a).map(|()| a)
            }));
        }
    }

    /// Action `k` of block `h`.
    #[inline(always)]
    fn decode(&self, h: &Head, k: u64, board: &Board, out: &mut Action) -> Option<()> {
        let start = h.args as usize;
        out.kind = h.kind;
        let args = &mut out.args;
        args.clear();
        for v in &self.args[start..start + h.len as usize] {
            args.push_from(*v, &self.items);
        }
        self.tail(h, k, board, |v| args.push(v))
    }

    /// The bit set of a block of cells or units, and how one of its members becomes a value.
    #[inline(always)]
    fn bit_tail(&self, tail: Tail) -> Option<(&[u64], MemberValue)> {
        match tail {
            Tail::Cells(at) => Some((
                &self.bits[at as usize..at as usize + self.words],
                Value::Cell,
            )),
            Tail::Units { at, words } => {
                Some((&self.bits[at as usize..(at + words) as usize], Value::Unit))
            }
            _ => None,
        }
    }

    /// Hands `push` the arguments that block `h` adds after its leading ones for its action `k`, in order
    /// (up to three); `None` when `k` is past the block.
    #[inline(always)]
    fn tail(&self, h: &Head, k: u64, board: &Board, mut push: impl FnMut(Value)) -> Option<()> {
        match h.tail {
            Tail::One => {}
            Tail::Range(first) => push(Value::Int(first + k as i64)),
            Tail::Cells(_) | Tail::Units { .. } => {
                let (bits, value) = self.bit_tail(h.tail)?;
                push(value(nth_bit(bits, k)?));
            }
            Tail::Neighbours {
                of,
                lead,
                count,
                first,
                n,
            } => {
                let i = (k / n) as usize;
                if i >= count as usize {
                    return None;
                }
                if lead {
                    push(Value::Cell(of));
                }
                push(Value::Cell(*board.neighbours(of).get(i)?));
                push(Value::Int(first + (k % n) as i64));
            }
        }
        Some(())
    }

    /// Appends the key of every action the blocks hold ([`Action::key`]), in order, without building the
    /// actions: a block's leading arguments are mixed in once for all of its actions.
    pub fn keys(&self, board: &Board, out: &mut Vec<u64>) {
        for h in &self.heads {
            let start = h.args as usize;
            let args = &self.args[start..start + h.len as usize];
            let lead = args.iter().fold(key_start(h.kind), |k, v| key_arg(k, *v));
            let len = h.len as usize;
            match h.tail {
                Tail::One => out.push(key_finish(lead, len)),
                Tail::Range(first) => out.extend(
                    (0..h.size)
                        .map(|j| key_finish(key_arg(lead, Value::Int(first + j as i64)), len + 1)),
                ),
                Tail::Cells(_) | Tail::Units { .. } => {
                    let Some((bits, value)) = self.bit_tail(h.tail) else {
                        continue;
                    };
                    for (w, &word) in bits.iter().enumerate() {
                        let mut b = word;
                        while b != 0 {
                            let x = (w * 64) as u32 + b.trailing_zeros();
                            b &= b - 1;
                            out.push(key_finish(key_arg(lead, value(x)), len + 1));
                        }
                    }
                }
                Tail::Neighbours {
                    of,
                    lead: with_of,
                    count,
                    first,
                    n,
                } => {
                    let (lead, len) = if with_of {
                        (key_arg(lead, Value::Cell(of)), len + 1)
                    } else {
                        (lead, len)
                    };
                    let cells = board.neighbours(of);
                    for &c in &cells[..(count as usize).min(cells.len())] {
                        let at = key_arg(lead, Value::Cell(c));
                        out.extend((0..n).map(|j| {
                            key_finish(key_arg(at, Value::Int(first + j as i64)), len + 2)
                        }));
                    }
                }
            }
        }
    }
}

/// The cell of the `k`-th set bit (0-based, in board order).
pub fn nth_bit(bits: &[u64], mut k: u64) -> Option<u32> {
    for (w, &word) in bits.iter().enumerate() {
        let n = u64::from(word.count_ones());
        if k >= n {
            k -= n;
            continue;
        }
        let mut b = word;
        for _ in 0..k {
            b &= b - 1;
        }
        return Some((w * 64) as u32 + b.trailing_zeros());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of 1, 0, 3 and 1 actions: each index finds its own block and place (the empty block is no
    /// block of any index), and the total is past the end.
    #[test]
    fn each_index_finds_its_block_past_an_empty_one() {
        // Ranges and single actions name no cell: any board decodes them.
        let board = Board::graph(vec!["a".into(), "b".into()], &[(0, 1)]).unwrap();
        let mut blocks = BlockList::default();
        let none = ArgList::new();
        blocks.push_one(0, &none);
        blocks.push_range(1, &none, 10, 0);
        blocks.push_range(2, &none, 5, 3);
        blocks.push_one(3, &none);
        assert_eq!(blocks.total(), 5);
        let got: Vec<(u16, Option<Value>)> = (0..5)
            .map(|k| {
                let a = blocks.get(k, &board).expect("an action");
                let tail = (a.args.len() == 1).then(|| a.args.get(0));
                (a.kind, tail)
            })
            .collect();
        let int = |i| Some(Value::Int(i));
        assert_eq!(
            got,
            [(0, None), (2, int(5)), (2, int(6)), (2, int(7)), (3, None)]
        );
        assert!(blocks.get(5, &board).is_none());
    }
}
