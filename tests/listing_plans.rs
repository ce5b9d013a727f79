//! How the lowering plans the listing of an action's parameters (engine/lower/action.rs), checked on the
//! set_walks fixture: which tests become bit operations, which are made once per walk, which parameters
//! are listed as bits. tests/optimised_paths.rs checks that the plans list the same actions as the plain
//! program; this file checks that the fixture's actions really take the paths it is there to test.
use arbiter::engine::lower::{BitTest, Options, Program};

fn fixture() -> String {
    format!("{}/tests/fixtures/set_walks", env!("CARGO_MANIFEST_DIR"))
}

/// The target of `shoot` (`has(target.unit) and target.unit.owner != me`) has bit tests that read no
/// parameter, made once per walk; those of `tag` (`target.owner != who.owner`) read the unit.
#[test]
fn bit_tests_that_read_no_parameter_are_invariant() {
    let loaded = arbiter::ruleset::load(&fixture(), None, &[]).expect("fixture");
    let game = &loaded.game;
    let prog = Program::new(game, Options::optimised());
    let target = |name: &str| {
        let kind = game.actions.iter().position(|a| a.name == name).unwrap();
        &prog.actions[kind].params[1]
    };
    let shoot = target("shoot");
    assert!(shoot.bits_listable && shoot.bit_tests.len() == 2 && shoot.bits_invariant);
    let tag = target("tag");
    assert!(tag.bits_listable && tag.bit_tests.len() == 1 && !tag.bits_invariant);
    // Their units (owner and flags tested in the walk's loop) go straight to the targets' bits.
    let unit = |name: &str| {
        let kind = game.actions.iter().position(|a| a.name == name).unwrap();
        &prog.actions[kind].params[0]
    };
    assert!(["move", "shoot", "tag"]
        .iter()
        .all(|a| unit(a).units_to_bits));
}

/// A last cell parameter drawn from no set is listed from the whole board as bits: `mark`'s tests are
/// all bit tests (a flag, a number against a constant, the row as fixed data), so its cells are one
/// block; `unmark` keeps a test for each candidate.
#[test]
fn a_last_cell_parameter_without_a_set_is_listed_as_bits() {
    let loaded = arbiter::ruleset::load(&fixture(), None, &[]).expect("fixture");
    let game = &loaded.game;
    let prog = Program::new(game, Options::optimised());
    let only = |name: &str| {
        let kind = game.actions.iter().position(|a| a.name == name).unwrap();
        &prog.actions[kind].params[0]
    };
    let mark = only("mark");
    assert!(mark.bits_listable && mark.cell_block && mark.tests.is_empty());
    assert!(matches!(
        mark.bit_tests[..],
        [
            BitTest::CellFlag(_, false),
            BitTest::CellVarIs(_, false, 0),
            BitTest::Fixed(..)
        ]
    ));
    let unmark = only("unmark");
    assert!(unmark.bits_listable && !unmark.cell_block && unmark.tests.len() == 1);
    assert!(matches!(unmark.bit_tests[..], [BitTest::CellFlag(_, true)]));
    assert!(Program::new(game, Options::plain())
        .actions
        .iter()
        .all(|a| a.params.iter().all(|p| !p.bits_listable)));
}

/// `brace`'s unit, tested only on its owner and flags, is listed as one block of units; `move`'s unit,
/// followed by another parameter, is not.
#[test]
fn a_last_unit_parameter_tested_on_owner_and_flags_is_one_block() {
    let loaded = arbiter::ruleset::load(&fixture(), None, &[]).expect("fixture");
    let game = &loaded.game;
    let prog = Program::new(game, Options::optimised());
    let first = |name: &str| {
        let kind = game.actions.iter().position(|a| a.name == name).unwrap();
        &prog.actions[kind].params[0]
    };
    assert!(first("brace").unit_block && !first("brace").unit_flags.is_empty());
    assert!(!first("move").unit_block);
}
