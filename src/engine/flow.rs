//! Turn flow: phases, player-turns, submissions of each kind, hooks, counters and when victory is checked.
use serde_json::{json, Value as Json};

use super::exec::Signals;
use super::machine::{Machine, RunError};
use crate::ir::game::{CheckPoint, Order, Submission};
use crate::model::{Action, PlayerIdx, Value};

type R<T> = Result<T, RunError>;

/// Adds one to a counter, or stops the match rather than wrap (a `state.turn` near the top of the range).
fn count(counter: &mut i64, name: &str) -> R<()> {
    *counter = counter.checked_add(1).ok_or_else(|| {
        RunError::new(format!(
            "the `{name}` counter passed the largest 64-bit integer: lower `state.turn` or end the game sooner"
        ))
    })?;
    Ok(())
}

/// What happened to one submitted action.
#[derive(Debug, Clone, PartialEq)]
pub enum Applied {
    Done,
    Invalid(String),
}

impl Machine<'_> {
    /// Enters phase `i` and starts its first turn.
    pub fn begin_phase(&mut self, i: usize) -> R<()> {
        let g = self.game;
        if i >= g.phases.len() {
            // Out of phases without a decision: the game ends level.
            self.finish(None, "phases_exhausted", Vec::new());
            return Ok(());
        }
        self.st.phase = i as u16;
        self.st.phase_round = 0;
        let first = g.phases[i].first;
        self.begin_turn(first)
    }

    /// Resets the planning variables of cells, players and units to their initial values.
    fn reset_scratch(&mut self) {
        let (g, prog) = (self.game, self.prog);
        let blend = prog.scratch_cell_blend.as_ref();
        if let Some((start, values)) = &prog.scratch_cell_run {
            reset_run(&mut self.st.cell_vars, g.cell_slots, *start, values);
        } else if let Some((mask, values)) =
            blend.filter(|(m, _)| m.len() == self.st.cell_vars.len())
        {
            // Indexed over slices of one length: the compiler vectorises this form (the zipped
            // iterators were read a word at a time).
            let vars = &mut self.st.cell_vars[..];
            let (mask, values) = (&mask[..vars.len()], &values[..vars.len()]);
            for i in 0..vars.len() {
                vars[i] = (vars[i] & !mask[i]) | (values[i] & mask[i]);
            }
        } else if !prog.scratch_cells.is_empty() && g.cell_slots > 0 {
            for row in self.st.cell_vars.chunks_exact_mut(g.cell_slots) {
                for &(slot, v) in &prog.scratch_cells {
                    row[slot] = v;
                }
            }
        }
        if !prog.scratch_players.is_empty() && g.player_slots > 0 {
            for row in self.st.player_vars.chunks_exact_mut(g.player_slots) {
                for &(slot, v) in &prog.scratch_players {
                    row[slot] = v;
                }
            }
        }
        if !prog.scratch_units.is_empty() && g.unit_slots > 0 {
            for row in self.st.unit_vars.chunks_exact_mut(g.unit_slots) {
                for &(slot, v) in &prog.scratch_units {
                    row[slot] = v;
                }
            }
        }
    }

    /// Starts a player-turn (alternating) or an order-collecting turn (simultaneous).
    pub fn begin_turn(&mut self, player: PlayerIdx) -> R<()> {
        let g = self.game;
        let phase = &g.phases[self.st.phase as usize];
        let hooks = &self.prog.phases[self.st.phase as usize];
        self.st.turn_over = false;
        self.reset_scratch();
        self.st.points = match phase.submission {
            Submission::Single => 1,
            _ => phase.budget,
        };
        if !phase.stages.is_empty() {
            self.enter_stage(0);
        }
        let mut sig = Signals::default();
        match phase.order {
            Order::Alternating => {
                self.st.active = player;
                self.st.due = 1 << player;
                self.me = player;
                self.run(&hooks.on_turn_start, &mut sig)?;
            }
            Order::Simultaneous => {
                self.st.active = phase.first;
                self.st.due = (1u32 << g.players.len()) - 1;
                for p in 0..g.players.len() as u8 {
                    self.me = p;
                    self.run(&hooks.on_turn_start, &mut sig)?;
                }
            }
        }
        Ok(())
    }

    /// Applies one decoded action by `player`, logging `invalid_action` with `echo` when it is not legal.
    /// A `trusted` action was listed by enumeration in this very state, so it is not checked again.
    pub fn apply(
        &mut self,
        player: PlayerIdx,
        action: &Action,
        echo: &dyn Fn(&Machine) -> Json,
        trusted: bool,
    ) -> R<Applied> {
        let (g, prog) = (self.game, self.prog);
        let phase = &g.phases[self.st.phase as usize];
        self.me = player;
        let spec = &g.actions[action.kind as usize];
        let verdict = if trusted {
            // Enumeration bound the parameters' locals in its own walk: bind them for the effects.
            for (i, p) in prog.actions[action.kind as usize].params.iter().enumerate() {
                self.bind_arg(&action.args, i, p.slot)?;
            }
            Ok(())
        } else if g.allowed_actions(self.st).contains(&action.kind) {
            self.check(action.kind, &action.args)?
        } else {
            Err("not_allowed_now".to_string())
        };
        if let Err(reason) = verdict {
            if self.logging() {
                let echo = echo(self);
                self.invalid(player, echo, &reason);
            }
            if phase.submission == Submission::Batch {
                self.use_points(1)?;
            }
            return Ok(Applied::Invalid(reason));
        }
        let mut sig = Signals::default();
        self.run(&prog.actions[action.kind as usize].effects, &mut sig)?;
        self.check_victory(CheckPoint::AfterAction)?;
        if self.st.result.is_some() {
            return Ok(Applied::Done);
        }
        if !phase.stages.is_empty() {
            self.after_staged_action(spec.cost, sig)?;
            return Ok(Applied::Done);
        }
        match phase.submission {
            Submission::Single => self.end_turn()?,
            Submission::Batch => self.use_points(1)?,
            Submission::Points => {
                self.st.points -= spec.cost;
                if sig.end_turn || self.st.points <= 0 {
                    self.end_turn()?;
                }
            }
            Submission::Orders => {}
        }
        Ok(Applied::Done)
    }

    fn use_points(&mut self, n: i64) -> R<()> {
        self.st.points -= n;
        if self.st.points <= 0 && !self.st.turn_over {
            self.end_turn()?;
        }
        Ok(())
    }

    /// Logs an `invalid_action` event.
    pub fn invalid(&mut self, player: PlayerIdx, action: Json, reason: &str) {
        if self.logging() {
            let e = json!({"type": "invalid_action", "player": self.game.players[player as usize], "action": action, "reason": reason});
            self.log(e);
        }
    }

    /// Ends the current player's submission: batch turns end here; simultaneous turns resolve once all are in.
    pub fn end_submission(&mut self, player: PlayerIdx) -> R<()> {
        let g = self.game;
        if self.st.result.is_some() {
            return Ok(());
        }
        let phase = &g.phases[self.st.phase as usize];
        match phase.submission {
            Submission::Batch
                if !self.st.turn_over && self.st.active == player && self.st.is_due(player) =>
            {
                self.end_turn()?;
            }
            Submission::Orders => {
                self.st.due &= !(1 << player);
                if self.st.due == 0 {
                    self.resolve_turn()?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Ends the active player's turn (alternating phases).
    pub fn end_turn(&mut self) -> R<()> {
        let g = self.game;
        let phase = &g.phases[self.st.phase as usize];
        self.st.turn_over = true;
        self.st.due = 0;
        let player = self.st.active;
        self.me = player;
        let mut sig = Signals::default();
        self.run(
            &self.prog.phases[self.st.phase as usize].on_turn_end,
            &mut sig,
        )?;
        self.check_victory(CheckPoint::TurnEnd)?;
        count(&mut self.st.ply, "ply")?;
        if self.st.result.is_some() {
            return Ok(());
        }
        let n = g.players.len() as u8;
        let next = (player + 1) % n;
        if next == phase.first {
            count(&mut self.st.phase_round, "round")?;
            if phase.advances_turn {
                count(&mut self.st.turn, "turn")?;
            }
        }
        self.after_turn(next)
    }

    /// Resolves a simultaneous turn once every order is in.
    fn resolve_turn(&mut self) -> R<()> {
        let g = self.game;
        let phase = &g.phases[self.st.phase as usize];
        self.st.turn_over = true;
        self.me = phase.first;
        self.resolve(self.st.phase as usize)?;
        let mut sig = Signals::default();
        let hooks = &self.prog.phases[self.st.phase as usize];
        for p in 0..g.players.len() as u8 {
            self.me = p;
            self.run(&hooks.on_turn_end, &mut sig)?;
        }
        self.check_victory(CheckPoint::AfterAction)?;
        self.check_victory(CheckPoint::TurnEnd)?;
        count(&mut self.st.ply, "ply")?;
        if self.st.result.is_some() {
            return Ok(());
        }
        count(&mut self.st.phase_round, "round")?;
        if phase.advances_turn {
            count(&mut self.st.turn, "turn")?;
        }
        self.after_turn(phase.first)
    }

    fn after_turn(&mut self, next: PlayerIdx) -> R<()> {
        let g = self.game;
        self.me = next;
        self.check_limits()?;
        if self.st.result.is_some() {
            return Ok(());
        }
        let phase = &g.phases[self.st.phase as usize];
        if let Some(rounds) = phase.rounds {
            if self.st.phase_round >= rounds {
                return self.begin_phase(self.st.phase as usize + 1);
            }
        }
        self.begin_turn(next)
    }

    /// Runs the per-entity initial expressions and the first turn.
    pub fn start(&mut self) -> R<()> {
        let (g, prog) = (self.game, self.prog);
        for (d, e) in g.cell_vars.iter().zip(&prog.cell_initial) {
            if let Some(e) = e {
                for c in 0..g.board.len() {
                    let i = c * g.cell_slots + d.slot as usize;
                    if self.st.cell_vars[i] != crate::model::value::ABSENT {
                        continue;
                    }
                    self.rt.locals[0] = Value::Cell(c as u32);
                    let v = e(self)?;
                    self.st.cell_vars[i] = v.encode();
                }
            }
        }
        if let Some(e) = &prog.initial_owner {
            for c in 0..g.board.len() {
                if g.scenario_owned[c] {
                    continue;
                }
                self.rt.locals[0] = Value::Cell(c as u32);
                if let Value::Player(p) = e(self)? {
                    self.st.set_owner(c as u32, p);
                }
            }
        }
        self.begin_phase(0)
    }
}

/// Writes `values` at slot `start` of every row of `stride` slots, with the run's length known to the
/// compiler for runs of up to [`crate::engine::lower::SCRATCH_RUN_MAX`] slots (a store or two per row,
/// no call).
fn reset_run(vars: &mut [i64], stride: usize, start: usize, values: &[i64]) {
    match values.len() {
        1 => reset_run_of::<1>(vars, stride, start, values),
        2 => reset_run_of::<2>(vars, stride, start, values),
        3 => reset_run_of::<3>(vars, stride, start, values),
        4 => reset_run_of::<4>(vars, stride, start, values),
        5 => reset_run_of::<5>(vars, stride, start, values),
        6 => reset_run_of::<6>(vars, stride, start, values),
        7 => reset_run_of::<7>(vars, stride, start, values),
        8 => reset_run_of::<8>(vars, stride, start, values),
        n => {
            for row in vars.chunks_exact_mut(stride) {
                row[start..start + n].copy_from_slice(values);
            }
        }
    }
}

#[inline(always)]
fn reset_run_of<const L: usize>(vars: &mut [i64], stride: usize, start: usize, values: &[i64]) {
    let Ok(run) = <[i64; L]>::try_from(values) else {
        return;
    };
    if stride < start + L {
        return;
    }
    for row in vars.chunks_exact_mut(stride) {
        row[start..start + L].copy_from_slice(&run);
    }
}

#[cfg(test)]
mod tests {
    use super::reset_run;

    /// Every run length writes exactly the run's slots of every row.
    #[test]
    fn reset_run_writes_the_run_of_every_row_and_nothing_else() {
        for len in 1..=10 {
            for start in 0..3 {
                let stride = start + len + 2;
                let values: Vec<i64> = (0..len as i64).map(|v| 100 + v).collect();
                let mut vars: Vec<i64> = (0..5 * stride as i64).collect();
                let mut expected = vars.clone();
                for row in expected.chunks_exact_mut(stride) {
                    row[start..start + len].copy_from_slice(&values);
                }
                reset_run(&mut vars, stride, start, &values);
                assert_eq!(vars, expected, "run of {len} at {start}");
            }
        }
    }
}
