//! The cells of an experiment: every combination of the grid's values (or the explicit cells), each once
//! per seat list, in a fixed order: grid combinations with the first key outermost and values in the order
//! written, and for each combination the seat lists in the order of `agents`.
use std::ops::Range;

use serde_json::{Map, Value as Json};

use super::parse::{Experiment, Layout, Located};
use crate::diagnostic::Diagnostic;
use crate::simulate::MAX_GAMES;

/// Most cells an experiment may have: each is a loaded game kept in memory while it runs.
pub const MAX_CELLS: usize = 10_000;

/// One combination of overrides and agents.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// Override paths and values, in the order written.
    pub overrides: Vec<(String, Json)>,
    /// One agent spec per seat, in player order.
    pub seats: Vec<String>,
    pub origin: Origin,
}

/// Where a cell is written, for problems found when its game is loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct Origin {
    /// The explicit cell, or the `grid` key.
    pub span: Range<usize>,
    /// Each override's key and value.
    pub overrides: Vec<(Range<usize>, Range<usize>)>,
    /// The seat list (in `agents`, or the explicit cell).
    pub seats_span: Range<usize>,
    /// Each seat's agent.
    pub seats: Vec<Range<usize>>,
}

impl Cell {
    /// The cell as results name it: `{override path: value, ..., "p1": agent, "p2": agent}`.
    pub fn to_json(&self) -> Json {
        let mut m = Map::new();
        for (k, v) in &self.overrides {
            m.insert(k.clone(), v.clone());
        }
        for (i, s) in self.seats.iter().enumerate() {
            m.insert(format!("p{}", i + 1), Json::String(s.clone()));
        }
        Json::Object(m)
    }

