//! The experiment file: TOML read with the span of every key and value (the `toml` crate's spanned
//! document) and checked for shape, so that each mistake is a diagnostic at its line and column. What
//! the keys mean for a game (a ruleset that exists, values it accepts, agents it knows) is checked later,
//! cell by cell, in `prepare`.
use std::ops::Range;
use std::sync::Arc;

use serde_json::{Map, Number, Value as Json};
use toml::de::{DeString, DeTable, DeValue};
use toml::Spanned;

use crate::diagnostic::{closest, Diagnostic, SourceFile};

/// A value and where it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    pub value: T,
    pub span: Range<usize>,
}

/// An experiment file as written, its shape checked.
#[derive(Debug, Clone)]
pub struct Experiment {
    pub source: Arc<SourceFile>,
    pub ruleset: Located<String>,
    pub scenario: Option<Located<String>>,
    pub games: Located<u64>,
    pub seed: u64,
    /// Seat lists: one agent spec per seat, in player order.
    pub agents: Vec<Located<Vec<Located<String>>>>,
    /// Where `agents` is written (the start of the file when it is absent).
    pub agents_span: Range<usize>,
    pub layout: Layout,
}

/// How the cells are given.
#[derive(Debug, Clone)]
pub enum Layout {
    /// Neither `[grid]` nor `cells`: the ruleset as it is, once per seat list.
    Plain,
    /// `[grid]`: every combination of the axes' values, once per seat list.
    Grid { span: Range<usize>, axes: Vec<Axis> },
    /// `cells`: exactly these cells (each once per seat list unless it names its seats).
    Cells(Vec<ExplicitCell>),
}

/// One key of `[grid]` and its values.
#[derive(Debug, Clone)]
pub struct Axis {
    pub path: Located<String>,
    pub values: Vec<Located<Json>>,
}

/// One entry of `cells`.
#[derive(Debug, Clone)]
pub struct ExplicitCell {
    pub span: Range<usize>,
    pub overrides: Vec<(Located<String>, Located<Json>)>,
    /// `p1 = "...", p2 = "..."`: the cell's own seats.
    pub seats: Option<Vec<Located<String>>>,
}

/// The keys an experiment file may have.
const KEYS: &[&str] = &[
    "ruleset", "scenario", "games", "seed", "agents", "grid", "cells",
];

/// What the file should look like, for hints.
const SHAPE: &str = "an experiment names `ruleset`, `games`, `seed`, `agents = [[\"greedy\", \"random\"]]` and a `[grid]` of override lists or a list of `cells` (docs/experiments.md)";

fn diag(
    source: &Arc<SourceFile>,
    code: &str,
    message: impl Into<String>,
    span: Range<usize>,
) -> Diagnostic {
    Diagnostic::error(code, message).at(source.clone(), span)
}

fn type_name(v: &DeValue) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a number",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    }
}

/// A table's entries in the order they are written (the parser keeps keys sorted).
fn entries<'a, 'i>(
    t: &'a DeTable<'i>,
) -> Vec<(&'a Spanned<DeString<'i>>, &'a Spanned<DeValue<'i>>)> {
    let mut v: Vec<_> = t.iter().collect();
    v.sort_by_key(|(k, _)| k.span().start);
    v
}

/// Reads an experiment file; every problem of shape is reported, not just the first.
pub fn parse(source: Arc<SourceFile>) -> Result<Experiment, Vec<Diagnostic>> {
    let doc = match DeTable::parse(&source.text) {
        Ok(d) => d,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            return Err(vec![diag(
                &source,
                "experiment::toml",
                format!("not valid TOML: {}", e.message().trim_end()),
                span,
            )
            .hint(SHAPE)]);
        }
    };
    let mut p = Parser {
        source: source.clone(),
        problems: Vec::new(),
    };
    let exp = p.experiment(doc.get_ref());
    match exp {
        Some(e) if p.problems.is_empty() => Ok(e),
        _ => Err(p.problems),
    }
}

struct Parser {
    source: Arc<SourceFile>,
    problems: Vec<Diagnostic>,
}

impl Parser {
    fn problem(&mut self, code: &str, message: impl Into<String>, span: Range<usize>) {
        let d = diag(&self.source, code, message, span);
        self.problems.push(d);
    }

