//! Graph boards as text: each node drawn at its scenario position (x to the right, y upwards) as
//! `id label`, its edges as lines of `-`, `|`, `/` and `\` between the nodes. Nodes without a position
//! are listed in a row below the drawing.
use super::cells::label;
use super::style::{paint, Role};
use crate::ir::game::Game;
use crate::model::MatchState;

/// Widest drawing, in characters, before the horizontal scale stops growing.
const MAX_WIDTH: usize = 160;

struct Placed {
    text: String,
    role: Role,
    /// Canvas column of the label's first character and its row.
    col: usize,
    row: usize,
}

/// Draws a graph board.
pub fn draw(g: &Game, st: &MatchState, color: bool) -> String {
    let b = &g.board;
    let pos = &g.display.positions;
    let texts: Vec<(String, Role)> = (0..b.len() as u32)
        .map(|c| {
            let l = label(g, st, c);
            (format!("{} {}", b.id(c), l.text), l.role)
        })
        .collect();
    let placed: Vec<usize> = (0..b.len())
        .filter(|c| pos.get(*c).is_some_and(Option::is_some))
        .collect();
    let mut out = String::new();
    if !placed.is_empty() {
        let xy = |c: usize| pos[c].unwrap_or((0.0, 0.0));
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &c in &placed {
            let (x, y) = xy(c);
            xmin = xmin.min(x);
            xmax = xmax.max(x);
            ymin = ymin.min(y);
            ymax = ymax.max(y);
        }
        // Rows: the closest two distinct heights one empty line apart.
        let mut ys: Vec<f64> = placed.iter().map(|&c| xy(c).1).collect();
        ys.sort_by(f64::total_cmp);
        ys.dedup();
        let min_dy = ys.windows(2).map(|w| w[1] - w[0]).fold(f64::MAX, f64::min);
        let per_y = if min_dy.is_finite() && min_dy > 0.0 {
            2.0 / min_dy
        } else {
            1.0
        };
        let row_of = |y: f64| ((ymax - y) * per_y).round() as usize;
        // Columns: labels on one row never touch.
        let len = |c: usize| texts[c].0.chars().count() as f64;
        let mut per_x: f64 = 1.0;
        for (i, &a) in placed.iter().enumerate() {
            for &c in &placed[i + 1..] {
                let (xa, ya) = xy(a);
                let (xc, yc) = xy(c);
                let dx = (xa - xc).abs();
                if row_of(ya) == row_of(yc) && dx > 0.0 {
                    per_x = per_x.max(((len(a) + len(c)) / 2.0 + 3.0) / dx);
                }
            }
        }
        let widest = placed.iter().map(|&c| len(c)).fold(0.0, f64::max);
        if xmax > xmin {
            per_x = per_x
                .min((MAX_WIDTH as f64 - widest) / (xmax - xmin))
                .max(1.0);
        }
        let centre = |c: usize| -> (usize, usize) {
            let (x, y) = xy(c);
            (
                ((x - xmin) * per_x + widest / 2.0).round() as usize,
                row_of(y),
            )
        };
        let width = ((xmax - xmin) * per_x + widest).ceil() as usize + 2;
        let height = row_of(ymin) + 1;
        let mut canvas = vec![vec![' '; width]; height];
        // Edges first, then labels over them.
        for a in 0..b.len() as u32 {
            for &n in b.neighbours(a) {
                let (a, n) = (a as usize, n as usize);
                if n <= a
                    || pos.get(a).copied().flatten().is_none()
                    || pos.get(n).copied().flatten().is_none()
                {
                    continue;
                }
                line(&mut canvas, centre(a), centre(n));
            }
        }
        let mut labels: Vec<Placed> = placed
            .iter()
            .map(|&c| {
                let (col, row) = centre(c);
                Placed {
                    text: texts[c].0.clone(),
                    role: texts[c].1,
                    col: col.saturating_sub(len(c) as usize / 2),
                    row,
                }
            })
            .collect();
        labels.sort_by_key(|p| (p.row, p.col));
        for (r, cells) in canvas.iter().enumerate() {
            let mut text = String::new();
            let mut col = 0;
            for p in labels.iter().filter(|p| p.row == r) {
                if p.col >= col {
                    let edges: String = cells[col..p.col.min(cells.len())].iter().collect();
                    text.push_str(&paint(&edges, Role::Dim, color));
                    col = p.col;
                }
                text.push_str(&paint(&p.text, p.role, color));
                col += p.text.chars().count();
            }
            if col < cells.len() {
                let rest: String = cells[col..].iter().collect();
                text.push_str(&paint(rest.trim_end(), Role::Dim, color));
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
    }
    let loose: Vec<String> = (0..b.len())
        .filter(|c| !placed.contains(c))
        .map(|c| paint(&texts[c].0, texts[c].1, color))
        .collect();
    if !loose.is_empty() {
        out.push_str(&loose.join("   "));
        out.push('\n');
    }
    out
}

/// Draws a straight line between two canvas points, leaving its end points (the labels) alone.
fn line(canvas: &mut [Vec<char>], (c0, r0): (usize, usize), (c1, r1): (usize, usize)) {
    let (dc, dr) = (c1 as f64 - c0 as f64, r1 as f64 - r0 as f64);
    let steps = dc.abs().max(dr.abs()) as usize;
    if steps == 0 {
        return;
    }
    let ch = if dr == 0.0 {
        '-'
    } else if dc == 0.0 {
        '|'
    } else if (dc > 0.0) == (dr > 0.0) {
        '\\'
    } else {
        '/'
    };
    for i in 1..steps {
        let t = i as f64 / steps as f64;
        let c = (c0 as f64 + dc * t).round() as usize;
        let r = (r0 as f64 + dr * t).round() as usize;
        if let Some(cell) = canvas.get_mut(r).and_then(|row| row.get_mut(c)) {
            if *cell == ' ' {
                *cell = ch;
            }
        }
    }
}
