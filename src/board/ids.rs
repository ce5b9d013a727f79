//! How grid cells are named: one label per row and per column, joined in a chosen order.

use super::BoardError;
use std::fmt::Write;

/// How the positions along one axis are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// `A`, `B`, ... `Z`; an axis longer than 26 is rejected.
    Letters,
    /// `1`, `2`, ... in decimal, without padding.
    Numbers,
}

/// A grid axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// Rows run across the board; their labels count downwards from the first row.
    Row,
    /// Columns run down the board; their labels count rightwards from the first column.
    Col,
}

/// How a grid cell's id is built from its row and column labels.
///
/// `IdScheme { first: Axis::Row, rows: Label::Letters, cols: Label::Numbers }` names
/// cells `A1`, `A2`, ... `I21`; `IdScheme { first: Axis::Col, rows: Label::Numbers,
/// cols: Label::Letters }` names them `A1`, `B1`, ... with the column letter first.
/// Row and column labels both start at the first grid row/column (index 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IdScheme {
    /// Which label comes first in the id.
    pub first: Axis,
    /// How row positions are written.
    pub rows: Label,
    /// How column positions are written.
    pub cols: Label,
}

const LETTERS: u32 = 26;

impl Axis {
    /// Used in messages, e.g. "27 rows cannot be labelled ...".
    pub(super) fn plural_name(self) -> &'static str {
        match self {
            Axis::Row => "rows",
            Axis::Col => "columns",
        }
    }
}

impl Label {
    fn check(self, axis: Axis, count: u32) -> Result<(), BoardError> {
        match self {
            Label::Letters if count > LETTERS => {
                Err(BoardError::TooManyLetterLabels { axis, count })
            }
            _ => Ok(()),
        }
    }

    /// Appends the label of the 0-based position `index`. Only called after `check`
    /// has accepted the axis length, so a letter index is always below 26.
    fn write(self, index: u32, out: &mut String) {
        match self {
            Label::Letters => out.push(char::from(b'A' + (index % LETTERS) as u8)),
            // Writing into a String cannot fail.
            Label::Numbers => {
                let _ = write!(out, "{}", u64::from(index) + 1);
            }
        }
    }
}

impl IdScheme {
    /// Rejects label kinds that cannot name every row and column of a `width` x `height` grid.
    pub(super) fn check(self, width: u32, height: u32) -> Result<(), BoardError> {
        self.rows.check(Axis::Row, height)?;
        self.cols.check(Axis::Col, width)
    }

    /// The id of the cell at 0-based `row` and `col`.
    pub(super) fn cell_id(self, row: u32, col: u32) -> String {
        let mut id = String::new();
        match self.first {
            Axis::Row => {
                self.rows.write(row, &mut id);
                self.cols.write(col, &mut id);
            }
            Axis::Col => {
                self.cols.write(col, &mut id);
                self.rows.write(row, &mut id);
            }
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_join_in_the_chosen_order() {
        let row_first = IdScheme {
            first: Axis::Row,
            rows: Label::Letters,
            cols: Label::Numbers,
        };
        assert_eq!(row_first.cell_id(0, 0), "A1");
        assert_eq!(row_first.cell_id(8, 20), "I21");

        let col_first = IdScheme {
            first: Axis::Col,
            rows: Label::Numbers,
            cols: Label::Letters,
        };
        assert_eq!(col_first.cell_id(2, 2), "C3");
        assert_eq!(col_first.cell_id(9, 25), "Z10");
    }

    #[test]
    fn letters_stop_at_twenty_six() {
        let letters = IdScheme {
            first: Axis::Row,
            rows: Label::Letters,
            cols: Label::Letters,
        };
        assert!(letters.check(26, 26).is_ok());
        assert_eq!(
            letters.check(27, 1),
            Err(BoardError::TooManyLetterLabels {
                axis: Axis::Col,
                count: 27
            })
        );
        assert_eq!(
            letters.check(1, 27),
            Err(BoardError::TooManyLetterLabels {
                axis: Axis::Row,
                count: 27
            })
        );
    }
}
