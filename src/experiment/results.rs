//! The results of an experiment as text: `results.jsonl`, one JSON object per cell in cell order (the
//! fields of INTERFACE section 13 and a few more, docs/interface-extensions.md), and `results.csv` with
//! the same numbers in columns. Both are computed from the cells' totals alone, so the same totals give the
//! same bytes, however the games were divided.
use indexmap::IndexSet;
use serde_json::{json, Map, Value as Json};

use super::prepare::Description;
use super::totals::Totals;
use crate::simulate::stats::{wilson, Z_95};

/// `[low, estimate, high]`: the share of `k` in `n` with its Wilson 95% interval.
fn rate(k: u64, n: u64) -> [f64; 3] {
    let (lo, hi) = wilson(k, n, Z_95);
    let estimate = if n == 0 { 0.0 } else { k as f64 / n as f64 };
    [lo, estimate, hi]
}

/// One line of `results.jsonl`.
pub fn line(index: usize, cell: &Json, t: &Totals) -> Json {
    let mut win_rate = Map::new();
    for (p, w) in &t.wins {
        win_rate.insert(p.clone(), json!(rate(*w, t.games)));
    }
    json!({
        "cell": cell,
        "games": t.games,
        "wins": t.wins,
        "draws": t.draws,
        "win_rate": win_rate,
        "mean_turns": t.mean_turns(),
        "index": index,
        "draw_rate": rate(t.draws, t.games),
        "mean_plies": t.mean_plies(),
        "error_count": t.error_count,
        "errors": t.errors.iter().map(|(i, e)| format!("game {i}: {e}")).collect::<Vec<_>>(),
        "lengths": t.lengths.iter().map(|(turns, n)| json!([turns, n])).collect::<Vec<_>>(),
        "reasons": t.reasons,
    })
}

/// `results.jsonl`: a line per cell.
pub fn jsonl(d: &Description, totals: &[Totals]) -> String {
    let mut out = String::new();
    for (i, (c, t)) in d.cells.iter().zip(totals).enumerate() {
        out.push_str(&serde_json::to_string(&line(i, &c.cell, t)).unwrap_or_default());
        out.push('\n');
    }
    out
}

/// A number as JSON writes it (shortest text that reads back the same).
fn num(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_default()
}

