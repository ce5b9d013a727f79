//! Designer variants of War of Attrition, made without touching Rust (fixtures in tests/fixtures/variants/):
//! (a) a ruleset copy with a new unit type, the spearman, that can be recruited and fights with its own stats
//!     and a scripted ability; (b) a 15x9 scenario with its own terrain layer, whose legal moves, income and
//!     strongholds work; (c) a shorter `turnLimit` through overrides (`--set`) that ends the game earlier.
//! They use the library API (`ruleset::load`, `Engine`) and, for `--set`, the binary.
mod support;
use std::process::Command;
use std::sync::Arc;
use support::root;

use arbiter::engine::{Engine, Match, SubmitError};
use arbiter::replay::legal::legal_json;
use arbiter::ruleset::{load, Game, LoadError};
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    let p = root().join("tests/fixtures/variants").join(name);
    p.display().to_string()
}

fn canonical() -> String {
    root()
        .join("rulesets/war_of_attrition")
        .display()
        .to_string()
}

fn game(ruleset: &str, scenario: Option<&str>, overrides: &[(String, Value)]) -> Arc<Game> {
    match load(ruleset, scenario, overrides) {
        Ok(l) => l.game,
        Err(e) => panic!(
            "{ruleset} ({scenario:?}) does not load: {:?}",
            e.diagnostics()
        ),
    }
}

fn set(key: &str, value: Value) -> Vec<(String, Value)> {
    vec![(key.to_string(), value)]
}

fn mv(unit: &str, to: &str) -> Value {
    json!({"action": "move", "unitId": unit, "to": to})
}
fn atk(unit: &str, target: &str) -> Value {
    json!({"action": "attack", "unitId": unit, "target": target})
}
fn rec(unit_type: &str, at: &str) -> Value {
    json!({"action": "recruit", "unitType": unit_type, "at": at})
}
fn end() -> Value {
    json!({"action": "end_turn"})
}

/// One match (seed 0) with its event log.
struct Play {
    engine: Engine,
    m: Match,
    log: Vec<Value>,
}

impl Play {
    fn new(game: Arc<Game>) -> Play {
        let mut engine = Engine::new(game).expect("engine");
        engine.set_logging(true);
        let m = engine.start(0).expect("start");
        let log = engine.take_log();
        Play { engine, m, log }
    }

    /// One submission; the events it caused are appended to the log.
    fn sub(&mut self, player: &str, actions: &[Value]) {
        let r = self.engine.submit(&mut self.m, player, actions);
        r.unwrap_or_else(|e| panic!("submission by {player} refused: {e:?}"));
        self.log.extend(self.engine.take_log());
    }

    /// Both players end their turns `rounds` times (or until the game ends).
    fn pass_rounds(&mut self, rounds: usize) {
        for _ in 0..rounds {
            for p in ["A", "B"] {
                if self.m.state.result.is_none() {
                    self.sub(p, &[end()]);
                }
            }
        }
    }

    fn events(&self, kind: &str) -> Vec<Value> {
        self.log
            .iter()
            .filter(|e| e["type"] == kind)
            .cloned()
            .collect()
    }

    fn no_invalid(&self) {
        let bad = self.events("invalid_action");
        assert!(bad.is_empty(), "unexpected invalid actions: {bad:?}");
    }

    fn legal(&mut self) -> Vec<Value> {
        let l = legal_json(&mut self.engine, &mut self.m).expect("legal actions");
        l["actions"].as_array().cloned().unwrap_or_default()
    }

    fn state(&self) -> Value {
        self.engine.state_json(&self.m)
    }

    /// `(winner, reason)` once the game is over.
    fn result(&self) -> Option<(Option<String>, String)> {
        let players = &self.engine.game.players;
        self.m.state.result.as_ref().map(|r| {
            let winner = r.winner.map(|p| players[p as usize].clone());
            (winner, r.reason.to_string())
        })
    }
}

