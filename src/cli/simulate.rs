//! `arbiter simulate`: many games between agents; wins with 95% Wilson intervals, draws, mean length, speed.
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Map, Value as Json};

use super::args::{Format, SimulateArgs};
use super::game::{load_game, remote_options, seat_specs};
use super::output::{fail, json_text, stderr_is_terminal, write_output};
use super::report::write_report;
use super::{INVALID, OK, USAGE};
use crate::ruleset::load::parse_override;
use crate::simulate::stats::{wilson, Z_95};
use crate::simulate::{simulate_specs, SimConfig, Summary};

/// Error messages shown in text output before the rest are counted only.
const SHOWN_ERRORS: usize = 10;

fn interval(k: u64, n: u64) -> (f64, f64) {
    wilson(k, n, Z_95)
}

fn text_report(s: &Summary, agents: &[String], seconds: f64) -> String {
    let mut out = String::new();
    let pct = |k: u64| {
        if s.games == 0 {
            0.0
        } else {
            100.0 * k as f64 / s.games as f64
        }
    };
    for (i, (player, wins)) in s.wins.iter().enumerate() {
        let (lo, hi) = interval(*wins, s.games);
        let agent = agents.get(i).map_or("", String::as_str);
        out.push_str(&format!(
            "{player} ({agent}): {wins} wins, {:.1}% [95% CI {:.1}%, {:.1}%]\n",
            pct(*wins),
            100.0 * lo,
            100.0 * hi
        ));
    }
    let (lo, hi) = interval(s.draws, s.games);
    out.push_str(&format!(
        "draws: {}, {:.1}% [95% CI {:.1}%, {:.1}%]\n",
        s.draws,
        pct(s.draws),
        100.0 * lo,
        100.0 * hi
    ));
    out.push_str(&format!(
        "mean turns: {:.2}, mean plies: {:.2}\n",
        s.mean_turns, s.mean_plies
    ));
    if s.error_count > 0 {
        out.push_str(&format!("errors: {}\n", s.error_count));
    }
    let rate = if seconds > 0.0 {
        s.games as f64 / seconds
    } else {
        0.0
    };
    out.push_str(&format!(
        "{} games in {seconds:.2} s ({rate:.1} games/s)\n",
        s.games
    ));
    out
}

/// What `simulate --format json` adds to INTERFACE.md (docs/interface-extensions.md): which game was
/// played with which overrides, and how long games lasted and how they ended (what `report` charts).
fn extensions(v: &mut Json, s: &Summary, game: &crate::ruleset::Game, a: &SimulateArgs) {
    let overrides: Map<String, Json> = a
        .game
        .set
        .iter()
        .filter_map(|kv| parse_override(kv).ok())
        .collect();
    let lengths: Vec<Json> = s.lengths.iter().map(|(t, n)| json!([t, n])).collect();
    v["ruleset"] = json!(game.id);
    v["scenario"] = json!(game.scenario);
    v["overrides"] = Json::Object(overrides);
    v["settings"] = json!(game.settings);
    v["lengths"] = Json::Array(lengths);
    v["reasons"] = json!(s.reasons);
}

fn json_report(s: &Summary, agents: &[String], seed: u64, seconds: f64, check: bool) -> Json {
    let mut intervals = Map::new();
    for (player, wins) in &s.wins {
        let (lo, hi) = interval(*wins, s.games);
        intervals.insert(player.clone(), json!([lo, hi]));
    }
    let (lo, hi) = interval(s.draws, s.games);
    intervals.insert("draws".into(), json!([lo, hi]));
    let mut v = json!({
        "games": s.games,
        "wins": s.wins,
        "draws": s.draws,
        "mean_turns": s.mean_turns,
        "mean_plies": s.mean_plies,
        "agents": agents,
        "seed": seed,
        "intervals95": intervals,
        "errors": s.errors,
        "error_count": s.error_count,
        "seconds": seconds,
        "games_per_second": if seconds > 0.0 { s.games as f64 / seconds } else { 0.0 },
    });
    if check {
        v["check_failures"] = json!(s.check_failures);
        v["check_failure_count"] = json!(s.check_failure_count);
    }
    v
}

pub fn simulate(a: &SimulateArgs) -> i32 {
    let loaded = match load_game(&a.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let specs = match remote_options(&loaded, &a.remote)
        .and_then(|r| seat_specs(&loaded, &a.p1, &a.p2, &r))
    {
        Ok(s) => s,
        Err(code) => return code,
    };
    let agents: Vec<String> = specs.iter().map(|s| s.text.clone()).collect();
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return fail(USAGE, "--jobs must be at least 1");
    }
    if a.games > crate::simulate::MAX_GAMES {
        return fail(
            USAGE,
            format!(
                "--games {} is more than {} (2^53), the most whose counts stay exact",
                a.games,
                crate::simulate::MAX_GAMES
            ),
        );
    }
    let bar = (a.format == Format::Text && stderr_is_terminal()).then(|| {
        let bar = ProgressBar::with_draw_target(Some(a.games), ProgressDrawTarget::stderr());
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
    let cfg = SimConfig {
        agents: agents.clone(),
        games: a.games,
        seed: a.seed,
        jobs,
        check: a.check,
        progress: bar.is_some().then_some(&tick as &(dyn Fn() + Sync)),
    };
    let started = Instant::now();
    let result = simulate_specs(&loaded.game, &cfg, &specs);
    let seconds = started.elapsed().as_secs_f64();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let summary = match result {
        Ok(s) => s,
        Err(e) => return fail(USAGE, e),
    };
    let mut json = json_report(&summary, &agents, a.seed, seconds, a.check);
    extensions(&mut json, &summary, &loaded.game, a);
    let code = match a.format {
        Format::Json => write_output(None, &json_text(&json)),
        Format::Text => write_output(None, &text_report(&summary, &agents, seconds)),
    };
    if code != OK {
        return code;
    }
    let code = match &a.report {
        Some(path) => write_report(path, &json),
        None => OK,
    };
    if code != OK {
        return code;
    }
    for e in summary.errors.iter().take(SHOWN_ERRORS) {
        eprintln!("error: {e}");
    }
    for f in summary.check_failures.iter().take(SHOWN_ERRORS) {
        eprintln!("check failed: {f}");
    }
    let shown =
        summary.errors.len().min(SHOWN_ERRORS) + summary.check_failures.len().min(SHOWN_ERRORS);
    let hidden = (summary.error_count + summary.check_failure_count).saturating_sub(shown as u64);
    if hidden > 0 {
        eprintln!("... and {hidden} more");
    }
    if summary.error_count == 0 && summary.check_failure_count == 0 {
        OK
    } else {
        INVALID
    }
}
