//! The MCTS agent: UCT over moves ([`super::search`]: one action, or handing in), for every ruleset.
//!
//! Each decision runs `iterations` iterations (or as many as `time_ms` allows) from the current position:
//! - **Determinisation.** Every iteration copies the position and gives the copy a fresh game generator
//!   seeded from the agent's own stream, so the dice differ between iterations and never come from the
//!   match's own generator. The tree is open-loop: a node is a sequence of moves, not a state, so after a
//!   roll of the dice the same node stands for every outcome; its statistics average over them. Moves
//!   legal in one outcome and not another are handled with availability counts (a child's exploration
//!   term uses how often it was available, as in information-set MCTS).
//! - **Selection** by UCB1, `mean + c * sqrt(ln(available) / visits)`, rewards in [0, 1] for the player who
//!   made the move; one untried move (drawn at random) is expanded per iteration.
//! - **Simultaneous turns** (decoupled): the agent's own orders are nodes of the main tree; each other
//!   player's orders for that turn are chosen in a tree of its own, keyed by its own orders only and played
//!   on the position as the turn began, so neither side's choice depends on the other's orders of the same
//!   turn. The turn then resolves and the main tree continues below the agent's own hand-in: the others'
//!   orders are, to the agent, like dice.
//! - **Rollouts** play the `rollout` policy (`random`, or `kind`: action kind first) for `depth` more
//!   player-turns, then score the position by the ruleset's evaluation: each player's evaluation minus the
//!   others', squashed to (0, 1) by a logistic on the scale of the differences seen so far in this search.
//!   A finished game scores 1 for a win, 0 for a loss, 1/n for a draw. Without an evaluation (or with
//!   `depth=end`) rollouts play to the end of the game; `rollout=none` scores the new node at once.
//! - The move played is the most visited one (ties: the first listed).
//!
//! With `iterations` the agent is deterministic for a given match seed; with `time_ms` the number of
//! iterations depends on the machine's speed, so its games do not reproduce.
use std::time::{Duration, Instant};

use super::move_list::{move_key, FxMap, KeyFilter, MoveList};
use super::random::{RandomAgent, RandomKindAgent};
use super::search::{advantage, decider, may_end, moves, outcome, play, take_lookahead, Move};
use super::{submit_each, Agent, Mark, MAX_SUBMISSION};
use crate::engine::{Engine, Match, RunError};
use crate::ir::game::Submission;
use crate::model::{Action, PlayerIdx};
use crate::rng::{Rng, RngKind};

/// Stream numbers of MCTS draws (determinisations and expansion: base + player; rollouts: base + 100 +
/// player).
pub const STREAM_BASE: u64 = 3000;
/// Most nodes one search grows; past it, iterations stop expanding and only refine what is there.
pub const MAX_NODES: usize = 1 << 19;
/// Progressive widening: moves considered at a node visited v times, `WIDEN * (v + 1)^ALPHA`.
const WIDEN: f64 = 2.0;
const ALPHA: f64 = 0.5;
/// Most submissions one rollout plays before it is scored as it stands.
const MAX_ROLLOUT_SUBMISSIONS: u32 = 10_000;

mod config;
pub use config::{MctsConfig, Rollout};

/// Statistics of one move in the tree, from the point of view of the player who made it.
struct Node {
    mover: PlayerIdx,
    mv: Move,
    visits: u32,
    /// Visits of the parent at which this move was available.
    avail: u32,
    total: f64,
    /// Index into `MctsAgent::priors` of this node's moves ranked by the evaluation, once computed.
    prior: u32,
    /// The move's standing by the evaluation among its siblings, 0 to 1 (0 where not ranked).
    bias: f64,
    /// The move's key ([`move_key`]), its first child and its next sibling ([`NO_NODE`] for none).
    key: u64,
    first_child: u32,
    next_sibling: u32,
}

/// No node (the end of a list of children).
const NO_NODE: u32 = u32::MAX;

/// `Node::prior` of a node whose moves are not ranked.
const NO_PRIOR: u32 = u32::MAX;
/// Visits after which a node's moves are ranked by the evaluation (the root's always are).
const PRIOR_VISITS: u32 = 8;

