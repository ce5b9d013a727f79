//! Hex grids of pointy-top hexagons in offset rows, and which rows are shoved half a cell right.

use super::grid::{self, Delta};
use super::{Board, BoardError, IdScheme, Topology};

/// Which rows of a pointy-top hex grid sit half a cell to the right of the others.
/// Row index 0 is the row with the first row label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexLayout {
    /// Odd rows (index 1, 3, ...) are shoved right.
    OddR,
    /// Even rows (index 0, 2, ...) are shoved right.
    EvenR,
}

/// Neighbour steps from a row that is not shoved: the rows above and below stick out
/// half a cell to the right, so their touching cells are at the same and the previous column.
const UNSHOVED_ROW: [Delta; 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1)];
/// Neighbour steps from a shoved row: the touching cells above and below are at the
/// same and the next column.
const SHOVED_ROW: [Delta; 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (0, -1), (1, -1)];

impl HexLayout {
    fn deltas(self, row: u32) -> &'static [Delta] {
        let row_is_odd = row % 2 == 1;
        let shoved = match self {
            HexLayout::OddR => row_is_odd,
            HexLayout::EvenR => !row_is_odd,
        };
        if shoved {
            &SHOVED_ROW
        } else {
            &UNSHOVED_ROW
        }
    }
}

impl Board {
    /// A `width` x `height` pointy-top hex grid in row-major board order. Each cell touches
    /// up to six others: two in its own row and two in each adjacent row.
    ///
    /// # Errors
    /// [`BoardError::ZeroSize`] if either dimension is 0, [`BoardError::TooManyLetterLabels`]
    /// if a letter-labelled axis is longer than 26, [`BoardError::DuplicateId`] if the
    /// labels run together ambiguously, [`BoardError::TooManyCells`] beyond
    /// [`MAX_CELLS`](super::MAX_CELLS).
    pub fn hex(
        width: u32,
        height: u32,
        layout: HexLayout,
        ids: IdScheme,
    ) -> Result<Board, BoardError> {
        grid::build(width, height, Topology::Hex(layout), ids, |row| {
            layout.deltas(row)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Axis, CellId, Label};

    fn row_col_ids() -> IdScheme {
        IdScheme {
            first: Axis::Row,
            rows: Label::Letters,
            cols: Label::Numbers,
        }
    }

    /// 21 columns by 9 rows, ids "A1" to "I21".
    fn wide_board() -> Board {
        Board::hex(21, 9, HexLayout::OddR, row_col_ids()).unwrap()
    }

    fn cell(board: &Board, id: &str) -> CellId {
        board.find(id).unwrap_or_else(|| panic!("no cell {id}"))
    }

    fn neighbour_ids(board: &Board, id: &str) -> Vec<String> {
        let mut ids: Vec<String> = board
            .neighbours(cell(board, id))
            .iter()
            .map(|&c| board.id(c).to_string())
            .collect();
        ids.sort();
        ids
    }

    #[test]
    fn ids_run_row_major_from_a1() {
        let board = wide_board();
        assert_eq!(board.len(), 189);
        assert_eq!((board.width(), board.height()), (21, 9));
        assert_eq!(board.topology(), &Topology::Hex(HexLayout::OddR));
        assert_eq!(board.id(0), "A1");
        assert_eq!(board.id(1), "A2");
        assert_eq!(board.id(21), "B1");
        assert_eq!(board.find("I21"), Some(188));
        assert_eq!(board.find("J1"), None);
        assert_eq!(board.find("a1"), None);
    }

    #[test]
    fn neighbours_follow_odd_r_offsets() {
        let board = wide_board();
        assert_eq!(neighbour_ids(&board, "A1"), ["A2", "B1"]);
        assert_eq!(neighbour_ids(&board, "B1"), ["A1", "A2", "B2", "C1", "C2"]);
        assert_eq!(
            neighbour_ids(&board, "D5"),
            ["C5", "C6", "D4", "D6", "E5", "E6"]
        );
        assert_eq!(
            neighbour_ids(&board, "C5"),
            ["B4", "B5", "C4", "C6", "D4", "D5"]
        );
        assert_eq!(neighbour_ids(&board, "B21"), ["A21", "B20", "C21"]);
    }

    #[test]
    fn even_r_mirrors_odd_r() {
        let board = Board::hex(21, 9, HexLayout::EvenR, row_col_ids()).unwrap();
        assert_eq!(neighbour_ids(&board, "A1"), ["A2", "B1", "B2"]);
        assert_eq!(neighbour_ids(&board, "B1"), ["A1", "B2", "C1"]);
        assert_eq!(
            neighbour_ids(&board, "C5"),
            ["B5", "B6", "C4", "C6", "D5", "D6"]
        );
    }

    #[test]
    fn neighbour_lists_are_sorted_symmetric_and_at_most_six() {
        for layout in [HexLayout::OddR, HexLayout::EvenR] {
            let board = Board::hex(21, 9, layout, row_col_ids()).unwrap();
            for a in 0..board.len() as CellId {
                let neighbours = board.neighbours(a);
                assert!(neighbours.len() <= 6);
                assert!(neighbours.windows(2).all(|pair| pair[0] < pair[1]));
                for &b in neighbours {
                    assert!(board.adjacent(b, a), "{a} -> {b} is one-way");
                    assert_eq!(board.distance(a, b), Some(1));
                }
            }
            assert!(board.is_connected());
        }
    }

    #[test]
    fn middle_cell_is_unique_only_on_straight_lines() {
        let board = wide_board();
        let (a1, c1) = (cell(&board, "A1"), cell(&board, "C1"));
        assert_eq!(board.distance(a1, c1), Some(2));
        assert_eq!(
            board.shared_neighbours(a1, c1),
            (1, Some(cell(&board, "B1")))
        );

        let (b21, d21) = (cell(&board, "B21"), cell(&board, "D21"));
        assert_eq!(
            board.shared_neighbours(b21, d21),
            (1, Some(cell(&board, "C21")))
        );

        // Straight along a row, and straight along both diagonal axes.
        for (from, to, middle) in [("D5", "D7", "D6"), ("D5", "F6", "E6"), ("D5", "F4", "E5")] {
            let (from, to) = (cell(&board, from), cell(&board, to));
            assert_eq!(board.distance(from, to), Some(2));
            assert_eq!(
                board.shared_neighbours(from, to),
                (1, Some(cell(&board, middle)))
            );
        }

        // Bent: two steps that are not in the same direction.
        for (from, to) in [("D5", "F5"), ("D5", "C7"), ("D5", "E7")] {
            let (from, to) = (cell(&board, from), cell(&board, to));
            assert_eq!(board.distance(from, to), Some(2));
            assert_eq!(board.shared_neighbours(from, to).0, 2);
        }
        let bent = board.shared_neighbours(cell(&board, "D5"), cell(&board, "F5"));
        assert_eq!(bent, (2, Some(cell(&board, "E5"))));
    }

    #[test]
    fn bad_sizes_are_errors() {
        assert!(matches!(
            Board::hex(0, 9, HexLayout::OddR, row_col_ids()),
            Err(BoardError::ZeroSize { .. })
        ));
        assert_eq!(
            Board::hex(5, 27, HexLayout::OddR, row_col_ids()).unwrap_err(),
            BoardError::TooManyLetterLabels {
                axis: Axis::Row,
                count: 27
            }
        );
        assert!(Board::hex(5, 26, HexLayout::OddR, row_col_ids()).is_ok());
    }
}
