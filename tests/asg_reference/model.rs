//! The model of the public ASG reference engine's ply loop (see tests/asg_reference_model.rs): its
//! generator (RULINGS ASG 10), its scenario_01 map, and one ply as the spec and RULINGS ASG 1-12 describe it,
//! with events under Arbiter's names. Written from those documents; it shares no code with Arbiter.
use std::collections::VecDeque;

use serde_json::{json, Map, Value as Json};

// ---------------------------------------------------------------------------------------------------
// The reference's generator (RULINGS ASG 10).

#[derive(Clone)]
pub struct XorShift32(u32);

impl XorShift32 {
    pub fn new(seed: u32) -> Self {
        XorShift32(if seed == 0 { 0x6D2B_79F5 } else { seed })
    }
    pub fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
    pub fn int_inclusive(&mut self, lo: i64, hi: i64) -> i64 {
        lo + i64::from(self.next()) % (hi - lo + 1)
    }
    /// The coin: true means the attacker wins.
    pub fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

// ---------------------------------------------------------------------------------------------------
// The map: the reference's scenario_01 (Two Lanes, Two Resources), as it publishes it.

pub const NODES: [(&str, Option<usize>, i64); 12] = [
    ("p1_hq", Some(0), 0),
    ("p1_bridge", Some(0), 0),
    ("p1_n", Some(0), 0),
    ("p1_s", Some(0), 0),
    ("p2_hq", Some(1), 0),
    ("p2_bridge", Some(1), 0),
    ("p2_n", Some(1), 0),
    ("p2_s", Some(1), 0),
    ("mid_n", None, 0),
    ("mid_s", None, 0),
    ("res_n", None, 2),
    ("res_s", None, 2),
];
pub const EDGES: [(&str, &str); 13] = [
    ("p1_hq", "p1_bridge"),
    ("p1_bridge", "p1_n"),
    ("p1_bridge", "p1_s"),
    ("p2_hq", "p2_bridge"),
    ("p2_bridge", "p2_n"),
    ("p2_bridge", "p2_s"),
    ("p1_n", "mid_n"),
    ("p2_n", "mid_n"),
    ("mid_n", "res_n"),
    ("p1_s", "mid_s"),
    ("p2_s", "mid_s"),
    ("mid_s", "res_s"),
    ("mid_n", "mid_s"),
];
pub const HQ: [usize; 2] = [0, 4];
pub const PLAYERS: [&str; 2] = ["P1", "P2"];

pub fn node(id: &str) -> Option<usize> {
    NODES.iter().position(|n| n.0 == id)
}

pub fn adjacent(a: usize, b: usize) -> bool {
    EDGES.iter().any(|&(x, y)| {
        let (x, y) = (node(x).unwrap(), node(y).unwrap());
        (x, y) == (a, b) || (y, x) == (a, b)
    })
}

pub fn neighbours(a: usize) -> Vec<usize> {
    (0..NODES.len()).filter(|&b| adjacent(a, b)).collect()
}

/// Edges from every node to `target`, by breadth-first search.
pub fn distances_to(target: usize) -> Vec<usize> {
    let mut d = vec![usize::MAX; NODES.len()];
    d[target] = 0;
    let mut queue = VecDeque::from([target]);
    while let Some(a) = queue.pop_front() {
        for b in neighbours(a) {
            if d[b] == usize::MAX {
                d[b] = d[a] + 1;
                queue.push_back(b);
            }
        }
    }
    d
}

pub fn owner_json(o: Option<usize>) -> Json {
    o.map_or(Json::Null, |p| json!(PLAYERS[p]))
}

// ---------------------------------------------------------------------------------------------------
// The model of the reference's ply loop.

#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub turn_cap: i64,
    pub budget: usize,
    pub base_income: i64,
    pub cost: i64,
    pub fraction: f64,
}

