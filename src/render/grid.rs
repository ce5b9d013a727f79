//! Square and hex grids as text: one fixed-width label per cell; hex rows that are shoved half a cell to
//! the right are indented by half a cell, so each hex sits between the two it touches above and below.
use super::cells::{label, Label};
use super::style::{paint, Role};
use crate::board::{HexLayout, Topology};
use crate::ir::game::Game;
use crate::model::MatchState;

fn pad(text: &str, width: usize) -> String {
    let n = text.chars().count();
    format!("{text}{}", " ".repeat(width.saturating_sub(n)))
}

/// Draws a grid board.
pub fn draw(g: &Game, st: &MatchState, color: bool) -> String {
    let b = &g.board;
    let d = &g.display;
    let (w, h) = (b.width(), b.height());
    let labels: Vec<Label> = (0..b.len() as u32).map(|c| label(g, st, c)).collect();
    let col_w = d
        .col_labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1);
    let cell_w = labels
        .iter()
        .map(|l| l.text.chars().count())
        .max()
        .unwrap_or(1)
        .max(col_w)
        .max(2);
    let row_w = d
        .row_labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1);
    let shoved = |row: u32| match b.topology() {
        Topology::Hex(HexLayout::OddR) => row % 2 == 1,
        Topology::Hex(HexLayout::EvenR) => row.is_multiple_of(2),
        _ => false,
    };
    let half = cell_w.div_ceil(2);
    let hex = matches!(b.topology(), Topology::Hex(_));
    let mut out = String::new();
    // Column labels, over the cells of rows that are not shoved.
    let mut header = " ".repeat(row_w + 1);
    for col in 0..w as usize {
        header.push_str(&pad(
            d.col_labels.get(col).map_or("", String::as_str),
            cell_w + 1,
        ));
    }
    out.push_str(&paint(header.trim_end(), Role::Dim, color));
    out.push('\n');
    let rows: Vec<u32> = if d.first_row_top {
        (0..h).collect()
    } else {
        (0..h).rev().collect()
    };
    for row in rows {
        let name = d.row_labels.get(row as usize).map_or("", String::as_str);
        let mut line = paint(&format!("{name:>row_w$} "), Role::Dim, color);
        if hex && shoved(row) {
            line.push_str(&" ".repeat(half));
        }
        let mut cells = Vec::new();
        for col in 0..w {
            let c = (row * w + col) as usize;
            let l = &labels[c];
            let fill = cell_w.saturating_sub(l.text.chars().count());
            cells.push(format!(
                "{}{}",
                paint(&l.text, l.role, color),
                " ".repeat(fill)
            ));
        }
        line.push_str(&cells.join(" "));
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
