//! `arbiter report`'s page: the runs it was given (simulate outputs, experiment cells) as a table and
//! SVG charts: win rate per seat with 95% intervals, first-player advantage, game lengths, end reasons,
//! and how each swept setting moves the win rate. No script, nothing loaded.
pub mod bars;
pub mod histogram;
pub mod runs;
pub mod svg;
pub mod sweep;

use bars::{interval_chart, stacked_chart, IntervalRow, StackRow};
use histogram::histogram;
pub use runs::{parse, Run};
use svg::{legend, percent, CATEGORY};
use sweep::{sweep_chart, sweeps};

use crate::render::html::board::seat_class;
use crate::render::html::escape::html;
use crate::render::html::page::page;
use crate::simulate::stats::{wilson, Z_95};

const CSS: &str = include_str!("report.css");
/// Most game-length histograms drawn (one per run); the table still lists every run's mean.
const MAX_HISTOGRAMS: usize = 24;

fn sum(values: impl Iterator<Item = u64>) -> u64 {
    values.fold(0, u64::saturating_add)
}

/// `k` of `n` as a proportion with its 95% Wilson interval.
fn proportion(k: u64, n: u64) -> (f64, f64, f64) {
    let (lo, hi) = wilson(k, n, Z_95);
    let est = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    (est, lo, hi)
}

/// `#3 greedy vs random, x=2`: a run by its number, agents and what sets it apart.
fn numbered(i: usize, r: &Run, keys: &[String]) -> String {
    format!("#{} {}", i + 1, r.label(keys))
}

fn table(runs: &[Run], keys: &[String]) -> String {
    let seats = runs.iter().map(|r| r.players.len()).max().unwrap_or(0);
    let mut out = String::from("<table class=\"runs\"><thead><tr><th>#</th><th>agents</th><th>settings</th><th class=\"num\">games</th>");
    for s in 0..seats {
        out.push_str(&format!("<th class=\"num\">seat {} wins</th>", s + 1));
    }
    out.push_str("<th class=\"num\">draws</th><th class=\"num\">mean turns</th><th>source</th></tr></thead><tbody>\n");
    for (i, r) in runs.iter().enumerate() {
        out.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>",
            i + 1,
            html(&r.pairing()),
            html(&r.settings(keys)),
            r.games
        ));
        for s in 0..seats {
            match (r.players.get(s), r.wins.get(s)) {
                (Some(p), Some(w)) => {
                    let (e, lo, hi) = proportion(*w, r.games);
                    out.push_str(&format!(
                        "<td class=\"num\"><span class=\"swatch {}\"></span>{} {} <span class=\"muted\">[{}, {}]</span></td>",
                        seat_class("s", s as i64),
                        html(p),
                        percent(e),
                        percent(lo),
                        percent(hi)
                    ));
                }
                _ => out.push_str("<td></td>"),
            }
        }
        let (d, _, _) = proportion(r.draws, r.games);
        out.push_str(&format!(
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"muted\">{}</td></tr>\n",
            percent(d),
            r.mean_turns.map_or("-".into(), |m| format!("{m:.1}")),
            html(&r.source)
        ));
    }
    out.push_str("</tbody></table>\n");
    out
}

fn win_rates(runs: &[Run], keys: &[String]) -> String {
    let any_draws = runs.iter().any(|r| r.draws > 0);
    let mut rows = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        for (s, p) in r.players.iter().enumerate() {
            let (estimate, low, high) = proportion(r.wins.get(s).copied().unwrap_or(0), r.games);
            rows.push(IntervalRow {
                group: (s == 0).then(|| numbered(i, r, keys)),
                label: p.clone(),
                seat: s as i64,
                estimate,
                low,
                high,
                group_start: s == 0,
            });
        }
        if any_draws {
            let (estimate, low, high) = proportion(r.draws, r.games);
            rows.push(IntervalRow {
                group: None,
                label: "draws".into(),
                seat: -1,
                estimate,
                low,
                high,
                group_start: false,
            });
        }
    }
    interval_chart("win rate per seat with 95% intervals", &rows, None)
}

fn first_player(runs: &[Run], keys: &[String]) -> String {
    let mut rows = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        let w1 = r.wins.first().copied().unwrap_or(0);
        let (estimate, low, high) = proportion(w1, sum(r.wins.iter().copied()));
        rows.push(IntervalRow {
            group: None,
            label: numbered(i, r, keys),
            seat: 0,
            estimate,
            low,
            high,
            group_start: false,
        });
    }
    // Pooled per ruleset: games of different rules say nothing about each other's seats.
    let mut rulesets: Vec<Option<&str>> = Vec::new();
    for r in runs {
        if !rulesets.contains(&r.ruleset.as_deref()) {
            rulesets.push(r.ruleset.as_deref());
        }
    }
    for (k, id) in rulesets.iter().enumerate() {
        let of: Vec<&Run> = runs
            .iter()
            .filter(|r| r.ruleset.as_deref() == *id)
            .collect();
        if of.len() < 2 {
            continue;
        }
        let first = sum(of.iter().map(|r| r.wins.first().copied().unwrap_or(0)));
        let decided = sum(of.iter().map(|r| sum(r.wins.iter().copied())));
        let (estimate, low, high) = proportion(first, decided);
        rows.push(IntervalRow {
            group: None,
            label: match (id, rulesets.len()) {
                (Some(id), n) if n > 1 => format!("{id}: {} runs pooled", of.len()),
                _ => format!("all {} runs pooled", of.len()),
            },
            seat: -1,
            estimate,
            low,
            high,
            group_start: k == 0 || rows.last().is_some_and(|r: &IntervalRow| r.seat != -1),
        });
    }
    interval_chart(
        "first seat's share of decided games with 95% intervals",
        &rows,
        Some(0.5),
    )
}

