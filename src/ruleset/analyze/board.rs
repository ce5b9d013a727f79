//! The board: its topology (graph, hex or square grid) and id scheme from the ruleset, its size, nodes and
//! edges from the scenario's map; the line-of-sight predicates and the rule for the initial owner of cells.
use std::collections::HashMap;

use serde_json::Value as Json;

use super::diags::Diags;
use super::Cx;
use crate::board::{Axis, Board, BoardError, HexLayout, IdScheme, Label};
use crate::ir::game::{Sight, Symbols, SIGHT_SLOT};
use crate::ir::Expr;
use crate::model::Ty;
use crate::ruleset::compile::{closest, Catalog, Compiler};
use crate::ruleset::raw::{RawBoard, RawScenario};

/// The board with the scenario's map, or `None` (reported) when it cannot be built.
pub(super) fn build(cx: &mut Cx, rb: &RawBoard, scen: &RawScenario) -> Option<Board> {
    let (rd, sd, d) = (cx.rd, cx.sd, &mut cx.d);
    let ids = |d: &mut Diags| -> Option<IdScheme> {
        let Some(i) = &rb.ids else {
            d.at(
                rd,
                "/board",
                "ruleset::bad_board",
                "grid boards need `ids: {first, rows, cols}`",
                Some("for example ids: {first: row, rows: letters, cols: numbers}".into()),
            );
            return None;
        };
        let label = |s: &str, key: &str, d: &mut Diags| match s {
            "letters" => Some(Label::Letters),
            "numbers" => Some(Label::Numbers),
            _ => {
                d.at(
                    rd,
                    &format!("/board/ids/{key}"),
                    "ruleset::bad_board",
                    "labels are `letters` or `numbers`",
                    None,
                );
                None
            }
        };
        let first = match i.first.as_str() {
            "row" => Axis::Row,
            "col" => Axis::Col,
            _ => {
                d.at(
                    rd,
                    "/board/ids/first",
                    "ruleset::bad_board",
                    "`first` is `row` or `col`",
                    None,
                );
                return None;
            }
        };
        Some(IdScheme {
            first,
            rows: label(&i.rows, "rows", d)?,
            cols: label(&i.cols, "cols", d)?,
        })
    };
    let sb = &scen.board;
    let grid_size = |d: &mut Diags| -> Option<(u32, u32)> {
        match (sb.width, sb.height) {
            (Some(w), Some(h)) if w >= 1 && h >= 1 => Some((w, h)),
            _ => {
                d.at(
                    sd,
                    "/board",
                    "scenario::grid_size",
                    "a grid scenario needs `width` and `height` of at least 1",
                    None,
                );
                None
            }
        }
    };
    let result = match rb.topology.as_str() {
        "graph" => {
            let mut idx: HashMap<String, usize> = HashMap::new();
            let mut names = Vec::new();
            for (i, n) in sb.nodes.iter().enumerate() {
                match n.get("id") {
                    Some(Json::String(id)) => {
                        if let Some(first) = idx.get(id) {
                            d.at(
                                sd,
                                &format!("/board/nodes/{i}/id"),
                                "scenario::duplicate_id",
                                format!("node id `{id}` is used twice"),
                                Some(format!("first used by node {first}")),
                            );
                            continue;
                        }
                        idx.insert(id.clone(), names.len());
                        names.push(id.clone());
                    }
                    _ => d.at(
                        sd,
                        &format!("/board/nodes/{i}"),
                        "scenario::missing_id",
                        "every node needs an `id`",
                        None,
                    ),
                }
            }
            let mut edges = Vec::new();
            for (i, e) in sb.edges.iter().enumerate() {
                if e.len() != 2 {
                    d.at(
                        sd,
                        &format!("/board/edges/{i}"),
                        "scenario::bad_edge",
                        "an edge is a pair of node ids: [a, b]",
                        None,
                    );
                    continue;
                }
                let mut ends = Vec::new();
                for (j, n) in e.iter().enumerate() {
                    match idx.get(n) {
                        Some(k) => ends.push(*k as u32),
                        None => d.at(
                            sd,
                            &format!("/board/edges/{i}/{j}"),
                            "scenario::unknown_node",
                            format!("edge names unknown node `{n}`"),
                            closest(n, names.iter().map(|s| s.as_str()))
                                .map(|c| format!("did you mean `{c}`?")),
                        ),
                    }
                }
                if ends.len() == 2 {
                    if ends[0] == ends[1] {
                        d.at(
                            sd,
                            &format!("/board/edges/{i}"),
                            "scenario::bad_edge",
                            format!("edge joins `{}` to itself", e[0]),
                            None,
                        );
                    } else {
                        edges.push((ends[0], ends[1]));
                    }
                }
            }
            if names.is_empty() {
                d.at(
                    sd,
                    "/board",
                    "scenario::no_cells",
                    "a graph scenario needs at least one node under `nodes`",
                    None,
                );
                return None;
            }
            Board::graph(names, &edges)
        }
        "hex" => {
            let layout = match rb.layout.as_deref() {
                None | Some("odd_r") => HexLayout::OddR,
                Some("even_r") => HexLayout::EvenR,
                Some(o) => {
                    d.at(
                        rd,
                        "/board/layout",
                        "ruleset::bad_board",
                        format!("unknown hex layout `{o}`"),
                        Some("use odd_r or even_r".into()),
                    );
                    HexLayout::OddR
                }
            };
            let (ids, size) = (ids(d), grid_size(d));
            let (ids, (w, h)) = (ids?, size?);
            Board::hex(w, h, layout, ids)
        }
        "square" => {
            let (ids, size) = (ids(d), grid_size(d));
            let (ids, (w, h)) = (ids?, size?);
            Board::square(w, h, rb.diagonal, ids)
        }
        o => {
            d.at(
                rd,
                "/board/topology",
                "ruleset::bad_board",
                format!("unknown topology `{o}`"),
                Some("use graph, hex or square".into()),
            );
            return None;
        }
    };
    match result {
        Ok(b) => {
            if rb.require_connected && !b.is_connected() {
                let comps = b.components();
                let names: Vec<String> = comps
                    .iter()
                    .skip(1)
                    .flat_map(|c| c.iter().map(|x| b.id(*x).to_string()))
                    .take(8)
                    .collect();
                d.at(
                    sd,
                    "/board",
                    "scenario::disconnected",
                    format!(
                        "the map is not connected: {} cannot be reached from {}",
                        names.join(", "),
                        b.id(comps[0][0])
                    ),
                    Some("add edges joining every part of the map".into()),
                );
            }
            Some(b)
        }
        Err(e @ BoardError::TooManyCells { .. }) => {
            d.at(
                sd,
                "/board",
                "scenario::too_many_cells",
                e.to_string(),
                Some("make the board smaller (docs/limits.md lists the limits)".into()),
            );
            None
        }
        Err(e) => {
            d.at(sd, "/board", "scenario::bad_board", e.to_string(), None);
            None
        }
    }
}

