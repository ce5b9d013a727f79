//! Breadth-first searches that respect which cells may be passed through, with reusable buffers.

use super::distance::known_hops;
use super::{Board, CellId};

/// Buffers for [`Board::steps`], [`Board::reachable`] and friends. Keep one per thread
/// (or per game) and pass it to every search: once it has served a board of a given
/// size, further searches on boards up to that size allocate nothing.
///
/// Visited cells are marked with the number of the current search instead of a flag,
/// so starting a new search costs nothing no matter how big the last one was.
#[derive(Clone, Debug, Default)]
pub struct SearchScratch {
    /// `stamps[c] == generation` means cell `c` was visited in the current search.
    stamps: Vec<u32>,
    generation: u32,
    /// Breadth-first frontier; cells are appended and read with a moving head, never popped.
    queue: Vec<CellId>,
    /// Cells reached by the current search as bits (used to list them in board order without sorting).
    pub(super) bits: Vec<u64>,
    /// Fewest steps to each reached cell.
    depth: Vec<u32>,
}

impl SearchScratch {
    /// Empty buffers; they grow on first use.
    pub fn new() -> SearchScratch {
        SearchScratch::default()
    }

    /// Buffers already sized for boards of up to `cells` cells.
    pub fn with_capacity(cells: usize) -> SearchScratch {
        SearchScratch {
            stamps: vec![0; cells],
            generation: 0,
            queue: Vec::with_capacity(cells),
            bits: Vec::new(),
            depth: Vec::new(),
        }
    }

    /// Prepares for a new search on a board of `cells` cells.
    fn begin(&mut self, cells: usize) {
        if self.stamps.len() < cells {
            self.stamps.resize(cells, 0);
        }
        self.queue.clear();
        // Every cell enters the queue at most once, so this is the last growth needed.
        self.queue.reserve(cells);
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 searches stale stamps could equal the new generation; wiping
            // them once per wrap keeps "visited" exact. Stamp 0 is never a live generation.
            self.stamps.fill(0);
            self.generation = 1;
        }
    }

    /// Marks `cell` as visited; true if this is its first visit in the current search.
    #[inline]
    fn visit(&mut self, cell: CellId) -> bool {
        let stamp = &mut self.stamps[cell as usize];
        let first_visit = *stamp != self.generation;
        *stamp = self.generation;
        first_visit
    }
}

/// Boards of at most this many 64-cell words list reached cells from a bit set instead of sorting them.
pub(super) const SMALL_BOARD_WORDS: usize = 16;

impl Board {
    /// Length of the shortest path from `from` to `to` of at most `max` steps on which
    /// every *intermediate* cell satisfies `passable`. The end points themselves are never
    /// tested, so a blocked destination can still be reached (e.g. to target it).
    /// `from == to` gives `Some(0)`; `None` if there is no such path or either cell is
    /// not on this board. `passable` is called at most once per cell.
    pub fn steps(
        &self,
        from: CellId,
        to: CellId,
        max: u32,
        mut passable: impl FnMut(CellId) -> bool,
        scratch: &mut SearchScratch,
    ) -> Option<u32> {
        if !self.contains(from) || !self.contains(to) {
            return None;
        }
        if from == to {
            return Some(0);
        }
        if max == 0 {
            return None;
        }
        if self.adjacent(from, to) {
            // A single step has no intermediate cell to test.
            return Some(1);
        }
        // Unobstructed distances to `to` are a lower bound on obstructed ones: they rule
        // out hopeless queries at once and stop the search from expanding (and asking
        // `passable` about) cells from which `to` is out of reach within the budget.
        let hops_to_target = self.distances.as_ref().map(|table| table.hops_from(to));
        if let Some(hops) = hops_to_target {
            match known_hops(hops[from as usize]) {
                Some(fewest) if fewest <= max => {}
                _ => return None,
            }
        }

        scratch.begin(self.len());
        scratch.visit(from);
        scratch.queue.push(from);
        let mut head = 0;
        let mut depth = 0;
        while head < scratch.queue.len() {
            // Cells discovered while expanding this layer lie `depth` steps from `from`.
            depth += 1;
            let layer_end = scratch.queue.len();
            while head < layer_end {
                let cell = scratch.queue[head];
                head += 1;
                for &next in self.neighbours(cell) {
                    if next == to {
                        return Some(depth);
                    }
                    if !scratch.visit(next) {
                        continue;
                    }
                    let can_still_arrive = match hops_to_target {
                        Some(hops) => known_hops(hops[next as usize])
                            .is_some_and(|rest| depth.saturating_add(rest) <= max),
                        None => depth < max,
                    };
                    if can_still_arrive && passable(next) {
                        scratch.queue.push(next);
                    }
                }
            }
        }
        None
    }

