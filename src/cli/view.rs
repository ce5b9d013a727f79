//! `arbiter view REPLAY [-o FILE.html]`: re-runs the replay (it must verify) and writes the viewer page
//! with the position after every submission, by default beside the replay.
use std::path::{Path, PathBuf};

use super::args::ViewArgs;
use super::output::{fail, print_diagnostics, write_output};
use super::{INVALID, OK, USAGE};
use crate::play::text::short;
use crate::render::html::{viewer_of, Encoder, MatchInfo, Position};
use crate::replay::{verify_observed, VerifyError};
use crate::ruleset::load::read_source;

/// Where a page goes when no `-o` is given: beside `input`, its extension replaced by `.html`.
pub fn beside(input: &Path) -> PathBuf {
    if input.extension().is_some_and(|e| e == "html") {
        // Never over the input itself.
        input.with_extension("view.html")
    } else {
        input.with_extension("html")
    }
}

/// Writes `page` to `out` (`-`: stdout) and says where it went on stderr.
pub fn write_page(out: &Path, page: &str, what: &str) -> i32 {
    if out == Path::new("-") {
        return write_output(None, page);
    }
    let code = write_output(Some(out), page);
    if code == OK {
        eprintln!(
            "wrote {} ({what}, {} KB)",
            out.display(),
            page.len().div_ceil(1024)
        );
    }
    code
}

fn result_words(replay: &serde_json::Value) -> String {
    let r = &replay["result"];
    let reason = r["reason"].as_str().unwrap_or("no reason given");
    match (r["status"].as_str(), r["winner"].as_str()) {
        (Some("finished"), Some(w)) => format!("{w} wins ({reason})"),
        (Some("finished"), None) => format!("a draw ({reason})"),
        _ => "not finished".into(),
    }
}

pub fn view(a: &ViewArgs) -> i32 {
    let source = match read_source(&a.replay) {
        Ok(s) => s,
        Err(d) => {
            print_diagnostics(&[d]);
            return USAGE;
        }
    };
    let json: serde_json::Value = match serde_json::from_str(&source.text) {
        Ok(v) => v,
        Err(e) => return fail(INVALID, format!("{} is not JSON: {e}", a.replay.display())),
    };
    // The game comes with the first position; each position is encoded as it comes and dropped.
    let mut frames: Option<Encoder> = None;
    let verified = verify_observed(&json, &mut |o| {
        let g = &o.engine.game;
        let submitted = o.submission.map(|s| {
            (
                s.player.clone(),
                s.actions.iter().map(|w| short(g, w)).collect(),
            )
        });
        frames
            .get_or_insert_with(|| Encoder::new(g.clone()))
            .push(&Position::capture(o.engine, o.m, submitted, o.events));
    });
    match verified {
        Ok(()) => {}
        Err(VerifyError::Load(f)) => {
            print_diagnostics(&f.diagnostics);
            return f.exit_code;
        }
        Err(e) => {
            return fail(
                e.exit_code(),
                format!(
                    "{}: {e} (only a replay that verifies can be viewed)",
                    a.replay.display()
                ),
            )
        }
    }
    let Some(frames) = frames else {
        return fail(
            INVALID,
            format!("{}: the replay has no positions", a.replay.display()),
        );
    };
    let game = frames.game().clone();
    let info = MatchInfo {
        title: format!(
            "{}, {}, seed {}",
            game.id,
            json["scenario"].as_str().unwrap_or("?"),
            json["seed"]
        ),
        result: result_words(&json),
    };
    let what = format!("{} steps", frames.len().saturating_sub(1));
    let page = viewer_of(&game, &info, frames.finish());
    let out = a.out.clone().unwrap_or_else(|| beside(&a.replay));
    write_page(&out, &page, &what)
}
