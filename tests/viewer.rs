//! `arbiter view` without a browser (tests/browser.rs opens the pages in Chromium): the viewer labels
//! cells exactly as the terminal drawing does, from the same state JSON agents receive; pages are
//! written beside the replay or where `-o` says, stay small, load nothing from anywhere, and a replay
//! that does not verify is refused.
mod support;

use arbiter::agents::AgentSpec;
use arbiter::engine::state_json::state_json;
use arbiter::engine::Engine;
use arbiter::render::cells::label;
use arbiter::render::html::frames::shown;
use arbiter::render::style::Role;
use arbiter::render::{players, players_in};
use arbiter::ruleset::load;
use arbiter::simulate::{play_match_observed, PlayOptions, Step};
use support::{arbiter_in, code, network_references, root, scratch, stderr, stdout};

const GAMES: [&str; 3] = ["asg", "war_of_attrition", "strategic_influence"];

#[test]
fn terminal_and_viewer_label_every_cell_alike_at_every_step() {
    support::deep(|| {
        for id in GAMES {
            let path = root().join("rulesets").join(id).display().to_string();
            let loaded = load(&path, None, &[]).unwrap_or_else(|_| panic!("{id} loads"));
            let g = loaded.game.clone();
            let mut engine = Engine::new(g.clone()).unwrap();
            let mut seats: Vec<_> = (0..2u8)
                .map(|p| AgentSpec::new("random", &g).unwrap().build(5, p))
                .collect();
            let mut steps = 0;
            let opts = PlayOptions {
                record: false,
                check: false,
            };
            play_match_observed(&mut engine, &mut seats, 5, opts, &mut |s: &Step| {
                steps += 1;
                let st = &s.m.state;
                let json = state_json(&g, st);
                let viewer = shown(&g, &json);
                assert_eq!(viewer.len(), g.board.len());
                for (c, cell) in viewer.iter().enumerate() {
                    let terminal = label(&g, st, c as u32);
                    assert_eq!(cell.text, terminal.text, "{id} step {steps} cell {c}");
                    let tint = match terminal.role {
                        Role::Player(p) => i64::from(p),
                        _ => -1,
                    };
                    assert_eq!(cell.tint, tint, "{id} step {steps} cell {c}");
                    let owner = st.owner_of(c as u32).map_or(-1, i64::from);
                    assert_eq!(cell.owner, owner, "{id} step {steps} cell {c}");
                }
                assert_eq!(players_in(&g, &json, false), players(&g, st, false));
            })
            .unwrap();
            assert!(steps > 1, "{id}: a game of several steps");
        }
    });
}

/// A replay of a random game of `id` in `dir`.
fn replay(dir: &std::path::Path, id: &str) -> std::path::PathBuf {
    let out = dir.join(format!("{id}.json"));
    let o = arbiter_in(
        &root(),
        &[
            "match",
            "--ruleset",
            id,
            "--p1",
            "random",
            "--p2",
            "random",
            "--seed",
            "1",
            "--out",
            &out.display().to_string(),
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    out
}

#[test]
fn pages_are_written_beside_the_replay_and_load_nothing() {
    let dir = scratch("viewer", "beside");
    for id in GAMES {
        let r = replay(&dir, id);
        let o = arbiter_in(&dir, &["view", &r.display().to_string()]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let page = std::fs::read_to_string(r.with_extension("html")).expect("written beside");
        assert!(stderr(&o).starts_with("wrote "), "{}", stderr(&o));
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("Content-Security-Policy"));
        let refs = network_references(&page);
        assert!(refs.is_empty(), "{id}: {refs:?}");
        // Stdout with `-o -`, identical bytes: same inputs, same page.
        let o = arbiter_in(&dir, &["view", &r.display().to_string(), "-o", "-"]);
        assert_eq!(code(&o), 0);
        assert_eq!(stdout(&o), page, "{id}: the page is deterministic");
    }
}

#[test]
fn the_check_for_network_references_finds_them() {
    let page = "<!-- https://in.a.comment --><style>/* http://x */ a { color: red }</style>\
                <script>\n// http://line.comment\nvar x = 1;</script><a href=\"#here\">ok</a>";
    assert!(network_references(page).is_empty());
    assert_eq!(network_references("<img src=\"http://a/b.png\">").len(), 2);
    assert_eq!(network_references("<link href=\"style.css\">").len(), 1);
    assert_eq!(network_references("fetch('HTTPS://x')").len(), 1);
}

#[test]
fn long_replays_make_small_pages() {
    let dir = scratch("viewer", "small");
    // Random against random: ASG runs to its 60-ply cap, War of Attrition to its 30-turn limit.
    for (id, plies, most) in [("asg", 60, 120_000), ("war_of_attrition", 60, 160_000)] {
        let r = replay(&dir, id);
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&r).unwrap()).unwrap();
        assert_eq!(
            json["state"]["ply"], plies,
            "{id}: the long game this test is about"
        );
        let o = arbiter_in(&dir, &["view", &r.display().to_string(), "-o", "-"]);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let size = o.stdout.len();
        assert!(size < most, "{id}: {size} bytes (at most {most})");
    }
}

#[test]
fn only_replays_that_verify_are_viewed() {
    let dir = scratch("viewer", "refused");
    let r = replay(&dir, "asg");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&r).unwrap()).unwrap();
    json["events"][0]["amount"] = serde_json::json!(99);
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, json.to_string()).unwrap();
    let o = arbiter_in(&dir, &["view", "tampered.json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("event 0 differs"), "{}", stderr(&o));
    assert!(stderr(&o).contains("only a replay that verifies can be viewed"));
    assert!(!dir.join("tampered.html").exists(), "nothing written");

    std::fs::write(dir.join("not.json"), "{ nope").unwrap();
    let o = arbiter_in(&dir, &["view", "not.json"]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("not.json is not JSON"),
        "{}",
        stderr(&o)
    );

    let o = arbiter_in(&dir, &["view", "missing.json"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));

    let o = arbiter_in(&dir, &["view"]);
    assert_eq!(code(&o), 2, "a usage error: {}", stderr(&o));
}
