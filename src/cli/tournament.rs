//! `arbiter tournament`: a round robin between agents in both seatings; a table of results and ratings on
//! the Elo scale (Bradley-Terry, 95% intervals), or the JSON of INTERFACE section 12.
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Value as Json};

use super::args::{Format, TournamentArgs};
use super::game::{agent_spec_with, load_game, remote_options};
use super::output::{fail, json_text, stderr_is_terminal, write_output};
use super::{INVALID, OK, USAGE};
use crate::simulate::ratings::score_interval;
use crate::simulate::{tournament_specs, TournamentConfig, TournamentResult};

/// Error messages shown before the rest are counted only.
const SHOWN_ERRORS: usize = 10;

fn bound(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.0}")
    } else {
        "?".into()
    }
}

fn text_report(t: &TournamentResult, games_per_pair: u64, seconds: f64) -> String {
    let width = t
        .agents
        .iter()
        .map(|a| a.name.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let mut out = format!(
        "{:<width$}  {:>6} {:>6} {:>6} {:>6}  {:>6}  {:>6}  95% interval\n",
        "agent", "games", "wins", "draws", "losses", "score", "rating"
    );
    let mut order: Vec<usize> = (0..t.agents.len()).collect();
    order.sort_by(|&a, &b| {
        t.agents[b]
            .rating
            .rating
            .total_cmp(&t.agents[a].rating.rating)
    });
    for i in order {
        let a = &t.agents[i];
        let score = if a.games == 0 {
            0.0
        } else {
            100.0 * (a.wins as f64 + 0.5 * a.draws as f64) / a.games as f64
        };
        out.push_str(&format!(
            "{:<width$}  {:>6} {:>6} {:>6} {:>6}  {:>5.1}%  {:>6}  [{}, {}]\n",
            a.name,
            a.games,
            a.wins,
            a.draws,
            a.losses,
            score,
            bound(a.rating.rating),
            bound(a.rating.low),
            bound(a.rating.high)
        ));
    }
    out.push_str(&format!(
        "\npairs ({games_per_pair} games in each seating; score of the first named, 95% Wilson interval):\n"
    ));
    for p in &t.pairs {
        let (a, b) = (&t.agents[p.a].name, &t.agents[p.b].name);
        let points = p.a_wins as f64 + 0.5 * p.draws as f64;
        let (lo, hi) = score_interval(points, p.games);
        let pct = if p.games == 0 {
            0.0
        } else {
            100.0 * points / p.games as f64
        };
        out.push_str(&format!(
            "{a} vs {b}: {} games, {} - {} - {} (wins, draws, losses), {pct:.1}% [{:.1}%, {:.1}%]\n",
            p.games,
            p.a_wins,
            p.draws,
            p.b_wins,
            100.0 * lo,
            100.0 * hi
        ));
    }
    if t.error_count > 0 {
        out.push_str(&format!("errors: {}\n", t.error_count));
    }
    let games: u64 = t.pairs.iter().map(|p| p.games).sum::<u64>() + t.error_count;
    out.push_str(&format!("{games} games in {seconds:.2} s\n"));
    out
}

fn json_report(t: &TournamentResult, a: &TournamentArgs, seconds: f64) -> Json {
    let num = |x: f64| if x.is_finite() { json!(x) } else { Json::Null };
    json!({
        "agents": t.agents.iter().map(|s| json!({
            "name": s.name,
            "games": s.games,
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.losses,
            "rating": num(s.rating.rating),
            "rating_low": num(s.rating.low),
            "rating_high": num(s.rating.high),
        })).collect::<Vec<_>>(),
        "pairs": t.pairs.iter().map(|p| {
            let (lo, hi) = score_interval(p.a_wins as f64 + 0.5 * p.draws as f64, p.games);
            json!({
                "a": t.agents[p.a].name,
                "b": t.agents[p.b].name,
                "games": p.games,
                "a_wins": p.a_wins,
                "b_wins": p.b_wins,
                "draws": p.draws,
                "a_score_interval95": [lo, hi],
            })
        }).collect::<Vec<_>>(),
        "games_per_pair": a.games_per_pair,
        "seed": a.seed,
        "errors": t.errors,
        "error_count": t.error_count,
        "seconds": seconds,
    })
}

pub fn tournament(a: &TournamentArgs) -> i32 {
    let loaded = match load_game(&a.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let remote = match remote_options(&loaded, &a.remote) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let mut specs = Vec::new();
    for text in &a.agents {
        match agent_spec_with(&loaded, "--agents", text, &remote) {
            Ok(s) => specs.push(s),
            Err(code) => return code,
        }
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return fail(USAGE, "--jobs must be at least 1");
    }
    if a.games_per_pair == 0 {
        return fail(USAGE, "--games-per-pair must be at least 1");
    }
    let n = a.agents.len() as u64;
    let total = n
        .saturating_mul(n.saturating_sub(1))
        .saturating_mul(a.games_per_pair);
    let bar = (a.format == Format::Text && stderr_is_terminal()).then(|| {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let cfg = TournamentConfig {
        agents: a.agents.clone(),
        games_per_pair: a.games_per_pair,
        seed: a.seed,
        jobs,
        progress: bar.is_some().then_some(&tick as &(dyn Fn() + Sync)),
    };
    let started = Instant::now();
    let result = tournament_specs(&loaded.game, &cfg, &specs);
    let seconds = started.elapsed().as_secs_f64();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let t = match result {
        Ok(t) => t,
        Err(e) => return fail(USAGE, e),
    };
    let code = match a.format {
        Format::Json => write_output(None, &json_text(&json_report(&t, a, seconds))),
        Format::Text => write_output(None, &text_report(&t, a.games_per_pair, seconds)),
    };
    if code != OK {
        return code;
    }
    for e in t.errors.iter().take(SHOWN_ERRORS) {
        eprintln!("error: {e}");
    }
    if t.error_count as usize > SHOWN_ERRORS {
        eprintln!("... and {} more", t.error_count as usize - SHOWN_ERRORS);
    }
    if t.error_count == 0 {
        OK
    } else {
        INVALID
    }
}
