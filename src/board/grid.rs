//! Construction shared by the rectangular grids: size checks, generated ids and neighbours from offset deltas.

use super::adjacency::Adjacency;
use super::{Board, BoardError, CellId, IdScheme, Topology, MAX_CELLS};

/// A step to a neighbouring cell as (column change, row change).
pub(super) type Delta = (i32, i32);

/// Builds a `width` x `height` grid whose cells connect to the in-bounds cells reached by
/// `deltas_for_row(row)`. Deltas may depend on the row because offset hex rows alternate.
pub(super) fn build(
    width: u32,
    height: u32,
    topology: Topology,
    ids: IdScheme,
    deltas_for_row: impl Fn(u32) -> &'static [Delta],
) -> Result<Board, BoardError> {
    if width == 0 || height == 0 {
        return Err(BoardError::ZeroSize { width, height });
    }
    let cells = u64::from(width) * u64::from(height);
    if cells > MAX_CELLS as u64 {
        return Err(BoardError::TooManyCells {
            cells,
            max: MAX_CELLS,
        });
    }
    ids.check(width, height)?;

    // The cap above keeps `cells`, and so every cell number, well inside u32.
    let mut labels = Vec::with_capacity(cells as usize);
    let mut edges: Vec<(CellId, CellId)> = Vec::new();
    for row in 0..height {
        let deltas = deltas_for_row(row);
        for col in 0..width {
            let cell = row * width + col;
            labels.push(ids.cell_id(row, col));
            for &(col_change, row_change) in deltas {
                let (Some(next_col), Some(next_row)) = (
                    col.checked_add_signed(col_change),
                    row.checked_add_signed(row_change),
                ) else {
                    continue;
                };
                if next_col < width && next_row < height {
                    edges.push((cell, next_row * width + next_col));
                }
            }
        }
    }
    let adjacency = Adjacency::from_edges(labels.len(), edges);
    Board::assemble(topology, width, height, labels, adjacency)
}