    fn problem_hint(
        &mut self,
        code: &str,
        message: impl Into<String>,
        span: Range<usize>,
        hint: impl Into<String>,
    ) {
        let d = diag(&self.source, code, message, span).hint(hint);
        self.problems.push(d);
    }

    fn experiment(&mut self, doc: &DeTable) -> Option<Experiment> {
        let mut ruleset = None;
        let mut scenario = None;
        let mut games = None;
        let mut seed = 0;
        let mut agents = Vec::new();
        let mut agents_span = 0..0;
        let mut grid = None;
        let mut cells = None;
        for (k, v) in entries(doc) {
            let key = k.get_ref().as_ref();
            match key {
                "ruleset" => ruleset = self.string(key, v),
                "scenario" => scenario = self.string(key, v),
                "games" => {
                    games = self.whole(key, v, 1).map(|n| Located {
                        value: n,
                        span: v.span(),
                    })
                }
                "seed" => seed = self.whole(key, v, 0).unwrap_or(0),
                "agents" => {
                    agents_span = k.span().start..v.span().end;
                    agents = self.agents(v);
                }
                "grid" => grid = Some(self.grid(k.span(), v)),
                "cells" => cells = Some(self.cells(v)),
                _ => {
                    let hint = match closest(key, KEYS.iter().copied()) {
                        Some(near) => format!("did you mean `{near}`?"),
                        None => format!("the keys are: {}", KEYS.join(", ")),
                    };
                    self.problem_hint(
                        "experiment::unknown_key",
                        format!("unknown key `{key}`"),
                        k.span(),
                        hint,
                    );
                }
            }
        }
        let at_start = 0..0;
        if ruleset.is_none() && !doc.iter().any(|(k, _)| k.get_ref() == "ruleset") {
            self.problem_hint(
                "experiment::missing_key",
                "the experiment names no `ruleset`",
                at_start.clone(),
                "add `ruleset = \"NAME\"` (a folder, a ruleset.yaml path, or a name under rulesets/)",
            );
        }
        if games.is_none() && !doc.iter().any(|(k, _)| k.get_ref() == "games") {
            self.problem_hint(
                "experiment::missing_key",
                "the experiment says no number of `games` per cell",
                at_start,
                "add `games = 1000`",
            );
        }
        let layout = match (grid, cells) {
            (Some(_), Some(c)) => {
                let span = doc
                    .iter()
                    .find(|(k, _)| k.get_ref() == "cells")
                    .map_or(0..0, |(k, _)| k.span());
                self.problem_hint(
                    "experiment::grid_and_cells",
                    "an experiment has a `[grid]` or a list of `cells`, not both",
                    span,
                    "a grid is every combination of its values; `cells` lists combinations one by one",
                );
                Layout::Cells(c)
            }
            (Some(g), None) => g,
            (None, Some(c)) => Layout::Cells(c),
            (None, None) => Layout::Plain,
        };
        Some(Experiment {
            source: self.source.clone(),
            ruleset: ruleset?,
            scenario,
            games: games?,
            seed,
            agents,
            agents_span,
            layout,
        })
    }

    fn string(&mut self, key: &str, v: &Spanned<DeValue>) -> Option<Located<String>> {
        match v.get_ref() {
            DeValue::String(s) => Some(Located {
                value: s.to_string(),
                span: v.span(),
            }),
            other => {
                self.problem(
                    "experiment::type",
                    format!("`{key}` must be a string, not {}", type_name(other)),
                    v.span(),
                );
                None
            }
        }
    }