/// The line-of-sight predicates, each with the looked-at cell in `SIGHT_SLOT`.
pub(super) fn sight(cx: &mut Cx, cat: &Catalog, rb: &RawBoard) -> Option<Sight> {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    rb.line_of_sight.as_ref().map(|s| {
        let pred =
            |v: &Option<Json>, key: &str, d: &mut Diags, symbols: &mut Symbols| -> Option<Expr> {
                let v = v.as_ref()?;
                let mut c = Compiler::new(cat, symbols, false);
                c.skip_to(SIGHT_SLOT);
                c.push_elem(Ty::Cell);
                match c.json_cond(v) {
                    Ok(e) => Some(e),
                    Err(e) => {
                        d.expr(rd, &format!("/board/line_of_sight/{key}"), e);
                        None
                    }
                }
            };
        Sight {
            opaque: pred(&s.opaque, "opaque", d, symbols),
            screens: pred(&s.screens, "screens", d, symbols),
            see_over: pred(&s.see_over, "see_over", d, symbols),
        }
    })
}

/// The owner of each cell at the start (the cell is `it`) where the scenario names none.
pub(super) fn initial_owner(cx: &mut Cx, cat: &Catalog, rb: &RawBoard) -> Option<Expr> {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    rb.initial_owner.as_ref().and_then(|v| {
        let mut c = Compiler::new(cat, symbols, false);
        c.push_elem(Ty::Cell);
        match c.json_expr(v) {
            Ok((e, Ty::Player | Ty::Nothing)) => Some(e),
            Ok((_, t)) => {
                d.at(
                    rd,
                    "/board/initial_owner",
                    "ruleset::expression",
                    format!(
                        "`initial_owner` must give a player (or none), this gives {}",
                        t.name()
                    ),
                    None,
                );
                None
            }
            Err(e) => {
                d.expr(rd, "/board/initial_owner", e);
                None
            }
        }
    })
}
