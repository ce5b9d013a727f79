//! The ruleset's `display` section (what a drawing of the board shows): its serde mirror, and its
//! analysis into [`Display`] with `ruleset::display` diagnostics for names that resolve to nothing.
use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value as Json;

use super::compile::closest;
use super::raw::RawBoard;
use super::yaml::{pointer_escape as esc, YamlDoc};
use crate::board::Board;
use crate::diagnostic::Diagnostic;
use crate::ir::display::{default_marks, Display, GlyphVar, NumberVar};
use crate::ir::game::{Table, VarDecl};
use crate::model::Ty;

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct RawDisplay {
    /// One-character mark per player id.
    #[serde(default)]
    pub players: IndexMap<String, String>,
    #[serde(default)]
    pub cells: RawDisplayCells,
    /// Glyph per row of the units table.
    #[serde(default)]
    pub units: IndexMap<String, String>,
    /// `top` or `bottom`: where a grid's first row is drawn.
    #[serde(default)]
    pub first_row: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDisplayCells {
    #[serde(default = "yes")]
    pub owner: bool,
    #[serde(default)]
    pub number: Option<String>,
    #[serde(default)]
    pub glyph: Option<RawGlyph>,
}

impl Default for RawDisplayCells {
    fn default() -> Self {
        RawDisplayCells {
            owner: true,
            number: None,
            glyph: None,
        }
    }
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGlyph {
    pub var: String,
    #[serde(default)]
    pub map: IndexMap<String, String>,
}

/// What analysis needs to resolve the section.
pub struct Inputs<'a> {
    pub doc: &'a YamlDoc,
    pub board_raw: &'a RawBoard,
    pub board: &'a Board,
    /// The scenario's graph nodes (with their `x` and `y`).
    pub nodes: &'a [IndexMap<String, Json>],
    pub players: &'a [String],
    pub cell_vars: &'a [VarDecl],
    pub tables: &'a [Table],
    pub unit_table: Option<u16>,
}

const CODE: &str = "ruleset::display";

fn hint(word: &str, names: &[&str]) -> Option<String> {
    closest(word, names.iter().copied()).map(|c| format!("did you mean `{c}`?"))
}

fn labels(kind: Option<&str>, n: u32) -> Vec<String> {
    (0..n)
        .map(|i| match kind {
            Some("letters") => char::from(b'A' + (i % 26) as u8).to_string(),
            _ => (i + 1).to_string(),
        })
        .collect()
}

/// Resolves `raw` (absent: the defaults) and reports every name that resolves to nothing.
pub fn resolve(raw: Option<&RawDisplay>, x: &Inputs) -> (Display, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut at = |ptr: &str, msg: String, h: Option<String>| {
        let mut d = x.doc.diag(CODE, msg, ptr);
        if let Some(h) = h {
            d = d.hint(h);
        }
        diags.push(d);
    };
    let default = RawDisplay::default();
    let raw = raw.unwrap_or(&default);
    let mut out = Display {
        marks: default_marks(x.players),
        owner: raw.cells.owner,
        ..Display::default()
    };
    // Players' marks.
    let players: Vec<&str> = x.players.iter().map(String::as_str).collect();
    for (p, mark) in &raw.players {
        match x.players.iter().position(|q| q == p) {
            Some(i) => out.marks[i] = mark.clone(),
            None => at(
                &format!("/display/players/{}", esc(p)),
                format!("`{p}` is not a player (players: {})", players.join(", ")),
                hint(p, &players),
            ),
        }
    }
    for (i, m) in out.marks.iter().enumerate() {
        if out.marks[..i].contains(m) {
            at(
                "/display/players",
                format!(
                    "players {} and {} would both be drawn as `{m}`",
                    x.players[out.marks[..i].iter().position(|o| o == m).unwrap_or(0)],
                    x.players[i]
                ),
                Some("give each player its own mark under `display.players`".into()),
            );
            break;
        }
    }
    let var_names: Vec<&str> = x.cell_vars.iter().map(|v| v.name.as_str()).collect();
    let find_var = |name: &str| x.cell_vars.iter().find(|v| v.name == name);
    // The number.
    if let Some(name) = &raw.cells.number {
        let ptr = "/display/cells/number";
        match find_var(name) {
            Some(v) if matches!(v.ty, Ty::Int | Ty::Float) => {
                out.number = Some(NumberVar {
                    name: name.clone(),
                    slot: v.slot,
                    per_player: v.per_player,
                    float: v.ty == Ty::Float,
                })
            }
            Some(v) => at(
                ptr,
                format!("cell variable `{name}` is {}, not a number", v.ty.name()),
                Some("`number` draws an int or float cell variable".into()),
            ),
            None => at(
                ptr,
                format!("no cell variable `{name}`"),
                hint(name, &var_names)
                    .or_else(|| Some(format!("cell variables: {}", var_names.join(", ")))),
            ),
        }
    }
    // The glyph.
    if let Some(g) = &raw.cells.glyph {
        let ptr = "/display/cells/glyph/var";
        match find_var(&g.var) {
            Some(v) => match v.ty {
                Ty::Row(t) => {
                    let table = &x.tables[t as usize];
                    let mut glyphs = vec![None; table.keys.len()];
                    for (row, glyph) in &g.map {
                        match table.row(row) {
                            Some(r) => glyphs[r as usize] = Some(glyph.clone()),
                            None => {
                                let keys: Vec<&str> =
                                    table.keys.iter().map(String::as_str).collect();
                                at(
                                    &format!("/display/cells/glyph/map/{}", esc(row)),
                                    format!("`{row}` is not a row of table `{}`", table.name),
                                    hint(row, &keys),
                                )
                            }
                        }
                    }
                    out.glyph = Some(GlyphVar {
                        name: g.var.clone(),
                        slot: v.slot,
                        glyphs,
                    });
                }
                other => at(
                    ptr,
                    format!(
                        "cell variable `{}` is {}, not a table row",
                        g.var,
                        other.name()
                    ),
                    Some("`glyph` maps the rows of a row-typed cell variable to glyphs".into()),
                ),
            },
            None => at(
                ptr,
                format!("no cell variable `{}`", g.var),
                hint(&g.var, &var_names),
            ),
        }
    }
    // Units.
    match x.unit_table {
        Some(t) => {
            let table = &x.tables[t as usize];
            out.unit_glyphs = table
                .keys
                .iter()
                .map(|k| {
                    k.chars()
                        .next()
                        .map_or("?".into(), |c| c.to_uppercase().to_string())
                })
                .collect();
            for (row, glyph) in &raw.units {
                match table.row(row) {
                    Some(r) => out.unit_glyphs[r as usize] = glyph.clone(),
                    None => {
                        let keys: Vec<&str> = table.keys.iter().map(String::as_str).collect();
                        at(
                            &format!("/display/units/{}", esc(row)),
                            format!(
                                "`{row}` is not a unit type (a row of table `{}`)",
                                table.name
                            ),
                            hint(row, &keys),
                        )
                    }
                }
            }
        }
        None => {
            if !raw.units.is_empty() {
                at(
                    "/display/units",
                    "this ruleset has no units".into(),
                    Some("declare `units: {table: ...}` or remove `display.units`".into()),
                );
            }
        }
    }
    // Layout.
    let b = x.board;
    if b.width() > 0 {
        let ids = x.board_raw.ids.as_ref();
        out.row_labels = labels(ids.map(|i| i.rows.as_str()), b.height());
        out.col_labels = labels(ids.map(|i| i.cols.as_str()), b.width());
        // Numbered rows count upwards (row 1 at the bottom, as on a Go or chess board); lettered rows
        // read downwards, like a page.
        out.first_row_top = match raw.first_row.as_deref() {
            Some("top") => true,
            Some("bottom") => false,
            _ => ids.is_none_or(|i| i.rows != "numbers"),
        };
    } else {
        out.positions = vec![None; b.len()];
        for n in x.nodes {
            let (Some(Json::String(id)), Some(px), Some(py)) = (
                n.get("id"),
                n.get("x").and_then(Json::as_f64),
                n.get("y").and_then(Json::as_f64),
            ) else {
                continue;
            };
            if let Some(c) = b.find(id) {
                out.positions[c as usize] = Some((px, py));
            }
        }
    }
    (out, diags)
}