    /// A whole number of at least `min` (TOML integers are 64-bit signed).
    fn whole(&mut self, key: &str, v: &Spanned<DeValue>, min: u64) -> Option<u64> {
        let n = match v.get_ref() {
            DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix()).ok(),
            _ => None,
        };
        match n {
            Some(n) if n >= 0 && n as u64 >= min => Some(n as u64),
            _ => {
                self.problem(
                    "experiment::type",
                    format!("`{key}` must be a whole number of at least {min}"),
                    v.span(),
                );
                None
            }
        }
    }

    fn agents(&mut self, v: &Spanned<DeValue>) -> Vec<Located<Vec<Located<String>>>> {
        let hint = "`agents` is a list of seat lists, one agent per seat: [[\"greedy\", \"random\"], [\"random\", \"greedy\"]]";
        let DeValue::Array(lists) = v.get_ref() else {
            self.problem_hint(
                "experiment::type",
                "`agents` must be a list of seat lists",
                v.span(),
                hint,
            );
            return Vec::new();
        };
        if lists.is_empty() {
            self.problem_hint(
                "experiment::type",
                "`agents` lists no seats",
                v.span(),
                hint,
            );
        }
        let mut out = Vec::new();
        for list in lists.iter() {
            let DeValue::Array(seats) = list.get_ref() else {
                self.problem_hint(
                    "experiment::type",
                    format!(
                        "a seat list must be a list of agents, not {}",
                        type_name(list.get_ref())
                    ),
                    list.span(),
                    hint,
                );
                continue;
            };
            let mut names = Vec::new();
            for s in seats.iter() {
                if let Some(name) = self.string("agent", s) {
                    names.push(name);
                }
            }
            out.push(Located {
                value: names,
                span: list.span(),
            });
        }
        out
    }

    fn grid(&mut self, key_span: Range<usize>, v: &Spanned<DeValue>) -> Layout {
        let mut axes = Vec::new();
        match v.get_ref() {
            DeValue::Table(t) => self.axes(t, "", &mut axes),
            other => self.problem(
                "experiment::type",
                format!(
                    "`grid` must be a table of override lists, not {}",
                    type_name(other)
                ),
                v.span(),
            ),
        }
        Layout::Grid {
            span: key_span,
            axes,
        }
    }

    /// The axes of a grid table; a nested table (`settings.turns = [...]` without quotes) continues the
    /// dotted path, as no grid entry is a table itself.
    fn axes(&mut self, t: &DeTable, prefix: &str, out: &mut Vec<Axis>) {
        for (k, v) in entries(t) {
            let path = format!("{prefix}{}", k.get_ref());
            match v.get_ref() {
                DeValue::Table(inner) => self.axes(inner, &format!("{path}."), out),
                DeValue::Array(values) => {
                    if !self.check_path(&path, k.span()) {
                        continue;
                    }
                    if values.is_empty() {
                        self.problem_hint(
                            "experiment::empty_axis",
                            format!("`{path}` lists no values"),
                            v.span(),
                            "give at least one value, or remove the key",
                        );
                    }
                    let mut vals: Vec<Located<Json>> = Vec::new();
                    for value in values.iter() {
                        let Some(j) = self.json(value) else { continue };
                        if let Some(first) = vals.iter().find(|x| x.value == j) {
                            let (line, _) =
                                crate::diagnostic::line_col_at(&self.source.text, first.span.start);
                            self.problem_hint(
                                "experiment::duplicate_cell",
                                format!("`{path}` lists {j} twice"),
                                value.span(),
                                format!("already listed on line {line}: every cell is run once"),
                            );
                            continue;
                        }
                        vals.push(Located {
                            value: j,
                            span: value.span(),
                        });
                    }
                    if out.iter().any(|a| a.path.value == path) {
                        self.problem(
                            "experiment::duplicate_key",
                            format!("`{path}` is given twice in the grid"),
                            k.span(),
                        );
                        continue;
                    }
                    out.push(Axis {
                        path: Located {
                            value: path,
                            span: k.span(),
                        },
                        values: vals,
                    });
                }
                other => self.problem_hint(
                    "experiment::type",
                    format!(
                        "grid entry `{path}` must be a list of values, not {}",
                        type_name(other)
                    ),
                    v.span(),
                    format!("write `\"{path}\" = [value, ...]`; a single value is a list of one"),
                ),
            }
        }
    }

    fn cells(&mut self, v: &Spanned<DeValue>) -> Vec<ExplicitCell> {
        let DeValue::Array(list) = v.get_ref() else {
            self.problem_hint(
                "experiment::type",
                format!("`cells` must be a list of tables, not {}", type_name(v.get_ref())),
                v.span(),
                "write `cells = [{ \"settings.turns\" = 10 }, ...]` or one `[[cells]]` table per cell",
            );
            return Vec::new();
        };
        if list.is_empty() {
            self.problem("experiment::type", "`cells` lists no cells", v.span());
        }
        let mut out = Vec::new();
        for c in list.iter() {
            let DeValue::Table(t) = c.get_ref() else {
                self.problem(
                    "experiment::type",
                    format!(
                        "a cell must be a table of overrides, not {}",
                        type_name(c.get_ref())
                    ),
                    c.span(),
                );
                continue;
            };
            let mut overrides = Vec::new();
            let mut seats = Vec::new();
            self.cell_entries(t, "", &mut overrides, &mut seats);
            seats.sort_by_key(|(n, _)| *n);
            let named = if seats.is_empty() {
                None
            } else {
                let contiguous = seats.iter().enumerate().all(|(i, (n, _))| *n == i + 1);
                if !contiguous {
                    self.problem_hint(
                        "experiment::seats",
                        "a cell's seats are p1, p2, ... with none left out",
                        c.span(),
                        "name every seat (p1 = \"greedy\", p2 = \"random\") or none to run the cell with every seat list of `agents`",
                    );
                }
                Some(seats.into_iter().map(|(_, s)| s).collect())
            };
            out.push(ExplicitCell {
                span: c.span(),
                overrides,
                seats: named,
            });
        }
        out
    }

    fn cell_entries(
        &mut self,
        t: &DeTable,
        prefix: &str,
        overrides: &mut Vec<(Located<String>, Located<Json>)>,
        seats: &mut Vec<(usize, Located<String>)>,
    ) {
        for (k, v) in entries(t) {
            let key = k.get_ref().as_ref();
            if prefix.is_empty() {
                if let Some(n) = seat_number(key) {
                    if let Some(s) = self.string(key, v) {
                        seats.push((n, s));
                    }
                    continue;
                }
            }
            let path = format!("{prefix}{key}");
            if let DeValue::Table(inner) = v.get_ref() {
                self.cell_entries(inner, &format!("{path}."), overrides, seats);
                continue;
            }
            if !self.check_path(&path, k.span()) {
                continue;
            }
            if overrides.iter().any(|(p, _)| p.value == path) {
                self.problem(
                    "experiment::duplicate_key",
                    format!("`{path}` is given twice in this cell"),
                    k.span(),
                );
                continue;
            }
            if let Some(j) = self.json(v) {
                overrides.push((
                    Located {
                        value: path,
                        span: k.span(),
                    },
                    Located {
                        value: j,
                        span: v.span(),
                    },
                ));
            }
        }
    }

    /// An override path is dotted words, as for `--set` (`settings.turns`).
    fn check_path(&mut self, path: &str, span: Range<usize>) -> bool {
        if path.is_empty() || path.split('.').any(str::is_empty) {
            self.problem_hint(
                "experiment::bad_path",
                format!("`{path}` is not a dotted path"),
                span,
                "override paths are written as for --set, e.g. \"settings.turns\"",
            );
            return false;
        }
        if seat_number(path).is_some() {
            self.problem_hint(
                "experiment::bad_path",
                format!("`{path}` names a seat, not a value of the ruleset"),
                span,
                "seats come from `agents`, or from p1, p2, ... in an explicit cell",
            );
            return false;
        }
        true
    }

    /// A TOML value as the JSON value an override sets (as `--set` parses YAML).
    fn json(&mut self, v: &Spanned<DeValue>) -> Option<Json> {
        let bad = |p: &mut Parser, what: &str| {
            p.problem(
                "experiment::bad_value",
                format!("{what} cannot be an override value"),
                v.span(),
            );
            None
        };
        match v.get_ref() {
            DeValue::String(s) => Some(Json::String(s.to_string())),
            DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
                Ok(n) => Some(Json::from(n)),
                Err(_) => bad(self, "an integer outside 64 bits"),
            },
            DeValue::Float(f) => match f.as_str().parse::<f64>().ok().and_then(Number::from_f64) {
                Some(n) => Some(Json::Number(n)),
                None => bad(self, "an infinite or not-a-number value"),
            },
            DeValue::Boolean(b) => Some(Json::Bool(*b)),
            DeValue::Datetime(_) => bad(self, "a date"),
            DeValue::Array(items) => {
                let mut out = Vec::new();
                for item in items.iter() {
                    out.push(self.json(item)?);
                }
                Some(Json::Array(out))
            }
            DeValue::Table(t) => {
                let mut out = Map::new();
                for (k, item) in entries(t) {
                    out.insert(k.get_ref().to_string(), self.json(item)?);
                }
                Some(Json::Object(out))
            }
        }
    }
}

