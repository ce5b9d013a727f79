//! A player's view of the state: variables declared `visible: owner` are shown only to their owner
//! (player variables to that player, each player's own entry of a per-player cell variable); the whole
//! state (replays, `run`) still shows everything.
mod support;
use support::root;

use arbiter::engine::Engine;
use arbiter::ruleset::load;
use serde_json::json;

#[test]
fn owner_only_variables_are_shown_to_their_owner_alone() {
    let path = root()
        .join("tests/fixtures/simultaneous/pennies")
        .display()
        .to_string();
    let sets = vec![
        (
            "state.player".to_string(),
            json!({"secret": {"type": "int", "initial": 7, "visible": "owner"},
                   "open": {"type": "int", "initial": 1}}),
        ),
        ("state.cell.pick.visible".to_string(), json!("owner")),
    ];
    let loaded = match load(&path, None, &sets) {
        Ok(l) => l,
        Err(e) => panic!("the fixture does not load: {:?}", e.diagnostics()),
    };
    let mut engine = Engine::new(loaded.game).unwrap();
    let m = engine.start(1).unwrap();

    let whole = engine.state_json(&m);
    assert_eq!(whole["players"]["P1"]["secret"], 7);
    assert_eq!(whole["players"]["P2"]["secret"], 7);
    assert_eq!(whole["cells"]["A1"]["pick"]["P2"], 0);

    let p1 = engine.state_view(&m, 0);
    assert_eq!(p1["players"]["P1"]["secret"], 7);
    assert!(p1["players"]["P2"].get("secret").is_none(), "{p1}");
    assert_eq!(
        p1["players"]["P2"]["open"], 1,
        "variables visible to all stay"
    );
    assert_eq!(p1["cells"]["A1"]["pick"]["P1"], 0);
    assert!(p1["cells"]["A1"]["pick"].get("P2").is_none(), "{p1}");

    let p2 = engine.state_view(&m, 1);
    assert!(p2["players"]["P1"].get("secret").is_none());
    assert_eq!(p2["players"]["P2"]["secret"], 7);
}

#[test]
fn canonical_games_hide_nothing() {
    for id in ["asg", "war_of_attrition", "strategic_influence"] {
        let path = root().join("rulesets").join(id).display().to_string();
        let loaded = load(&path, None, &[]).unwrap_or_else(|_| panic!("{id} loads"));
        let mut engine = Engine::new(loaded.game).unwrap();
        let m = engine.start(3).unwrap();
        let whole = engine.state_json(&m);
        for p in 0..2 {
            assert_eq!(engine.state_view(&m, p), whole, "{id}, player {p}");
        }
    }
}
