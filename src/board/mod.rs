//! Board topologies and spatial queries: which cells exist, what they are called, which cells touch and how far apart they are.
//!
//! Cells are numbered `0..len()` in *board order*: row-major (`row * width + col`) for
//! grids, and the order the ids were given in for graphs. Every query works on these
//! numbers; [`Board::id`] and [`Board::find`] translate to and from the human-readable ids.
//!
//! The board is immutable once built, so it can be shared between any number of
//! concurrent games. Everything on the per-move hot path ([`Board::neighbours`],
//! [`Board::adjacent`], [`Board::distance`] on small boards, and the searches given a
//! warm [`SearchScratch`]) runs without allocating.

mod adjacency;
mod bit_search;
mod connectivity;
mod distance;
mod error;
mod graph;
mod grid;
mod hex;
mod ids;
mod search;
mod square;
mod topology;

pub use bit_search::copy_words;
pub use error::BoardError;
pub use hex::HexLayout;
pub use ids::{Axis, IdScheme, Label};
pub use search::SearchScratch;
pub use topology::Topology;

use adjacency::Adjacency;
use distance::DistanceTable;
use std::collections::HashMap;
use std::fmt;

/// Index of a cell in board order.
pub type CellId = u32;

/// Largest number of cells a board may have ([`crate::limits::MAX_CELLS`]). Far beyond any
/// playable board; the cap exists so that a typo in a size cannot make construction, matches or
/// their replays exhaust memory.
pub use crate::limits::MAX_CELLS;

/// Boards with at most this many cells precompute every pairwise distance
/// (`cells²` `u16`s, 32 MiB at the limit) so that `distance` is a single lookup.
/// Larger boards answer distance queries with a breadth-first search instead.
pub const DISTANCE_TABLE_MAX_CELLS: usize = 4096;

/// An immutable board: its cells, their ids and the neighbour relation between them.
#[derive(Clone)]
pub struct Board {
    topology: Topology,
    /// Grid width in columns; 0 for graphs, which have no grid.
    width: u32,
    /// Grid height in rows; 0 for graphs.
    height: u32,
    ids: Vec<String>,
    index: HashMap<String, CellId>,
    adjacency: Adjacency,
    distances: Option<DistanceTable>,
    connected: bool,
    /// Cells within radius 2, 3 and 4 of each cell, in board order: computed on first use from the
    /// distance table, since ranges and areas of effect ask for them on every legality check.
    within_lists: [std::sync::OnceLock<Vec<Box<[CellId]>>>; 3],
    /// Each cell's neighbours as bits (`words` words per cell), for floods on small boards.
    neighbour_masks: std::sync::OnceLock<Vec<u64>>,
    /// The cells of `within_lists` as bits (`words` words per cell), for sets listed as bits.
    within_masks: [std::sync::OnceLock<Vec<u64>>; 3],
}

impl Board {
    /// Shared final step of every constructor. Callers have already checked the cell
    /// count against [`MAX_CELLS`] and that the adjacency covers exactly `ids.len()` cells;
    /// this rejects duplicate ids and derives the lookup and distance tables.
    fn assemble(
        topology: Topology,
        width: u32,
        height: u32,
        ids: Vec<String>,
        adjacency: Adjacency,
    ) -> Result<Board, BoardError> {
        let mut index = HashMap::with_capacity(ids.len());
        for (cell, id) in (0..).zip(&ids) {
            if let Some(first) = index.insert(id.clone(), cell) {
                return Err(BoardError::DuplicateId {
                    id: id.clone(),
                    first,
                    second: cell,
                });
            }
        }
        let distances =
            (ids.len() <= DISTANCE_TABLE_MAX_CELLS).then(|| DistanceTable::build(&adjacency));
        let connected = connectivity::count_reachable(&adjacency, 0) == ids.len();
        Ok(Board {
            topology,
            width,
            height,
            ids,
            index,
            adjacency,
            distances,
            connected,
            within_lists: Default::default(),
            neighbour_masks: Default::default(),
            within_masks: Default::default(),
        })
    }

    /// Each cell's neighbours as bit sets (`words` words per cell), computed on first use.
    pub(super) fn neighbour_masks(&self) -> &[u64] {
        self.neighbour_masks.get_or_init(|| {
            let words = self.len().div_ceil(64);
            let mut masks = vec![0u64; self.len() * words];
            for c in 0..self.len() {
                for &n in self.neighbours(c as CellId) {
                    masks[c * words + n as usize / 64] |= 1 << (n % 64);
                }
            }
            masks
        })
    }

    /// The cells 1 to `radius` steps from `from` in board order, from the cache (radius 2 to 4 on boards
    /// with a distance table).
    pub(super) fn within_cached(&self, from: CellId, radius: u32) -> Option<&[CellId]> {
        let table = self.distances.as_ref()?;
        let lists = self.within_lists.get(radius.checked_sub(2)? as usize)?;
        let lists = lists.get_or_init(|| {
            (0..self.len() as CellId)
                .map(|c| {
                    (0..)
                        .zip(table.hops_from(c))
                        .filter(|&(_, &raw)| {
                            distance::known_hops(raw).is_some_and(|h| (1..=radius).contains(&h))
                        })
                        .map(|(cell, _)| cell)
                        .collect()
                })
                .collect()
        });
        Some(&lists[from as usize])
    }