impl Settings {
    pub const DEFAULT: Settings = Settings {
        turn_cap: 60,
        budget: 6,
        base_income: 3,
        cost: 1,
        fraction: 0.35,
    };
    /// The same settings as `--set` overrides of the canonical ruleset.
    pub fn overrides(&self) -> Vec<(String, Json)> {
        vec![
            ("settings.rng".into(), json!("xorshift32")),
            ("settings.turnCapPlies".into(), json!(self.turn_cap)),
            ("settings.actionBudget".into(), json!(self.budget)),
            ("settings.baseIncome".into(), json!(self.base_income)),
            ("settings.reinforceCostPerStrength".into(), json!(self.cost)),
            (
                "settings.combatVarianceFraction".into(),
                json!(self.fraction),
            ),
        ]
    }
}

#[derive(Clone)]
pub struct Model {
    pub s: Settings,
    pub rng: XorShift32,
    pub ply: i64,
    pub active: usize,
    pub supply: [i64; 2],
    pub owner: Vec<Option<usize>>,
    pub forces: Vec<[i64; 2]>,
    /// `(winner, reason)` once the game is over.
    pub result: Option<(Option<usize>, &'static str)>,
}

/// A positive integer amount, as the reference's `Number.isInteger(amount) && amount > 0` reads JSON that
/// a JavaScript `JSON.stringify` wrote (integers without a fraction part).
pub fn positive_int(v: Option<&Json>) -> Option<i64> {
    v.and_then(Json::as_i64).filter(|a| *a > 0)
}

impl Model {
    pub fn new(s: Settings, seed: u32) -> Self {
        let mut forces = vec![[0; 2]; NODES.len()];
        forces[HQ[0]][0] = 10;
        forces[HQ[1]][1] = 10;
        Model {
            s,
            rng: XorShift32::new(seed),
            ply: 0,
            active: 0,
            supply: [0, 0],
            owner: NODES.iter().map(|n| n.1).collect(),
            forces,
            result: None,
        }
    }

    pub fn income(&self, p: usize) -> i64 {
        self.s.base_income
            + (0..NODES.len())
                .filter(|&n| self.owner[n] == Some(p))
                .map(|n| NODES[n].2)
                .sum::<i64>()
    }

    /// One ply of the reference: income, budget overflow, each entry in order, then `ply += 1` and the
    /// turn cap. Returns its events.
    pub fn play_ply(&mut self, actions: &[Json]) -> Vec<Json> {
        assert!(self.result.is_none(), "the model's game is over");
        let p = self.active;
        let mut ev = Vec::new();
        let income = self.income(p);
        self.supply[p] += income;
        ev.push(json!({"type": "income", "player": PLAYERS[p], "amount": income, "supply": self.supply[p]}));
        let budget = self.s.budget.min(actions.len());
        for extra in &actions[budget..] {
            ev.push(invalid(p, extra, "budget_exceeded"));
        }
        for a in &actions[..budget] {
            if self.result.is_some() {
                break;
            }
            match a.get("type").and_then(Json::as_str) {
                Some("pass") => {}
                Some("reinforce") => self.reinforce(p, a, &mut ev),
                Some("move") => self.do_move(p, a, &mut ev),
                // The reference ignores other types silently; the controllers never send them.
                other => panic!("the controllers sent an entry of type {other:?}"),
            }
        }
        self.ply += 1;
        self.active = 1 - p;
        if self.result.is_none() && self.ply >= self.s.turn_cap {
            self.result = Some((None, "turn_cap"));
            ev.push(json!({"type": "game_end", "winner": null, "reason": "turn_cap"}));
        }
        ev
    }

    pub fn reinforce(&mut self, p: usize, a: &Json, ev: &mut Vec<Json>) {
        let Some(amount) = positive_int(a.get("amount")) else {
            return ev.push(invalid(p, a, "amount_not_positive_integer"));
        };
        let cost = amount * self.s.cost;
        if self.supply[p] < cost {
            return ev.push(invalid(p, a, "insufficient_supply"));
        }
        self.supply[p] -= cost;
        self.forces[HQ[p]][p] += amount;
        ev.push(json!({"type": "reinforce", "player": PLAYERS[p], "node": NODES[HQ[p]].0, "amount": amount, "supply": self.supply[p]}));
    }

