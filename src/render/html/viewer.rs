//! `arbiter view`'s page: the board drawn as SVG at the start, the steps of the match as compact JSON,
//! and the script that steps through them (buttons, slider, arrow keys) and switches between the whole
//! board and each player's view.
use std::sync::Arc;

use serde_json::json;

use super::board::{font_size, seat_class, svg};
use super::escape::{html, script_json};
use super::frames::{encode, Encoded};
use super::layout::layout;
use super::page::page;
use super::position::Position;
use crate::ir::game::Game;

/// What the page says about the match beside its positions.
pub struct MatchInfo {
    /// Heading, e.g. `RULESET, SCENARIO, seed 7`.
    pub title: String,
    /// The result in words, e.g. `P1 wins (hq_captured)`.
    pub result: String,
}

const SCRIPT: &str = include_str!("viewer.js");
const CSS: &str = include_str!("viewer.css");

/// The whole page for `positions` (the start first) of a match of `g`.
pub fn viewer(g: &Arc<Game>, info: &MatchInfo, positions: &[Position]) -> String {
    viewer_of(g, info, encode(g, positions))
}

/// The whole page for positions already encoded (`frames::Encoder`, for long replays).
pub fn viewer_of(g: &Game, info: &MatchInfo, enc: Encoded) -> String {
    let lay = layout(g);
    let font = font_size(lay.room, enc.widest);
    let board = svg(g, &lay, &enc.first, font);
    let last = enc.steps.as_array().map_or(0, Vec::len).saturating_sub(1);
    let mut views = vec!["whole board".to_string()];
    views.extend(g.players.iter().map(|p| format!("{p}'s view")));
    let data = json!({
        "players": g.players,
        "marks": g.display.marks,
        "views": views,
        "cells": g.board.len(),
        "result": info.result,
        "steps": enc.steps,
    });
    let mut body = String::new();
    body.push_str(&format!(
        "<header><h1>{}</h1><p id=\"result\">Result: <b>{}</b></p></header>\n",
        html(&info.title),
        html(&info.result)
    ));
    body.push_str(&format!(
        "<nav id=\"controls\" aria-label=\"steps\">\
<button id=\"first\" title=\"first step (Home)\">|&#x25C0;</button>\
<button id=\"prev\" title=\"previous step (left arrow)\">&#x25C0;</button>\
<input id=\"slider\" type=\"range\" min=\"0\" max=\"{last}\" value=\"0\" step=\"1\" aria-label=\"step\">\
<button id=\"next\" title=\"next step (right arrow)\">&#x25B6;</button>\
<button id=\"last\" title=\"last step (End)\">&#x25B6;|</button>\
<span id=\"stepname\">start</span></nav>\n"
    ));
    body.push_str("<div id=\"views\" role=\"group\" aria-label=\"view\">");
    for (v, name) in views.iter().enumerate() {
        let seat = if v == 0 {
            String::new()
        } else {
            format!(
                "<span class=\"swatch {}\"></span>",
                seat_class("s", v as i64 - 1)
            )
        };
        body.push_str(&format!(
            "<button data-view=\"{v}\" aria-pressed=\"{}\">{seat}{}</button>",
            v == 0,
            html(name)
        ));
    }
    body.push_str("</div>\n");
    body.push_str(&format!(
        "<main><section id=\"boardbox\">{board}</section>\n<aside>\
<p id=\"status\"></p><ul id=\"players\"></ul>\
<h2>This step</h2><p id=\"did\"></p><ol id=\"events\"></ol></aside></main>\n"
    ));
    body.push_str("<pre id=\"selftest\" hidden></pre>\n");
    body.push_str(&format!(
        "<script id=\"data\" type=\"application/json\">{}</script>",
        script_json(&data)
    ));
    page(
        &format!("Arbiter replay: {}", info.title),
        CSS,
        &body,
        SCRIPT,
    )
}
