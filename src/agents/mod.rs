//! Agents: the trait every automated player implements, the shared submission helpers, and lookup by name
//! (`spec`: `NAME[:key=value,...]` checked against a game).
pub mod greedy;
pub mod mcts;
pub mod minimax;
pub mod move_list;
pub mod random;
pub mod remote;
pub mod search;
pub mod spec;

pub use spec::AgentSpec;

use serde_json::Value as Json;

use crate::engine::{Applied, Engine, Match, RunError};
use crate::model::{Action, PlayerIdx};

/// The most actions an agent puts into one submission, so a game whose rules never end a submission
/// cannot make an agent loop forever.
pub const MAX_SUBMISSION: usize = 1000;

/// Names accepted by [`by_name`] (every other agent needs its game: [`AgentSpec`]).
pub const NAMES: &[&str] = &["random", "random_kind", "greedy"];

/// An automated player.
pub trait Agent {
    fn name(&self) -> &str;

    /// Plays one whole submission for `player` (applying the actions itself, ending the submission when the
    /// phase needs that) and returns every action it applied, in order.
    fn act(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
    ) -> Result<Vec<Action>, RunError> {
        let mut out = Vec::with_capacity(8);
        self.act_into(engine, m, player, &mut out)?;
        Ok(out)
    }

    /// [`Agent::act`] writing the actions into `out` (whatever it held is replaced), so a driver that plays
    /// many submissions reuses one buffer instead of allocating one per decision.
    fn act_into(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<Action>,
    ) -> Result<(), RunError>;

    /// What the last [`Agent::act`] handed in, when it is more than its actions encoded: an agent outside
    /// the process hands in its reply as it came (actions the engine refused included, which replays must
    /// repeat), with its rationale and any fault, as one or more submissions. Empty for agents that apply
    /// their own actions (the default).
    fn take_handed_in(&mut self) -> Vec<HandedIn> {
        Vec::new()
    }

    /// Becomes the agent its recipe builds for a new match seeded with `seed` (`AgentSpec::build(seed,
    /// player)`), in the memory it has: simulations play game after game with the same agents. False
    /// when it cannot (the default), and a new one is built instead.
    fn restart(&mut self, _seed: u64, _player: PlayerIdx) -> bool {
        false
    }

    /// Whether the agent's decisions depend on nothing but the legal actions listed for it (and its own
    /// generator): such an agent decides the same on any position with the same legal actions. A later
    /// player of a simultaneous turn may then act on the live match instead of a copy of the turn start
    /// when the phase's orders cannot change one another's legality (`simulate::play`). False by default.
    fn decides_from_legal_actions_only(&self) -> bool {
        false
    }

    /// The match is over: an agent outside the process is told the result and let go. Agents dropped
    /// without it (a match that failed) are let go all the same.
    fn finish(&mut self, _engine: &Engine, _m: &Match, _player: PlayerIdx) {}
}

/// One submission as an agent outside the process handed it in (see [`Agent::take_handed_in`]).
#[derive(Clone, Debug, PartialEq)]
pub struct HandedIn {
    /// The actions in wire form, as handed in to the engine.
    pub actions: Vec<Json>,
    /// The reply's `rationale`, if any.
    pub rationale: Option<String>,
    /// Why the fallback agent decided instead of the agent, when it did.
    pub fault: Option<remote::Fault>,
}

/// The agent called `name`, seeded from the match seed; `None` for an unknown name.
pub fn by_name(name: &str, seed: u64, player: PlayerIdx) -> Option<Box<dyn Agent>> {
    match name {
        "random" => Some(Box::new(random::RandomAgent::new(seed, player))),
        "random_kind" => Some(Box::new(random::RandomKindAgent::new(seed, player))),
        "greedy" => Some(Box::new(greedy::GreedyAgent::new(seed, player))),
        _ => None,
    }
}

/// Where a submission started, so an agent can tell when it is over: the player-turn counter moves on
/// whenever a turn ends, even if the same player is due again right after (a new phase, say).
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    ply: i64,
}

impl Mark {
    pub fn new(m: &Match) -> Self {
        Mark { ply: m.state.ply }
    }

    /// Whether `player` may still add actions to the submission that started at this mark.
    pub fn open(self, m: &Match, player: PlayerIdx) -> bool {
        !m.state.is_over() && m.state.is_due(player) && m.state.ply == self.ply
    }
}

/// Applies `a`, an action enumeration just listed for `player` in this state (so it is not checked again),
/// and adds it to the submission.
pub fn apply_recorded(
    engine: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    a: Action,
    out: &mut Vec<Action>,
) -> Result<Applied, RunError> {
    let applied = engine.apply_listed(m, player, &a)?;
    out.push(a);
    Ok(applied)
}

/// Plays one submission for `player` into `out` (whatever it held is replaced): asks `next` for an action
/// until it has none (the agent hands in), the submission is over or [`MAX_SUBMISSION`] actions were
/// given; applies and records each, then closes the submission if it is still open. `next` is only asked
/// while the player may still act. Every agent that applies its own actions plays its turn through here.
#[inline]
pub fn submit_each(
    engine: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    out: &mut Vec<Action>,
    mut next: impl FnMut(&mut Engine, &mut Match) -> Result<Option<Action>, RunError>,
) -> Result<(), RunError> {
    submit_each_into(engine, m, player, out, |engine, m, slot| {
        Ok(next(engine, m)?.map(|a| *slot = a).is_some())
    })
}

/// [`submit_each`] for an agent that writes each action into the submission's next slot (`next` returns
/// false to hand in): the action is built where it stays and applied from there, as a copy of an action
/// built a moment ago stalls on store forwarding.
#[inline]
pub fn submit_each_into(
    engine: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    out: &mut Vec<Action>,
    mut next: impl FnMut(&mut Engine, &mut Match, &mut Action) -> Result<bool, RunError>,
) -> Result<(), RunError> {
    out.clear();
    let mark = Mark::new(m);
    while out.len() < MAX_SUBMISSION && mark.open(m, player) {
        let last = out.len();
        // Made in place: built first and then pushed, its fresh bytes were copied into the slot whole.
        out.resize_with(last + 1, Action::empty);
        let given = next(engine, m, &mut out[last]);
        if !matches!(given, Ok(true)) {
            out.pop();
            given?;
            break;
        }
        if let Err(e) = engine.apply_listed(m, player, &out[last]) {
            out.pop();
            return Err(e);
        }
    }
    close(engine, m, player, mark)
}

/// Closes the submission when the player is still due in it (batch turns end, orders are handed in).
pub fn close(
    engine: &mut Engine,
    m: &mut Match,
    player: PlayerIdx,
    mark: Mark,
) -> Result<(), RunError> {
    if mark.open(m, player) {
        engine.end_submission(m, player)?;
    }
    Ok(())
}