    pub fn do_move(&mut self, p: usize, a: &Json, ev: &mut Vec<Json>) {
        let e = 1 - p;
        let end = |k: &str| a.get(k).and_then(Json::as_str).and_then(node);
        let Some(from) = end("from") else {
            return ev.push(invalid(p, a, "unknown_from"));
        };
        let Some(to) = end("to") else {
            return ev.push(invalid(p, a, "unknown_to"));
        };
        if !adjacent(from, to) {
            return ev.push(invalid(p, a, "not_adjacent"));
        }
        let Some(amount) = positive_int(a.get("amount")) else {
            return ev.push(invalid(p, a, "amount_not_positive_integer"));
        };
        if self.forces[from][p] < amount {
            return ev.push(invalid(p, a, "insufficient_forces"));
        }
        self.forces[from][p] -= amount;
        self.forces[to][p] += amount;
        ev.push(json!({"type": "move", "player": PLAYERS[p], "from": NODES[from].0, "to": NODES[to].0, "amount": amount}));
        if self.forces[to][p] > 0 && self.forces[to][e] > 0 {
            self.combat(p, to, ev);
        }
        if self.forces[to][p] > 0 && self.forces[to][e] == 0 && self.owner[to] != Some(p) {
            let previous = self.owner[to];
            self.owner[to] = Some(p);
            ev.push(json!({"type": "capture", "node": NODES[to].0, "player": PLAYERS[p], "previous_owner": owner_json(previous)}));
            if to == HQ[e] {
                self.result = Some((Some(p), "hq_captured"));
                ev.push(json!({"type": "game_end", "winner": PLAYERS[p], "reason": "hq_captured"}));
            }
        }
    }

    pub fn combat(&mut self, p: usize, at: usize, ev: &mut Vec<Json>) {
        let e = 1 - p;
        let (a, d) = (self.forces[at][p], self.forces[at][e]);
        let bound = ((a.min(d) as f64 * self.s.fraction).floor() as i64).max(1);
        let noise = self.rng.int_inclusive(-bound, bound);
        let delta = a - d + noise;
        let (winner, flip) = if delta > 0 {
            (p, None)
        } else if delta < 0 {
            (e, None)
        } else {
            let w = if self.rng.coin() { p } else { e };
            (w, Some(w))
        };
        let left = if delta == 0 { 1 } else { delta.abs() };
        self.forces[at] = [0, 0];
        self.forces[at][winner] = left;
        ev.push(json!({
            "type": "combat", "node": NODES[at].0, "attacker": PLAYERS[p], "defender": PLAYERS[e],
            "attacker_strength": a, "defender_strength": d, "variance_bound": bound, "noise": noise,
            "delta": delta, "coin_flip": flip.map(|w| PLAYERS[w]), "winner": PLAYERS[winner],
            "attacker_remaining": self.forces[at][p], "defender_remaining": self.forces[at][e]
        }));
    }

    /// What Arbiter's state must show now: between plies, the next ply has started and its income is in.
    pub fn expected_state(&self) -> Json {
        let mut supply = self.supply;
        if self.result.is_none() {
            supply[self.active] += self.income(self.active);
        }
        let cells: Map<String, Json> = (0..NODES.len())
            .map(|n| {
                let f = self.forces[n];
                (
                    NODES[n].0.to_string(),
                    json!({"owner": owner_json(self.owner[n]), "forces": {"P1": f[0], "P2": f[1]}, "supplyYield": NODES[n].2}),
                )
            })
            .collect();
        let active: Vec<&str> = match self.result {
            Some(_) => vec![],
            None => vec![PLAYERS[self.active]],
        };
        json!({
            "ply": self.ply,
            "active": active,
            "players": {"P1": {"supply": supply[0]}, "P2": {"supply": supply[1]}},
            "cells": cells,
        })
    }

    pub fn expected_result(&self) -> Json {
        match self.result {
            None => json!({"status": "ongoing", "winner": null, "reason": null}),
            Some((w, reason)) => {
                json!({"status": "finished", "winner": w.map(|p| PLAYERS[p]), "reason": reason})
            }
        }
    }
}

pub fn invalid(p: usize, action: &Json, reason: &str) -> Json {
    json!({"type": "invalid_action", "player": PLAYERS[p], "action": action, "reason": reason})
}
