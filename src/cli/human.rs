//! `arbiter play`: a person against an agent in the terminal (or through a pipe: lines in, text out).
//! The session logic is `play::session`; this file reads lines, prints, and writes the replay.
use std::io::{BufRead, IsTerminal, Write};

use super::args::PlayArgs;
use super::game::{agent_spec_with, load_game, remote_options};
use super::output::{fail, write_output};
use super::watch::stdout_color;
use super::{INVALID, OK, USAGE};
use crate::play::session::{Outcome, Session};

/// Longest input line read (a longer one is refused, not buffered without end).
const MAX_LINE: usize = 64 * 1024;

pub fn play(a: &PlayArgs) -> i32 {
    let loaded = match load_game(&a.game) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = loaded.game.clone();
    if game.players.len() != 2 {
        return fail(
            USAGE,
            format!(
                "play seats two players, but this game has {}",
                game.players.len()
            ),
        );
    }
    let human = match &a.seat {
        None => 0,
        Some(p) => match game.player_index(p) {
            Some(i) => i,
            None => {
                return fail(
                    USAGE,
                    format!(
                        "--as {p}: not a player (players: {})",
                        game.players.join(", ")
                    ),
                )
            }
        },
    };
    let spec = match remote_options(&loaded, &a.remote)
        .and_then(|r| agent_spec_with(&loaded, "--opponent", &a.opponent, &r))
    {
        Ok(s) => s,
        Err(code) => return code,
    };
    let echo = !std::io::stdin().is_terminal();
    let (mut session, opening) = match Session::new(game, human, &spec, a.seed, stdout_color()) {
        Ok(s) => s,
        Err(e) => return fail(INVALID, format!("the rules failed: {e}")),
    };
    let mut out = std::io::stdout().lock();
    let mut say = |text: &str| {
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    };
    say(&opening);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = String::new();
    loop {
        if session.is_over() {
            say(&format!("Game over: {}\n", session.result()));
            break;
        }
        say(&session.prompt());
        line.clear();
        let read = std::io::Read::take(&mut input, MAX_LINE as u64 + 1).read_line(&mut line);
        match read {
            Ok(0) => {
                say("\n(end of input)\n");
                if let Err(e) = session.quit() {
                    return fail(INVALID, format!("the rules failed: {e}"));
                }
                break;
            }
            Ok(_) if line.len() > MAX_LINE => {
                say("\nThat line is too long; nothing changed.\n");
                // Skip the rest of it.
                let mut rest = Vec::new();
                let _ = input.read_until(b'\n', &mut rest);
                continue;
            }
            Ok(_) => {}
            Err(e) => {
                say(&format!("\ncannot read input ({e}); nothing changed\n"));
                line.clear();
                let mut rest = Vec::new();
                if input.read_until(b'\n', &mut rest).map_or(true, |n| n == 0) {
                    break;
                }
                continue;
            }
        }
        if echo {
            say(&format!("{}\n", line.trim_end()));
        }
        match session.handle(&line) {
            Ok((outcome, text)) => {
                say(&text);
                match outcome {
                    Outcome::Continue => {}
                    Outcome::Quit => break,
                    Outcome::Over => {
                        say(&format!("Game over: {}\n", session.result()));
                        break;
                    }
                }
            }
            Err(e) => return fail(INVALID, format!("the rules failed: {e}")),
        }
    }
    if let Some(path) = &a.out {
        let code = write_output(Some(path), &session.replay().to_text());
        if code != OK {
            return code;
        }
    }
    OK
}
