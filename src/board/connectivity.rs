//! Whether every cell can reach every other, and the separate parts when they cannot.

use super::adjacency::Adjacency;
use super::{Board, CellId};

/// How many cells (including `from`) can be reached from `from`; 0 if `from` is not a cell.
pub(super) fn count_reachable(adjacency: &Adjacency, from: CellId) -> usize {
    let cells = adjacency.cells();
    if from as usize >= cells {
        return 0;
    }
    let mut seen = vec![false; cells];
    seen[from as usize] = true;
    let mut queue = vec![from];
    let mut head = 0;
    while let Some(&cell) = queue.get(head) {
        head += 1;
        for &next in adjacency.neighbours(cell) {
            if !seen[next as usize] {
                seen[next as usize] = true;
                queue.push(next);
            }
        }
    }
    queue.len()
}

impl Board {
    /// Whether every cell can reach every other cell. Computed once at construction.
    pub fn is_connected(&self) -> bool {
        self.connected
    }

    /// The connected parts of the board, each sorted ascending, ordered by their
    /// smallest cell. Meant for diagnostics such as explaining why a board is split,
    /// so it allocates freely.
    pub fn components(&self) -> Vec<Vec<CellId>> {
        let mut seen = vec![false; self.len()];
        let mut components = Vec::new();
        for start in 0..self.len() as CellId {
            if seen[start as usize] {
                continue;
            }
            seen[start as usize] = true;
            let mut component = vec![start];
            let mut head = 0;
            while let Some(&cell) = component.get(head) {
                head += 1;
                for &next in self.neighbours(cell) {
                    if !seen[next as usize] {
                        seen[next as usize] = true;
                        component.push(next);
                    }
                }
            }
            component.sort_unstable();
            components.push(component);
        }
        components
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_the_reachable_part() {
        let adjacency = Adjacency::from_edges(5, [(0, 1), (1, 2), (3, 4)]);
        assert_eq!(count_reachable(&adjacency, 0), 3);
        assert_eq!(count_reachable(&adjacency, 4), 2);
        assert_eq!(count_reachable(&adjacency, 5), 0);
    }

    #[test]
    fn components_are_sorted_and_ordered_by_smallest_cell() {
        let ids = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let board = Board::graph(ids, &[(4, 1), (0, 2)]).unwrap();
        assert!(!board.is_connected());
        assert_eq!(board.components(), vec![vec![0, 2], vec![1, 4], vec![3]]);
    }
}