/// A CSV field, quoted when it must be (RFC 4180).
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// An override value in a CSV cell: strings as they are, anything else as JSON.
fn value_text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `results.csv`: a header, then a row per cell. Columns: `index`, every override path (in the order
/// they first appear), `p1`.., `games`, `wins_P` per player, `draws`, `win_rate_P_low`, `win_rate_P`,
/// `win_rate_P_high` per player, the same for `draw_rate`, `mean_turns`, `mean_plies`, `error_count`. A
/// value a cell does not have is empty.
pub fn csv(d: &Description, totals: &[Totals]) -> String {
    let mut paths: IndexSet<String> = IndexSet::new();
    let mut seats = 0;
    let mut players: IndexSet<String> = IndexSet::new();
    for c in &d.cells {
        if let Json::Object(m) = &c.cell {
            for k in m.keys() {
                match super::parse::seat_number(k) {
                    Some(n) => seats = seats.max(n),
                    None => {
                        paths.insert(k.clone());
                    }
                }
            }
        }
        players.extend(c.players.iter().cloned());
    }
    let mut header: Vec<String> = vec!["index".into()];
    header.extend(paths.iter().cloned());
    header.extend((1..=seats).map(|n| format!("p{n}")));
    header.push("games".into());
    header.extend(players.iter().map(|p| format!("wins_{p}")));
    header.push("draws".into());
    for p in &players {
        header.extend([
            format!("win_rate_{p}_low"),
            format!("win_rate_{p}"),
            format!("win_rate_{p}_high"),
        ]);
    }
    header.extend(["draw_rate_low", "draw_rate", "draw_rate_high"].map(String::from));
    header.extend(["mean_turns", "mean_plies", "error_count"].map(String::from));

    let mut out = String::new();
    let row = |fields: Vec<String>, out: &mut String| {
        let line: Vec<String> = fields.iter().map(|f| field(f)).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    };
    row(header, &mut out);
    for (i, (c, t)) in d.cells.iter().zip(totals).enumerate() {
        let get = |k: &str| c.cell.get(k).map(value_text).unwrap_or_default();
        let mut f = vec![i.to_string()];
        f.extend(paths.iter().map(|k| get(k)));
        f.extend((1..=seats).map(|n| get(&format!("p{n}"))));
        f.push(t.games.to_string());
        f.extend(
            players
                .iter()
                .map(|p| t.wins.get(p).map(u64::to_string).unwrap_or_default()),
        );
        f.push(t.draws.to_string());
        for p in &players {
            match t.wins.get(p) {
                Some(w) => f.extend(rate(*w, t.games).map(num)),
                None => f.extend([String::new(), String::new(), String::new()]),
            }
        }
        f.extend(rate(t.draws, t.games).map(num));
        f.extend([
            num(t.mean_turns()),
            num(t.mean_plies()),
            t.error_count.to_string(),
        ]);
        row(f, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::prepare::{CellRef, RulesetRef, ScenarioRef};

    fn description() -> Description {
        Description {
            arbiter: "0".into(),
            ruleset: RulesetRef {
                id: "g".into(),
                version: "1".into(),
                digest: "sha256:0".into(),
            },
            scenario: ScenarioRef {
                name: "s".into(),
                digest: "sha256:1".into(),
            },
            seed: 1,
            games: 10,
            cells: vec![
                CellRef {
                    cell: json!({"settings.x": 0.5, "settings.name": "a,b", "p1": "greedy", "p2": "random"}),
                    players: vec!["A".into(), "B".into()],
                },
                CellRef {
                    cell: json!({"settings.x": 0.6, "p1": "random", "p2": "greedy"}),
                    players: vec!["A".into(), "B".into()],
                },
            ],
        }
    }

    fn totals(a: u64, b: u64, draws: u64) -> Totals {
        let mut t = Totals::new(&["A".to_string(), "B".to_string()]);
        t.games = a + b + draws;
        t.wins.insert("A".into(), a);
        t.wins.insert("B".into(), b);
        t.draws = draws;
        t.finished = t.games;
        t.turns = 15 * t.games as i128;
        t.plies = 30 * t.games as i128;
        t.lengths.insert(15, t.games);
        t.reasons.insert("win".into(), a + b);
        t
    }

    #[test]
    fn lines_have_the_interface_fields() {
        let d = description();
        let text = jsonl(&d, &[totals(6, 3, 1), totals(0, 10, 0)]);
        let lines: Vec<Json> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        let l = &lines[0];
        assert_eq!(l["cell"], d.cells[0].cell);
        assert_eq!(l["games"], 10);
        assert_eq!(l["wins"], json!({"A": 6, "B": 3}));
        assert_eq!(l["draws"], 1);
        assert_eq!(l["win_rate"]["A"][1], 0.6);
        let (lo, hi) = wilson(6, 10, Z_95);
        assert_eq!(l["win_rate"]["A"], json!([lo, 0.6, hi]));
        assert_eq!(l["mean_turns"], 15.0);
        assert_eq!(l["lengths"], json!([[15, 10]]));
        assert_eq!(l["reasons"], json!({"win": 9}));
        assert_eq!(
            lines[1]["win_rate"]["A"],
            json!([0.0, 0.0, wilson(0, 10, Z_95).1])
        );
        assert_eq!(lines[1]["index"], 1);
    }

    #[test]
    fn csv_columns_and_quoting() {
        let d = description();
        let text = csv(&d, &[totals(6, 3, 1), totals(0, 10, 0)]);
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(
            rows[0],
            "index,settings.x,settings.name,p1,p2,games,wins_A,wins_B,draws,win_rate_A_low,win_rate_A,win_rate_A_high,win_rate_B_low,win_rate_B,win_rate_B_high,draw_rate_low,draw_rate,draw_rate_high,mean_turns,mean_plies,error_count"
        );
        assert!(
            rows[1].starts_with("0,0.5,\"a,b\",greedy,random,10,6,3,1,"),
            "{}",
            rows[1]
        );
        assert!(
            rows[2].starts_with("1,0.6,,random,greedy,10,0,10,0,0.0,0.0,"),
            "{}",
            rows[2]
        );
        assert!(rows[2].ends_with(",15.0,30.0,0"), "{}", rows[2]);
    }
}