fn won(player: &str, reason: &str) -> Option<(Option<String>, String)> {
    Some((Some(player.to_string()), reason.to_string()))
}

// ---------------------------------------------------------------------------------------------------
// (a) A new unit type: the spearman (cost 12, attack 3, defense 3, movement 2, range 1, Brace +2 DEF
//     against cavalry), declared in tests/fixtures/variants/spearman/ruleset.yaml and combat.rhai.
// ---------------------------------------------------------------------------------------------------

#[test]
fn spearman_variant_loads_with_its_own_id_and_default_scenario() {
    let l = load(&fixture("spearman"), None, &[]).expect("the variant loads");
    assert!(l
        .scenario_path
        .ends_with("spearman/scenarios/arena_21x9.yaml"));
    let g = Play::new(l.game);
    assert_eq!(g.state()["players"]["A"]["gold"], 4);
    assert_eq!(g.state()["units"]["A-4"]["type"], "cavalry");
    // The canonical ruleset knows no spearman.
    let mut g = Play::new(game(&canonical(), None, &[]));
    g.sub("A", &[mv("A-1", "A2"), rec("spearman", "B2")]);
    assert_eq!(g.events("invalid_action")[0]["reason"], "unknown_unit_type");
}

#[test]
fn spearman_is_recruited_for_its_cost_and_fights_with_its_stats() {
    let mut g = Play::new(game(&fixture("spearman"), None, &[]));
    // Turn 1: A-1 leaves the stronghold B2. B's cavalry march west (B-4 on row B, B-5 on row C).
    g.sub("A", &[mv("A-1", "A2"), end()]);
    g.sub("B", &[mv("B-4", "B16"), mv("B-5", "E18"), end()]);
    // Turn 2: 8 gold is not enough for a spearman (12).
    let l = g.legal();
    assert!(!l.iter().any(|a| a["action"] == "recruit"), "{l:?}");
    g.sub("A", &[end()]);
    g.sub("B", &[mv("B-4", "B13"), mv("B-5", "C16"), end()]);
    // Turn 3: 12 gold: a spearman (not an archer, 14) can be recruited on the empty stronghold B2.
    let l = g.legal();
    assert!(l.contains(&rec("spearman", "B2")), "{l:?}");
    assert!(l.contains(&rec("infantry", "B2")));
    assert!(!l.contains(&rec("archer", "B2")));
    g.sub("A", &[rec("spearman", "B2"), mv("A-7", "A4")]);
    assert_eq!(
        g.events("recruit"),
        [
            json!({"type": "recruit", "player": "A", "unit": "A-7", "unit_type": "spearman", "at": "B2"})
        ]
    );
    let refused = g.events("invalid_action");
    assert_eq!(
        refused[0]["reason"], "unit_cannot_act",
        "a recruit waits for its owner's next turn"
    );
    assert_eq!(g.state()["players"]["A"]["gold"], 0);
    assert_eq!(g.state()["units"]["A-7"]["type"], "spearman");
    g.log.clear();
    g.sub("A", &[end()]);
    g.sub("B", &[mv("B-4", "B10"), mv("B-5", "C13"), end()]);
    // Turn 4: the spearman moves 2 (B2-A3-A4); A5 (3 steps) is too far for it.
    let l = g.legal();
    assert!(l.contains(&mv("A-7", "A4")));
    assert!(!l.contains(&mv("A-7", "A5")));
    g.sub("A", &[mv("A-7", "A4"), end()]);
    g.sub("B", &[mv("B-4", "B7"), mv("B-5", "C10"), end()]);
    g.sub("A", &[end()]);
    g.sub("B", &[mv("B-5", "C7"), end()]);
    g.sub("A", &[end()]);
    g.sub("B", &[mv("B-4", "B5"), mv("B-5", "C6"), end()]);
    g.no_invalid();
    // Turn 7: the spearman attacks B-4 (cavalry on plains B5): 3 vs 2, it kills and advances.
    g.log.clear();
    g.sub("A", &[mv("A-7", "B4"), atk("A-7", "B5"), end()]);
    assert_eq!(
        g.events("attack"),
        [
            json!({"type": "attack", "unit": "A-7", "target": "B5", "defender": "B-4", "attack_power": 3,
                "defense_power": 2, "ranged": false, "outcome": "defender_destroyed"})
        ]
    );
    // B-5 (on C6, unmoved: no charge) attacks the spearman: 4 against 3 + Brace 2 = 5, and dies.
    g.log.clear();
    g.sub("B", &[atk("B-5", "B5"), end()]);
    g.no_invalid();
    assert_eq!(
        g.events("attack"),
        [
            json!({"type": "attack", "unit": "B-5", "target": "B5", "defender": "A-7", "attack_power": 4,
                "defense_power": 5, "ranged": false, "outcome": "attacker_destroyed"})
        ]
    );
    assert_eq!(g.state()["units"]["A-7"]["at"], "B5");
    assert_eq!(g.state()["cells"]["B5"]["owner"], "A");
}

