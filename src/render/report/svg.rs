//! Pieces every chart of a report shares: the chart's SVG element, text, percentages, category colours
//! and a legend. Charts are plain SVG written here (no script, nothing loaded).
use crate::render::html::escape::{html, num};

/// Colours of categories that are not seats (end reasons): distinguishable, printable.
pub const CATEGORY: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f",
];

/// An `<svg>` of `width` x `height` with an accessible `title`, around `body`.
pub fn chart(title: &str, width: f64, height: f64, body: &str) -> String {
    format!(
        "<svg class=\"chart\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>\n{body}</svg>\n",
        w = num(width),
        h = num(height),
        t = html(title)
    )
}

/// `<text>` at (x, y) with an anchor (`start`, `middle`, `end`) and a class.
pub fn text(x: f64, y: f64, anchor: &str, class: &str, content: &str) -> String {
    format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" class=\"{class}\">{}</text>",
        num(x),
        num(y),
        html(content)
    )
}

/// A line from (x1, y1) to (x2, y2) with a class.
pub fn line(x1: f64, y1: f64, x2: f64, y2: f64, class: &str) -> String {
    format!(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"{class}\"/>",
        num(x1),
        num(y1),
        num(x2),
        num(y2)
    )
}

/// A rectangle with a class, or a fill colour when `fill` is given; `tip` shows on hover.
pub fn rect(x: f64, y: f64, w: f64, h: f64, class: &str, fill: Option<&str>, tip: &str) -> String {
    let style = fill.map_or(String::new(), |f| format!(" style=\"fill:{f}\""));
    format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"{class}\"{style}><title>{}</title></rect>",
        num(x),
        num(y),
        num(w.max(0.0)),
        num(h.max(0.0)),
        html(tip)
    )
}

/// `0.523` as `52.3%`.
pub fn percent(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// `text` cut to `max` characters with an ellipsis (the full text stays in a tooltip).
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

/// A legend as HTML: a swatch and a name per entry, each swatch a colour or a CSS class.
pub fn legend(entries: &[(String, String)]) -> String {
    let mut out = String::from("<p class=\"legend\">");
    for (swatch, name) in entries {
        let look = if swatch.starts_with('#') {
            format!("class=\"swatch\" style=\"background:{swatch}\"")
        } else {
            format!("class=\"swatch {swatch}\"")
        };
        out.push_str(&format!("<span {look}></span>{} &nbsp; ", html(name)));
    }
    out.push_str("</p>\n");
    out
}

/// Vertical gridlines and labels for 0%, 25%, ... 100% between `x0` and `x1`, from `top` to `bottom`.
pub fn percent_grid(x0: f64, x1: f64, top: f64, bottom: f64) -> String {
    let mut out = String::new();
    for k in 0..=4 {
        let f = k as f64 / 4.0;
        let x = x0 + f * (x1 - x0);
        out.push_str(&line(x, top, x, bottom, "grid"));
        out.push_str(&text(
            x,
            bottom + 14.0,
            "middle",
            "tick",
            &format!("{}%", k * 25),
        ));
    }
    out
}
