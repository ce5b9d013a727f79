//! How each swept setting moves the win rate: for every override that takes two or more values across
//! the runs, each seat's win rate per value, pooled over everything else that varies (other settings,
//! repeated runs) within each pairing of agents (and ruleset, when runs of several are given), with 95%
//! Wilson intervals, drawn as lines.
use serde_json::Value as Json;

use super::runs::{short_key, text as value_text, varying_keys, Run};
use super::svg::{chart, legend, line, percent, text};
use crate::render::html::board::seat_class;
use crate::render::html::escape::num;
use crate::simulate::stats::{wilson, Z_95};

/// One seat of one pairing across the values of a setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub pairing: String,
    pub seat: usize,
    pub seat_name: String,
    /// Per value: (win rate, low, high, games), `None` where no run had that value.
    pub points: Vec<Option<(f64, f64, f64, u64)>>,
}

/// A setting that varies, with its values in order and the series over them.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub key: String,
    pub values: Vec<Json>,
    pub series: Vec<Series>,
}

fn ordered_values(mut values: Vec<Json>) -> Vec<Json> {
    if values.iter().all(Json::is_number) {
        values.sort_by(|a, b| {
            let (a, b) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            a.total_cmp(&b)
        });
    }
    values
}

/// Every setting with two or more known values among `runs`, in the order settings first appear.
pub fn sweeps(runs: &[Run]) -> Vec<Sweep> {
    let keys = varying_keys(runs);
    // Games of different rulesets are never pooled.
    let several = runs
        .iter()
        .any(|r| r.ruleset.is_some() && r.ruleset != runs[0].ruleset);
    let mut pairings: Vec<String> = Vec::new();
    for r in runs {
        let p = r.group(several);
        if !pairings.contains(&p) {
            pairings.push(p);
        }
    }
    let mut out = Vec::new();
    for key in &keys {
        let mut values: Vec<Json> = Vec::new();
        for r in runs {
            if let Some(v) = r.value(key) {
                if !values.contains(v) {
                    values.push(v.clone());
                }
            }
        }
        if values.len() < 2 {
            continue;
        }
        let values = ordered_values(values);
        let mut series = Vec::new();
        for pairing in &pairings {
            let of_pairing: Vec<&Run> = runs
                .iter()
                .filter(|r| &r.group(several) == pairing && r.value(key).is_some())
                .collect();
            let Some(first) = of_pairing.first() else {
                continue;
            };
            for (seat, seat_name) in first.players.iter().enumerate() {
                let points = values
                    .iter()
                    .map(|v| {
                        let (mut wins, mut games) = (0u64, 0u64);
                        for r in of_pairing.iter().filter(|r| r.value(key) == Some(v)) {
                            wins = wins.saturating_add(r.wins.get(seat).copied().unwrap_or(0));
                            games = games.saturating_add(r.games);
                        }
                        (games > 0).then(|| {
                            let (lo, hi) = wilson(wins, games, Z_95);
                            (wins as f64 / games as f64, lo, hi, games)
                        })
                    })
                    .collect();
                series.push(Series {
                    pairing: pairing.clone(),
                    seat,
                    seat_name: seat_name.clone(),
                    points,
                });
            }
        }
        out.push(Sweep {
            key: key.clone(),
            values,
            series,
        });
    }
    out
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 250.0;
const LEFT: f64 = 50.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 40.0;
/// Dash patterns telling pairings apart (seats are told apart by colour).
const DASHES: [&str; 4] = ["", "7 4", "2 3", "9 3 2 3"];

/// The chart of one sweep, with its legend (HTML) before it.
pub fn sweep_chart(s: &Sweep) -> String {
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let base = TOP + plot_h;
    let x = |i: usize| LEFT + plot_w * (i as f64 + 0.5) / s.values.len().max(1) as f64;
    let y = |v: f64| base - plot_h * v.clamp(0.0, 1.0);
    let mut body = String::new();
    for k in 0..=4 {
        let v = k as f64 / 4.0;
        body.push_str(&line(LEFT, y(v), LEFT + plot_w, y(v), "grid"));
        body.push_str(&text(
            LEFT - 6.0,
            y(v) + 4.0,
            "end",
            "tick",
            &format!("{}%", k * 25),
        ));
    }
    for (i, v) in s.values.iter().enumerate() {
        body.push_str(&text(x(i), base + 16.0, "middle", "tick", &value_text(v)));
    }
    body.push_str(&text(
        LEFT + plot_w / 2.0,
        base + 32.0,
        "middle",
        "tick",
        short_key(&s.key),
    ));
    let pairings: Vec<&String> = {
        let mut p: Vec<&String> = Vec::new();
        for se in &s.series {
            if !p.contains(&&se.pairing) {
                p.push(&se.pairing);
            }
        }
        p
    };
    let mut entries = Vec::new();
    for se in &s.series {
        let pi = pairings.iter().position(|p| **p == se.pairing).unwrap_or(0);
        let dash = DASHES[pi % DASHES.len()];
        let colour = seat_class("s", se.seat as i64);
        let pts: Vec<String> = se
            .points
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|(e, _, _, _)| format!("{},{}", num(x(i)), num(y(e)))))
            .collect();
        if pts.len() > 1 {
            body.push_str(&format!(
                "<polyline class=\"series {colour}\" points=\"{}\" stroke-dasharray=\"{dash}\"/>",
                pts.join(" ")
            ));
        }
        for (i, p) in se.points.iter().enumerate() {
            if let Some((e, lo, hi, games)) = *p {
                // Seats side by side, so their intervals do not hide each other.
                let dx = (se.seat as f64 - 0.5) * 6.0;
                let cx = x(i) + dx;
                body.push_str(&line(cx, y(lo), cx, y(hi), &format!("ci {colour}")));
                body.push_str(&format!(
                    "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" class=\"{colour}\"><title>{}</title></circle>",
                    num(cx),
                    num(y(e)),
                    crate::render::html::escape::html(&format!(
                        "{}: {} wins {} [{}, {}] of {games} games at {}={}",
                        se.pairing,
                        se.seat_name,
                        percent(e),
                        percent(lo),
                        percent(hi),
                        short_key(&s.key),
                        value_text(&s.values[i])
                    ))
                ));
            }
        }
        entries.push((
            colour,
            format!(
                "{} wins ({}){}",
                se.seat_name,
                se.pairing,
                if dash.is_empty() { "" } else { ", dashed" }
            ),
        ));
    }
    let title = format!("win rate by {}", short_key(&s.key));
    format!(
        "{}{}",
        legend(&entries),
        chart(&title, WIDTH, HEIGHT, &body)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(x: i64, p1: &str, wins: [u64; 2], games: u64) -> Run {
        Run {
            source: "t".into(),
            ruleset: None,
            defaults: Default::default(),
            cell: [
                ("settings.x".to_string(), json!(x)),
                ("p1".to_string(), json!(p1)),
                ("p2".to_string(), json!("b")),
            ]
            .into_iter()
            .collect(),
            players: vec!["P1".into(), "P2".into()],
            games,
            wins: wins.to_vec(),
            draws: games - wins[0] - wins[1],
            mean_turns: None,
            lengths: Vec::new(),
            reasons: Vec::new(),
        }
    }

    #[test]
    fn pools_within_pairings_and_orders_values() {
        let runs = vec![
            run(3, "a", [5, 5], 10),
            run(1, "a", [2, 8], 10),
            run(1, "a", [4, 6], 10),
            run(1, "c", [10, 0], 10),
        ];
        let s = sweeps(&runs);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].values, vec![json!(1), json!(3)]);
        // a vs b: P1, P2; c vs b: P1, P2.
        assert_eq!(s[0].series.len(), 4);
        let p1 = &s[0].series[0];
        assert_eq!(p1.points[0].map(|p| (p.0, p.3)), Some((0.3, 20)));
        assert_eq!(p1.points[1].map(|p| (p.0, p.3)), Some((0.5, 10)));
        assert_eq!(s[0].series[2].points[1], None);
        assert!(sweep_chart(&s[0]).contains("<polyline"));
    }
}
