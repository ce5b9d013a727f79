//! Where each cell of a board sits in the viewer's SVG: square grids as squares, hex offset grids as
//! true pointy-top hexagons with shoved rows half a cell to the right (as the terminal drawing indents
//! them), graphs as circles at the scenario's node positions (y upwards) joined by their edges. Nodes
//! without a position stand in a row below the drawing.
use crate::board::{HexLayout, Topology};
use crate::ir::game::Game;

/// The outline of one cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Corner points relative to the centre, in order (the same for every cell of a grid).
    Polygon(Vec<(f64, f64)>),
    Circle {
        r: f64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub centre: (f64, f64),
    pub shape: Shape,
}

/// A board laid out in SVG user units.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// By cell, in board order.
    pub cells: Vec<Place>,
    /// Lines between cell centres (graphs only: grids show adjacency by touching).
    pub edges: Vec<(usize, usize)>,
    /// Row and column headings: position (text centre) and text.
    pub headings: Vec<((f64, f64), String)>,
    /// Graphs draw each node's id under it; grids name cells by their headings.
    pub ids_below: bool,
    /// The width a cell's label may take.
    pub room: f64,
    pub width: f64,
    pub height: f64,
}

/// Side of a square cell.
const SQUARE: f64 = 46.0;
/// Corner radius of a hexagon (its width is √3 times this).
const HEX: f64 = 27.0;
/// Room around the drawing, and for headings.
const MARGIN: f64 = 30.0;
/// Preferred distance between the two closest graph nodes, and the widest graph drawing.
const NODE_GAP: f64 = 92.0;
const MAX_GRAPH_WIDTH: f64 = 1100.0;
const NODE_RADIUS: f64 = 27.0;

/// Lays out the board of `g`.
pub fn layout(g: &Game) -> Layout {
    match g.board.topology() {
        Topology::Graph => graph(g),
        Topology::Hex(h) => grid(g, Some(*h)),
        _ => grid(g, None),
    }
}

fn grid(g: &Game, hex: Option<HexLayout>) -> Layout {
    let b = &g.board;
    let d = &g.display;
    let (w, h) = (b.width() as usize, b.height() as usize);
    let shoved = |row: usize| match hex {
        Some(HexLayout::OddR) => row % 2 == 1,
        Some(HexLayout::EvenR) => row.is_multiple_of(2),
        None => false,
    };
    // Step between cell centres across and down.
    let (dx, dy) = match hex {
        Some(_) => (HEX * 3f64.sqrt(), HEX * 1.5),
        None => (SQUARE, SQUARE),
    };
    let top = |row: usize| if d.first_row_top { row } else { h - 1 - row };
    let centre = |row: usize, col: usize| {
        let shove = if shoved(row) { dx / 2.0 } else { 0.0 };
        (
            MARGIN + dx / 2.0 + col as f64 * dx + shove,
            MARGIN + dy.max(dx) / 2.0 + top(row) as f64 * dy,
        )
    };
    let shape = match hex {
        Some(_) => {
            let half = dx / 2.0;
            Shape::Polygon(vec![
                (0.0, -HEX),
                (half, -HEX / 2.0),
                (half, HEX / 2.0),
                (0.0, HEX),
                (-half, HEX / 2.0),
                (-half, -HEX / 2.0),
            ])
        }
        None => {
            let s = SQUARE / 2.0;
            Shape::Polygon(vec![(-s, -s), (s, -s), (s, s), (-s, s)])
        }
    };
    let cells: Vec<Place> = (0..w * h)
        .map(|c| Place {
            centre: centre(c / w, c % w),
            shape: shape.clone(),
        })
        .collect();
    let mut headings = Vec::new();
    // Column headings over the first drawn row that is not shoved.
    let first_drawn = (0..h).find(|r| top(*r) == 0).unwrap_or(0);
    let plain_row = if shoved(first_drawn) {
        (0..h).find(|r| !shoved(*r)).unwrap_or(first_drawn)
    } else {
        first_drawn
    };
    for (col, text) in d.col_labels.iter().enumerate().take(w) {
        let x = centre(plain_row, col).0;
        headings.push(((x, MARGIN / 2.0), text.clone()));
    }
    for (row, text) in d.row_labels.iter().enumerate().take(h) {
        let y = centre(row, 0).1;
        headings.push(((MARGIN / 2.0, y), text.clone()));
    }
    let rows_height = if h == 0 {
        0.0
    } else {
        (h - 1) as f64 * dy + dy.max(dx)
    };
    Layout {
        cells,
        edges: Vec::new(),
        headings,
        ids_below: false,
        room: dx * 0.92,
        width: 2.0 * MARGIN + w as f64 * dx + if hex.is_some() { dx / 2.0 } else { 0.0 },
        height: 2.0 * MARGIN + rows_height,
    }
}