/// B-4 charges (6) a spearman standing on the stronghold B2; returns that attack event and the state.
fn cavalry_charges_spearman_on_b2(overrides: &[(String, Value)]) -> (Value, Value) {
    let mut g = Play::new(game(&fixture("spearman"), None, overrides));
    g.sub("A", &[mv("A-1", "A2"), end()]);
    g.sub("B", &[mv("B-4", "B16"), end()]);
    g.sub("A", &[end()]);
    g.sub("B", &[mv("B-4", "B13"), end()]);
    g.sub("A", &[rec("spearman", "B2"), end()]);
    for b4 in ["B10", "B7", "B4"] {
        g.sub("B", &[mv("B-4", b4), end()]);
        g.sub("A", &[end()]);
    }
    // B4-A4-A3: 3 steps through plains, so the charge applies.
    g.log.clear();
    g.sub("B", &[mv("B-4", "A3"), atk("B-4", "B2"), end()]);
    g.no_invalid();
    (g.events("attack")[0].clone(), g.state())
}

#[test]
fn spearman_brace_is_a_setting_the_designer_can_override() {
    // Default Brace 2: 3 + stronghold 3 + 2 = 8 against the charge's 6; the cavalry dies.
    let (a, s) = cavalry_charges_spearman_on_b2(&[]);
    assert_eq!(
        (&a["attack_power"], &a["defense_power"]),
        (&json!(6), &json!(8))
    );
    assert_eq!(a["outcome"], "attacker_destroyed");
    assert_eq!(s["cells"]["B2"]["owner"], "A");
    // braceBonus 0 (what --set settings.braceBonus=0 does): 6 against 6, both die, B2 turns neutral.
    let (a, s) = cavalry_charges_spearman_on_b2(&set("settings.braceBonus", json!(0)));
    assert_eq!(
        (&a["attack_power"], &a["defense_power"]),
        (&json!(6), &json!(6))
    );
    assert_eq!(a["outcome"], "both_destroyed");
    assert_eq!(s["cells"]["B2"]["owner"], Value::Null);
}

// ---------------------------------------------------------------------------------------------------
// (b) Another board: tests/fixtures/variants/arena_15x9.yaml (15 columns, its own terrain layer) with the
//     canonical ruleset.
// ---------------------------------------------------------------------------------------------------

fn arena_15x9() -> Play {
    Play::new(game(&canonical(), Some(&fixture("arena_15x9.yaml")), &[]))
}

