//! Dividing an experiment's work exactly: games are numbered across cells (unit u is game u / C of cell
//! u % C, for C cells), shard I of N takes units [floor((I-1)T/N), floor(I·T/N)) of the T = C·G, so every
//! shard plays about G/N games of every cell (similar work even when cells differ in cost), shards of any N
//! tile the work exactly, and a shard can be split again (shard I of N is shards kI-k+1..kI of kN). Within
//! a cell a shard's games are one contiguous range, run in chunks that end at multiples of [`CHUNK`].
use std::fmt;
use std::ops::Range;

/// Games per chunk: the unit of parallel work, and of what a rerun can skip.
pub const CHUNK: u64 = 4_096;

/// `--shard I/N`: the I-th of N parts of the work, 1 <= I <= N.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// All the work.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Reads `I/N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not I/N with 1 <= I <= N (e.g. --shard 2/8)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The units this shard runs out of `total`.
    pub fn units(&self, total: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(k) * u128::from(total) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The games of cell `cell` (of `cells`) among `units`: those i with i·cells + cell in `units`.
pub fn cell_games(units: &Range<u64>, cells: u64, cell: u64) -> Range<u64> {
    // The first i with i·C + c >= x is ceil((x - c) / C), or 0 when x <= c.
    let first = |x: u64| {
        if x <= cell {
            0
        } else {
            (x - cell).div_ceil(cells)
        }
    };
    let from = first(units.start);
    let to = first(units.end).max(from);
    from..to
}

/// The games of `range` that `done` (disjoint ranges inside `range`) does not cover, cut into chunks that
/// end at multiples of [`CHUNK`].
pub fn pending(range: &Range<u64>, done: &[Range<u64>]) -> Vec<Range<u64>> {
    let mut done: Vec<&Range<u64>> = done.iter().filter(|r| !r.is_empty()).collect();
    done.sort_by_key(|r| r.start);
    let mut gaps = Vec::new();
    let mut at = range.start;
    for d in done {
        if d.start > at {
            gaps.push(at..d.start.min(range.end));
        }
        at = at.max(d.end);
    }
    if at < range.end {
        gaps.push(at..range.end);
    }
    let mut out = Vec::new();
    for g in gaps {
        let mut from = g.start;
        while from < g.end {
            let to = ((from / CHUNK + 1) * CHUNK).min(g.end);
            out.push(from..to);
            from = to;
        }
    }
    out
}

/// The first two ranges of `ranges` that share a game, if any.
pub fn first_overlap(ranges: &[Range<u64>]) -> Option<(usize, usize)> {
    let mut order: Vec<usize> = (0..ranges.len())
        .filter(|&i| !ranges[i].is_empty())
        .collect();
    order.sort_by_key(|&i| (ranges[i].start, ranges[i].end));
    order
        .windows(2)
        .find(|w| ranges[w[1]].start < ranges[w[0]].end)
        .map(|w| (w[0], w[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_i_of_n() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(Shard::parse("1/1"), Ok(Shard::WHOLE));
        for bad in ["0/3", "4/3", "1/0", "1", "a/b", "1/2/3", "-1/2", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_tile_the_work_and_split_again() {
        for total in [0u64, 1, 7, 100, 12_345] {
            for n in [1u64, 2, 3, 7, 16] {
                let mut at = 0;
                for i in 1..=n {
                    let u = Shard { index: i, count: n }.units(total);
                    assert_eq!(u.start, at);
                    at = u.end;
                    // Shard i of n is shards 3i-2..3i of 3n.
                    let first = Shard {
                        index: 3 * i - 2,
                        count: 3 * n,
                    }
                    .units(total);
                    let last = Shard {
                        index: 3 * i,
                        count: 3 * n,
                    }
                    .units(total);
                    assert_eq!(first.start..last.end, u);
                }
                assert_eq!(at, total);
            }
        }
    }

    #[test]
    fn a_cell_gets_every_game_of_its_units_once() {
        let (cells, games) = (5u64, 23u64);
        let total = cells * games;
        for n in [1u64, 2, 4, 9, 200] {
            for c in 0..cells {
                let mut seen = Vec::new();
                for i in 1..=n {
                    let units = Shard { index: i, count: n }.units(total);
                    let g = cell_games(&units, cells, c);
                    let expected: Vec<u64> = units
                        .clone()
                        .filter(|u| u % cells == c)
                        .map(|u| u / cells)
                        .collect();
                    assert_eq!(g.clone().collect::<Vec<_>>(), expected);
                    seen.extend(g);
                }
                assert_eq!(seen, (0..games).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn pending_work_skips_what_is_done_in_aligned_chunks() {
        let r = 100..10_000;
        assert_eq!(pending(&r, &[]), [100..4096, 4096..8192, 8192..10_000]);
        assert_eq!(
            pending(&r, &[100..4096, 5000..6000]),
            [4096..5000, 6000..8192, 8192..10_000]
        );
        assert!(pending(&r, std::slice::from_ref(&r)).is_empty());
        assert_eq!(pending(&(0..0), &[]), Vec::<Range<u64>>::new());
    }

    #[test]
    fn overlaps() {
        assert_eq!(first_overlap(&[0..5, 5..9, 9..9]), None);
        assert_eq!(first_overlap(&[5..9, 0..6]), Some((1, 0)));
        assert_eq!(first_overlap(&[0..5, 3..3, 2..4]), Some((0, 2)));
    }
}
