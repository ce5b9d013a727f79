//! What a drawing of the board shows, resolved from the ruleset's `display` section and the scenario's
//! node positions: plain data for `render` (terminal frames, later the HTML viewer).

/// A cell variable drawn as a number.
#[derive(Debug, Clone, PartialEq)]
pub struct NumberVar {
    pub name: String,
    pub slot: u16,
    /// One value per player (drawn as the owner's value, others' non-zero values after it).
    pub per_player: bool,
    pub float: bool,
}

/// A cell variable holding a table row, drawn as a glyph per row.
#[derive(Debug, Clone, PartialEq)]
pub struct GlyphVar {
    pub name: String,
    pub slot: u16,
    /// The glyph of each row of the variable's table (`None`: nothing drawn).
    pub glyphs: Vec<Option<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Display {
    /// One mark per player, in seat order.
    pub marks: Vec<String>,
    /// Draw each cell's owner mark.
    pub owner: bool,
    pub number: Option<NumberVar>,
    pub glyph: Option<GlyphVar>,
    /// The glyph of each row of the units table.
    pub unit_glyphs: Vec<String>,
    /// Grids: the first row (index 0) at the top; otherwise at the bottom.
    pub first_row_top: bool,
    /// Grid row and column labels, by index (empty for graphs).
    pub row_labels: Vec<String>,
    pub col_labels: Vec<String>,
    /// Graph node positions from the scenario (x to the right, y upwards), by cell.
    pub positions: Vec<Option<(f64, f64)>>,
}

impl Default for Display {
    fn default() -> Self {
        Display {
            marks: Vec::new(),
            owner: true,
            number: None,
            glyph: None,
            unit_glyphs: Vec::new(),
            first_row_top: true,
            row_labels: Vec::new(),
            col_labels: Vec::new(),
            positions: Vec::new(),
        }
    }
}

/// Default marks for players: their ids when all are one character, else their first characters when
/// those differ, else their last characters when those differ, else 1, 2, 3...
pub fn default_marks(players: &[String]) -> Vec<String> {
    let distinct = |v: &[String]| {
        v.iter()
            .enumerate()
            .all(|(i, a)| !a.is_empty() && v[..i].iter().all(|b| b != a))
    };
    let first: Vec<String> = players
        .iter()
        .map(|p| p.chars().next().map(String::from).unwrap_or_default())
        .collect();
    if distinct(&first) {
        return first;
    }
    let last: Vec<String> = players
        .iter()
        .map(|p| p.chars().last().map(String::from).unwrap_or_default())
        .collect();
    if distinct(&last) {
        return last;
    }
    (1..=players.len()).map(|i| (i % 10).to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(default_marks(&s(&["A", "B"])), s(&["A", "B"]));
        assert_eq!(default_marks(&s(&["P1", "P2"])), s(&["1", "2"]));
        assert_eq!(default_marks(&s(&["red", "blue"])), s(&["r", "b"]));
        assert_eq!(default_marks(&s(&["xa", "xa2", "ya"])), s(&["1", "2", "3"]));
    }
}
