//! Graph boards: cells and edges listed explicitly, for boards that are not regular grids.

use super::adjacency::{Adjacency, MAX_EDGES};
use super::{Board, BoardError, CellId, Topology, MAX_CELLS};

impl Board {
    /// A board whose cells are `ids` in the given order (cell `i` is `ids[i]`) and whose
    /// neighbour relation is the undirected `edges`. An edge listed twice, in either
    /// direction, counts once. Edges from a cell to itself are rejected, as are empty
    /// or repeated ids and edges naming cells beyond the end of `ids`.
    ///
    /// # Errors
    /// [`BoardError::NoCells`], [`BoardError::EmptyId`], [`BoardError::DuplicateId`],
    /// [`BoardError::EdgeOutOfRange`], [`BoardError::SelfLoop`], and
    /// [`BoardError::TooManyCells`] / [`BoardError::TooManyEdges`] for absurd sizes.
    pub fn graph(ids: Vec<String>, edges: &[(CellId, CellId)]) -> Result<Board, BoardError> {
        if ids.is_empty() {
            return Err(BoardError::NoCells);
        }
        if ids.len() > MAX_CELLS {
            return Err(BoardError::TooManyCells {
                cells: ids.len() as u64,
                max: MAX_CELLS,
            });
        }
        if let Some(cell) = ids.iter().position(String::is_empty) {
            return Err(BoardError::EmptyId {
                cell: cell as CellId,
            });
        }
        if edges.len() > MAX_EDGES {
            return Err(BoardError::TooManyEdges {
                edges: edges.len(),
                max: MAX_EDGES,
            });
        }
        let cells = ids.len();
        for &(from, to) in edges {
            if from as usize >= cells || to as usize >= cells {
                return Err(BoardError::EdgeOutOfRange { from, to, cells });
            }
            if from == to {
                return Err(BoardError::SelfLoop {
                    cell: from,
                    id: ids[from as usize].clone(),
                });
            }
        }
        let adjacency = Adjacency::from_edges(cells, edges.iter().copied());
        Board::assemble(Topology::Graph, 0, 0, ids, adjacency)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|id| id.to_string()).collect()
    }

    #[test]
    fn cells_keep_the_given_order_and_edges_collapse() {
        let board = Board::graph(
            names(&["north", "east", "south", "west"]),
            &[(0, 1), (1, 0), (1, 2), (2, 3), (3, 0), (0, 1)],
        )
        .unwrap();
        assert_eq!(board.len(), 4);
        assert!(!board.is_empty());
        assert_eq!(board.topology(), &Topology::Graph);
        assert_eq!((board.width(), board.height()), (0, 0));
        assert_eq!(board.id(2), "south");
        assert_eq!(board.find("west"), Some(3));
        assert_eq!((board.row(3), board.col(3)), (0, 0));
        assert_eq!(board.cell_at(0, 0), None);
        assert_eq!(board.neighbours(0), &[1, 3]);
        assert_eq!(board.neighbours(1), &[0, 2]);
        assert!(board.adjacent(3, 0));
        assert!(!board.adjacent(0, 2));
        assert_eq!(board.distance(0, 2), Some(2));
        assert_eq!(board.shared_neighbours(0, 2), (2, Some(1)));
        assert!(board.is_connected());
        assert_eq!(board.components(), vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn a_lone_cell_makes_the_board_disconnected() {
        let board = Board::graph(names(&["a", "b", "c", "lone"]), &[(0, 1), (1, 2)]).unwrap();
        assert!(!board.is_connected());
        assert_eq!(board.distance(0, 3), None);
        assert_eq!(board.distance(3, 3), Some(0));
        assert_eq!(board.components(), vec![vec![0, 1, 2], vec![3]]);
    }

    #[test]
    fn malformed_graphs_are_errors() {
        assert_eq!(Board::graph(vec![], &[]).unwrap_err(), BoardError::NoCells);
        assert_eq!(
            Board::graph(names(&["a", ""]), &[]).unwrap_err(),
            BoardError::EmptyId { cell: 1 }
        );
        assert_eq!(
            Board::graph(names(&["a", "b", "a"]), &[]).unwrap_err(),
            BoardError::DuplicateId {
                id: "a".to_string(),
                first: 0,
                second: 2
            }
        );
        assert_eq!(
            Board::graph(names(&["a", "b"]), &[(0, 2)]).unwrap_err(),
            BoardError::EdgeOutOfRange {
                from: 0,
                to: 2,
                cells: 2
            }
        );
        assert_eq!(
            Board::graph(names(&["a", "b"]), &[(0, 1), (1, 1)]).unwrap_err(),
            BoardError::SelfLoop {
                cell: 1,
                id: "b".to_string()
            }
        );
    }

    #[test]
    fn a_single_cell_is_a_connected_board() {
        let board = Board::graph(names(&["only"]), &[]).unwrap();
        assert!(board.is_connected());
        assert!(board.neighbours(0).is_empty());
        assert_eq!(board.components(), vec![vec![0]]);
    }
}
