//! Lowering: the game's typed IR turned into the program the engine runs. Expressions become closures with
//! their leaves (locals, `me`, constants) read inline, sets become native iterations with their planned
//! pre-filters, statements get compiled operands, and every action gets its checks scheduled for
//! enumeration (each test attached once, at the shallowest parameter whose value it reads).
//!
//! Built once per game and shared by every engine running it (`Arc<Program>`). `Options::plain()` lowers
//! without any optimisation (no specialised closures, no hoisting, no planned scans): the same games played
//! with both programs must give the same events, which `tests/optimised_paths.rs` checks.
mod action;
mod cell_test;
mod column_term;
mod columns;
mod expr;
mod int;
mod leaf;
mod list;
pub mod native;
mod orders;
mod passable;
mod plan;
mod set;
mod stmt;
pub mod typed;

use std::sync::Arc;

pub use action::{BitTest, Bounds, CAction, CParam};
pub use cell_test::CellTest;
pub use expr::{Arg, Cond, Ev};
pub(crate) use set::fixed_cells;
pub use set::{CSet, CSource};
pub use stmt::{CPlace, CStmt};

use crate::ir::game::{CheckPoint, Game, ResolveStep};

/// What the lowering may do to make the program fast. Every option keeps the meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Specialised closures for common shapes (leaf operands read inline, typed comparisons).
    pub specialise: bool,
    /// Checks of later parameters tested as soon as the values they read are bound.
    pub hoist: bool,
    /// Native pre-filters of cell and unit sets (owner, emptiness, fixed data).
    pub scan: bool,
    /// Script functions translated to the IR (`Game::script_native`) run natively instead of in Rhai.
    pub native_scripts: bool,
    /// Orders a later player of a simultaneous turn decided on the turn start are applied unchecked when
    /// no player's orders can change another's legality (`orders.rs`).
    pub trusted_orders: bool,
}

impl Options {
    pub fn optimised() -> Self {
        Options {
            specialise: true,
            hoist: true,
            scan: true,
            native_scripts: true,
            trusted_orders: true,
        }
    }
    /// No optimisation at all: the reference the optimised program is tested against.
    pub fn plain() -> Self {
        Options {
            specialise: false,
            hoist: false,
            scan: false,
            native_scripts: false,
            trusted_orders: false,
        }
    }
}

/// A phase's compiled hooks and resolution steps.
pub struct CPhase {
    pub on_turn_start: Vec<CStmt>,
    pub on_turn_end: Vec<CStmt>,
    /// Compiled `effects` steps of the resolution, by step index (`None` for built-in steps).
    pub resolve_effects: Vec<Option<Vec<CStmt>>>,
    /// Whether the orders of a later player, decided on the turn start, are applied without being checked
    /// again (see `orders.rs`).
    pub orders_trusted: bool,
}

/// A compiled victory rule (same order as the game's).
#[allow(clippy::large_enum_variant)] // a few per game, read after every action: kept inline
pub enum CVictory {
    Control {
        cells: CSet,
        /// The cell variable the set is when it is one (`cells where it == opponent.home`, see
        /// [`CSet::single_cell_read`]), found once here.
        named: Option<typed::Read>,
        check: CheckPoint,
        reason: String,
    },
    Elimination {
        check: CheckPoint,
        reason: String,
    },
    Limit {
        when: Cond,
        rank: Vec<Ev>,
        report: Vec<(String, Ev)>,
        reason: String,
    },
}

/// Compiled line-of-sight tests (each reads its cell from the reserved sight slot).
pub struct CSight {
    pub opaque: Option<Cond>,
    pub screens: Option<Cond>,
    pub see_over: Option<Cond>,
}

