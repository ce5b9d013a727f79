//! The shape of a board: an arbitrary graph, a hex grid or a square grid.

use super::HexLayout;

/// Which neighbour rule a board was built with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topology {
    /// Cells and edges listed explicitly; no rows or columns.
    Graph,
    /// Pointy-top hexagons in offset rows.
    Hex(HexLayout),
    /// Squares touching orthogonally, and also diagonally when `diagonal` is set.
    Square { diagonal: bool },
}