    /// The cells 1 to `radius` steps from `from` as bits (`words` words), from the caches: radius 1 from
    /// the neighbour masks, 2 to 4 on boards with a distance table; `None` otherwise.
    pub(super) fn within_mask(&self, from: CellId, radius: u32) -> Option<&[u64]> {
        let words = self.len().div_ceil(64);
        let at = from as usize * words..(from as usize + 1) * words;
        if radius == 1 {
            return self.neighbour_masks().get(at);
        }
        let masks = self.within_masks.get(radius.checked_sub(2)? as usize)?;
        if masks.get().is_none() {
            // Built from the lists (so exactly their cells), once.
            let mut built = vec![0u64; self.len() * words];
            for c in 0..self.len() {
                for &x in self.within_cached(c as CellId, radius)? {
                    built[c * words + x as usize / 64] |= 1 << (x % 64);
                }
            }
            let _ = masks.set(built);
        }
        masks.get()?.get(at)
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Always false for a successfully built board (every constructor rejects
    /// zero cells); present because `len` without `is_empty` is a footgun.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The shape this board was built with.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// Number of columns; 0 for graphs.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Number of rows; 0 for graphs.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `cell` is a cell of this board.
    pub fn contains(&self, cell: CellId) -> bool {
        (cell as usize) < self.ids.len()
    }

    /// The human-readable id of `cell`.
    ///
    /// # Panics
    /// If `cell` is not on this board (see [`Board::contains`]). Ids coming from
    /// outside should be resolved with [`Board::find`], which never yields such a cell.
    pub fn id(&self, cell: CellId) -> &str {
        &self.ids[cell as usize]
    }

    /// The cell whose id is exactly `id` (case-sensitive, no trimming).
    pub fn find(&self, id: &str) -> Option<CellId> {
        self.index.get(id).copied()
    }

    /// 0-based row of `cell` (the row labelled "A" or "1" is 0); 0 for graphs.
    ///
    /// # Panics
    /// If `cell` is not on this board.
    pub fn row(&self, cell: CellId) -> u32 {
        self.assert_on_board(cell);
        cell.checked_div(self.width).unwrap_or(0)
    }

    /// 0-based column of `cell`; 0 for graphs.
    ///
    /// # Panics
    /// If `cell` is not on this board.
    pub fn col(&self, cell: CellId) -> u32 {
        self.assert_on_board(cell);
        cell.checked_rem(self.width).unwrap_or(0)
    }

    /// The cell at a 0-based `row` and `col`; `None` off the grid and always on graphs.
    pub fn cell_at(&self, row: u32, col: u32) -> Option<CellId> {
        // Graphs have width and height 0, so the bounds test alone rules them out.
        (row < self.height && col < self.width).then(|| row * self.width + col)
    }

    /// Neighbours of `cell`, ascending in board order. Empty for a cell not on this board.
    pub fn neighbours(&self, cell: CellId) -> &[CellId] {
        self.adjacency.neighbours(cell)
    }

    /// Whether `a` and `b` share an edge. False if either is not on this board.
    pub fn adjacent(&self, a: CellId, b: CellId) -> bool {
        self.neighbours(a).binary_search(&b).is_ok()
    }

    /// The cells adjacent to both `a` and `b`: how many there are, and the smallest.
    ///
    /// On a hex grid two cells two steps apart along a straight line share exactly one
    /// neighbour (the unique middle cell), while a bent pair shares two.
    pub fn shared_neighbours(&self, a: CellId, b: CellId) -> (u32, Option<CellId>) {
        // Both lists are sorted, so a merge finds the intersection in one pass and its
        // first hit is the smallest shared cell.
        let (left, right) = (self.neighbours(a), self.neighbours(b));
        let (mut i, mut j) = (0, 0);
        let mut count = 0;
        let mut smallest = None;
        while i < left.len() && j < right.len() {
            match left[i].cmp(&right[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    smallest.get_or_insert(left[i]);
                    count += 1;
                    i += 1;
                    j += 1;
                }
            }
        }
        (count, smallest)
    }

    fn assert_on_board(&self, cell: CellId) {
        assert!(
            self.contains(cell),
            "cell {cell} is not on this board of {} cells",
            self.len()
        );
    }
}

impl fmt::Debug for Board {
    // Hand-written so that printing a board does not dump its id map and distance table.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("topology", &self.topology)
            .field("width", &self.width)
            .field("height", &self.height)
            .field("cells", &self.len())
            .field("connected", &self.connected)
            .field("distance_table", &self.distances.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_square() -> Board {
        let ids = IdScheme {
            first: Axis::Row,
            rows: Label::Letters,
            cols: Label::Numbers,
        };
        Board::square(3, 2, false, ids).unwrap()
    }

    #[test]
    fn row_col_and_cell_at_round_trip() {
        let board = small_square();
        for cell in 0..board.len() as CellId {
            assert_eq!(board.cell_at(board.row(cell), board.col(cell)), Some(cell));
        }
        assert_eq!(board.cell_at(2, 0), None);
        assert_eq!(board.cell_at(0, 3), None);
    }

    #[test]
    fn foreign_cells_are_answered_without_panicking() {
        let board = small_square();
        let outside = board.len() as CellId;
        assert!(!board.contains(outside));
        assert!(board.neighbours(outside).is_empty());
        assert!(!board.adjacent(outside, 0));
        assert!(!board.adjacent(0, outside));
        assert_eq!(board.shared_neighbours(outside, 0), (0, None));
        assert_eq!(board.distance(outside, 0), None);
    }

    #[test]
    #[should_panic(expected = "not on this board")]
    fn row_of_foreign_cell_panics_with_explanation() {
        let board = small_square();
        board.row(100);
    }

    #[test]
    fn debug_output_is_a_summary() {
        let text = format!("{:?}", small_square());
        assert!(text.contains("cells: 6"), "{text}");
    }
}
