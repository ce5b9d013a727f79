//! `arbiter watch`: two agents play; the board is drawn after each submission with that step's events in
//! words, then the result. On a terminal each frame replaces the last (and owners are coloured unless
//! NO_COLOR is set); on a pipe the frames follow one another, without escape codes.
use std::io::{IsTerminal, Write};
use std::time::Duration;

use super::args::WatchArgs;
use super::game::{load_game, seat_agents};
use super::output::fail;
use super::{INVALID, OK};
use crate::engine::Engine;
use crate::play::text::short;
use crate::render::{self, style::CLEAR};
use crate::simulate::{play_match_observed, PlayOptions, Step};

/// Whether to colour output written to stdout.
pub fn stdout_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

pub fn watch(a: &WatchArgs) -> i32 {
    let loaded = match load_game(&a.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let mut seats = match seat_agents(&loaded, &a.p1, &a.p2, &a.remote, a.seed) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let game = loaded.game.clone();
    let mut engine = match Engine::new(game.clone()) {
        Ok(e) => e,
        Err(e) => return fail(INVALID, format!("the rules failed: {e}")),
    };
    let tty = std::io::stdout().is_terminal();
    let color = stdout_color();
    let delay = Duration::from_millis(a.delay.unwrap_or(if tty { 500 } else { 0 }));
    let names = [a.p1.clone(), a.p2.clone()];
    let mut out = std::io::stdout().lock();
    let mut closed = false;
    let mut show = |text: &str, out: &mut std::io::StdoutLock| {
        if closed {
            return;
        }
        let r = if tty {
            write!(out, "{CLEAR}{text}")
        } else {
            writeln!(out, "{text}")
        };
        // A closed pipe (`| head`) ends the drawing, not the game.
        if r.and_then(|_| out.flush()).is_err() {
            closed = true;
        }
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
    };
    // The starting position, as the match will begin it.
    engine.set_logging(true);
    match engine.start(a.seed) {
        Ok(m) => {
            let events = engine.take_log();
            let text = format!(
                "start: {} ({}) against {} ({})\n{}",
                game.players[0],
                names[0],
                game.players[1],
                names[1],
                render::frame(&game, &m.state, &events, color)
            );
            show(&text, &mut out);
        }
        Err(e) => return fail(INVALID, format!("the rules failed: {e}")),
    }
    let mut step = 0;
    let opts = PlayOptions {
        record: true,
        check: false,
    };
    let played = play_match_observed(&mut engine, &mut seats, a.seed, opts, &mut |s: &Step| {
        step += 1;
        let who = &game.players[s.player as usize];
        let acts: Vec<String> = s.actions.iter().map(|w| short(&game, w)).collect();
        let did = if acts.is_empty() {
            "handed in nothing".to_string()
        } else {
            acts.join("; ")
        };
        let text = format!(
            "step {step}: {who} ({}): {did}\n{}",
            names[s.player as usize],
            render::frame(&game, &s.m.state, s.events, color)
        );
        show(&text, &mut out);
    });
    match played {
        Ok(p) => {
            if !closed {
                let _ = writeln!(out, "result: {}", render::status(&game, &p.m.state));
            }
            OK
        }
        Err(e) => fail(INVALID, format!("the match failed: {e}")),
    }
}
