//! Compressed neighbour lists: every cell's neighbours stored back to back in one flat array.

use super::CellId;

/// Most undirected edges a board may have: each is stored in both directions and the
/// offsets into that storage are `u32`.
pub(super) const MAX_EDGES: usize = (u32::MAX / 2) as usize;

/// Neighbour lists in compressed-sparse-row form: the neighbours of cell `c` are
/// `targets[offsets[c]..offsets[c + 1]]`, sorted ascending. One allocation for the whole
/// board keeps lookups cache-friendly and lets callers borrow a slice instead of a copy.
#[derive(Clone, Debug)]
pub(super) struct Adjacency {
    offsets: Vec<u32>,
    targets: Vec<CellId>,
}

impl Adjacency {
    /// Builds the symmetric neighbour relation on `cells` cells from undirected edges.
    /// Repeated edges (in either direction) collapse into one.
    ///
    /// Callers guarantee that every endpoint is below `cells`, that there are no
    /// self-loops and at most [`MAX_EDGES`] edges.
    pub(super) fn from_edges(
        cells: usize,
        edges: impl IntoIterator<Item = (CellId, CellId)>,
    ) -> Adjacency {
        let mut directed: Vec<(CellId, CellId)> = Vec::new();
        for (a, b) in edges {
            directed.push((a, b));
            directed.push((b, a));
        }
        // Sorting by (from, to) groups each cell's neighbours and orders them in one go.
        directed.sort_unstable();
        directed.dedup();

        let mut offsets = vec![0u32; cells + 1];
        for &(from, _) in &directed {
            offsets[from as usize + 1] += 1;
        }
        for cell in 0..cells {
            offsets[cell + 1] += offsets[cell];
        }
        let targets = directed.into_iter().map(|(_, to)| to).collect();
        Adjacency { offsets, targets }
    }

    /// Number of cells covered.
    pub(super) fn cells(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Sorted neighbours of `cell`; empty when `cell` is out of range.
    #[inline]
    pub(super) fn neighbours(&self, cell: CellId) -> &[CellId] {
        let cell = cell as usize;
        match (self.offsets.get(cell), self.offsets.get(cell + 1)) {
            (Some(&start), Some(&end)) => &self.targets[start as usize..end as usize],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_become_sorted_symmetric_lists_without_duplicates() {
        let adjacency = Adjacency::from_edges(4, [(2, 0), (0, 1), (1, 0), (0, 2)]);
        assert_eq!(adjacency.cells(), 4);
        assert_eq!(adjacency.neighbours(0), &[1, 2]);
        assert_eq!(adjacency.neighbours(1), &[0]);
        assert_eq!(adjacency.neighbours(2), &[0]);
        assert!(adjacency.neighbours(3).is_empty());
        assert!(adjacency.neighbours(4).is_empty());
        assert!(adjacency.neighbours(CellId::MAX).is_empty());
    }
}
