//! How the lowering plans the listing of an action's parameters (engine/lower/action.rs), checked on the
//! set_walks fixture: which tests become bit operations, which are made once per walk, which parameters
//! are listed as bits or as one block. tests/optimised_paths.rs checks that the plans list the same
//! actions as the plain program; this file checks that the fixture's actions really take the paths it is
//! there to test.
use std::sync::Arc;

use arbiter::engine::lower::{BitTest, CParam, Options, Program};
use arbiter::ruleset::Game;

/// The fixture's game and its optimised program.
struct Plans {
    game: Arc<Game>,
    prog: Arc<Program>,
}

impl Plans {
    fn new() -> Plans {
        let dir = format!("{}/tests/fixtures/set_walks", env!("CARGO_MANIFEST_DIR"));
        let game = arbiter::ruleset::load(&dir, None, &[])
            .expect("fixture")
            .game;
        let prog = Program::new(&game, Options::optimised());
        Plans { game, prog }
    }

    /// Parameter `i` of the action called `name`, as lowered.
    fn param(&self, name: &str, i: usize) -> &CParam {
        let kind = self.game.actions.iter().position(|a| a.name == name);
        &self.prog.actions[kind.expect("action")].params[i]
    }
}

/// The target of `shoot` (`has(target.unit) and target.unit.owner != me`) has bit tests that read no
/// parameter, made once per walk; those of `tag` (`target.owner != who.owner`) read the unit. Their units
/// (owner and flags tested in the walk's loop) go straight to the targets' bits.
#[test]
fn bit_tests_that_read_no_parameter_are_invariant() {
    let plans = Plans::new();
    let shoot = plans.param("shoot", 1);
    assert!(shoot.bits_listable && shoot.bit_tests.len() == 2 && shoot.bits_invariant);
    let tag = plans.param("tag", 1);
    assert!(tag.bits_listable && tag.bit_tests.len() == 1 && !tag.bits_invariant);
    assert!(["move", "shoot", "tag"]
        .iter()
        .all(|a| plans.param(a, 0).units_to_bits));
}

/// A last cell parameter drawn from no set is listed from the whole board as bits: `mark`'s tests are
/// all bit tests (a flag, a number against a constant, two of fixed data, the second erring on the first
/// row, where the candidates fall back to one-by-one tests), so its cells are one block; `unmark` keeps a test for each candidate. The plain program lists no parameter as bits.
#[test]
fn a_last_cell_parameter_without_a_set_is_listed_as_bits() {
    let plans = Plans::new();
    let mark = plans.param("mark", 0);
    assert!(mark.bits_listable && mark.cell_block && mark.tests.is_empty());
    assert!(matches!(
        mark.bit_tests[..],
        [
            BitTest::CellFlag(_, false),
            BitTest::CellVarIs(_, false, 0),
            BitTest::Fixed(..),
            BitTest::Fixed(..)
        ]
    ));
    let unmark = plans.param("unmark", 0);
    assert!(unmark.bits_listable && !unmark.cell_block && unmark.tests.len() == 1);
    assert!(matches!(unmark.bit_tests[..], [BitTest::CellFlag(_, true)]));
    let plain = Program::new(&plans.game, Options::plain());
    assert!(plain
        .actions
        .iter()
        .all(|a| a.params.iter().all(|p| !p.bits_listable)));
}

/// `brace`'s unit, tested only on its owner and flags, is listed as one block of units; `move`'s unit,
/// followed by another parameter, is not.
#[test]
fn a_last_unit_parameter_tested_on_owner_and_flags_is_one_block() {
    let plans = Plans::new();
    let brace = plans.param("brace", 0);
    assert!(brace.unit_block && !brace.unit_flags.is_empty());
    assert!(!plans.param("move", 0).unit_block);
}

/// `post`'s cells (`cells where row >= 3`, held by the player and empty) read no earlier parameter: the
/// whole listing as bits is made once per walk and copied for each kind. `shoot`'s targets are drawn
/// around its unit, and `mark` is a first parameter (listed once per walk anyway).
#[test]
fn a_listing_that_reads_no_earlier_parameter_is_made_once_per_walk() {
    let plans = Plans::new();
    let post = plans.param("post", 1);
    assert!(post.bits_listable && post.cell_block && post.listing_invariant);
    assert!(!plans.param("shoot", 1).listing_invariant);
    assert!(!plans.param("tag", 1).listing_invariant);
    assert!(!plans.param("mark", 0).listing_invariant);
}

/// `spread`'s `from` must be held by the player and is followed by its own neighbours x an amount: it is
/// listed from the whole board as bits (its tests bit tests), and each cell's block goes to the sink
/// without a visit. `move`'s destination is drawn from a set, so its unit is visited as before.
#[test]
fn a_held_cell_followed_by_its_neighbours_and_an_amount_is_listed_as_blocks() {
    let plans = Plans::new();
    let from = plans.param("spread", 0);
    assert!(from.bits_listable && from.bits_to_product && from.tests.is_empty());
    assert!(plans.param("spread", 1).product_block);
    assert!(!plans.param("move", 0).bits_to_product);
}