/// What selection chose at a node.
enum Pick {
    /// A child, and whether it was just created.
    Node(u32, bool),
    /// The tree is full: a move without statistics (index into the move list).
    Untracked(usize),
}

pub struct MctsAgent {
    player: PlayerIdx,
    cfg: MctsConfig,
    rng: Rng,
    random: RandomAgent,
    kind: RandomKindAgent,
    look: Option<Engine>,
    nodes: Vec<Node>,
    /// (parent, move key, probe) -> child.
    children: FxMap<(u32, u64), u32>,
    /// (node where a simultaneous turn began, player) -> root of that player's order tree.
    side: FxMap<(u32, PlayerIdx), u32>,
    /// Reused buffers: the iteration's copy of the match, the turn-start copies, a view for others' orders.
    sim: Option<Match>,
    root_turn: Option<Match>,
    deep_turn: Option<Match>,
    view: Option<Match>,
    legal: Vec<Action>,
    /// The moves of the position at hand, and all of them built (for ranking).
    list: MoveList,
    built: Vec<Move>,
    /// The moves at the root, listed by the decision's first iteration.
    root_list: MoveList,
    root_listed: bool,
    /// Each player's first moves in its order tree from the turn start (`root_turn`), listed once per
    /// turn: whether listed yet, and the list.
    side_lists: Vec<(bool, MoveList)>,
    /// A rollout's last submission.
    acted: Vec<Action>,
    /// The listed moves that are children of the node at hand: (index in the list, child).
    found: Vec<(usize, u32)>,
    path: Vec<u32>,
    orders: Vec<(PlayerIdx, Vec<Action>)>,
    evals: Vec<f64>,
    rewards: Vec<f64>,
    /// Move keys of ranked nodes, best first; a scratch copy for ranking; the ranking being built.
    priors: Vec<Vec<(u64, f64)>>,
    scratch: Option<Match>,
    ranked: Vec<(f64, u64)>,
    /// Sum of squared evaluation differences at scored leaves, and how many (the logistic's scale).
    sq_sum: f64,
    scored: u64,
    /// The ply at the last node of the walk (before its move).
    leaf_ply: i64,
    /// Each player's lead by the evaluation at the root (rewards measure the change from it).
    base: Vec<f64>,
    /// Iterations run by the last decision, and by all decisions so far (for measurements).
    pub iterations_run: u64,
    pub iterations_total: u64,
}

impl MctsAgent {
    pub fn new(seed: u64, player: PlayerIdx, cfg: MctsConfig) -> Self {
        let p = player as u64;
        MctsAgent {
            player,
            cfg,
            rng: Rng::stream(RngKind::ChaCha8, seed, STREAM_BASE + p),
            random: RandomAgent::from_rng(Rng::stream(
                RngKind::ChaCha8,
                seed,
                STREAM_BASE + 100 + p,
            )),
            kind: RandomKindAgent::from_rng(Rng::stream(
                RngKind::ChaCha8,
                seed,
                STREAM_BASE + 200 + p,
            )),
            look: None,
            nodes: Vec::new(),
            children: FxMap::default(),
            side: FxMap::default(),
            sim: None,
            root_turn: None,
            deep_turn: None,
            view: None,
            legal: Vec::new(),
            acted: Vec::new(),
            list: MoveList::default(),
            built: Vec::new(),
            root_list: MoveList::default(),
            root_listed: false,
            side_lists: Vec::new(),
            found: Vec::new(),
            path: Vec::new(),
            orders: Vec::new(),
            evals: Vec::new(),
            rewards: Vec::new(),
            priors: Vec::new(),
            scratch: None,
            ranked: Vec::new(),
            sq_sum: 0.0,
            scored: 0,
            base: Vec::new(),
            leaf_ply: 0,
            iterations_run: 0,
            iterations_total: 0,
        }
    }

    fn new_node(&mut self, mover: PlayerIdx, mv: Move) -> u32 {
        let key = move_key(&mv);
        self.nodes.push(Node {
            mover,
            mv,
            visits: 0,
            avail: 0,
            total: 0.0,
            prior: NO_PRIOR,
            bias: 0.0,
            key,
            first_child: NO_NODE,
            next_sibling: NO_NODE,
        });
        (self.nodes.len() - 1) as u32
    }