    /// The cell's overrides as a description: `settings.a=1, settings.b=2`.
    pub fn describe_overrides(&self) -> String {
        if self.overrides.is_empty() {
            return "no overrides".into();
        }
        self.overrides
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A combination of overrides before seats are added.
type Combination = Vec<(Located<String>, Located<Json>)>;

/// A combination, the seats of an explicit cell that names them, and where the cell is written.
type Unseated = (Combination, Option<Vec<Located<String>>>, Range<usize>);

/// The cells of `e`, in order; too many cells or games, a duplicate cell, or missing seats are problems.
pub fn expand(e: &Experiment) -> Result<Vec<Cell>, Vec<Diagnostic>> {
    let src = &e.source;
    let mut problems = Vec::new();
    let mut combos: Vec<Unseated> = Vec::new();
    match &e.layout {
        Layout::Plain => combos.push((Vec::new(), None, 0..0)),
        Layout::Grid { span, axes } => {
            let count = axes
                .iter()
                .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
                .and_then(|n| n.checked_mul(e.agents.len().max(1)));
            if count.is_none_or(|n| n > MAX_CELLS) {
                return Err(vec![Diagnostic::error(
                    "experiment::too_many_cells",
                    format!("the grid has more than {MAX_CELLS} cells (combinations times seat lists)"),
                )
                .at(src.clone(), span.clone())
                .hint("split the experiment into several files, or list the cells you need under `cells`")]);
            }
            // Combination n counts in mixed radix, the last axis turning fastest.
            let total: usize = axes.iter().map(|a| a.values.len()).product();
            for n in 0..total {
                let mut rest = n;
                let mut at = vec![0usize; axes.len()];
                for (k, a) in axes.iter().enumerate().rev() {
                    at[k] = rest % a.values.len();
                    rest /= a.values.len();
                }
                let combo = axes
                    .iter()
                    .zip(&at)
                    .map(|(a, &i)| (a.path.clone(), a.values[i].clone()))
                    .collect();
                combos.push((combo, None, span.clone()));
            }
        }
        Layout::Cells(cells) => {
            for c in cells {
                combos.push((c.overrides.clone(), c.seats.clone(), c.span.clone()));
            }
        }
    }
    let mut out: Vec<Cell> = Vec::new();
    let mut missing_agents = false;
    for (combo, own, span) in combos {
        let seat_lists: Vec<(Vec<Located<String>>, Range<usize>)> = match own {
            Some(seats) => vec![(seats, span.clone())],
            None => {
                if e.agents.is_empty() {
                    missing_agents = true;
                }
                e.agents
                    .iter()
                    .map(|l| (l.value.clone(), l.span.clone()))
                    .collect()
            }
        };
        for (seats, seats_span) in seat_lists {
            let cell = Cell {
                overrides: combo
                    .iter()
                    .map(|(k, v)| (k.value.clone(), v.value.clone()))
                    .collect(),
                seats: seats.iter().map(|s| s.value.clone()).collect(),
                origin: Origin {
                    span: span.clone(),
                    overrides: combo
                        .iter()
                        .map(|(k, v)| (k.span.clone(), v.span.clone()))
                        .collect(),
                    seats_span,
                    seats: seats.iter().map(|s| s.span.clone()).collect(),
                },
            };
            if let Some(first) = out.iter().find(|c| same_cell(c, &cell)) {
                let line = crate::diagnostic::line_col_at(&src.text, first.origin.span.start).0;
                problems.push(
                    Diagnostic::error(
                        "experiment::duplicate_cell",
                        format!(
                            "this cell ({}; {}) is already listed",
                            cell.describe_overrides(),
                            cell.seats.join(" against ")
                        ),
                    )
                    .at(src.clone(), span.clone())
                    .hint(format!(
                        "the same cell is on line {line}: every cell is run once"
                    )),
                );
                continue;
            }
            out.push(cell);
        }
        if out.len() > MAX_CELLS {
            return Err(vec![Diagnostic::error(
                "experiment::too_many_cells",
                format!("the experiment has more than {MAX_CELLS} cells"),
            )
            .at(src.clone(), span)
            .hint("split the experiment into several files")]);
        }
    }
    if missing_agents {
        problems.push(
            Diagnostic::error(
                "experiment::missing_key",
                "the experiment names no `agents`, and not every cell names its seats",
            )
            .at(src.clone(), 0..0)
            .hint("add `agents = [[\"greedy\", \"random\"]]`: one agent per seat, one list per seating"),
        );
    }
    let total = (out.len() as u128) * u128::from(e.games.value);
    if total > u128::from(MAX_GAMES) {
        problems.push(
            Diagnostic::error(
                "experiment::too_many_games",
                format!(
                    "{} cells of {} games is more than {MAX_GAMES} (2^53) games, the most whose counts stay exact",
                    out.len(),
                    e.games.value
                ),
            )
            .at(src.clone(), e.games.span.clone()),
        );
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// The same overrides (in any order) and the same seats.
fn same_cell(a: &Cell, b: &Cell) -> bool {
    a.seats == b.seats
        && a.overrides.len() == b.overrides.len()
        && a.overrides.iter().all(|o| b.overrides.contains(o))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::SourceFile;
    use crate::experiment::parse::parse;
    use serde_json::json;

    fn cells(text: &str) -> Result<Vec<Cell>, Vec<Diagnostic>> {
        let e = parse(SourceFile::new("e.toml", text)).expect("parses");
        expand(&e)
    }

    #[test]
    fn grid_order_first_key_outermost_then_seats() {
        let c = cells(
            "ruleset = \"g\"\ngames = 1\nagents = [[\"a\", \"b\"], [\"b\", \"a\"]]\n[grid]\n\"x\" = [1, 2]\n\"y\" = [\"u\", \"v\", \"w\"]\n",
        )
        .expect("cells");
        let got: Vec<Json> = c.iter().map(Cell::to_json).collect();
        assert_eq!(got.len(), 12);
        assert_eq!(got[0], json!({"x": 1, "y": "u", "p1": "a", "p2": "b"}));
        assert_eq!(got[1], json!({"x": 1, "y": "u", "p1": "b", "p2": "a"}));
        assert_eq!(got[2], json!({"x": 1, "y": "v", "p1": "a", "p2": "b"}));
        assert_eq!(got[6], json!({"x": 2, "y": "u", "p1": "a", "p2": "b"}));
        assert_eq!(got[11], json!({"x": 2, "y": "w", "p1": "b", "p2": "a"}));
    }

    #[test]
    fn plain_and_explicit_cells() {
        let c = cells("ruleset = \"g\"\ngames = 1\nagents = [[\"a\", \"b\"]]\n").expect("cells");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].to_json(), json!({"p1": "a", "p2": "b"}));
        let c = cells(
            "ruleset = \"g\"\ngames = 1\nagents = [[\"a\", \"b\"], [\"b\", \"a\"]]\n[[cells]]\nx = 1\np1 = \"c\"\np2 = \"d\"\n[[cells]]\nx = 2\n",
        )
        .expect("cells");
        let got: Vec<Json> = c.iter().map(Cell::to_json).collect();
        assert_eq!(
            got,
            [
                json!({"x": 1, "p1": "c", "p2": "d"}),
                json!({"x": 2, "p1": "a", "p2": "b"}),
                json!({"x": 2, "p1": "b", "p2": "a"}),
            ]
        );
    }

    #[test]
    fn duplicates_and_missing_agents_are_problems() {
        let e = cells(
            "ruleset = \"g\"\ngames = 1\nagents = [[\"a\", \"b\"]]\ncells = [{x = 1, y = 2}, {y = 2, x = 1}]\n",
        )
        .unwrap_err();
        assert_eq!(e[0].code, "experiment::duplicate_cell");
        assert_eq!(e[0].line_col(), Some((4, 26)));
        let e = cells("ruleset = \"g\"\ngames = 1\ncells = [{x = 1}]\n").unwrap_err();
        assert_eq!(e[0].code, "experiment::missing_key");
    }

    #[test]
    fn too_many_cells_or_games() {
        let values: Vec<String> = (0..200).map(|i| i.to_string()).collect();
        let list = values.join(", ");
        let e = cells(&format!(
            "ruleset = \"g\"\ngames = 1\nagents = [[\"a\", \"b\"]]\n[grid]\nx = [{list}]\ny = [{list}]\n"
        ))
        .unwrap_err();
        assert_eq!(e[0].code, "experiment::too_many_cells");
        let e = cells(
            "ruleset = \"g\"\ngames = 9007199254740992\nagents = [[\"a\", \"b\"], [\"b\", \"a\"]]\n",
        )
        .unwrap_err();
        assert_eq!(e[0].code, "experiment::too_many_games");
    }
}