/// The lowered game.
pub struct Program {
    pub options: Options,
    pub actions: Vec<CAction>,
    pub phases: Vec<CPhase>,
    pub victory: Vec<CVictory>,
    /// Whether some control or elimination rule is checked after each action, and at each turn's end
    /// (most games check none after an action: the check then costs one test).
    pub victory_checked: [bool; 2],
    pub invariants: Vec<Cond>,
    /// The game's evaluations (`Game::evaluations`, same order).
    pub evaluations: Vec<Ev>,
    pub sight: Option<CSight>,
    /// Per cell variable, its compiled per-cell initial expression.
    pub cell_initial: Vec<Option<Ev>>,
    pub initial_owner: Option<Ev>,
    /// Planning variables reset every turn, as (slot, encoded initial value), per kind of entity.
    pub scratch_cells: Vec<(usize, i64)>,
    pub scratch_players: Vec<(usize, i64)>,
    pub scratch_units: Vec<(usize, i64)>,
    /// The cell variables' reset as a whole-array blend, on boards small enough: per slot of the state's
    /// cell variables, all ones where a planning variable is reset (and its initial value in the second
    /// array), zero elsewhere. One branch-free pass the compiler vectorises, instead of a store per slot.
    pub scratch_cell_blend: Option<(Vec<i64>, Vec<i64>)>,
    /// The cell variables' reset when the planning variables are one run of consecutive slots of at most
    /// [`SCRATCH_RUN_MAX`] (their first slot and initial values): each row gets the run as one store of a
    /// known size, fewer steps than the blend's pass over every slot.
    pub scratch_cell_run: Option<(usize, Vec<i64>)>,
    /// How many cell sets have a fixed pre-filter (each has an index into the runtime's cache).
    pub fixed_sets: usize,
    /// Per script function, its lowered native body (empty when native scripts are off).
    pub natives: Vec<Option<native::CNative>>,
    /// Per action and parameter, a `split` parameter's set and total (`engine::list`).
    pub splits: Vec<Vec<Option<(CSet, Ev)>>>,
}

impl Program {
    /// Lowers `game` with the given options.
    pub fn new(game: &Game, options: Options) -> Arc<Program> {
        let mut lw = Lowerer::new(game, options);
        let actions = game
            .actions
            .iter()
            .enumerate()
            .map(|(k, a)| lw.action(k as u16, a))
            .collect();
        let phases = game
            .phases
            .iter()
            .map(|ph| CPhase {
                on_turn_start: lw.stmts(&ph.on_turn_start),
                on_turn_end: lw.stmts(&ph.on_turn_end),
                resolve_effects: ph
                    .resolve
                    .iter()
                    .map(|s| match s {
                        ResolveStep::Effects(b) => Some(lw.stmts(b)),
                        _ => None,
                    })
                    .collect(),
                orders_trusted: options.trusted_orders && orders::orders_independent(game, ph),
            })
            .collect();
        let victory: Vec<CVictory> = game
            .victory
            .iter()
            .map(|v| match v {
                crate::ir::game::VictoryRule::Control {
                    cells,
                    check,
                    reason,
                } => {
                    let cells = lw.set(cells);
                    CVictory::Control {
                        named: cells.single_cell_read(),
                        cells,
                        check: *check,
                        reason: reason.clone(),
                    }
                }
                crate::ir::game::VictoryRule::Elimination { check, reason } => {
                    CVictory::Elimination {
                        check: *check,
                        reason: reason.clone(),
                    }
                }
                crate::ir::game::VictoryRule::Limit {
                    when,
                    rank,
                    report,
                    reason,
                } => CVictory::Limit {
                    when: lw.cond(when),
                    rank: rank.iter().map(|e| lw.ev(e)).collect(),
                    report: report.iter().map(|(n, e)| (n.clone(), lw.ev(e))).collect(),
                    reason: reason.clone(),
                },
            })
            .collect();
        let invariants = game.invariants.iter().map(|i| lw.cond(&i.check)).collect();
        let evaluations = game.evaluations.iter().map(|(_, e)| lw.ev(e)).collect();
        let sight = game.sight.as_ref().map(|s| CSight {
            opaque: s.opaque.as_ref().map(|e| lw.cond(e)),
            screens: s.screens.as_ref().map(|e| lw.cond(e)),
            see_over: s.see_over.as_ref().map(|e| lw.cond(e)),
        });
        let cell_initial = game
            .cell_vars
            .iter()
            .map(|d| d.initial_expr.as_ref().map(|e| lw.ev(e)))
            .collect();
        let initial_owner = game.initial_owner.as_ref().map(|e| lw.ev(e));
        // One (slot, value) pair per slot, per-player variables spread over their slots, so a reset is a
        // plain store per slot (a `fill` call per variable cost more than the stores themselves).
        let scratch = |decls: &[crate::ir::game::VarDecl]| -> Vec<(usize, i64)> {
            decls
                .iter()
                .filter(|d| d.scratch)
                .flat_map(|d| {
                    let width = if d.per_player { game.players.len() } else { 1 };
                    let v = d.initial.encode();
                    (0..width).map(move |k| (d.slot as usize + k, v))
                })
                .collect()
        };
        let scratch_cells = scratch(&game.cell_vars);
        let natives = lw.natives();
        let splits = game
            .actions
            .iter()
            .map(|a| {
                a.params
                    .iter()
                    .map(|p| p.split.as_ref().map(|s| (lw.set(&s.over), lw.ev(&s.total))))
                    .collect()
            })
            .collect();
        let checked_at = |at: CheckPoint| {
            victory.iter().any(|v| match *v {
                CVictory::Control { check, .. } | CVictory::Elimination { check, .. } => {
                    check == at
                }
                CVictory::Limit { .. } => false,
            })
        };
        let victory_checked = [
            checked_at(CheckPoint::AfterAction),
            checked_at(CheckPoint::TurnEnd),
        ];
        Arc::new(Program {
            options,
            actions,
            phases,
            victory,
            victory_checked,
            invariants,
            evaluations,
            sight,
            cell_initial,
            initial_owner,
            scratch_cell_blend: scratch_blend(&scratch_cells, game),
            scratch_cell_run: scratch_run(&scratch_cells),
            scratch_cells,
            scratch_players: scratch(&game.player_vars)
                .into_iter()
                .chain(scratch(&game.game_vars))
                .collect(),
            scratch_units: scratch(&game.unit_vars),
            fixed_sets: lw.fixed_sets,
            natives,
            splits,
        })
    }
}