#[test]
fn board_15x9_has_its_own_cells_terrain_and_start() {
    let s = arena_15x9().state();
    let cells = s["cells"].as_object().expect("cells");
    assert_eq!(cells.len(), 15 * 9);
    assert!(cells.contains_key("I15"));
    assert!(!cells.contains_key("A16") && !cells.contains_key("B20"));
    assert_eq!(
        s["cells"]["B14"],
        json!({"owner": "B", "terrain": "stronghold_b"})
    );
    assert_eq!(
        s["cells"]["H14"],
        json!({"owner": "B", "terrain": "stronghold_b"})
    );
    assert_eq!(s["cells"]["E8"], json!({"owner": null, "terrain": "crown"}));
    assert_eq!(
        s["cells"]["B5"],
        json!({"owner": null, "terrain": "gold_mine", "reserve": 20})
    );
    assert_eq!(s["cells"]["D8"]["terrain"], "high_ground");
    let count = |p: &str| cells.values().filter(|c| c["owner"] == p).count();
    assert_eq!((count("A"), count("B")), (22, 22));
    assert_eq!(s["players"]["A"]["gold"], 4, "two strongholds x 2");
    assert_eq!(s["units"]["B-4"]["at"], "B13");
}

#[test]
fn board_15x9_legal_moves_respect_its_edges() {
    let mut g = arena_15x9();
    let l = g.legal();
    assert_eq!(l.len(), 72, "the west side has the canonical neighbourhood");
    assert!(l.contains(&mv("A-4", "B6")));
    assert!(!l.contains(&mv("A-4", "B7")));
    g.sub("A", &[end()]);
    // B's side: B-4 on B13 reaches B10 and A12 but not B9 (4 steps); nothing lies beyond column 15.
    let l = g.legal();
    assert!(l.contains(&mv("B-4", "B10")));
    assert!(l.contains(&mv("B-4", "A12")));
    assert!(!l.contains(&mv("B-4", "B9")));
    for a in &l {
        let hex = a["to"]
            .as_str()
            .or(a["at"].as_str())
            .or(a["target"].as_str());
        if let Some(hex) = hex {
            let col: u32 = hex[1..].parse().expect("column");
            assert!((1..=15).contains(&col), "{a}");
        }
    }
    assert!(l.iter().all(|a| a["action"] != "recruit"));
    g.sub("B", &[mv("B-4", "B16"), mv("B-1", "B15")]);
    let refused = g.events("invalid_action");
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0]["reason"], "unknown_hex");
    assert_eq!(g.events("move")[0]["to"], "B15");
}

#[test]
fn board_15x9_strongholds_win_and_pay() {
    let mut g = arena_15x9();
    g.sub("A", &[end()]);
    // B vacates its strongholds (and moves B-4 off the road).
    g.sub("B", &[mv("B-1", "A15"), mv("B-2", "I15"), mv("B-4", "D13")]);
    for (a4, a5) in [("B6", "H6"), ("B9", "H9"), ("B12", "H12")] {
        g.sub("A", &[mv("A-4", a4), mv("A-5", a5), end()]);
        assert_eq!(g.result(), None);
        g.sub("B", &[end()]);
    }
    // B6/H6, B9/H9 and B12/H12 (turns 2-4) hold no mine or camp: A still ticks 4 a turn (20 on turn 5).
    assert_eq!(g.state()["turn"], 5);
    assert_eq!(g.state()["players"]["A"]["gold"], 20);
    // Turn 5: A takes both B strongholds at the end of its turn and wins at once.
    g.log.clear();
    g.sub("A", &[mv("A-4", "B14"), mv("A-5", "H14"), end()]);
    g.no_invalid();
    assert_eq!(g.result(), won("A", "strongholds"));
    let control: Vec<Value> = g
        .events("control")
        .iter()
        .map(|e| e["cell"].clone())
        .collect();
    assert_eq!(control, [json!("B14"), json!("H14")]);
    assert_eq!(
        g.log.last(),
        Some(&json!({"type": "game_end", "winner": "A", "reason": "strongholds"}))
    );
}

