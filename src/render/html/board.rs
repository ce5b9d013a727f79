//! The board as inline SVG, drawn at the start position: edges, headings, and one group per cell (its
//! outline coloured by owner, its label, its id as a tooltip and under graph nodes). A grid's cells all
//! `<use>` one outline defined once, which keeps large boards small. The page's script later changes
//! only the outline's class and the label's text.
use super::escape::{html, num};
use super::frames::Shown;
use super::layout::{Layout, Shape};
use crate::ir::game::Game;

/// The CSS class of a seat's colour (`-1`: neutral).
pub fn seat_class(prefix: &str, seat: i64) -> String {
    if seat < 0 {
        format!("{prefix}n")
    } else {
        format!("{prefix}{}", seat % super::page::SEAT_COLOURS as i64)
    }
}

/// The size of label text that fits `widest` characters into `room` units.
pub fn font_size(room: f64, widest: usize) -> f64 {
    (room / (0.62 * widest.max(2) as f64)).clamp(7.0, 16.0)
}

/// The SVG of the board of `g` laid out as `lay`, showing `cells`.
pub fn svg(g: &Game, lay: &Layout, cells: &[Shown], font: f64) -> String {
    let mut out = format!(
        "<svg id=\"board\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"board\">\n",
        w = num(lay.width),
        h = num(lay.height)
    );
    // The outline grid cells share, if they share one.
    let shared = match lay.cells.first().map(|p| &p.shape) {
        Some(Shape::Polygon(pts)) if lay.cells.iter().all(|p| p.shape == lay.cells[0].shape) => {
            let points: Vec<String> = pts
                .iter()
                .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
                .collect();
            out.push_str(&format!(
                "<defs><polygon id=\"outline\" points=\"{}\"/></defs>\n",
                points.join(" ")
            ));
            true
        }
        _ => false,
    };
    if !lay.edges.is_empty() {
        out.push_str("<g class=\"edges\">");
        for &(a, b) in &lay.edges {
            let (pa, pb) = (lay.cells[a].centre, lay.cells[b].centre);
            out.push_str(&format!(
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                num(pa.0),
                num(pa.1),
                num(pb.0),
                num(pb.1)
            ));
        }
        out.push_str("</g>\n");
    }
    if !lay.headings.is_empty() {
        out.push_str("<g class=\"headings\">");
        for ((x, y), text) in &lay.headings {
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{}\">{}</text>",
                num(*x),
                num(*y),
                html(text)
            ));
        }
        out.push_str("</g>\n");
    }
    out.push_str(&format!(
        "<g id=\"cells\" style=\"font-size:{}px\">\n",
        num(font)
    ));
    for (i, place) in lay.cells.iter().enumerate() {
        let id = html(g.board.id(i as u32));
        let shown = cells.get(i);
        let owner = shown.map_or(-1, |s| s.owner);
        let tint = shown.map_or(-1, |s| s.tint);
        let text = shown.map_or(String::new(), |s| html(&s.text));
        let (cx, cy) = place.centre;
        let outline = match &place.shape {
            Shape::Polygon(_) if shared => format!(
                "<use class=\"shape {}\" href=\"#outline\" x=\"{}\" y=\"{}\"/>",
                seat_class("o", owner),
                num(cx),
                num(cy)
            ),
            Shape::Polygon(pts) => {
                let points: Vec<String> = pts
                    .iter()
                    .map(|(x, y)| format!("{},{}", num(cx + x), num(cy + y)))
                    .collect();
                format!(
                    "<polygon class=\"shape {}\" points=\"{}\"/>",
                    seat_class("o", owner),
                    points.join(" ")
                )
            }
            Shape::Circle { r } => format!(
                "<circle class=\"shape {}\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                seat_class("o", owner),
                num(cx),
                num(cy),
                num(*r)
            ),
        };
        out.push_str(&format!(
            "<g class=\"cell\"><title>{id}</title>{outline}<text class=\"label {}\" x=\"{}\" y=\"{}\">{text}</text>",
            seat_class("t", tint),
            num(cx),
            num(cy)
        ));
        if lay.ids_below {
            let r = match place.shape {
                Shape::Circle { r } => r,
                Shape::Polygon(_) => 0.0,
            };
            out.push_str(&format!(
                "<text class=\"id\" x=\"{}\" y=\"{}\">{id}</text>",
                num(cx),
                num(cy + r + 12.0)
            ));
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n</svg>");
    out
}