/// `p1`, `p2`, ...: the seat number of a seat key.
pub fn seat_number(key: &str) -> Option<usize> {
    let digits = key.strip_prefix('p')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Experiment, Vec<Diagnostic>> {
        parse(SourceFile::new("e.toml", text))
    }

    fn codes(text: &str) -> Vec<(String, (usize, usize))> {
        parse_text(text)
            .expect_err("problems")
            .iter()
            .map(|d| (d.code.clone(), d.line_col().unwrap_or((0, 0))))
            .collect()
    }

    #[test]
    fn reads_the_interface_example_in_file_order() {
        let e = parse_text(
            r#"ruleset = "some_game"
games = 2000
seed = 1
agents = [["greedy", "random"], ["random", "greedy"]]
[grid]
"settings.zeta" = [0.4, 0.5, 0.6]
"settings.alpha" = [10, 20]
"#,
        )
        .expect("valid");
        assert_eq!(e.ruleset.value, "some_game");
        assert_eq!(e.games.value, 2000);
        assert_eq!(e.seed, 1);
        assert_eq!(e.agents.len(), 2);
        assert_eq!(e.agents[1].value[0].value, "random");
        let Layout::Grid { axes, .. } = &e.layout else {
            panic!("a grid")
        };
        let paths: Vec<&str> = axes.iter().map(|a| a.path.value.as_str()).collect();
        assert_eq!(paths, ["settings.zeta", "settings.alpha"]);
        assert_eq!(axes[0].values[0].value, serde_json::json!(0.4));
        assert_eq!(axes[1].values[1].value, serde_json::json!(20));
    }

    #[test]
    fn unquoted_dotted_keys_are_paths() {
        let e = parse_text(
            "ruleset = \"g\"\ngames = 1\nagents = [[\"a\", \"b\"]]\n[grid]\nsettings.turns = [1, 2]\n",
        )
        .expect("valid");
        let Layout::Grid { axes, .. } = &e.layout else {
            panic!("a grid")
        };
        assert_eq!(axes[0].path.value, "settings.turns");
    }

    #[test]
    fn explicit_cells_with_and_without_seats() {
        let e = parse_text(
            r#"ruleset = "g"
games = 3
cells = [
  { "settings.a" = 1, p1 = "greedy", p2 = "random" },
  { settings.a = 2, "settings.b" = [1, 2] },
]
"#,
        )
        .expect("valid");
        let Layout::Cells(cells) = &e.layout else {
            panic!("cells")
        };
        assert_eq!(cells.len(), 2);
        let seats: Vec<&str> = cells[0]
            .seats
            .as_ref()
            .unwrap()
            .iter()
            .map(|s| s.value.as_str())
            .collect();
        assert_eq!(seats, ["greedy", "random"]);
        assert!(cells[1].seats.is_none());
        assert_eq!(cells[1].overrides[1].1.value, serde_json::json!([1, 2]));
    }

    #[test]
    fn mistakes_point_at_their_line_and_column() {
        assert_eq!(
            codes("ruleset = \"g\"\ngames = 0\n"),
            [("experiment::type".to_string(), (2, 9))]
        );
        assert_eq!(
            codes("ruleset = \"g\"\ngames = 1\nseeds = 3\n"),
            [("experiment::unknown_key".to_string(), (3, 1))]
        );
        assert_eq!(
            codes("ruleset = \"g\"\ngames = 1\n[grid]\n\"settings.x\" = [1, 1]\n"),
            [("experiment::duplicate_cell".to_string(), (4, 20))]
        );
        assert_eq!(
            codes("ruleset = \"g\"\ngames = 1\n[grid]\n\"settings.x\" = 3\n"),
            [("experiment::type".to_string(), (4, 16))]
        );
        assert_eq!(
            codes("ruleset = \"g\"\ngames = 1\n[grid]\n\"settings..x\" = [3]\n"),
            [("experiment::bad_path".to_string(), (4, 1))]
        );
        assert_eq!(
            codes("ruleset = \"g\"\ngames = [1\n"),
            [("experiment::toml".to_string(), (2, 11))]
        );
        assert_eq!(
            codes("games = 1\n[grid]\n\"settings.x\" = [nan]\n"),
            [
                ("experiment::bad_value".to_string(), (3, 17)),
                ("experiment::missing_key".to_string(), (1, 1))
            ]
        );
    }

    #[test]
    fn seat_keys() {
        assert_eq!(seat_number("p1"), Some(1));
        assert_eq!(seat_number("p12"), Some(12));
        assert_eq!(seat_number("p0"), None);
        assert_eq!(seat_number("p01"), None);
        assert_eq!(seat_number("pp"), None);
        assert_eq!(seat_number("settings.p1"), None);
    }
}