    /// The child of `parent` for `mv`, if the tree has one.
    fn child(&self, parent: u32, mv: &Move) -> Option<u32> {
        let mut key = move_key(mv);
        loop {
            let c = *self.children.get(&(parent, key))?;
            if self.nodes[c as usize].mv == *mv {
                return Some(c);
            }
            key = key.wrapping_add(1);
        }
    }

    /// The child of `parent` for move `i` of `self.list`, if the tree has one: found by the move's key,
    /// confirmed by comparing the child's move with the listed one.
    fn listed_child(&self, parent: u32, i: usize, look: &Engine) -> Option<u32> {
        let mut key = self.list.key(i);
        loop {
            let c = *self.children.get(&(parent, key))?;
            if self.list.is(i, &self.nodes[c as usize].mv, look) {
                return Some(c);
            }
            key = key.wrapping_add(1);
        }
    }

    /// Adds `mv` (whose key is `key`) as a child of `parent`.
    fn add_child(&mut self, parent: u32, mover: PlayerIdx, mv: Move, key: u64) -> u32 {
        let mut key = key;
        while self.children.contains_key(&(parent, key)) {
            key = key.wrapping_add(1);
        }
        let c = self.new_node(mover, mv);
        self.children.insert((parent, key), c);
        self.nodes[c as usize].next_sibling = self.nodes[parent as usize].first_child;
        self.nodes[parent as usize].first_child = c;
        c
    }

    /// Ranks the moves in `self.list` (those of `mover` at `node`, whose position is `at`) by the
    /// evaluation after each, best first, so widening takes the promising ones first.
    fn rank(
        &mut self,
        look: &mut Engine,
        node: u32,
        at: &Match,
        mover: PlayerIdx,
    ) -> Result<(), RunError> {
        let Some(k) = self.cfg.eval else {
            return Ok(());
        };
        if !self.cfg.widen || self.nodes[node as usize].prior != NO_PRIOR {
            return Ok(());
        }
        let mut built = std::mem::take(&mut self.built);
        self.list.all(look, &mut self.legal, &mut built);
        let mut scratch = self.scratch.take().unwrap_or_else(|| at.clone());
        let mut ranked = std::mem::take(&mut self.ranked);
        ranked.clear();
        let result = (|| {
            for (i, mv) in built.iter().enumerate() {
                scratch.clone_from(at);
                play(look, &mut scratch, mover, mv)?;
                let v = match outcome(&scratch, mover, look.game.players.len()) {
                    Some(o) => (o - 0.5) * 1e15,
                    None => advantage(look, &mut scratch, mover, Some(k))?,
                };
                ranked.push((v, self.list.key(i)));
            }
            Ok(())
        })();
        self.built = built;
        self.scratch = Some(scratch);
        result?;
        // Stable: equal scores keep the listing order.
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        // Each move's standing between the worst (0) and the best (1), for the bias term of selection.
        let (lo, hi) = (
            ranked.last().map_or(0.0, |r| r.0),
            ranked.first().map_or(0.0, |r| r.0),
        );
        let span = hi - lo;
        self.priors.push(
            ranked
                .iter()
                .map(|(v, k)| (*k, if span > 0.0 { (v - lo) / span } else { 0.5 }))
                .collect(),
        );
        self.ranked = ranked;
        self.nodes[node as usize].prior = (self.priors.len() - 1) as u32;
        Ok(())
    }