    /// Every cell other than `from` reachable in 1 to `max` steps where every cell
    /// entered, including the last, satisfies `passable`. `out` is cleared, then filled
    /// with `(cell, fewest steps)` sorted by cell. Nothing is found if `from` is not on
    /// this board. `from` itself is never tested; `passable` is called at most once per cell.
    pub fn reachable(
        &self,
        from: CellId,
        max: u32,
        passable: impl FnMut(CellId) -> bool,
        scratch: &mut SearchScratch,
        out: &mut Vec<(CellId, u32)>,
    ) {
        out.clear();
        let words = self.len().div_ceil(64);
        if words > SMALL_BOARD_WORDS {
            self.flood(from, max, passable, scratch, |cell, depth| {
                out.push((cell, depth));
            });
            out.sort_unstable_by_key(|&(cell, _)| cell);
            return;
        }
        // Small boards: mark the reached cells as bits and read them back in board order (no sort).
        let mut bits = std::mem::take(&mut scratch.bits);
        let mut depths = std::mem::take(&mut scratch.depth);
        bits.clear();
        bits.resize(words, 0);
        if depths.len() < self.len() {
            depths.resize(self.len(), 0);
        }
        self.flood(from, max, passable, scratch, |cell, depth| {
            bits[cell as usize / 64] |= 1 << (cell % 64);
            depths[cell as usize] = depth;
        });
        for (w, &word) in bits.iter().enumerate() {
            let mut b = word;
            while b != 0 {
                let cell = w * 64 + b.trailing_zeros() as usize;
                out.push((cell as CellId, depths[cell]));
                b &= b - 1;
            }
        }
        scratch.bits = bits;
        scratch.depth = depths;
    }

    /// Cells 1 to `radius` steps from `from` (ignoring any obstruction), sorted by cell.
    /// `out` is cleared first. Allocation-free on boards with a distance table
    /// (see [`DISTANCE_TABLE_MAX_CELLS`](super::DISTANCE_TABLE_MAX_CELLS)) and for radius 1.
    pub fn within(&self, from: CellId, radius: u32, out: &mut Vec<CellId>) {
        out.clear();
        if !self.contains(from) || radius == 0 {
            return;
        }
        if radius == 1 {
            out.extend_from_slice(self.neighbours(from));
            return;
        }
        if let Some(cells) = self.within_cached(from, radius) {
            out.extend_from_slice(cells);
            return;
        }
        match &self.distances {
            Some(table) => {
                // Walking the table row yields the cells already in board order.
                for (cell, &raw) in (0..).zip(table.hops_from(from)) {
                    if known_hops(raw).is_some_and(|hops| (1..=radius).contains(&hops)) {
                        out.push(cell);
                    }
                }
            }
            None => {
                let mut scratch = SearchScratch::new();
                self.flood(
                    from,
                    radius,
                    |_| true,
                    &mut scratch,
                    |cell, _| out.push(cell),
                );
                out.sort_unstable();
            }
        }
    }

