//! The match state machine: flow (turns, phases, budgets), legal actions, apply, resolution and victory.
//! `Engine` is the facade: one per thread, reused across matches of the same game.
mod bit_listing;
pub mod blocks;
pub mod eval;
pub mod exec;
pub mod flow;
pub mod legal;
mod list;
mod listed;
pub mod lower;
pub mod machine;
pub mod resolve;
mod scan;
mod sinks;
pub mod stages;
pub mod state_json;
pub mod stuck;
mod submit;
pub mod victory;
pub mod wire;

use std::sync::Arc;

use serde_json::Value as Json;

pub use flow::Applied;
pub use lower::{Options, Program};
pub use machine::{Machine, RunError, Runtime};
pub(crate) use sinks::too_many_actions;

use crate::ir::game::Game;
use crate::model::{Action, MatchState, PlayerIdx};
use crate::rng::Rng;

/// One match in progress: its state and its random stream.
#[derive(Debug)]
pub struct Match {
    pub state: MatchState,
    pub rng: Rng,
    pub seed: u64,
}

impl Clone for Match {
    fn clone(&self) -> Self {
        Match {
            state: self.state.clone(),
            rng: self.rng.clone(),
            seed: self.seed,
        }
    }

    /// Reuses the target's memory (see `MatchState::clone_from`).
    fn clone_from(&mut self, s: &Self) {
        self.state.clone_from(&s.state);
        self.rng.clone_from(&s.rng);
        self.seed = s.seed;
    }
}

/// Why a submission was refused as a whole (a script error, not an event).
#[derive(Debug, Clone, PartialEq)]
pub enum SubmitError {
    GameOver,
    NotDue { player: String, due: Vec<String> },
    UnknownPlayer(String),
    Run(RunError),
}

impl std::fmt::Display for SubmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SubmitError::GameOver => write!(f, "the game has already ended"),
            SubmitError::NotDue { player, due } => write!(
                f,
                "player {player} is not due to act (due: {})",
                due.join(", ")
            ),
            SubmitError::UnknownPlayer(p) => write!(f, "unknown player {p}"),
            SubmitError::Run(e) => write!(f, "{e}"),
        }
    }
}

impl From<RunError> for SubmitError {
    fn from(e: RunError) -> Self {
        SubmitError::Run(e)
    }
}

/// Runs matches of one game on this thread.
pub struct Engine {
    pub game: Arc<Game>,
    /// The lowered game this engine runs (shared by every engine of the game).
    pub prog: Arc<Program>,
    rt: Runtime,
    /// Matches handed back once played ([`Engine::recycle`]): the next start or copy reuses their memory.
    spare: Vec<Match>,
}

/// Recycled matches an engine keeps: a simulated game uses at most three at once (the match, and in
/// simultaneous turns the turn's start and a player's view of it).
const MAX_SPARE_MATCHES: usize = 3;

impl Engine {
    /// An engine running `game` lowered with every optimisation.
    pub fn new(game: Arc<Game>) -> Result<Self, RunError> {
        let prog = Program::new(&game, Options::optimised());
        Self::with_program(game, prog)
    }

    /// An engine running `game` as `prog` (lowered from the same game).
    pub fn with_program(game: Arc<Game>, prog: Arc<Program>) -> Result<Self, RunError> {
        let rt = Runtime::new(&game);
        Ok(Engine {
            game,
            prog,
            rt,
            spare: Vec::new(),
        })
    }

    /// Another engine for the same game and program (its own runtime, logging off).
    pub fn sibling(&self) -> Result<Self, RunError> {
        Self::with_program(self.game.clone(), self.prog.clone())
    }

    /// Turns event logging on (replays) or off (bulk simulation).
    pub fn set_logging(&mut self, on: bool) {
        self.rt.log = if on { Some(Vec::new()) } else { None };
    }

    /// Takes the events logged so far.
    pub fn take_log(&mut self) -> Vec<Json> {
        match &mut self.rt.log {
            Some(l) => std::mem::take(l),
            None => Vec::new(),
        }
    }

