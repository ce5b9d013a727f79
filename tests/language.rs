//! Language features no shipped game needs all of (issue 9): game variables in expressions and the state
//! JSON, cell literals and typed nones, per-player constants, elimination in a game without units, and
//! stages listing only their own actions. Each runs a small ruleset written here through `arbiter run`.
mod support;
use serde_json::{json, Value};
use support::{arbiter_in, code, scratch, stderr, stdout};

/// What every ruleset of these tests starts with: its id, players and board (the strip scenario's).
const HEADER: &str = r#"
id: lang
version: "1"
players: [P1, P2]
default_scenario: strip
board:
  topology: square
  ids: {first: col, rows: numbers, cols: letters}
"#;

/// The rest of the ruleset most tests here play (after [`HEADER`]).
const RULESET: &str = r#"
state:
  player:
    step: {type: int, constant: true, initial: {P1: 1, P2: -1}}
  game:
    pot: {type: int, initial: 10, min: 0}
actions:
  bet:
    effects:
      - add: {game.pot: me.step}
      - emit: {type: bet, player: me, pot: game.pot}
  take:
    params:
      at: {type: cell, invalid: unknown_cell, in: "cells where owner == opponent", not_in: not_theirs}
    effects:
      - let: {corner: "cell(none)"}
      - if: "at == cell('A1')"
        then: [{set: {corner: at}}]
      - set: {at.owner: me}
      - emit: {type: take, player: me, at: at, corner: corner}
  stop: {cost: 0, effects: [{end_stage: true}]}
flow:
  phases:
    - name: main
      order: alternating
      stages:
        - {name: betting, actions: [bet, stop], budget: 2}
        - {name: taking, actions: [take, stop]}
victory:
  - {kind: elimination, reason: wiped_out}
"#;

const SCENARIO: &str = r#"
ruleset: lang
id: strip
board:
  width: 3
  height: 1
  layers:
    owner: ["P1 P2 P2"]
"#;

fn run(name: &str, submissions: Value) -> Value {
    run_ruleset(name, RULESET, submissions)
}

