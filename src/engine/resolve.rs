//! Built-in resolution of simultaneous orders: departures, arrivals into own, neutral and enemy cells with
//! per-piece chance, caps and growth. Every random draw is logged in the step's event.
use serde_json::{json, Map, Value as Json};

use super::exec::Signals;
use super::machine::{Machine, RunError};
use crate::ir::game::{FlowVars, ResolveStep};
use crate::model::state::NO_OWNER;
use crate::model::value::ABSENT;

type R<T> = Result<T, RunError>;

/// Most chance rolls one resolution step may make in one cell. Piece counts come from the ruleset and its
/// settings; a count or a tiny hit chance past this would make a turn run for hours, so it stops the match
/// with a message instead.
pub const MAX_ROLLS_PER_CELL: u64 = 1_000_000;

/// A count variable as the steps read it: unset means no pieces.
fn pieces(v: i64) -> i64 {
    if v == ABSENT {
        0
    } else {
        v
    }
}

fn overflow(what: &str, cell: &str) -> RunError {
    RunError::new(format!(
        "arithmetic overflow: `{what}` in cell {cell} leaves the 64-bit integer range"
    ))
}

fn too_many_rolls(cell: &str) -> RunError {
    RunError::new(format!(
        "resolving cell {cell} needs more than {MAX_ROLLS_PER_CELL} chance rolls: lower the piece counts or raise the hit chance"
    ))
}

/// Per-turn facts the steps share: who owned each cell when the turn began and which cells kept pieces
/// (kept by the runtime between turns so its buffers are reused).
#[derive(Default)]
pub struct FlowSnapshot {
    start_owner: Vec<u8>,
    /// Cells that held more pieces than they sent when the turn's resolution began, as bits.
    kept: Vec<u64>,
    /// Cells sending pieces, and cells some player's pieces arrive in, as bits (a superset of the cells
    /// the departure and arrival steps act on: those steps visit only these, in board order).
    sending: Vec<u64>,
    arriving: Vec<u64>,
}

/// The cells of a bit set, in board order.
fn cells_of(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &word)| {
        let mut b = word;
        std::iter::from_fn(move || {
            if b == 0 {
                return None;
            }
            let c = w * 64 + b.trailing_zeros() as usize;
            b &= b - 1;
            Some(c)
        })
    })
}

/// One word of [`Machine::find_movers`]: of the cells whose rows of variables are `rows` (`stride` each),
/// those sending pieces, those some player's pieces arrive in, and those keeping pieces, as bits made
/// without a branch per cell. `slots`: the count, outgoing and first incoming slot, and the number of
/// players; `NP` is that number when it is fixed for the compiler to unroll (0: read from `slots`).
#[inline(always)]
fn mover_word<const NP: usize>(
    rows: &[i64],
    stride: usize,
    (count, out, inc, np): (usize, usize, usize, usize),
) -> (u64, u64, u64) {
    let np = if NP > 0 { NP } else { np };
    let (mut sending, mut arriving, mut keeps) = (0u64, 0u64, 0u64);
    for (bit, row) in rows.chunks_exact(stride).enumerate() {
        // Unset is the smallest number: "more than none" reads as more than zero.
        sending |= u64::from(row[out] > 0) << bit;
        let incoming = &row[inc..inc + np];
        arriving |= u64::from(incoming.iter().fold(false, |a, &v| a | (v > 0))) << bit;
        keeps |= u64::from(pieces(row[count]) > pieces(row[out]).max(0)) << bit;
    }
    (sending, arriving, keeps)
}