    /// Breadth-first search from `from` to depth `max`, entering only cells that satisfy
    /// `passable`, and reporting each entered cell once with its depth.
    fn flood(
        &self,
        from: CellId,
        max: u32,
        mut passable: impl FnMut(CellId) -> bool,
        scratch: &mut SearchScratch,
        mut on_reached: impl FnMut(CellId, u32),
    ) {
        if !self.contains(from) || max == 0 {
            return;
        }
        scratch.begin(self.len());
        scratch.visit(from);
        scratch.queue.push(from);
        let mut head = 0;
        let mut depth = 0;
        while head < scratch.queue.len() {
            depth += 1;
            let layer_end = scratch.queue.len();
            while head < layer_end {
                let cell = scratch.queue[head];
                head += 1;
                for &next in self.neighbours(cell) {
                    if scratch.visit(next) && passable(next) {
                        on_reached(next, depth);
                        if depth < max {
                            scratch.queue.push(next);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Axis, HexLayout, IdScheme, Label};

    fn row_col_ids() -> IdScheme {
        IdScheme {
            first: Axis::Row,
            rows: Label::Letters,
            cols: Label::Numbers,
        }
    }

    fn hex_board(layout: HexLayout) -> Board {
        Board::hex(21, 9, layout, row_col_ids()).unwrap()
    }

    fn cell(board: &Board, id: &str) -> CellId {
        board.find(id).unwrap_or_else(|| panic!("no cell {id}"))
    }

    /// Deterministic pseudo-random bits so the property tests need no extra crates.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as u32
        }
    }

    /// Boards of 1, 2, 3 (both hex layouts), 4 and 7 words of cells.
    fn boards_of_every_width() -> [Board; 6] {
        [
            Board::square(5, 5, false, row_col_ids()).unwrap(),
            Board::square(10, 10, true, row_col_ids()).unwrap(),
            hex_board(HexLayout::OddR),
            hex_board(HexLayout::EvenR),
            Board::square(16, 16, false, row_col_ids()).unwrap(),
            Board::square(20, 20, false, row_col_ids()).unwrap(),
        ]
    }

    /// About one cell in `every` blocked at random, and the others as bits (one word per 64 cells).
    fn random_blocks(board: &Board, random: &mut Lcg, every: u32) -> (Vec<bool>, Vec<u64>) {
        let blocked: Vec<bool> = (0..board.len())
            .map(|_| random.next().is_multiple_of(every))
            .collect();
        let mut passable = vec![0u64; board.len().div_ceil(64)];
        for c in (0..board.len()).filter(|&c| !blocked[c]) {
            passable[c / 64] |= 1 << (c % 64);
        }
        (blocked, passable)
    }

    /// Plain breadth-first search without pruning, tables or scratch reuse: the reference
    /// the optimised searches are checked against.
    fn reference_hops(board: &Board, from: CellId, blocked: &[bool]) -> Vec<Option<u32>> {
        let mut hops = vec![None; board.len()];
        hops[from as usize] = Some(0);
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(cell) = queue.pop_front() {
            let here = hops[cell as usize].unwrap();
            for &next in board.neighbours(cell) {
                if hops[next as usize].is_none() {
                    hops[next as usize] = Some(here + 1);
                    if !blocked[next as usize] {
                        queue.push_back(next);
                    }
                }
            }
        }
        hops
    }

    #[test]
    fn steps_detours_around_blocked_cells_but_may_end_on_one() {
        let board = hex_board(HexLayout::OddR);
        let mut scratch = SearchScratch::new();
        let (a1, b1, c1) = (cell(&board, "A1"), cell(&board, "B1"), cell(&board, "C1"));
        let everything = |_| true;
        assert_eq!(board.steps(a1, c1, 10, everything, &mut scratch), Some(2));
        // Through the middle cell is refused; the way round is A1 A2 B2 C2 C1.
        let not_b1 = |c| c != b1;
        assert_eq!(board.steps(a1, c1, 10, not_b1, &mut scratch), Some(4));
        assert_eq!(board.steps(a1, c1, 3, not_b1, &mut scratch), None);
        // The destination itself may be impassable, and so may the start.
        let not_c1 = |c| c != c1;
        assert_eq!(board.steps(a1, c1, 2, not_c1, &mut scratch), Some(2));
        let not_a1 = |c| c != a1;
        assert_eq!(board.steps(a1, c1, 2, not_a1, &mut scratch), Some(2));
        assert_eq!(board.steps(a1, b1, 1, |_| false, &mut scratch), Some(1));
        assert_eq!(board.steps(a1, c1, 10, |_| false, &mut scratch), None);
    }

    #[test]
    fn steps_edge_cases() {
        let board = hex_board(HexLayout::OddR);
        let mut scratch = SearchScratch::new();
        let a1 = cell(&board, "A1");
        assert_eq!(board.steps(a1, a1, 0, |_| false, &mut scratch), Some(0));
        assert_eq!(board.steps(a1, 1, 0, |_| true, &mut scratch), None);
        assert_eq!(board.steps(a1, 10_000, 5, |_| true, &mut scratch), None);
        assert_eq!(board.steps(10_000, a1, 5, |_| true, &mut scratch), None);
        let corner = cell(&board, "I21");
        let far = board.distance(a1, corner).unwrap();
        assert_eq!(
            board.steps(a1, corner, far - 1, |_| true, &mut scratch),
            None
        );
        assert_eq!(
            board.steps(a1, corner, far, |_| true, &mut scratch),
            Some(far)
        );
    }

    #[test]
    fn steps_asks_about_each_cell_at_most_once() {
        let board = hex_board(HexLayout::OddR);
        let mut scratch = SearchScratch::new();
        let mut asked = vec![0u32; board.len()];
        let found = board.steps(
            0,
            188,
            u32::MAX,
            |c| {
                asked[c as usize] += 1;
                true
            },
            &mut scratch,
        );
        assert_eq!(found, board.distance(0, 188));
        assert!(asked.iter().all(|&count| count <= 1));
    }

    #[test]
    fn reachable_excludes_blocked_cells_and_what_lies_behind_them() {
        let ids = IdScheme {
            first: Axis::Col,
            rows: Label::Numbers,
            cols: Label::Letters,
        };
        let board = Board::square(5, 1, false, ids).unwrap();
        let mut scratch = SearchScratch::new();
        let mut out = vec![(99, 99)];
        // A1 B1 C1 D1 E1 with C1 blocked: from A1 only B1 is reachable.
        let c1 = board.find("C1").unwrap();
        board.reachable(0, 10, |c| c != c1, &mut scratch, &mut out);
        assert_eq!(out, [(1, 1)]);
        board.reachable(2, 10, |_| true, &mut scratch, &mut out);
        assert_eq!(out, [(0, 2), (1, 1), (3, 1), (4, 2)]);
        board.reachable(2, 1, |_| true, &mut scratch, &mut out);
        assert_eq!(out, [(1, 1), (3, 1)]);
        board.reachable(2, 0, |_| true, &mut scratch, &mut out);
        assert!(out.is_empty());
        board.reachable(99, 3, |_| true, &mut scratch, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn reachable_reports_detour_distances() {
        let board = hex_board(HexLayout::OddR);
        let mut scratch = SearchScratch::new();
        let mut out = Vec::new();
        let (a1, b1, c1) = (cell(&board, "A1"), cell(&board, "B1"), cell(&board, "C1"));
        board.reachable(a1, 4, |c| c != b1, &mut scratch, &mut out);
        assert!(out.windows(2).all(|pair| pair[0].0 < pair[1].0));
        assert!(!out.iter().any(|&(c, _)| c == b1 || c == a1));
        assert!(out.contains(&(c1, 4)));
    }

    #[test]
    fn within_lists_cells_by_unobstructed_distance() {
        let board = hex_board(HexLayout::OddR);
        let mut out = vec![7];
        let a1 = cell(&board, "A1");
        board.within(a1, 1, &mut out);
        assert_eq!(out, [cell(&board, "A2"), cell(&board, "B1")]);
        board.within(a1, 0, &mut out);
        assert!(out.is_empty());
        for from in [a1, cell(&board, "E11"), cell(&board, "I21")] {
            for radius in 1..5 {
                board.within(from, radius, &mut out);
                let expected: Vec<CellId> = (0..board.len() as CellId)
                    .filter(|&c| {
                        board
                            .distance(from, c)
                            .is_some_and(|d| (1..=radius).contains(&d))
                    })
                    .collect();
                assert_eq!(out, expected);
            }
        }
    }

    #[test]
    fn within_on_a_board_without_distance_table() {
        let ids = IdScheme {
            first: Axis::Row,
            rows: Label::Numbers,
            cols: Label::Letters,
        };
        let board = Board::square(26, 200, true, ids).unwrap();
        let mut out = Vec::new();
        let centre = board.find("100M").unwrap();
        board.within(centre, 2, &mut out);
        assert_eq!(out.len(), 24);
        assert!(out.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(!out.contains(&centre));
    }

    #[test]
    fn steps_without_distance_table_respects_blocks() {
        let ids = IdScheme {
            first: Axis::Row,
            rows: Label::Numbers,
            cols: Label::Letters,
        };
        let board = Board::square(26, 200, false, ids).unwrap();
        let mut scratch = SearchScratch::new();
        let (from, to) = (board.find("1A").unwrap(), board.find("1C").unwrap());
        // Column B blocked on rows 1 to 3 forces a walk round below row 3.
        let wall: Vec<CellId> = ["1B", "2B", "3B"]
            .iter()
            .map(|id| board.find(id).unwrap())
            .collect();
        let open = |c: CellId| !wall.contains(&c);
        assert_eq!(board.steps(from, to, 100, open, &mut scratch), Some(8));
        assert_eq!(board.steps(from, to, 7, open, &mut scratch), None);
        assert_eq!(board.steps(from, to, 2, |_| true, &mut scratch), Some(2));
    }

    #[test]
    fn distance_is_symmetric_and_matches_unobstructed_steps() {
        let mut scratch = SearchScratch::new();
        for layout in [HexLayout::OddR, HexLayout::EvenR] {
            let board = hex_board(layout);
            let cells = board.len() as CellId;
            for a in 0..cells {
                for b in 0..cells {
                    let distance = board.distance(a, b);
                    assert_eq!(distance, board.distance(b, a), "{a} {b}");
                    assert!(distance.is_some());
                    assert_eq!(
                        board.steps(a, b, u32::MAX, |_| true, &mut scratch),
                        distance
                    );
                    let hops = distance.unwrap();
                    assert_eq!(board.steps(a, b, hops, |_| true, &mut scratch), distance);
                    if hops > 0 {
                        assert_eq!(board.steps(a, b, hops - 1, |_| true, &mut scratch), None);
                    }
                    assert_eq!(board.shared_neighbours(a, b), board.shared_neighbours(b, a));
                }
            }
        }
    }

    #[test]
    fn obstructed_searches_match_a_plain_reference_search() {
        let board = hex_board(HexLayout::OddR);
        let mut scratch = SearchScratch::new();
        let mut out = Vec::new();
        let mut random = Lcg(7);
        for _ in 0..200 {
            let blocked: Vec<bool> = (0..board.len())
                .map(|_| random.next().is_multiple_of(3))
                .collect();
            let passable = |c: CellId| !blocked[c as usize];
            let from = random.next() % board.len() as CellId;
            let max = random.next() % 12;
            let reference = reference_hops(&board, from, &blocked);
            for to in 0..board.len() as CellId {
                let expected = reference[to as usize].filter(|&hops| hops <= max);
                assert_eq!(
                    board.steps(from, to, max, passable, &mut scratch),
                    expected,
                    "from {from} to {to} within {max}"
                );
            }
            // The reference expands only passable cells, so for a passable cell its
            // distance is also the fewest steps with every entered cell passable.
            board.reachable(from, max, passable, &mut scratch, &mut out);
            let expected: Vec<(CellId, u32)> = (0..board.len() as CellId)
                .filter(|&c| c != from && passable(c))
                .filter_map(|c| reference[c as usize].map(|hops| (c, hops)))
                .filter(|&(_, hops)| hops <= max)
                .collect();
            assert_eq!(out, expected, "reachable from {from} within {max}");
        }
    }

    #[test]
    fn reachable_bits_match_a_plain_reference_search_on_boards_of_every_width() {
        // 1, 2, 3 and 4 words take the fixed-size path, 7 words the general one.
        let boards = boards_of_every_width();
        let mut scratch = SearchScratch::new();
        let mut random = Lcg(11);
        for board in &boards {
            let words = board.len().div_ceil(64);
            let mut out = vec![u64::MAX; words];
            for _ in 0..100 {
                let (blocked, passable) = random_blocks(board, &mut random, 4);
                let from = random.next() % board.len() as CellId;
                let max = random.next() % 8;
                assert!(board.reachable_bits(from, max, &passable, &mut scratch, &mut out));
                let reference = reference_hops(board, from, &blocked);
                let mut expected = vec![0u64; words];
                for c in 0..board.len() {
                    if c != from as usize && !blocked[c] && reference[c].is_some_and(|h| h <= max) {
                        expected[c / 64] |= 1 << (c % 64);
                    }
                }
                assert_eq!(
                    out,
                    expected,
                    "{} cells, from {from} within {max}",
                    board.len()
                );
            }
        }
    }

    #[test]
    fn steps_bits_match_steps_on_boards_of_every_width() {
        // 1 to 4 words search as bits; 7 words answer that they cannot (checked below).
        let boards = &boards_of_every_width()[..5];
        let mut scratch = SearchScratch::new();
        let mut random = Lcg(13);
        for board in boards {
            for _ in 0..60 {
                let (blocked, passable) = random_blocks(board, &mut random, 3);
                let from = random.next() % board.len() as CellId;
                let max = random.next() % 9;
                for to in 0..board.len() as CellId {
                    let expected =
                        board.steps(from, to, max, |c| !blocked[c as usize], &mut scratch);
                    assert_eq!(
                        board.steps_bits(from, to, max, &passable),
                        Some(expected),
                        "{} cells, from {from} to {to} within {max}",
                        board.len()
                    );
                }
            }
        }
        let large = Board::square(20, 20, false, row_col_ids()).unwrap();
        assert_eq!(large.steps_bits(0, 1, 3, &[!0; 7]), None);
        let board = hex_board(HexLayout::OddR);
        assert_eq!(board.steps_bits(0, 5_000, 3, &[!0; 3]), Some(None));
    }

    #[test]
    fn within_bits_are_the_cells_within_lists() {
        let ids = || IdScheme {
            first: Axis::Col,
            rows: Label::Numbers,
            cols: Label::Letters,
        };
        // With a distance table (masks cached for radii 1 to 4) and without one.
        let boards = [
            hex_board(HexLayout::OddR),
            Board::square(5, 5, true, row_col_ids()).unwrap(),
            Board::square(26, 200, false, ids()).unwrap(),
        ];
        let mut listed = Vec::new();
        for board in &boards {
            let words = board.len().div_ceil(64);
            let mut bits = vec![u64::MAX; words];
            for from in (0..board.len() as CellId).step_by(7) {
                for radius in 0..7 {
                    board.within_bits(from, radius, &mut bits);
                    board.within(from, radius, &mut listed);
                    let mut expected = vec![0u64; words];
                    for &x in &listed {
                        expected[x as usize / 64] |= 1 << (x % 64);
                    }
                    assert_eq!(
                        bits,
                        expected,
                        "{} cells, {from} radius {radius}",
                        board.len()
                    );
                    // `any_within` meets a set exactly when one of these cells is in it.
                    for &x in listed.iter().chain(&[from]) {
                        let mut one = vec![0u64; words];
                        one[x as usize / 64] |= 1 << (x % 64);
                        assert_eq!(board.any_within(from, radius, &one), listed.contains(&x));
                    }
                    assert!(!board.any_within(from, radius, &vec![0u64; words]));
                }
            }
        }
    }

    #[test]
    fn warm_scratch_does_not_reallocate() {
        let board = hex_board(HexLayout::OddR);
        let mut scratch = SearchScratch::new();
        let mut out = Vec::with_capacity(board.len());
        // A first, short search already sizes the buffers for the whole board.
        board.steps(0, 2, 2, |_| true, &mut scratch);
        let (stamps, queue) = (scratch.stamps.as_ptr(), scratch.queue.as_ptr());
        let (stamps_len, queue_capacity) = (scratch.stamps.len(), scratch.queue.capacity());
        for to in 0..board.len() as CellId {
            board.steps(0, to, u32::MAX, |c| c % 5 != 0, &mut scratch);
            board.reachable(to, u32::MAX, |_| true, &mut scratch, &mut out);
        }
        assert_eq!(scratch.stamps.as_ptr(), stamps);
        assert_eq!(scratch.stamps.len(), stamps_len);
        assert_eq!(scratch.queue.as_ptr(), queue);
        assert_eq!(scratch.queue.capacity(), queue_capacity);
    }

    #[test]
    fn generation_wrap_forgets_old_visits() {
        let board = hex_board(HexLayout::OddR);
        let mut scratch = SearchScratch::with_capacity(board.len());
        let mut out = Vec::new();
        scratch.generation = u32::MAX - 1;
        for _ in 0..4 {
            board.reachable(0, u32::MAX, |_| true, &mut scratch, &mut out);
            assert_eq!(out.len(), board.len() - 1);
            assert_eq!(
                board.steps(0, 188, u32::MAX, |_| true, &mut scratch),
                board.distance(0, 188)
            );
        }
        // Eight searches from u32::MAX - 1: one at u32::MAX, then 1 to 7 after the wrap.
        assert_eq!(scratch.generation, 7);
    }

    #[test]
    fn one_scratch_serves_boards_of_different_sizes() {
        let small = Board::hex(3, 3, HexLayout::OddR, row_col_ids()).unwrap();
        let large = hex_board(HexLayout::EvenR);
        let mut scratch = SearchScratch::new();
        let mut out = Vec::new();
        for _ in 0..3 {
            small.reachable(0, 9, |_| true, &mut scratch, &mut out);
            assert_eq!(out.len(), 8);
            large.reachable(0, 99, |_| true, &mut scratch, &mut out);
            assert_eq!(out.len(), 188);
        }
    }
}