/// A match script of `submissions` run on the ruleset [`HEADER`] then `rules` and the strip scenario.
fn run_ruleset(name: &str, rules: &str, submissions: Value) -> Value {
    let dir = scratch("language", name);
    std::fs::create_dir_all(dir.join("rulesets/lang")).unwrap();
    std::fs::create_dir_all(dir.join("scenarios/lang")).unwrap();
    let ruleset = format!("{HEADER}{rules}");
    std::fs::write(dir.join("rulesets/lang/ruleset.yaml"), ruleset).unwrap();
    std::fs::write(dir.join("scenarios/lang/strip.yaml"), SCENARIO).unwrap();
    let script = json!({"ruleset": "lang", "seed": 1, "submissions": submissions});
    std::fs::write(dir.join("match.json"), script.to_string()).unwrap();
    let o = arbiter_in(&dir, &["run", "match.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("a replay")
}

fn events(replay: &Value) -> Vec<Value> {
    replay["events"].as_array().expect("events").clone()
}

#[test]
fn game_variables_per_player_constants_and_stages() {
    let r = run(
        "stages",
        json!([
            {"player": "P1", "actions": [{"type": "take", "at": "B1"}, {"type": "bet"}, {"type": "bet"}, {"type": "take", "at": "B1"}]},
        ]),
    );
    let ev = events(&r);
    // Taking is not allowed in the betting stage; two bets use its budget and move on to taking.
    assert_eq!(ev[0]["reason"], "not_allowed_now", "{ev:?}");
    assert_eq!(ev[1], json!({"type": "bet", "player": "P1", "pot": 11}));
    assert_eq!(ev[2], json!({"type": "bet", "player": "P1", "pot": 12}));
    assert_eq!(
        ev[3],
        json!({"type": "take", "player": "P1", "at": "B1", "corner": null})
    );
    // The taking stage lasts until the player moves on: still P1's turn, no budget.
    assert_eq!(r["state"]["game"], json!({"pot": 12}));
    assert_eq!(r["state"]["stage"], "taking");
    assert_eq!(r["state"]["points"], Value::Null);
    assert_eq!(r["state"]["active"], json!(["P1"]));
}

#[test]
fn elimination_without_units_is_owning_no_cell() {
    let r = run(
        "elimination",
        json!([
            {"player": "P1", "actions": [{"type": "stop"}, {"type": "take", "at": "B1"}, {"type": "take", "at": "C1"}]},
        ]),
    );
    let ev = events(&r);
    assert_eq!(
        ev.last(),
        Some(&json!({"type": "game_end", "winner": "P1", "reason": "wiped_out"})),
        "{ev:?}"
    );
    assert_eq!(r["result"]["winner"], "P1");
}

#[test]
fn typed_none_and_cell_literal() {
    let r = run(
        "literals",
        json!([
            {"player": "P1", "actions": [{"type": "stop"}, {"type": "take", "at": "C1"}, {"type": "stop"}]},
            {"player": "P2", "actions": [{"type": "bet"}, {"type": "bet"}, {"type": "take", "at": "A1"}]},
        ]),
    );
    let ev = events(&r);
    // `corner` starts as `cell(none)` and is set only when the cell taken is `cell('A1')`.
    assert_eq!(
        ev[0],
        json!({"type": "take", "player": "P1", "at": "C1", "corner": null})
    );
    // P2's step is -1: a per-player constant.
    assert_eq!(ev[1], json!({"type": "bet", "player": "P2", "pot": 9}));
    assert_eq!(
        ev[3],
        json!({"type": "take", "player": "P2", "at": "A1", "corner": "A1"})
    );
}

#[test]
fn a_split_lists_every_share_once_and_checks_the_rest() {
    use arbiter::engine::Engine;
    let dir = support::root().join("rulesets/blotto");
    let l = arbiter::ruleset::load(&dir.display().to_string(), None, &[]).expect("blotto loads");
    let mut engine = Engine::new(l.game.clone()).expect("engine");
    let mut m = engine.start(1).expect("start");
    // 10 troops over 5 fields: C(14, 4) ways.
    assert_eq!(engine.count_legal(&mut m, 0).expect("count"), 1001);
    let mut listed = Vec::new();
    engine.legal(&mut m, 0, &mut listed).expect("list");
    let wire: Vec<Value> = listed
        .iter()
        .map(|a| arbiter::engine::wire::encode(&l.game, &m.state, a))
        .collect();
    assert_eq!(
        wire[0],
        json!({"type": "allocate", "allocation": [0, 0, 0, 0, 10]})
    );
    assert_eq!(
        wire[1000],
        json!({"type": "allocate", "allocation": [10, 0, 0, 0, 0]})
    );
    let mut sorted = wire.iter().map(|w| w.to_string()).collect::<Vec<_>>();
    sorted.dedup();
    assert_eq!(sorted.len(), 1001, "no share twice");
}

/// Effects after a win, or after a block that won, do not run: the game is over where it was won.
const WIN_MIDWAY: &str = r#"
state:
  game:
    pot: {type: int, initial: 10, min: 0}
actions:
  bet:
    effects:
      - add: {game.pot: 1}
  claim:
    effects:
      - if: "game.pot > 10"
        then: [{win: me, reason: rich}]
      - add: {game.pot: 1}
      - emit: {type: after_if, pot: game.pot}
      - {win: me, reason: claimed}
      - add: {game.pot: 100}
      - emit: {type: after_win}
flow:
  phases:
    - name: main
      order: alternating
      actions: [bet, claim]
victory:
  - {kind: elimination, reason: wiped_out}
"#;

#[test]
fn effects_stop_where_the_game_is_won() {
    let r = run_ruleset(
        "win_midway",
        WIN_MIDWAY,
        json!([{"player": "P1", "actions": [{"type": "claim"}]}]),
    );
    let ev = events(&r);
    assert_eq!(ev[0], json!({"type": "after_if", "pot": 11}), "{ev:?}");
    assert_eq!(
        ev.last(),
        Some(&json!({"type": "game_end", "winner": "P1", "reason": "claimed"}))
    );
    assert!(!ev.iter().any(|e| e["type"] == "after_win"), "{ev:?}");
    assert_eq!(r["state"]["game"], json!({"pot": 11}));

    // Won inside the `if`: nothing after the block runs either.
    let r = run_ruleset(
        "win_in_block",
        WIN_MIDWAY,
        json!([
            {"player": "P1", "actions": [{"type": "bet"}]},
            {"player": "P2", "actions": [{"type": "claim"}]},
        ]),
    );
    let ev = events(&r);
    assert!(!ev.iter().any(|e| e["type"] == "after_if"), "{ev:?}");
    assert_eq!(r["result"]["winner"], "P2");
    assert_eq!(r["result"]["reason"], "rich");
    assert_eq!(r["state"]["game"], json!({"pot": 11}));
}
