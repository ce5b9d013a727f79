//! Hop distances between cells: a precomputed all-pairs table for small boards, a search for large ones.

use super::adjacency::Adjacency;
use super::{Board, CellId, SearchScratch};

/// Marks a pair with no path between them. Real distances stay far below it because
/// tables are only built for boards of at most `DISTANCE_TABLE_MAX_CELLS` cells.
const UNREACHABLE: u16 = u16::MAX;

/// Every pairwise hop distance, row `a` holding the distances from cell `a`.
#[derive(Clone, Debug)]
pub(super) struct DistanceTable {
    cells: usize,
    hops: Vec<u16>,
}

impl DistanceTable {
    /// One breadth-first search per cell. Quadratic in memory and time, which is why
    /// only small boards get a table.
    pub(super) fn build(adjacency: &Adjacency) -> DistanceTable {
        let cells = adjacency.cells();
        let mut hops = vec![UNREACHABLE; cells * cells];
        let mut queue: Vec<CellId> = Vec::with_capacity(cells);
        // `max(1)` only guards chunking of an empty table; boards always have cells.
        for (source, row) in hops.chunks_exact_mut(cells.max(1)).enumerate() {
            row[source] = 0;
            queue.clear();
            queue.push(source as CellId);
            let mut head = 0;
            while let Some(&cell) = queue.get(head) {
                head += 1;
                let next_hops = row[cell as usize] + 1;
                for &next in adjacency.neighbours(cell) {
                    if row[next as usize] == UNREACHABLE {
                        row[next as usize] = next_hops;
                        queue.push(next);
                    }
                }
            }
        }
        DistanceTable { cells, hops }
    }

    /// Raw distances from `from` to every cell, [`u16::MAX`] where unreachable.
    /// `from` must be a cell of the board.
    #[inline]
    pub(super) fn hops_from(&self, from: CellId) -> &[u16] {
        let start = from as usize * self.cells;
        &self.hops[start..start + self.cells]
    }

    /// Distance between two cells of the board, `None` if unreachable.
    #[inline]
    pub(super) fn get(&self, a: CellId, b: CellId) -> Option<u32> {
        let hops = self.hops[a as usize * self.cells + b as usize];
        (hops != UNREACHABLE).then_some(u32::from(hops))
    }
}

/// Converts a raw table entry, whose `u16::MAX` means unreachable, into a distance.
#[inline]
pub(super) fn known_hops(raw: u16) -> Option<u32> {
    (raw != UNREACHABLE).then_some(u32::from(raw))
}

impl Board {
    /// Fewest steps between `a` and `b` along neighbour edges; `None` if no path joins
    /// them or either is not on this board. A table lookup on boards of up to
    /// [`DISTANCE_TABLE_MAX_CELLS`](super::DISTANCE_TABLE_MAX_CELLS) cells; larger
    /// boards run a breadth-first search that allocates its own buffers.
    pub fn distance(&self, a: CellId, b: CellId) -> Option<u32> {
        if !self.contains(a) || !self.contains(b) {
            return None;
        }
        match &self.distances {
            Some(table) => table.get(a, b),
            None => self.steps(a, b, u32::MAX, |_| true, &mut SearchScratch::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_holds_path_lengths_and_marks_gaps() {
        // 0 - 1 - 2   3
        let adjacency = Adjacency::from_edges(4, [(0, 1), (1, 2)]);
        let table = DistanceTable::build(&adjacency);
        assert_eq!(table.get(0, 2), Some(2));
        assert_eq!(table.get(2, 0), Some(2));
        assert_eq!(table.get(1, 1), Some(0));
        assert_eq!(table.get(0, 3), None);
        assert_eq!(table.hops_from(0), &[0, 1, 2, UNREACHABLE]);
        assert_eq!(known_hops(UNREACHABLE), None);
        assert_eq!(known_hops(7), Some(7));
    }

    #[test]
    fn large_boards_search_instead_of_tabulating() {
        use crate::board::{Axis, IdScheme, Label};
        let ids = IdScheme {
            first: Axis::Row,
            rows: Label::Numbers,
            cols: Label::Letters,
        };
        // 26 x 200 = 5200 cells, above the table limit.
        let board = Board::square(26, 200, false, ids).unwrap();
        assert!(board.distances.is_none());
        let corner = board.find("1A").unwrap();
        let far_corner = board.find("200Z").unwrap();
        assert_eq!(board.distance(corner, far_corner), Some(25 + 199));
        assert_eq!(board.distance(far_corner, corner), Some(25 + 199));
        assert_eq!(board.distance(corner, corner), Some(0));
        assert!(board.is_connected());
    }
}
