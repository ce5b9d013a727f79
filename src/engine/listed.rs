//! A whole submission played from listings, for agents that pick among the legal actions (random, and the
//! random rollouts of search): each action is listed as blocks, picked by index, decoded where it stays and
//! applied unchecked, all on one evaluation context. Going through the facade for each step built that
//! context twice per action and checked twice again who is due: ~50 of the ~536 instructions spent around
//! each action of `benches/fixtures/bookkeeping`, whose one action does almost nothing (callgrind).
use super::blocks::BlockList;
use super::{wire, Engine, Machine, Match, Program, RunError};
use crate::ir::game::Game;
use crate::model::action::ArgList;
use crate::model::{Action, PlayerIdx};

impl Engine {
    /// Plays one submission for `player` into `out` (whatever it held is replaced), as
    /// `agents::submit_each_into` does for any agent: while the player may still act in the submission
    /// that started now and fewer than `max` actions were given, lists the legal actions into `blocks`,
    /// asks `pick` for the index of the one to take (`None` hands in), decodes it into the submission and
    /// applies it unchecked (enumeration listed it in this very state). Closes the submission if it is still
    /// open. The same draws and the same actions as listing and applying through the facade.
    pub fn submit_from_listing(
        &mut self,
        m: &mut Match,
        player: PlayerIdx,
        max: usize,
        blocks: &mut BlockList,
        out: &mut Vec<Action>,
        mut pick: impl FnMut(&BlockList) -> Option<u64>,
    ) -> Result<(), RunError> {
        out.clear();
        let ply = m.state.ply;
        let Engine { game, prog, rt, .. } = self;
        let (game, prog): (&Game, &Program) = (game, prog);
        let mut mm = Self::machine(game, prog, rt, m, player);
        let open = |mm: &Machine| !mm.st.is_over() && mm.st.is_due(player) && mm.st.ply == ply;
        let mut args = ArgList::new();
        while out.len() < max && open(&mm) {
            // What a fresh context starts with: no lists, the player acting (a turn's end hands it on).
            mm.rt.lists.clear();
            mm.me = player;
            mm.block_list_with(game.allowed_actions(mm.st), blocks, &mut args)?;
            let Some(k) = pick(blocks) else {
                break;
            };
            let last = out.len();
            // Made in place: built first and then pushed, its fresh bytes were copied into the slot whole.
            out.resize_with(last + 1, Action::empty);
            if !blocks.get_into(k, &game.board, &mut out[last]) {
                out.pop();
                return Err(RunError::new(format!(
                    "legal action {k} of {} could not be enumerated",
                    blocks.total()
                )));
            }
            mm.rt.lists.clear();
            let a = &out[last];
            let echo = |mm: &Machine| wire::encode(mm.game, mm.st, a);
            if let Err(e) = mm.apply(player, a, &echo, true) {
                out.pop();
                return Err(e);
            }
        }
        if open(&mm) {
            mm.end_submission(player)?;
        }
        Ok(())
    }
}