    /// UCB1 selection among `self.list` (the moves available now) below `parent`, expanding one untried
    /// move if there is any.
    fn select(&mut self, parent: u32, mover: PlayerIdx, look: &Engine) -> Result<Pick, RunError> {
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        let mut filter = KeyFilter::default();
        let mut c = self.nodes[parent as usize].first_child;
        while c != NO_NODE {
            filter.add(self.nodes[c as usize].key);
            c = self.nodes[c as usize].next_sibling;
        }
        // The moves that are children already (ascending); the others are untried.
        for (i, &key) in self.list.keys().iter().enumerate() {
            if filter.may_hold(key) {
                if let Some(c) = self.listed_child(parent, i, look) {
                    self.nodes[c as usize].avail += 1;
                    found.push((i, c));
                }
            }
        }
        let untried = (self.list.len() - found.len()) as u64;
        let tried = |i: usize| found.binary_search_by_key(&i, |&(j, _)| j).is_ok();
        // Progressive widening: a node visited v times considers at most WIDEN * (v + 1)^ALPHA moves,
        // taken best first where the node's moves are ranked, at random otherwise.
        let existing = found.len() as u64;
        let visits = f64::from(self.nodes[parent as usize].visits);
        let allowed = if self.cfg.widen {
            (WIDEN * (visits + 1.0).powf(ALPHA)).ceil() as u64
        } else {
            u64::MAX
        };
        let pick = if untried > 0 && existing < allowed && self.nodes.len() < MAX_NODES {
            let prior = self.nodes[parent as usize].prior;
            let mut i = None;
            if prior != NO_PRIOR {
                // The best ranked move that is listed now and untried (its first such listing).
                let keys = self.list.keys();
                i = self.priors[prior as usize].iter().find_map(|&(key, b)| {
                    let mut at = keys.iter().enumerate().filter(|(_, k)| **k == key);
                    at.find(|(i, _)| !tried(*i)).map(|(i, _)| (i, b))
                });
            }
            let (i, bias) = i.unwrap_or_else(|| {
                // The k-th untried move: k, moved past each child listed at or before it.
                let mut i = self.rng.below(untried) as usize;
                for &(j, _) in &found {
                    if j <= i {
                        i += 1;
                    }
                }
                (i, 0.0)
            });
            let mv = match self.list.get(i, look) {
                Ok(mv) => mv,
                Err(e) => {
                    self.found = found;
                    return Err(e);
                }
            };
            let c = self.add_child(parent, mover, mv, self.list.key(i));
            self.nodes[c as usize].avail = 1;
            self.nodes[c as usize].bias = bias;
            Pick::Node(c, true)
        } else {
            let mut best: Option<(u32, f64)> = None;
            for (_, c) in &found {
                let n = &self.nodes[*c as usize];
                let score = if n.visits == 0 {
                    f64::INFINITY
                } else {
                    let v = f64::from(n.visits);
                    n.total / v
                        + self.cfg.c * ((f64::from(n.avail.max(1))).ln() / v).sqrt()
                        + self.cfg.bias * n.bias / (v + 1.0)
                };
                if best.is_none_or(|(_, b)| score > b) {
                    best = Some((*c, score));
                }
            }
            match best {
                Some((c, _)) => Pick::Node(c, false),
                None => Pick::Untracked(self.rng.below(self.list.len() as u64) as usize),
            }
        };
        self.found = found;
        Ok(pick)
    }

    /// Chooses `q`'s orders for the simultaneous turn that began at tree node `turn`, on a copy of the
    /// turn start (`deep`: the turn began inside the search, otherwise at the decision's own turn), in
    /// `q`'s own order tree; appends the new nodes to the path. Returns the orders.
    fn side_orders(
        &mut self,
        look: &mut Engine,
        turn: u32,
        deep: bool,
        q: PlayerIdx,
    ) -> Result<Vec<Action>, RunError> {
        let root = match self.side.get(&(turn, q)) {
            Some(r) => *r,
            None => {
                let r = self.new_node(q, Move::End);
                self.side.insert((turn, q), r);
                r
            }
        };
        self.path.push(root);
        let start = if deep {
            self.deep_turn.as_ref()
        } else {
            self.root_turn.as_ref()
        };
        let Some(start) = start else {
            return Ok(Vec::new());
        };
        let mut view = self.view.take().unwrap_or_else(|| start.clone());
        view.clone_from(start);
        let mark = Mark::new(&view);
        let mut acts = Vec::new();
        let mut node = Some(root);
        let result = (|| {
            while acts.len() < MAX_SUBMISSION && mark.open(&view, q) {
                // From the turn start the first listing is the same every time: kept for the turn.
                match self.side_lists.get_mut(q as usize) {
                    Some((listed, first)) if !deep && acts.is_empty() => {
                        if !*listed {
                            first.fill(look, &mut view, q)?;
                            *listed = true;
                        }
                        self.list.clone_from(first);
                    }
                    _ => self.list.fill(look, &mut view, q)?,
                }
                if self.list.is_empty() {
                    break;
                }
                if let Some(n) = node.filter(|n| self.nodes[*n as usize].visits >= PRIOR_VISITS) {
                    self.rank(look, n, &view, q)?;
                }
                let mv = match node {
                    Some(n) => match self.select(n, q, look)? {
                        Pick::Node(c, new) => {
                            self.path.push(c);
                            node = (!new).then_some(c);
                            self.nodes[c as usize].mv.clone()
                        }
                        Pick::Untracked(i) => {
                            node = None;
                            self.list.get(i, look)?
                        }
                    },
                    // Below the tree the orders end (as the agent's own do at a new node).
                    None => Move::End,
                };
                match mv {
                    Move::End => break,
                    Move::Act(a) => {
                        look.apply_listed(&mut view, q, &a)?;
                        acts.push(a);
                    }
                }
            }
            Ok(())
        })();
        self.view = Some(view);
        result.map(|_| acts)
    }