/// The lowering pass's state: the game, the options, and the fixed-set counter.
pub(crate) struct Lowerer<'g> {
    pub game: &'g Game,
    pub opts: Options,
    /// Cell-variable slots that nothing writes during a match.
    pub constant_slots: Vec<bool>,
    pub fixed_sets: usize,
    /// While a native script body is lowered: per local slot, whether its variable only ever holds a whole
    /// number or none ([`crate::ir::game::NativeFn::int_locals`]). Empty otherwise.
    pub int_locals: Vec<bool>,
}

impl<'g> Lowerer<'g> {
    fn new(game: &'g Game, opts: Options) -> Self {
        Lowerer {
            game,
            opts,
            constant_slots: plan::constant_cell_slots(game),
            fixed_sets: 0,
            int_locals: Vec::new(),
        }
    }
}

/// Most cell variable slots (cells x slots) whose reset is done as one blend (two arrays of this size).
const SCRATCH_BLEND_MAX: usize = 1 << 14;

/// The longest run of planning variables reset as one store per row ([`Program::scratch_cell_run`]).
pub const SCRATCH_RUN_MAX: usize = 8;

/// [`Program::scratch_cell_run`] for these reset pairs: their first slot and values in slot order, when the
/// slots are consecutive and at most [`SCRATCH_RUN_MAX`].
fn scratch_run(pairs: &[(usize, i64)]) -> Option<(usize, Vec<i64>)> {
    let mut sorted = pairs.to_vec();
    sorted.sort_by_key(|&(slot, _)| slot);
    let start = sorted.first()?.0;
    let consecutive = sorted
        .iter()
        .enumerate()
        .all(|(i, &(slot, _))| slot == start + i);
    (consecutive && sorted.len() <= SCRATCH_RUN_MAX)
        .then(|| (start, sorted.iter().map(|&(_, v)| v).collect()))
}

/// The mask and values of [`Program::scratch_cell_blend`] for these reset pairs, when there are any and
/// the board is small enough.
fn scratch_blend(pairs: &[(usize, i64)], game: &Game) -> Option<(Vec<i64>, Vec<i64>)> {
    let (n, stride) = (game.board.len(), game.cell_slots);
    if pairs.is_empty() || stride == 0 || n * stride > SCRATCH_BLEND_MAX {
        return None;
    }
    let (mut mask, mut values) = (vec![0; n * stride], vec![0; n * stride]);
    for c in 0..n {
        for &(slot, v) in pairs {
            mask[c * stride + slot] = -1;
            values[c * stride + slot] = v;
        }
    }
    Some((mask, values))
}

#[cfg(test)]
mod tests {
    use super::scratch_run;

    #[test]
    fn scratch_run_takes_consecutive_slots_in_slot_order() {
        assert_eq!(
            scratch_run(&[(3, 7), (1, 5), (2, 6)]),
            Some((1, vec![5, 6, 7]))
        );
        assert_eq!(scratch_run(&[(1, 0), (3, 0)]), None);
        assert_eq!(scratch_run(&[]), None);
        let long: Vec<(usize, i64)> = (0..9).map(|s| (s, 0)).collect();
        assert_eq!(scratch_run(&long), None);
        assert_eq!(
            scratch_run(&long[..8]).map(|(s, v)| (s, v.len())),
            Some((0, 8))
        );
    }
}
