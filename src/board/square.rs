//! Square grids: orthogonal neighbours, optionally the four diagonals too.

use super::grid::{self, Delta};
use super::{Board, BoardError, IdScheme, Topology};

const ORTHOGONAL: [Delta; 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const ORTHOGONAL_AND_DIAGONAL: [Delta; 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

impl Board {
    /// A `width` x `height` square grid in row-major board order. Cells touch
    /// orthogonally, and also diagonally when `diagonal` is true.
    ///
    /// # Errors
    /// As for [`Board::hex`]: zero or oversized dimensions, more than 26 letter labels
    /// on an axis, or labels that run together into duplicate ids.
    pub fn square(
        width: u32,
        height: u32,
        diagonal: bool,
        ids: IdScheme,
    ) -> Result<Board, BoardError> {
        let deltas: &'static [Delta] = if diagonal {
            &ORTHOGONAL_AND_DIAGONAL
        } else {
            &ORTHOGONAL
        };
        grid::build(width, height, Topology::Square { diagonal }, ids, |_| {
            deltas
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Axis, Label};

    /// Go-style ids: column letter first, then the 1-based row number.
    fn col_row_ids() -> IdScheme {
        IdScheme {
            first: Axis::Col,
            rows: Label::Numbers,
            cols: Label::Letters,
        }
    }

    #[test]
    fn col_row_ids_put_c3_in_the_centre() {
        let board = Board::square(5, 5, false, col_row_ids()).unwrap();
        assert_eq!(board.len(), 25);
        assert_eq!(board.topology(), &Topology::Square { diagonal: false });
        let centre = board.find("C3").unwrap();
        assert_eq!((board.row(centre), board.col(centre)), (2, 2));
        let corner = board.find("A1").unwrap();
        assert_eq!((board.row(corner), board.col(corner)), (0, 0));
        let expected = [board.find("B1").unwrap(), board.find("A2").unwrap()];
        let mut neighbours = board.neighbours(corner).to_vec();
        neighbours.sort_unstable();
        let mut expected = expected.to_vec();
        expected.sort_unstable();
        assert_eq!(neighbours, expected);
        assert_eq!(board.neighbours(centre).len(), 4);
    }

    #[test]
    fn diagonals_add_corner_neighbours_and_shorten_distances() {
        let board = Board::square(5, 5, true, col_row_ids()).unwrap();
        let corner = board.find("A1").unwrap();
        let ids: Vec<&str> = board
            .neighbours(corner)
            .iter()
            .map(|&c| board.id(c))
            .collect();
        assert_eq!(ids, ["B1", "A2", "B2"]);
        assert_eq!(board.neighbours(board.find("C3").unwrap()).len(), 8);
        assert_eq!(board.distance(corner, board.find("E5").unwrap()), Some(4));
    }

    #[test]
    fn bad_sizes_are_errors() {
        assert_eq!(
            Board::square(0, 5, false, col_row_ids()).unwrap_err(),
            BoardError::ZeroSize {
                width: 0,
                height: 5
            }
        );
        assert!(matches!(
            Board::square(5, 0, false, col_row_ids()),
            Err(BoardError::ZeroSize { .. })
        ));
        assert!(matches!(
            Board::square(27, 5, false, col_row_ids()),
            Err(BoardError::TooManyLetterLabels {
                axis: Axis::Col,
                count: 27
            })
        ));
        assert!(matches!(
            Board::square(u32::MAX, u32::MAX, false, col_row_ids()),
            Err(BoardError::TooManyCells { .. })
        ));
    }

    #[test]
    fn numbers_on_both_axes_that_run_together_are_rejected() {
        let numbers = IdScheme {
            first: Axis::Row,
            rows: Label::Numbers,
            cols: Label::Numbers,
        };
        // Row 1 column 11 and row 11 column 1 would both be "111".
        assert!(matches!(
            Board::square(11, 11, false, numbers),
            Err(BoardError::DuplicateId { .. })
        ));
        assert!(Board::square(9, 9, false, numbers).is_ok());
    }
}
