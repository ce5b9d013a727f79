//! Whole submissions handed in from outside the engine's own agents: in wire form (match scripts,
//! replays, remote players) or already decoded (the orders of a simultaneous turn that an agent decided on
//! a copy of the turn start). Both are checked action by action exactly alike.
use std::borrow::Cow;

use serde_json::Value as Json;

use super::{wire, Engine, Machine, Match, Program, SubmitError};
use crate::ir::game::Game;
use crate::ir::game::Submission;
use crate::model::{Action, MatchState};

/// One entry of a submission: how to decode it and how to echo it in `invalid_action`.
pub trait Entry {
    /// The action the entry hands in: borrowed when the entry is one already (a copy of an action made a
    /// moment before would be read back whole, which misses store forwarding).
    fn decode(&self, g: &Game, st: &MatchState) -> Result<Cow<'_, Action>, &'static str>;
    fn echo(&self, g: &Game, st: &MatchState) -> Json;
}

impl Entry for Json {
    fn decode(&self, g: &Game, st: &MatchState) -> Result<Cow<'_, Action>, &'static str> {
        wire::decode(g, st, self).map(Cow::Owned)
    }
    fn echo(&self, _: &Game, _: &MatchState) -> Json {
        self.clone()
    }
}

impl Entry for Action {
    fn decode(&self, _: &Game, _: &MatchState) -> Result<Cow<'_, Action>, &'static str> {
        Ok(Cow::Borrowed(self))
    }
    fn echo(&self, g: &Game, st: &MatchState) -> Json {
        wire::encode(g, st, self)
    }
}

impl Engine {
    /// A whole submission in wire form, as match scripts and replays hand it in.
    pub fn submit(
        &mut self,
        m: &mut Match,
        player_id: &str,
        actions: &[Json],
    ) -> Result<(), SubmitError> {
        self.submit_entries(m, player_id, actions, false)
    }

    /// A whole submission of decoded actions, checked like one in wire form.
    pub fn submit_actions(
        &mut self,
        m: &mut Match,
        player_id: &str,
        actions: &[Action],
    ) -> Result<(), SubmitError> {
        self.submit_entries(m, player_id, actions, false)
    }

    /// The orders of a simultaneous turn that an agent of this process decided on a copy of the turn start
    /// (each one listed there by the engine and applied there in this order), handed in to the live match.
    /// Applied unchecked when the phase's orders cannot change one another's legality
    /// (`lower/orders.rs`): legal on the copy, they are legal here. Checked otherwise, as
    /// [`Engine::submit_actions`] checks them.
    pub fn submit_orders_decided_on_copy(
        &mut self,
        m: &mut Match,
        player_id: &str,
        actions: &[Action],
    ) -> Result<(), SubmitError> {
        // True only for `orders` phases (see `orders_independent`).
        let trusted = self.prog.phases[m.state.phase as usize].orders_trusted;
        self.submit_entries(m, player_id, actions, trusted)
    }

    fn submit_entries<E: Entry>(
        &mut self,
        m: &mut Match,
        player_id: &str,
        actions: &[E],
        trusted: bool,
    ) -> Result<(), SubmitError> {
        // Borrowed, not cloned: the Arcs' counts are shared by every thread playing this game.
        let Engine { game, prog, rt, .. } = &mut *self;
        let (game, prog): (&Game, &Program) = (game, prog);
        let Some(player) = game.player_index(player_id) else {
            return Err(SubmitError::UnknownPlayer(player_id.into()));
        };
        if m.state.is_over() {
            return Err(SubmitError::GameOver);
        }
        if !m.state.is_due(player) {
            let due = (0..game.players.len() as u8)
                .filter(|p| m.state.is_due(*p))
                .map(|p| game.players[p as usize].clone())
                .collect();
            return Err(SubmitError::NotDue {
                player: player_id.into(),
                due,
            });
        }
        let phase = game.phase(&m.state);
        let kind = phase.submission;
        let mut mm = Self::machine(game, prog, rt, m, player);
        let invalid = |mm: &mut Machine, e: &E, reason: &str| {
            if mm.logging() {
                let echo = e.echo(mm.game, mm.st);
                mm.invalid(player, echo, reason);
            }
        };
        let mut entries: &[E] = actions;
        if kind == Submission::Batch {
            let budget = mm.st.points.max(0) as usize;
            if entries.len() > budget {
                for extra in &entries[budget..] {
                    invalid(&mut mm, extra, &phase.overflow_reason);
                }
                entries = &entries[..budget];
            }
        }
        // The submission belongs to the turn it was handed in for: once that turn is over (the ply moved
        // on), the rest is `turn_over`, even if the same player is due again straight away.
        let ply = mm.st.ply;
        for entry in entries {
            if mm.st.is_over() {
                break;
            }
            if mm.st.ply != ply
                || !mm.st.is_due(player)
                || (mm.st.turn_over && kind != Submission::Orders)
            {
                invalid(&mut mm, entry, "turn_over");
                continue;
            }
            match entry.decode(mm.game, mm.st) {
                Ok(a) => {
                    let echo = |mm: &Machine| entry.echo(mm.game, mm.st);
                    mm.apply(player, &a, &echo, trusted)?;
                }
                Err(reason) => {
                    invalid(&mut mm, entry, reason);
                    if kind == Submission::Batch {
                        mm.st.points -= 1;
                        if mm.st.points <= 0 {
                            mm.end_turn()?;
                        }
                    }
                }
            }
        }
        if !mm.st.is_over() && mm.st.ply == ply && mm.st.is_due(player) {
            mm.end_submission(player)?;
        }
        // Still due in the same turn with nothing left to do: the ruleset's `when_stuck` decides.
        if m.state.ply == ply && self.is_stuck(m, player)? {
            self.settle_stuck(m, player)?;
        }
        Ok(())
    }
}