    /// Plays the rollout policy on `sim` from the leaf until the game ends or the depth is reached.
    fn rollout(&mut self, look: &mut Engine, sim: &mut Match) -> Result<(), RunError> {
        let leaf_ply = self.leaf_ply;
        let policy = self.cfg.rollout;
        if policy == Rollout::None && self.cfg.eval.is_some() {
            return Ok(());
        }
        for _ in 0..MAX_ROLLOUT_SUBMISSIONS {
            if sim.state.is_over() {
                break;
            }
            if let (Some(d), Some(_)) = (self.cfg.depth, self.cfg.eval) {
                if (sim.state.ply - leaf_ply) as u64 >= d {
                    break;
                }
            }
            let Some(p) = decider(look, sim, self.player) else {
                break;
            };
            let (ply, due) = (sim.state.ply, sim.state.due);
            match policy {
                Rollout::Kind => self.kind.act_into(look, sim, p, &mut self.acted)?,
                _ => self.random.act_into(look, sim, p, &mut self.acted)?,
            }
            if !sim.state.is_over()
                && sim.state.ply == ply
                && sim.state.due == due
                && self.acted.is_empty()
            {
                if look.is_stuck(sim, p)? {
                    look.settle_stuck(sim, p)?;
                } else {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Fills `self.rewards` for the position `sim` ends in.
    fn score(&mut self, look: &mut Engine, sim: &mut Match) -> Result<(), RunError> {
        let n = look.game.players.len();
        self.rewards.clear();
        if sim.state.is_over() {
            for q in 0..n as PlayerIdx {
                self.rewards.push(outcome(sim, q, n).unwrap_or(0.5));
            }
            return Ok(());
        }
        let Some(k) = self.cfg.eval else {
            self.rewards.resize(n, 1.0 / n.max(1) as f64);
            return Ok(());
        };
        self.evals.clear();
        for q in 0..n as PlayerIdx {
            let v = look.evaluate_with(k, sim, q)?;
            self.evals.push(if v.is_finite() { v } else { 0.0 });
        }
        let total: f64 = self.evals.iter().sum();
        let others = (n.max(2) - 1) as f64;
        // Each player's lead by the evaluation, measured from where it stood at the root.
        let diff = |e: f64| e - (total - e) / others;
        let base = &self.base;
        let lead = |q: usize| diff(self.evals[q]) - base.get(q).copied().unwrap_or(0.0);
        let mine = lead(self.player as usize);
        self.sq_sum += mine * mine;
        self.scored += 1;
        let scale = (self.sq_sum / self.scored as f64).sqrt();
        for q in 0..n {
            let d = lead(q);
            self.rewards.push(if scale > 0.0 {
                1.0 / (1.0 + (-d / scale).exp())
            } else {
                0.5
            });
        }
        Ok(())
    }

    /// One iteration from `root`.
    fn iterate(&mut self, look: &mut Engine, root: &Match) -> Result<(), RunError> {
        let mut sim = self.sim.take().unwrap_or_else(|| root.clone());
        // The root's position with a generator of its own (the root's is not copied only to be replaced).
        sim.state.clone_from(&root.state);
        sim.seed = root.seed;
        sim.rng.reseed(look.game.rng, self.rng.next_raw());
        self.path.clear();
        // The root (and each order tree's root) counts its visits for widening.
        self.path.push(0);
        self.leaf_ply = sim.state.ply;
        let result = self.descend(look, &mut sim, root);
        let result = result.and_then(|_| self.rollout(look, &mut sim));
        let result = result.and_then(|_| self.score(look, &mut sim));
        self.sim = Some(sim);
        result?;
        for &id in &self.path {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.total += self.rewards.get(n.mover as usize).copied().unwrap_or(0.0);
        }
        Ok(())
    }

    /// The tree walk of one iteration: selection down to a new node (or a finished game).
    fn descend(
        &mut self,
        look: &mut Engine,
        sim: &mut Match,
        root: &Match,
    ) -> Result<(), RunError> {
        let me = self.player;
        let mut node = 0u32;
        // The simultaneous turn in progress: its ply, the node where it began, and whether it began
        // inside the search (its start is in `deep_turn`) or before it (`root_turn`).
        let mut turn: Option<(i64, u32, bool)> = None;
        if self
            .root_turn
            .as_ref()
            .is_some_and(|t| t.state.ply == root.state.ply)
        {
            turn = Some((root.state.ply, 0, false));
        }
        loop {
            let Some(p) = decider(look, sim, me) else {
                return Ok(());
            };
            let orders = look.game.phase(&sim.state).submission == Submission::Orders;
            if orders && turn.is_none_or(|(ply, _, _)| ply != sim.state.ply) {
                match &mut self.deep_turn {
                    Some(t) => t.clone_from(sim),
                    None => self.deep_turn = Some(sim.clone()),
                }
                turn = Some((sim.state.ply, node, true));
            }
            // Every iteration starts from the root's position: its moves are listed once per decision.
            let chosen = if node == 0 {
                if !self.root_listed {
                    self.root_list.fill(look, sim, p)?;
                    self.root_listed = true;
                }
                std::mem::swap(&mut self.list, &mut self.root_list);
                let chosen = self.choose(look, node, sim, p);
                std::mem::swap(&mut self.list, &mut self.root_list);
                chosen?
            } else {
                self.list.fill(look, sim, p)?;
                self.choose(look, node, sim, p)?
            };
            let Some((mv, next)) = chosen else {
                return Ok(());
            };
            let leaf = !matches!(next, Some((_, false)));
            // Rollout depth counts player-turns from the one in progress at the leaf.
            self.leaf_ply = sim.state.ply;
            if orders && p == me && mv == Move::End {
                self.hand_in_orders(look, sim, turn.map(|(_, at, deep)| (at, deep)))?;
            } else {
                play(look, sim, p, &mv)?;
                // A new node ends the walk: the submission it is part of is handed in as it stands, so the
                // node is scored for what it adds (not for random orders after it).
                if leaf && may_end(look, sim) && sim.state.is_due(p) {
                    if orders && p == me {
                        self.hand_in_orders(look, sim, turn.map(|(_, at, deep)| (at, deep)))?;
                    } else {
                        look.end_submission(sim, p)?;
                    }
                }
            }
            match next {
                Some((c, new)) => {
                    self.path.push(c);
                    if new {
                        return Ok(());
                    }
                    node = c;
                }
                None => return Ok(()),
            }
        }
    }

    /// The move selection takes among `self.list` (the moves of `p` at `node`, in `sim`), and the child it
    /// stands for (`None` for a move outside the tree); `None` when there is no move.
    #[allow(clippy::type_complexity)] // a move and where it is in the tree
    fn choose(
        &mut self,
        look: &mut Engine,
        node: u32,
        sim: &Match,
        p: PlayerIdx,
    ) -> Result<Option<(Move, Option<(u32, bool)>)>, RunError> {
        if self.list.is_empty() {
            return Ok(None);
        }
        if node == 0 || self.nodes[node as usize].visits >= PRIOR_VISITS {
            self.rank(look, node, sim, p)?;
        }
        Ok(Some(match self.select(node, p, look)? {
            Pick::Node(c, new) => (self.nodes[c as usize].mv.clone(), Some((c, new))),
            Pick::Untracked(i) => (self.list.get(i, look)?, None),
        }))
    }

    /// Hands in the agent's orders on `sim` and the other due players' orders for the simultaneous turn
    /// that began at `turn` (node, and whether it began inside the search), each chosen in its own tree.
    fn hand_in_orders(
        &mut self,
        look: &mut Engine,
        sim: &mut Match,
        turn: Option<(u32, bool)>,
    ) -> Result<(), RunError> {
        let me = self.player;
        let (at, deep) = turn.unwrap_or((0, false));
        let mut orders = std::mem::take(&mut self.orders);
        orders.clear();
        let result = (|| {
            for q in 0..look.game.players.len() as PlayerIdx {
                if q != me && sim.state.is_due(q) {
                    let acts = self.side_orders(look, at, deep, q)?;
                    orders.push((q, acts));
                }
            }
            play(look, sim, me, &Move::End)?;
            for (q, acts) in &orders {
                if sim.state.is_due(*q) {
                    let name = look.game.players[*q as usize].clone();
                    look.submit_actions(sim, &name, acts)
                        .map_err(|e| RunError::new(format!("search: {e}")))?;
                }
            }
            Ok(())
        })();
        self.orders = orders;
        result
    }

    /// Runs a search from `m` and returns the move to play (`None` when the agent has none).
    fn decide(&mut self, look: &mut Engine, m: &Match) -> Result<Option<Move>, RunError> {
        let mut root_moves = Vec::new();
        let mut probe = m.clone();
        moves(
            look,
            &mut probe,
            self.player,
            &mut self.legal,
            &mut root_moves,
        )?;
        if root_moves.len() <= 1 {
            return Ok(root_moves.pop());
        }
        self.nodes.clear();
        self.root_listed = false;
        self.children.clear();
        self.side.clear();
        self.priors.clear();
        self.sq_sum = 0.0;
        self.scored = 0;
        self.base.clear();
        if let Some(k) = self.cfg.eval {
            let n = look.game.players.len();
            for q in 0..n as PlayerIdx {
                let v = advantage(look, &mut probe, q, Some(k))?;
                self.base.push(v);
            }
        }
        self.new_node(self.player, Move::End);
        let deadline = self
            .cfg
            .time_ms
            .map(|ms| Instant::now() + Duration::from_millis(ms));
        let mut done = 0u64;
        while done < self.cfg.iterations {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            self.iterate(look, m)?;
            done += 1;
        }
        self.iterations_run = done;
        self.iterations_total += done;
        let mut best: Option<(usize, u32, f64)> = None;
        for (i, mv) in root_moves.iter().enumerate() {
            let Some(c) = self.child(0, mv) else {
                continue;
            };
            let n = &self.nodes[c as usize];
            let mean = if n.visits > 0 {
                n.total / f64::from(n.visits)
            } else {
                0.0
            };
            if best.is_none_or(|(_, v, q)| n.visits > v || (n.visits == v && mean > q)) {
                best = Some((i, n.visits, mean));
            }
        }
        let i = best.map_or(0, |(i, _, _)| i);
        Ok(Some(root_moves.swap_remove(i)))
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> &str {
        "mcts"
    }

    fn act_into(
        &mut self,
        engine: &mut Engine,
        m: &mut Match,
        player: PlayerIdx,
        out: &mut Vec<Action>,
    ) -> Result<(), RunError> {
        debug_assert_eq!(player, self.player);
        let mut look = take_lookahead(&mut self.look, engine)?;
        if engine.game.phase(&m.state).submission == Submission::Orders {
            match &mut self.root_turn {
                Some(t) => t.clone_from(m),
                None => self.root_turn = Some(m.clone()),
            }
            let players = engine.game.players.len();
            self.side_lists.resize_with(players, Default::default);
            self.side_lists
                .iter_mut()
                .for_each(|(listed, _)| *listed = false);
        } else {
            self.root_turn = None;
        }
        let result = submit_each(engine, m, player, out, |_, m| {
            Ok(match self.decide(&mut look, m)? {
                Some(Move::Act(a)) => Some(a),
                Some(Move::End) | None => None,
            })
        });
        self.look = Some(look);
        result
    }
}
