//! Why a board could not be built, phrased so the author of the board description knows what to fix.

use super::{Axis, CellId};
use std::fmt;

/// A board description that cannot be turned into a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// A grid with no columns or no rows.
    ZeroSize { width: u32, height: u32 },
    /// More cells than [`MAX_CELLS`](super::MAX_CELLS).
    TooManyCells { cells: u64, max: usize },
    /// A graph with no cells at all.
    NoCells,
    /// An axis labelled with letters has more than 26 positions.
    TooManyLetterLabels { axis: Axis, count: u32 },
    /// A graph cell whose id is the empty string.
    EmptyId { cell: CellId },
    /// Two cells with the same id.
    DuplicateId {
        id: String,
        first: CellId,
        second: CellId,
    },
    /// A graph edge naming a cell that does not exist.
    EdgeOutOfRange {
        from: CellId,
        to: CellId,
        cells: usize,
    },
    /// A graph edge from a cell to itself.
    SelfLoop { cell: CellId, id: String },
    /// More edges than the neighbour storage can index (about two billion).
    TooManyEdges { edges: usize, max: usize },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::ZeroSize { width, height } => write!(
                f,
                "a board of {width}x{height} has no cells; width and height must both be at least 1"
            ),
            BoardError::TooManyCells { cells, max } => write!(
                f,
                "a board of {cells} cells is too large; at most {max} cells are supported"
            ),
            BoardError::NoCells => write!(f, "a graph board needs at least one cell id"),
            BoardError::TooManyLetterLabels { axis, count } => write!(
                f,
                "{count} {} cannot be labelled with the letters A-Z (at most 26); \
                 label that axis with numbers or make it at most 26 long",
                axis.plural_name()
            ),
            BoardError::EmptyId { cell } => write!(
                f,
                "cell {cell} has an empty id; every cell needs a non-empty id"
            ),
            BoardError::DuplicateId { id, first, second } => write!(
                f,
                "the id \"{id}\" names both cell {first} and cell {second}; ids must be unique \
                 (on a grid numbered on both axes the numbers can run together, \
                 so label one axis with letters)"
            ),
            BoardError::EdgeOutOfRange { from, to, cells } => write!(
                f,
                "the edge ({from}, {to}) refers to a cell that does not exist; \
                 cells are numbered 0 to {}",
                cells.saturating_sub(1)
            ),
            BoardError::SelfLoop { cell, id } => write!(
                f,
                "the edge from cell {cell} (\"{id}\") to itself is not allowed; \
                 a cell is never its own neighbour"
            ),
            BoardError::TooManyEdges { edges, max } => write!(
                f,
                "a graph of {edges} edges is too large; at most {max} edges are supported"
            ),
        }
    }
}

impl std::error::Error for BoardError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_problem_and_the_fix() {
        let letters = BoardError::TooManyLetterLabels {
            axis: Axis::Row,
            count: 27,
        };
        let text = letters.to_string();
        assert!(text.contains("27 rows"), "{text}");
        assert!(text.contains("numbers"), "{text}");

        let size = BoardError::ZeroSize {
            width: 0,
            height: 9,
        };
        assert!(size.to_string().contains("at least 1"));
    }
}
