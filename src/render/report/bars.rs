//! Horizontal bar charts: proportions with their 95% intervals (one row per seat of each run, or per
//! run), and rows split into categories that add up to 100% (end reasons).
use super::svg::{chart, clip, line, percent, percent_grid, rect, text, CATEGORY};
use crate::render::html::board::seat_class;

/// Width of the label columns (a group's name, then the row's), the plot, and the note after it.
const LABEL: f64 = 330.0;
/// Where a row's own label ends when its group has a name before it.
const GROUP: f64 = 250.0;
const GROUP_CHARS: usize = 38;
const PLOT: f64 = 380.0;
const NOTE: f64 = 170.0;
const ROW: f64 = 20.0;
const TOP: f64 = 10.0;
/// Characters of a label that fit its column.
const LABEL_CHARS: usize = 44;

/// One bar: a proportion and its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct IntervalRow {
    /// The name of the group this row starts (drawn at the left), e.g. a run.
    pub group: Option<String>,
    pub label: String,
    /// Colour by seat (`-1`: neutral grey, e.g. draws or pooled rows).
    pub seat: i64,
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// A thin line above this row separates it from the previous rows.
    pub group_start: bool,
}

/// Rows of proportions with 95% intervals, and an optional dashed reference (e.g. 50%).
pub fn interval_chart(title: &str, rows: &[IntervalRow], reference: Option<f64>) -> String {
    let x0 = LABEL + 10.0;
    let x1 = x0 + PLOT;
    let at = |v: f64| x0 + v.clamp(0.0, 1.0) * PLOT;
    let bottom = TOP + rows.len() as f64 * ROW;
    let mut body = percent_grid(x0, x1, TOP, bottom);
    for (i, r) in rows.iter().enumerate() {
        let y = TOP + i as f64 * ROW;
        if r.group_start && i > 0 {
            body.push_str(&line(4.0, y, x1 + NOTE, y, "sep"));
        }
        let tip = format!(
            "{}{}: {} (95% interval {} to {})",
            r.group
                .as_deref()
                .map_or(String::new(), |g| format!("{g}, ")),
            r.label,
            percent(r.estimate),
            percent(r.low),
            percent(r.high)
        );
        if let Some(g) = &r.group {
            body.push_str(&text(
                4.0,
                y + 14.0,
                "start",
                "label",
                &clip(g, GROUP_CHARS),
            ));
        }
        let room = if rows.iter().any(|r| r.group.is_some()) {
            (LABEL - GROUP) as usize / 7
        } else {
            LABEL_CHARS
        };
        body.push_str(&text(
            LABEL,
            y + 14.0,
            "end",
            "label",
            &clip(&r.label, room),
        ));
        body.push_str(&rect(
            x0,
            y + 4.0,
            at(r.estimate) - x0,
            ROW - 8.0,
            &format!("bar {}", seat_class("f", r.seat)),
            None,
            &tip,
        ));
        let mid = y + ROW / 2.0;
        let whisker = format!("ci {}", seat_class("s", r.seat));
        body.push_str(&line(at(r.low), mid, at(r.high), mid, &whisker));
        body.push_str(&line(at(r.low), mid - 5.0, at(r.low), mid + 5.0, &whisker));
        body.push_str(&line(
            at(r.high),
            mid - 5.0,
            at(r.high),
            mid + 5.0,
            &whisker,
        ));
        body.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"3\" class=\"{}\"/>",
            crate::render::html::escape::num(at(r.estimate)),
            crate::render::html::escape::num(mid),
            seat_class("s", r.seat)
        ));
        body.push_str(&text(
            x1 + 10.0,
            y + 14.0,
            "start",
            "note",
            &format!(
                "{} [{}, {}]",
                percent(r.estimate),
                percent(r.low),
                percent(r.high)
            ),
        ));
    }
    if let Some(v) = reference {
        body.push_str(&line(at(v), TOP - 4.0, at(v), bottom + 2.0, "reference"));
    }
    chart(title, x1 + NOTE, bottom + 22.0, &body)
}

/// One bar split into categories (indices into the chart's categories) with their counts.
#[derive(Clone, Debug, PartialEq)]
pub struct StackRow {
    pub label: String,
    pub parts: Vec<(usize, u64)>,
}

/// Rows split into categories, each row scaled to 100% of its own total.
pub fn stacked_chart(title: &str, categories: &[String], rows: &[StackRow]) -> String {
    let x0 = LABEL + 10.0;
    let x1 = x0 + PLOT;
    let bottom = TOP + rows.len() as f64 * ROW;
    let mut body = percent_grid(x0, x1, TOP, bottom);
    for (i, r) in rows.iter().enumerate() {
        let y = TOP + i as f64 * ROW;
        let total = r.parts.iter().fold(0u64, |a, p| a.saturating_add(p.1));
        body.push_str(&text(
            LABEL,
            y + 14.0,
            "end",
            "label",
            &clip(&r.label, LABEL_CHARS),
        ));
        let mut x = x0;
        for &(c, n) in &r.parts {
            if total == 0 || n == 0 {
                continue;
            }
            let share = n as f64 / total as f64;
            let name = categories.get(c).map_or("?", String::as_str);
            body.push_str(&rect(
                x,
                y + 3.0,
                share * PLOT,
                ROW - 6.0,
                "part",
                Some(CATEGORY[c % CATEGORY.len()]),
                &format!("{}: {name} {n} of {total} ({})", r.label, percent(share)),
            ));
            x += share * PLOT;
        }
        body.push_str(&text(
            x1 + 10.0,
            y + 14.0,
            "start",
            "note",
            &format!("{total} games"),
        ));
    }
    chart(title, x1 + NOTE, bottom + 22.0, &body)
}