fn graph(g: &Game) -> Layout {
    let b = &g.board;
    let pos = &g.display.positions;
    let n = b.len();
    let at = |c: usize| pos.get(c).copied().flatten();
    let placed: Vec<usize> = (0..n).filter(|c| at(*c).is_some()).collect();
    let (mut xmin, mut xmax, mut ymin, mut ymax) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    if let Some(&first) = placed.first() {
        let (x, y) = at(first).unwrap_or_default();
        (xmin, xmax, ymin, ymax) = (x, x, y, y);
    }
    let mut closest = f64::MAX;
    for (i, &a) in placed.iter().enumerate() {
        let (xa, ya) = at(a).unwrap_or_default();
        xmin = xmin.min(xa);
        xmax = xmax.max(xa);
        ymin = ymin.min(ya);
        ymax = ymax.max(ya);
        for &c in &placed[i + 1..] {
            let (xc, yc) = at(c).unwrap_or_default();
            let dist = ((xa - xc).powi(2) + (ya - yc).powi(2)).sqrt();
            if dist > 0.0 {
                closest = closest.min(dist);
            }
        }
    }
    let mut scale = if closest.is_finite() && closest < f64::MAX {
        NODE_GAP / closest
    } else {
        1.0
    };
    if xmax > xmin {
        scale = scale.min(MAX_GRAPH_WIDTH / (xmax - xmin));
    }
    let gap = if closest < f64::MAX {
        closest * scale
    } else {
        NODE_GAP
    };
    let r = NODE_RADIUS.min(gap * 0.36).max(6.0);
    // Room for the id under each node.
    let left = MARGIN + r;
    let top = MARGIN + r;
    let drawn_height = (ymax - ymin) * scale;
    let mut cells: Vec<Place> = vec![
        Place {
            centre: (0.0, 0.0),
            shape: Shape::Circle { r },
        };
        n
    ];
    for &c in &placed {
        let (x, y) = at(c).unwrap_or_default();
        cells[c].centre = (left + (x - xmin) * scale, top + (ymax - y) * scale);
    }
    let mut width = 2.0 * left + (xmax - xmin) * scale;
    let mut height = 2.0 * top + drawn_height + 14.0;
    let loose: Vec<usize> = (0..n).filter(|c| at(*c).is_none()).collect();
    if !loose.is_empty() {
        let y = if placed.is_empty() { top } else { height + r };
        let step = 2.0 * r + 40.0;
        for (i, &c) in loose.iter().enumerate() {
            cells[c].centre = (left + i as f64 * step, y);
        }
        width = width.max(2.0 * left + (loose.len() - 1) as f64 * step);
        height = y + r + MARGIN + 14.0;
    }
    let mut edges = Vec::new();
    for a in 0..n {
        for &m in b.neighbours(a as u32) {
            let m = m as usize;
            if m > a {
                edges.push((a, m));
            }
        }
    }
    Layout {
        cells,
        edges,
        headings: Vec::new(),
        ids_below: true,
        room: 2.0 * r * 0.9,
        width,
        height,
    }
}