    fn machine<'a>(
        game: &'a Game,
        prog: &'a Program,
        rt: &'a mut Runtime,
        m: &'a mut Match,
        me: PlayerIdx,
    ) -> Machine<'a> {
        // Lists live for one evaluation: none made by an earlier call is reachable any more.
        rt.lists.clear();
        Machine {
            game,
            prog,
            st: &mut m.state,
            rng: &mut m.rng,
            rt,
            me,
        }
    }

    /// A new match: the scenario's position, then the first turn started (its hooks run and are logged).
    pub fn start(&mut self, seed: u64) -> Result<Match, RunError> {
        let Engine {
            game,
            prog,
            rt,
            spare,
        } = self;
        let (game, prog): (&Game, &Program) = (game, prog);
        let mut m = match spare.pop() {
            // The same position and generator as a new match, in memory already allocated.
            Some(mut m) => {
                m.state.clone_from(&game.initial);
                m.rng.reseed(game.rng, seed);
                m.seed = seed;
                m
            }
            None => Match {
                state: game.initial.clone(),
                rng: Rng::new(game.rng, seed),
                seed,
            },
        };
        Self::machine(game, prog, rt, &mut m, 0).start()?;
        Ok(m)
    }

    /// Takes back a match nobody needs any more, so that the next [`Engine::start`] or
    /// [`Engine::copy_of`] reuses its memory (a few are kept; simulations play game after game).
    pub fn recycle(&mut self, m: Match) {
        if self.spare.len() < MAX_SPARE_MATCHES {
            self.spare.push(m);
        }
    }

    /// A copy of `m`, in the memory of a recycled match when there is one.
    pub fn copy_of(&mut self, m: &Match) -> Match {
        match self.spare.pop() {
            Some(mut c) => {
                c.clone_from(m);
                c
            }
            None => m.clone(),
        }
    }

    /// Players due to act now.
    pub fn due(&self, m: &Match) -> Vec<PlayerIdx> {
        (0..self.game.players.len() as u8)
            .filter(|p| m.state.is_due(*p))
            .collect()
    }

    /// The first player due to act, in player order (what [`Engine::due`] lists first), without a list.
    pub fn first_due(&self, m: &Match) -> Option<PlayerIdx> {
        (0..self.game.players.len() as u8).find(|p| m.state.is_due(*p))
    }

    /// Whether the orders of the current phase cannot change one another's legality (`lower/orders.rs`;
    /// false outside `orders` phases): a player's orders legal on the turn start are legal after any other
    /// player's, and list the same.
    pub fn orders_independent(&self, m: &Match) -> bool {
        self.prog.phases[m.state.phase as usize].orders_trusted
    }

    /// Runs an enumeration for `player` over the current phase's actions; `None` when the player is not due.
    fn enumerate<T>(
        &mut self,
        m: &mut Match,
        player: PlayerIdx,
        f: impl FnOnce(&mut Machine, &[u16]) -> Result<T, RunError>,
    ) -> Result<Option<T>, RunError> {
        if m.state.is_over() || !m.state.is_due(player) {
            return Ok(None);
        }
        let Engine { game, prog, rt, .. } = self;
        let (game, prog): (&Game, &Program) = (game, prog);
        let kinds = game.allowed_actions(&m.state);
        f(&mut Self::machine(game, prog, rt, m, player), kinds).map(Some)
    }

    /// Every legal action for `player` now (empty when the player is not due).
    pub fn legal(
        &mut self,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<Action>,
    ) -> Result<(), RunError> {
        out.clear();
        self.enumerate(m, player, |mm, kinds| mm.legal(kinds, out))
            .map(|_| ())
    }

    pub fn count_legal(&mut self, m: &mut Match, player: PlayerIdx) -> Result<u64, RunError> {
        Ok(self
            .enumerate(m, player, |mm, kinds| mm.count_legal(kinds))?
            .unwrap_or(0))
    }

    /// Every legal action for `player` as blocks (one walk; ranges of amounts stay unexpanded).
    pub fn legal_blocks(
        &mut self,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<legal::Block>,
    ) -> Result<(), RunError> {
        out.clear();
        self.enumerate(m, player, |mm, kinds| mm.legal_blocks(kinds, out))
            .map(|_| ())
    }

    /// Every legal action for `player` as a compact block list (one walk; integer ranges and cell bit
    /// sets stay unexpanded): what a uniform random pick needs.
    pub fn block_list(
        &mut self,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut blocks::BlockList,
    ) -> Result<(), RunError> {
        // The walk empties the list first; when nobody may act there is no walk.
        if self
            .enumerate(m, player, |mm, kinds| mm.block_list(kinds, out))?
            .is_none()
        {
            out.clear();
        }
        Ok(())
    }

    /// The k-th legal action in enumeration order (as `legal` would list it).
    pub fn nth_legal(
        &mut self,
        m: &mut Match,
        player: PlayerIdx,
        k: u64,
    ) -> Result<Option<Action>, RunError> {
        Ok(self
            .enumerate(m, player, |mm, kinds| mm.nth_legal(kinds, k))?
            .flatten())
    }

    /// Applies one action, checking it first (actions from outside the engine). Like enumeration, it knows
    /// no legal action for a player who is not due or once the game is over: such an action is refused
    /// (`not_due`, `game_over`) without an event and without touching the match.
    pub fn apply(
        &mut self,
        m: &mut Match,
        player: PlayerIdx,
        a: &Action,
    ) -> Result<Applied, RunError> {
        if m.state.is_over() {
            return Ok(Applied::Invalid("game_over".into()));
        }
        if !m.state.is_due(player) {
            return Ok(Applied::Invalid("not_due".into()));
        }
        let Engine { game, prog, rt, .. } = self;
        let (game, prog): (&Game, &Program) = (game, prog);
        let echo = |mm: &Machine| wire::encode(mm.game, mm.st, a);
        Self::machine(game, prog, rt, m, player).apply(player, a, &echo, false)
    }

    /// Applies an action that enumeration listed for `player` in this very state, without checking it
    /// again (OpenSpiel's `ApplyAction`). Anything else must go through [`Engine::apply`].
    pub fn apply_listed(
        &mut self,
        m: &mut Match,
        player: PlayerIdx,
        a: &Action,
    ) -> Result<Applied, RunError> {
        let Engine { game, prog, rt, .. } = self;
        let (game, prog): (&Game, &Program) = (game, prog);
        let echo = |mm: &Machine| wire::encode(mm.game, mm.st, a);
        Self::machine(game, prog, rt, m, player).apply(player, a, &echo, true)
    }

    /// Ends `player`'s submission (batch turns end; simultaneous turns resolve when all are in).
    pub fn end_submission(&mut self, m: &mut Match, player: PlayerIdx) -> Result<(), RunError> {
        let Engine { game, prog, rt, .. } = self;
        let (game, prog): (&Game, &Program) = (game, prog);
        Self::machine(game, prog, rt, m, player).end_submission(player)
    }

    /// Calls script function `name` for `player` on match `m`, as a rule expression calling it would
    /// (natively when the program runs it natively). For tests and benchmarks of script calls.
    pub fn call_script(
        &mut self,
        m: &mut Match,
        player: PlayerIdx,
        name: &str,
        args: &[crate::model::Value],
    ) -> Result<crate::model::Value, RunError> {
        let Some(f) = self.game.script_fns.iter().position(|(n, _)| n == name) else {
            return Err(RunError::new(format!("no script function `{name}`")));
        };
        let mut mm = Self::machine(&self.game, &self.prog, &mut self.rt, m, player);
        lower::native::call(&mut mm, f as u16, args)
    }

    /// Evaluates the ruleset's `greedy` evaluation for `player` (0 when none is declared).
    pub fn evaluate(&mut self, m: &mut Match, player: PlayerIdx) -> Result<f64, RunError> {
        match self.game.evaluation("greedy") {
            Some(k) => self.evaluate_with(k, m, player),
            None => Ok(0.0),
        }
    }

    /// Evaluates the `k`-th evaluation declared under `agents:` for `player` (0 when there is none).
    pub fn evaluate_with(
        &mut self,
        k: usize,
        m: &mut Match,
        player: PlayerIdx,
    ) -> Result<f64, RunError> {
        let Engine { game, prog, rt, .. } = self;
        let (game, prog): (&Game, &Program) = (game, prog);
        let Some(e) = prog.evaluations.get(k) else {
            return Ok(0.0);
        };
        let v = e(&mut Self::machine(game, prog, rt, m, player))?;
        Ok(v.as_f64().unwrap_or(0.0))
    }

    /// Invariants that do not hold: declared checks and variable bounds.
    pub fn broken_invariants(&mut self, m: &mut Match) -> Result<Vec<String>, RunError> {
        let Engine { game, prog, rt, .. } = self;
        let (game, prog): (&Game, &Program) = (game, prog);
        let mut broken = Vec::new();
        let mut mm = Self::machine(game, prog, rt, m, 0);
        for (inv, check) in game.invariants.iter().zip(&prog.invariants) {
            if !check(&mut mm)? {
                broken.push(inv.message.clone());
            }
        }
        state_json::check_bounds(game, &m.state, &mut broken);
        if !m.state.bits_agree(game.players.len()) {
            broken.push("the owner and occupancy bit sets disagree with the cells".to_string());
        }
        Ok(broken)
    }

    /// The state as INTERFACE.md section 6 describes it.
    pub fn state_json(&self, m: &Match) -> Json {
        state_json::state_json(&self.game, &m.state)
    }

    /// The state as `player` may see it (what agents and served seats are shown): variables declared
    /// `visible: owner` appear only to their owner.
    pub fn state_view(&self, m: &Match, player: PlayerIdx) -> Json {
        state_json::state_view(&self.game, &m.state, state_json::Viewer::Player(player))
    }
}

/// Rule queries scripts make through the host API, answered on a scratch runtime.
impl crate::script::Queries for Program {
    fn line_of_sight(
        &self,
        game: &Game,
        st: &mut MatchState,
        rng: &mut Rng,
        me: PlayerIdx,
        a: u32,
        b: u32,
    ) -> Result<bool, RunError> {
        let mut rt = Runtime::without_scripts(game);
        let mut m = Machine {
            game,
            prog: self,
            st,
            rng,
            rt: &mut rt,
            me,
        };
        m.line_of_sight(a, b)
    }
}