impl Machine<'_> {
    fn count_idx(&self, fv: &FlowVars, c: usize) -> usize {
        c * self.game.cell_slots + fv.count as usize
    }
    fn incoming_idx(&self, fv: &FlowVars, c: usize, p: usize) -> usize {
        c * self.game.cell_slots + fv.incoming as usize + p
    }

    /// Runs the resolution steps of phase `phase` in order.
    pub fn resolve(&mut self, phase: usize) -> R<()> {
        let mut snap = std::mem::take(&mut self.rt.flow);
        snap.start_owner.clone_from(&self.st.owner);
        let r = self.resolve_steps(phase, &mut snap);
        self.rt.flow = snap;
        r
    }

    fn resolve_steps(&mut self, phase: usize, snap: &mut FlowSnapshot) -> R<()> {
        let (game, prog) = (self.game, self.prog);
        let steps = &game.phases[phase].resolve;
        let fv = game.phases[phase].flow_vars.as_ref();
        if let Some(fv) = fv {
            self.find_movers(fv, snap, true);
        }
        for (k, step) in steps.iter().enumerate() {
            if self.st.result.is_some() {
                break;
            }
            match (step, fv) {
                (ResolveStep::Effects(_), _) => {
                    let mut sig = Signals::default();
                    if let Some(stmts) = &prog.phases[phase].resolve_effects[k] {
                        self.run(stmts, &mut sig)?;
                    }
                    // Effects may have sent or brought pieces anywhere.
                    if let Some(fv) = fv {
                        self.find_movers(fv, snap, false);
                    }
                }
                (ResolveStep::Depart, Some(fv)) => self.depart(fv, &snap.sending)?,
                (ResolveStep::ArriveFriendly, Some(fv)) => {
                    self.arrive_friendly(fv, &snap.arriving)?
                }
                (
                    ResolveStep::ArriveNeutral {
                        chance,
                        event,
                        contest_event,
                        hit,
                    },
                    Some(fv),
                ) => {
                    self.arrive_neutral(fv, &snap.arriving, (*chance, *hit), event, contest_event)?
                }
                (
                    ResolveStep::ArriveHostile {
                        hit,
                        defender_first,
                        event,
                    },
                    Some(fv),
                ) => self.arrive_hostile(fv, &snap.arriving, *hit, *defender_first, event)?,
                (ResolveStep::Cap { max }, Some(fv)) => {
                    // Unset (the smallest number) is never above the cap.
                    let stride = game.cell_slots;
                    let column = self.st.cell_vars[fv.count as usize..].iter_mut();
                    for x in column.step_by(stride) {
                        *x = (*x).min(*max);
                    }
                }
                (ResolveStep::Grow { amount, max, event }, Some(fv)) => {
                    self.grow(fv, snap, *amount, *max, event)?
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Finds the cells sending pieces and those pieces arrive in (see [`FlowSnapshot::sending`]), and
    /// when `kept` those that keep pieces too, in one pass over the cells' variables with a bit made per
    /// cell without a branch (which cells send is as good as random).
    fn find_movers(&mut self, fv: &FlowVars, snap: &mut FlowSnapshot, kept: bool) {
        let g = self.game;
        let (n, stride) = (g.board.len(), g.cell_slots);
        let words = n.div_ceil(64);
        for bits in [&mut snap.sending, &mut snap.arriving] {
            bits.clear();
            bits.resize(words, 0);
        }
        if kept {
            snap.kept.clear();
            snap.kept.resize(words, 0);
        }
        let (count, out, inc, np) = (
            fv.count as usize,
            fv.outgoing as usize,
            fv.incoming as usize,
            g.players.len(),
        );
        // Flow variables exist, so every cell has a row holding all of them (analysis made them slots of
        // the row): said here once, so the compiler drops the checks of each cell's reads.
        debug_assert!(count < stride && out < stride && inc + np <= stride);
        if count >= stride || out >= stride || inc + np > stride {
            return;
        }
        let vars = &self.st.cell_vars[..n * stride];
        let slots = (count, out, inc, np);
        for (w, rows) in vars.chunks(64 * stride).enumerate() {
            // Two players (the usual case) unrolled: a loop over the incoming counts was a third of this.
            let (sending, arriving, keeps) = match np {
                2 => mover_word::<2>(rows, stride, slots),
                _ => mover_word::<0>(rows, stride, slots),
            };
            snap.sending[w] = sending;
            snap.arriving[w] = arriving;
            if kept {
                snap.kept[w] = keeps;
            }
        }
    }

    fn depart(&mut self, fv: &FlowVars, sending: &[u64]) -> R<()> {
        let g = self.game;
        for c in cells_of(sending) {
            let o = c * g.cell_slots + fv.outgoing as usize;
            let out = pieces(self.st.cell_vars[o]).max(0);
            if out == 0 {
                continue;
            }
            let i = self.count_idx(fv, c);
            let left = pieces(self.st.cell_vars[i])
                .checked_sub(out)
                .ok_or_else(|| overflow(&fv.count_name, g.board.id(c as u32)))?;
            self.st.cell_vars[i] = left.max(0);
            self.st.cell_vars[o] = 0;
            if self.st.cell_vars[i] == 0 {
                self.st.set_owner(c as u32, NO_OWNER);
            }
        }
        Ok(())
    }

    fn arrive_friendly(&mut self, fv: &FlowVars, arriving: &[u64]) -> R<()> {
        let g = self.game;
        for c in cells_of(arriving) {
            let owner = self.st.owner[c];
            if owner == NO_OWNER {
                continue;
            }
            let inc = self.incoming_idx(fv, c, owner as usize);
            let amount = pieces(self.st.cell_vars[inc]);
            if amount > 0 {
                let i = self.count_idx(fv, c);
                self.st.cell_vars[i] = pieces(self.st.cell_vars[i])
                    .checked_add(amount)
                    .ok_or_else(|| overflow(&fv.count_name, g.board.id(c as u32)))?;
                self.st.cell_vars[inc] = 0;
            }
        }
        Ok(())
    }

    /// One roll per arriving piece; `count` is positive and at most [`MAX_ROLLS_PER_CELL`].
    fn rolls(&mut self, count: i64, p: f64) -> (Vec<bool>, bool) {
        let mut rolls = Vec::with_capacity(if self.logging() { count as usize } else { 0 });
        let mut any = false;
        for _ in 0..count {
            let r = self.rng.chance(p);
            any |= r;
            if self.logging() {
                rolls.push(r);
            }
        }
        (rolls, any)
    }

    fn arrive_neutral(
        &mut self,
        fv: &FlowVars,
        arriving: &[u64],
        (chance, hit): (f64, f64),
        event: &str,
        contest_event: &str,
    ) -> R<()> {
        let g = self.game;
        let np = g.players.len();
        for c in cells_of(arriving) {
            if self.st.owner[c] != NO_OWNER {
                continue;
            }
            // The first two players whose arrival succeeded, in player order (a contest is between the
            // first two), and how many succeeded.
            let mut successes = [(0u8, 0i64); 2];
            let mut succeeded = 0;
            for p in 0..np {
                let inc = self.incoming_idx(fv, c, p);
                let amount = pieces(self.st.cell_vars[inc]);
                if amount <= 0 {
                    continue;
                }
                if amount as u64 > MAX_ROLLS_PER_CELL {
                    return Err(too_many_rolls(g.board.id(c as u32)));
                }
                self.st.cell_vars[inc] = 0;
                let (rolls, success) = self.rolls(amount, chance);
                if self.logging() {
                    let mut m = Map::new();
                    m.insert("type".into(), json!(event));
                    m.insert("player".into(), json!(g.players[p]));
                    m.insert("cell".into(), json!(g.board.id(c as u32)));
                    m.insert(fv.count_name.clone(), json!(amount));
                    m.insert("rolls".into(), json!(rolls));
                    m.insert("success".into(), json!(success));
                    self.log(Json::Object(m));
                }
                if success {
                    if succeeded < 2 {
                        successes[succeeded] = (p as u8, amount);
                    }
                    succeeded += 1;
                }
            }
            let i = self.count_idx(fv, c);
            match &successes[..succeeded.min(2)] {
                [] => {}
                [(p, amount)] => {
                    self.st.set_owner(c as u32, *p);
                    self.st.cell_vars[i] = *amount;
                }
                [(a, na), (b, nb), ..] => {
                    let (winner, survivors) =
                        self.contest(c, (*a, *na), (*b, *nb), hit, contest_event)?;
                    match winner {
                        Some(w) => {
                            self.st.set_owner(c as u32, w);
                            self.st.cell_vars[i] = survivors;
                        }
                        None => self.st.cell_vars[i] = 0,
                    }
                }
            }
        }
        Ok(())
    }

    /// Simultaneous rounds: both sides roll each round (first label first), hits land together.
    fn contest(
        &mut self,
        c: usize,
        a: (u8, i64),
        b: (u8, i64),
        hit: f64,
        event: &str,
    ) -> R<(Option<u8>, i64)> {
        let (mut na, mut nb) = (a.1, b.1);
        let mut log = Vec::new();
        let mut rounds = 0u64;
        while na > 0 && nb > 0 {
            rounds += 1;
            if rounds > MAX_ROLLS_PER_CELL / 2 {
                return Err(too_many_rolls(self.game.board.id(c as u32)));
            }
            let ha = self.rng.chance(hit);
            let hb = self.rng.chance(hit);
            if self.logging() {
                log.push(json!({"side": "attacker", "hit": ha}));
                log.push(json!({"side": "defender", "hit": hb}));
            }
            // Without branches: which side hits is a coin toss, which a branch would mispredict.
            nb -= i64::from(ha);
            na -= i64::from(hb);
        }
        let winner = if na > 0 {
            Some(a.0)
        } else if nb > 0 {
            Some(b.0)
        } else {
            None
        };
        let survivors = na.max(nb);
        self.log_combat(c, a, b, log, winner, survivors, event);
        Ok((winner, survivors))
    }

    #[allow(clippy::too_many_arguments)]
    fn log_combat(
        &mut self,
        c: usize,
        a: (u8, i64),
        b: (u8, i64),
        rolls: Vec<Json>,
        winner: Option<u8>,
        survivors: i64,
        event: &str,
    ) {
        if !self.logging() {
            return;
        }
        let g = self.game;
        let name = |p: Option<u8>| p.map_or(Json::Null, |p| json!(g.players[p as usize]));
        let e = json!({
            "type": event,
            "cell": g.board.id(c as u32),
            "attacker": g.players[a.0 as usize],
            "defender": g.players[b.0 as usize],
            "attackers": a.1,
            "defenders": b.1,
            "rolls": rolls,
            "winner": name(winner),
            "survivors": survivors,
        });
        self.log(e);
    }

    fn arrive_hostile(
        &mut self,
        fv: &FlowVars,
        arriving: &[u64],
        hit: f64,
        defender_first: bool,
        event: &str,
    ) -> R<()> {
        let g = self.game;
        let np = g.players.len();
        for c in cells_of(arriving) {
            for p in 0..np {
                let owner = self.st.owner[c];
                if owner == NO_OWNER || owner as usize == p {
                    continue;
                }
                let inc = self.incoming_idx(fv, c, p);
                let attackers = pieces(self.st.cell_vars[inc]);
                if attackers <= 0 {
                    continue;
                }
                self.st.cell_vars[inc] = 0;
                let i = self.count_idx(fv, c);
                let defenders = pieces(self.st.cell_vars[i]);
                let (mut na, mut nd) = (attackers, defenders);
                let mut log = Vec::new();
                let mut defender_turn = defender_first;
                let mut rolled = 0u64;
                while na > 0 && nd > 0 {
                    rolled += 1;
                    if rolled > MAX_ROLLS_PER_CELL {
                        return Err(too_many_rolls(g.board.id(c as u32)));
                    }
                    let h = self.rng.chance(hit);
                    if self.logging() {
                        log.push(json!({"side": if defender_turn { "defender" } else { "attacker" }, "hit": h}));
                    }
                    // Without branches, as in `contest`.
                    na -= i64::from(h & defender_turn);
                    nd -= i64::from(h & !defender_turn);
                    defender_turn = !defender_turn;
                }
                let (winner, survivors) = if na > 0 { (p as u8, na) } else { (owner, nd) };
                if na > 0 {
                    self.st.set_owner(c as u32, p as u8);
                }
                self.st.cell_vars[i] = survivors;
                if nd == 0 && na == 0 {
                    self.st.set_owner(c as u32, NO_OWNER);
                }
                self.log_combat(
                    c,
                    (p as u8, attackers),
                    (owner, defenders),
                    log,
                    Some(winner),
                    survivors,
                    event,
                );
            }
        }
        Ok(())
    }

    fn grow(
        &mut self,
        fv: &FlowVars,
        snap: &FlowSnapshot,
        amount: i64,
        max: i64,
        event: &str,
    ) -> R<()> {
        let g = self.game;
        for c in cells_of(&snap.kept) {
            let owner = snap.start_owner[c];
            if owner == NO_OWNER || self.st.owner[c] != owner {
                continue;
            }
            let i = self.count_idx(fv, c);
            let total = pieces(self.st.cell_vars[i])
                .checked_add(amount)
                .ok_or_else(|| overflow(&fv.count_name, g.board.id(c as u32)))?
                .min(max);
            self.st.cell_vars[i] = total;
            if self.logging() {
                let mut m = Map::new();
                m.insert("type".into(), json!(event));
                m.insert("cell".into(), json!(g.board.id(c as u32)));
                m.insert("player".into(), json!(g.players[owner as usize]));
                m.insert(fv.count_name.clone(), json!(total));
                self.log(Json::Object(m));
            }
        }
        Ok(())
    }
}
