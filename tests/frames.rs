//! Snapshots of `watch` frames for every canonical game: the first steps and the last of a seeded game
//! between greedy and random, drawn without colour, stay byte-identical. Bless after an intended change
//! to drawing or to a ruleset's `display` with `ARBITER_BLESS=1 cargo test --test frames`.
mod support;
use support::{deep, root};

use arbiter::agents::by_name;
use arbiter::engine::Engine;
use arbiter::render;
use arbiter::ruleset::load;
use arbiter::simulate::{play_match_observed, PlayOptions, Step};

/// Frames of one game: the start, the first `first` steps, and the last.
fn frames(ruleset: &str, seed: u64, first: usize, color: bool) -> String {
    let ruleset = ruleset.to_string();
    deep(move || {
        let game = load(
            &root().join("rulesets").join(&ruleset).display().to_string(),
            None,
            &[],
        )
        .unwrap_or_else(|e| panic!("{ruleset}: {:?}", e.diagnostics()))
        .game;
        let mut engine = Engine::new(game.clone()).unwrap();
        engine.set_logging(true);
        let m = engine.start(seed).unwrap();
        let events = engine.take_log();
        let mut out = format!("start\n{}", render::frame(&game, &m.state, &events, color));
        let mut seats = vec![
            by_name("greedy", seed, 0).unwrap(),
            by_name("random", seed, 1).unwrap(),
        ];
        let mut step = 0;
        let mut last = String::new();
        let opts = PlayOptions {
            record: true,
            check: false,
        };
        play_match_observed(&mut engine, &mut seats, seed, opts, &mut |s: &Step| {
            step += 1;
            let text = format!(
                "\nstep {step} ({} actions)\n{}",
                s.actions.len(),
                render::frame(&game, &s.m.state, s.events, color)
            );
            if step <= first {
                out.push_str(&text);
            } else {
                last = text;
            }
        })
        .unwrap();
        out.push_str(&last);
        out
    })
}

fn check(name: &str, text: &str) {
    let path = root().join("tests/frames").join(format!("{name}.txt"));
    if std::env::var_os("ARBITER_BLESS").is_some() || !path.exists() {
        std::fs::write(&path, text).expect("write snapshot");
        return;
    }
    let want = std::fs::read_to_string(&path).expect("read snapshot");
    if want != text {
        let line = want
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(text.lines().count()));
        panic!(
            "{name}: frames differ from {} at line {} (bless with ARBITER_BLESS=1 if intended)\n  want: {:?}\n  now:  {:?}",
            path.display(),
            line + 1,
            want.lines().nth(line),
            text.lines().nth(line)
        );
    }
}

#[test]
fn frames_of_every_canonical_game_stay_identical() {
    for (name, seed) in [
        ("asg", 3),
        ("war_of_attrition", 3),
        ("strategic_influence", 3),
    ] {
        let text = frames(name, seed, 4, false);
        assert!(
            !text.contains('\x1b'),
            "{name}: escape codes without colour"
        );
        check(name, &text);
    }
}

#[test]
fn colours_only_when_asked_and_the_text_is_the_same() {
    let plain = frames("strategic_influence", 5, 3, false);
    let coloured = frames("strategic_influence", 5, 3, true);
    assert!(coloured.contains("\x1b[94m") && coloured.contains("\x1b[91m"));
    // Without its escape codes, the coloured frame is the plain one.
    let mut stripped = String::new();
    let mut chars = coloured.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            stripped.push(c);
        }
    }
    assert_eq!(stripped, plain);
}

#[test]
fn hex_rows_are_staggered_and_graphs_show_every_node_and_edge() {
    let woa = frames("war_of_attrition", 1, 0, false);
    let board: Vec<&str> = woa.lines().skip(3).take(9).collect();
    // Odd-r: rows B, D, F, H (index 1, 3...) are shoved half a cell right.
    for (i, line) in board.iter().enumerate() {
        let after_label = &line[1..];
        let lead = after_label.len() - after_label.trim_start().len();
        assert_eq!(lead, if i % 2 == 1 { 2 } else { 1 }, "row {i}: {line:?}");
    }
    let asg = frames("asg", 1, 0, false);
    for id in ["p1_hq", "p1_bridge", "mid_n", "res_s", "p2_hq"] {
        assert!(asg.contains(id), "{id} missing:\n{asg}");
    }
    assert!(asg.contains("p1_hq 1:10---p1_bridge"), "{asg}");
    assert!(
        asg.lines().any(|l| l.trim() == "|"),
        "vertical edges:\n{asg}"
    );
}