#[test]
fn board_15x9_captured_stronghold_recruits_for_the_captor() {
    let mut g = arena_15x9();
    g.sub("A", &[end()]);
    g.sub("B", &[mv("B-1", "A15"), mv("B-4", "D13"), end()]);
    for a4 in ["B6", "B9", "B12", "B14"] {
        g.sub("A", &[mv("A-4", a4), end()]);
        g.sub("B", &[end()]);
    }
    assert_eq!(g.result(), None, "H14 is still B's");
    // A-4 took B14 on turn 5. Turn 6: B14 pays A (2 + 2 + 2) and is a recruit site once empty.
    assert_eq!(
        g.events("income").last().map(|e| e["gold"].clone()),
        Some(json!(6))
    );
    g.log.clear();
    g.sub("A", &[mv("A-4", "B15"), rec("cavalry", "B14")]);
    g.no_invalid();
    let s = g.state();
    assert_eq!(s["units"]["A-7"]["type"], "cavalry");
    assert_eq!(s["units"]["A-7"]["at"], "B14");
    assert_eq!(s["players"]["A"]["gold"], 4 * 5 + 6 - 18);
}

// ---------------------------------------------------------------------------------------------------
// (c) A shorter game: settings.turnLimit overridden (the library's overrides are what --set applies).
// ---------------------------------------------------------------------------------------------------

#[test]
fn turn_limit_override_ends_the_game_by_timeout() {
    let mut g = Play::new(game(
        &canonical(),
        None,
        &set("settings.turnLimit", json!(3)),
    ));
    g.pass_rounds(2);
    assert_eq!(g.result(), None, "turns 1 and 2 are not the last");
    assert!(g.events("game_end").is_empty());
    g.pass_rounds(1);
    // Nothing separates the sides: VP 0-0, unit value 80-80, hexes 22-22.
    assert_eq!(g.result(), Some((None, "timeout".to_string())));
    assert_eq!(
        g.log.last(),
        Some(&json!({"type": "game_end", "winner": null, "reason": "timeout"}))
    );
    let last_start = g.events("turn_start").last().map(|e| e["turn"].clone());
    assert_eq!(last_start, Some(json!(3)), "no tick after the last turn");
    let r = g.engine.submit(&mut g.m, "A", &[end()]);
    assert!(matches!(r, Err(SubmitError::GameOver)));

    // The default (30 turns) is still running after the same three rounds.
    let mut g = Play::new(game(&canonical(), None, &[]));
    g.pass_rounds(3);
    assert_eq!(g.result(), None);
    assert_eq!(g.state()["turn"], 4);
}

#[test]
fn turn_limit_timeout_ranks_by_hexes_in_a_short_game() {
    let mut g = Play::new(game(
        &canonical(),
        None,
        &set("settings.turnLimit", json!(1)),
    ));
    g.sub("A", &[end()]);
    g.sub("B", &[mv("B-4", "B18"), end()]);
    assert_eq!(
        g.result(),
        won("B", "timeout"),
        "23 hexes to 22, all else equal"
    );
}

#[test]
fn turn_limit_override_is_validated_against_the_ruleset_limits() {
    match load(&canonical(), None, &set("settings.turnLimit", json!(0))) {
        Err(LoadError::Invalid(d)) => assert!(!d.is_empty()),
        Err(e) => panic!("expected an invalid-document error, got {e:?}"),
        Ok(_) => panic!("turnLimit 0 must be refused (limits: min 1)"),
    }
}

#[test]
fn turn_limit_set_on_the_command_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "match",
            "--ruleset",
            "war_of_attrition",
            "--p1",
            "random",
            "--p2",
            "random",
        ])
        .args(["--seed", "5", "--set", "settings.turnLimit=2"])
        .current_dir(root())
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let replay: Value = serde_json::from_slice(&out.stdout).expect("replay JSON");
    assert_eq!(replay["settings"]["turnLimit"], 2);
    assert_eq!(replay["result"]["status"], "finished");
    // Two rounds can neither take both strongholds nor eliminate a side.
    assert_eq!(replay["result"]["reason"], "timeout");
    let events = replay["events"].as_array().expect("events");
    let starts = events.iter().filter(|e| e["type"] == "turn_start").count();
    assert_eq!(starts, 4, "A1 B1 A2 B2");
}