fn lengths(runs: &[Run], keys: &[String]) -> String {
    let with: Vec<(usize, &Run)> = runs
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.lengths.is_empty())
        .collect();
    if with.is_empty() {
        return "<p class=\"muted\">None of these inputs records game lengths (the `lengths` field of \
`simulate --format json`); the table above lists each run's mean.</p>\n"
            .into();
    }
    let mut out = String::from("<div class=\"multiples\">\n");
    for (i, r) in with.iter().take(MAX_HISTOGRAMS) {
        out.push_str(&histogram(&numbered(*i, r, keys), &r.lengths));
    }
    out.push_str("</div>\n");
    if with.len() > MAX_HISTOGRAMS {
        out.push_str(&format!(
            "<p class=\"muted\">The first {MAX_HISTOGRAMS} of {} runs with lengths are drawn.</p>\n",
            with.len()
        ));
    }
    if with.len() < runs.len() {
        out.push_str("<p class=\"muted\">Runs whose input records no lengths are left out.</p>\n");
    }
    out
}

fn reasons(runs: &[Run], keys: &[String]) -> String {
    let mut categories: Vec<String> = Vec::new();
    for r in runs {
        for (k, _) in &r.reasons {
            if !categories.contains(k) {
                categories.push(k.clone());
            }
        }
    }
    if categories.is_empty() {
        return "<p class=\"muted\">None of these inputs records how games ended (the `reasons` field of \
`simulate --format json`).</p>\n"
            .into();
    }
    categories.sort();
    let unfinished = categories.len();
    let mut any_unfinished = false;
    let mut rows = Vec::new();
    for (i, r) in runs
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.reasons.is_empty())
    {
        let mut parts: Vec<(usize, u64)> = r
            .reasons
            .iter()
            .filter_map(|(k, n)| categories.iter().position(|c| c == k).map(|c| (c, *n)))
            .collect();
        parts.sort();
        let ended = sum(parts.iter().map(|p| p.1));
        if r.games > ended {
            any_unfinished = true;
            parts.push((unfinished, r.games - ended));
        }
        rows.push(StackRow {
            label: numbered(i, r, keys),
            parts,
        });
    }
    if any_unfinished {
        categories.push("not finished".into());
    }
    let entries: Vec<(String, String)> = categories
        .iter()
        .enumerate()
        .map(|(i, c)| (CATEGORY[i % CATEGORY.len()].to_string(), c.clone()))
        .collect();
    format!(
        "{}{}",
        legend(&entries),
        stacked_chart("end reasons", &categories, &rows)
    )
}

fn settings(runs: &[Run]) -> String {
    let all = sweeps(runs);
    if all.is_empty() {
        return "<p class=\"muted\">No setting takes more than one value across these runs.</p>\n"
            .into();
    }
    let mut out = String::new();
    for s in &all {
        out.push_str(&format!(
            "<h3>{}</h3>\n{}",
            html(runs::short_key(&s.key)),
            sweep_chart(s)
        ));
    }
    out
}

/// The report page of `runs`, read from `inputs` (named in the heading).
pub fn report(runs: &[Run], inputs: &[String]) -> String {
    let mut rulesets: Vec<&str> = Vec::new();
    for r in runs {
        if let Some(id) = r.ruleset.as_deref() {
            if !rulesets.contains(&id) {
                rulesets.push(id);
            }
        }
    }
    let games = sum(runs.iter().map(|r| r.games));
    let keys = runs::varying_keys(runs);
    let mut body = String::new();
    body.push_str(&format!(
        "<header><h1>Balance report{}</h1><p class=\"muted\">{} runs, {games} games, from {}</p></header>\n",
        if rulesets.is_empty() {
            String::new()
        } else {
            format!(": {}", html(&rulesets.join(", ")))
        },
        runs.len(),
        html(&inputs.join(", "))
    ));
    body.push_str("<h2>Runs</h2>\n");
    body.push_str(&table(runs, &keys));
    body.push_str("<h2 id=\"win-rates\">Win rate per seat</h2>\n");
    body.push_str("<p class=\"muted\">Each seat's share of all games; whiskers are 95% Wilson intervals.</p>\n");
    body.push_str(&win_rates(runs, &keys));
    body.push_str("<h2 id=\"first-player\">First-player advantage</h2>\n");
    body.push_str(&format!(
        "<p class=\"muted\">The first seat's share of decided games (draws left out); the dashed line is \
50%, no advantage. Where the agents differ this mixes seat and agent strength: runs that swap the \
agents' seats cancel it out when pooled.</p>\n{}",
        legend(&[(seat_class("f", 0), "first seat".into()), (seat_class("f", -1), "pooled".into())])
    ));
    body.push_str(&first_player(runs, &keys));
    body.push_str("<h2 id=\"lengths\">Game length</h2>\n");
    body.push_str(&lengths(runs, &keys));
    body.push_str("<h2 id=\"reasons\">End reasons</h2>\n");
    body.push_str(&reasons(runs, &keys));
    body.push_str("<h2 id=\"settings\">Settings</h2>\n");
    body.push_str("<p class=\"muted\">Each seat's win rate at each value of a setting that varies, pooled over \
everything else within each pairing of agents, with 95% intervals.</p>\n");
    body.push_str(&settings(runs));
    let title = if rulesets.is_empty() {
        "Arbiter balance report".to_string()
    } else {
        format!("Arbiter balance report: {}", rulesets.join(", "))
    };
    page(&title, CSS, &body, "")
}
