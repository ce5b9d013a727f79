//! Values a ruleset declares and analysis now checks instead of ignoring: a player or unit variable's
//! `initial` given as a constant expression (settings, literals, player ids) is folded into the starting
//! position, and limits bounded by other settings hold after `--set` (Strategic Influence's placement
//! never exceeds the stone cap).
use std::fs;
use std::path::PathBuf;

use arbiter::model::{Ty, Value};
use serde_json::json;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch ruleset folder with `ruleset.yaml` (from `text`) and a 2x1 square scenario `tiny`.
fn scratch(test: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-declared-values-{test}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("scenarios")).unwrap();
    fs::write(dir.join("ruleset.yaml"), text).unwrap();
    fs::write(
        dir.join("scenarios/tiny.yaml"),
        "ruleset: fixture\nid: tiny\nboard: {width: 2, height: 1}\n",
    )
    .unwrap();
    dir
}

const RULESET: &str = r#"id: fixture
version: "1"
players: [P1, P2]
default_scenario: tiny
settings:
  startingGold: 7
  bonus: 0.5
board:
  topology: square
  ids: {first: col, rows: numbers, cols: letters}
state:
  player:
    gold: {type: int, initial: settings.startingGold, min: 0}
    doubled: {type: int, initial: "settings.startingGold * 2"}
    rate: {type: float, initial: "settings.startingGold + settings.bonus"}
    rival: {type: player, initial: P2}
actions:
  pass: {}
flow:
  phases:
    - {name: main, order: alternating, submission: single, actions: [pass]}
"#;

#[test]
fn constant_initials_of_player_variables_are_folded() {
    let dir = scratch("player_initials", RULESET);
    let loaded = arbiter::ruleset::load(&dir.display().to_string(), None, &[])
        .unwrap_or_else(|e| panic!("{:?}", e.diagnostics()));
    let g = &loaded.game;
    let value = |player: usize, name: &str| {
        let d = g.player_vars.iter().find(|v| v.name == name).unwrap();
        Value::decode(
            g.initial.player_vars[player * g.player_slots + d.slot as usize],
            d.ty,
        )
    };
    for p in 0..2 {
        assert_eq!(value(p, "gold"), Value::Int(7));
        assert_eq!(value(p, "doubled"), Value::Int(14));
        assert_eq!(value(p, "rate"), Value::Float(7.5));
        assert_eq!(value(p, "rival"), Value::Player(1));
    }
    // `--set` reaches the folded value too.
    let set = vec![("settings.startingGold".to_string(), json!(3))];
    let loaded = arbiter::ruleset::load(&dir.display().to_string(), None, &set).unwrap();
    let g = &loaded.game;
    let d = g.player_vars.iter().find(|v| v.name == "doubled").unwrap();
    assert_eq!(
        Value::decode(g.initial.player_vars[d.slot as usize], Ty::Int),
        Value::Int(6)
    );
}

#[test]
fn a_folded_initial_outside_the_variables_bounds_is_refused() {
    let dir = scratch("folded_out_of_range", RULESET);
    let set = vec![("settings.startingGold".to_string(), json!(-1))];
    let err = arbiter::ruleset::load(&dir.display().to_string(), None, &set)
        .expect_err("gold would start below its min");
    let codes: Vec<&str> = err.diagnostics().iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["ruleset::initial_out_of_range"], "{codes:?}");
}

#[test]
fn placement_above_the_stone_cap_is_refused_after_set() {
    let si = root().join("rulesets/strategic_influence");
    let si = si.display().to_string();
    for (k, v) in [("stonesPerPlacement", 11), ("maxStones", 2)] {
        let set = vec![(format!("settings.{k}"), json!(v))];
        let err = arbiter::ruleset::load(&si, None, &set)
            .err()
            .unwrap_or_else(|| panic!("--set settings.{k}={v} is accepted"));
        let d = &err.diagnostics()[0];
        assert_eq!(err.diagnostics().len(), 1, "{:?}", err.diagnostics());
        assert_eq!(d.code, "ruleset::setting_out_of_range");
        assert!(d.message.contains("stonesPerPlacement"), "{}", d.message);
        assert!(d.message.contains("settings.maxStones"), "{}", d.message);
    }
    // At the cap is fine.
    let set = vec![("settings.stonesPerPlacement".to_string(), json!(10))];
    assert!(arbiter::ruleset::load(&si, None, &set).is_ok());
}
