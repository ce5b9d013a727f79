//! The controllers of tests/asg_reference_model.rs: what each player hands in, decided from the position
//! before its ply (as the reference's controllers see it), with their own random stream.
use serde_json::{json, Value as Json};

use super::model::{distances_to, neighbours, node, Model, HQ, NODES};

// ---------------------------------------------------------------------------------------------------
// Controllers: what each player hands in, decided from the position before its ply (as the reference's
// controllers see it), with their own random stream.

/// SplitMix64, for the controllers' choices only (never the game's randomness).
pub struct Choices(pub u64);

impl Choices {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// An integer in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[(self.next() % items.len() as u64) as usize].clone()
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Reinforce, then push the biggest stack along shortest paths to the enemy HQ.
    March,
    /// Anything, valid or not, sometimes more entries than the budget.
    Random,
    /// Reinforce and shuffle forces at home: games between turtles reach the turn cap.
    Turtle,
    /// One of the others, chosen afresh each ply.
    Mixed,
}

pub struct Controller {
    policy: Policy,
    choices: Choices,
}

/// Mistaken entries of every kind RULINGS ASG 3 names, plus an ignored extra field.
pub fn mistake(c: &mut Choices, forces: &[[i64; 2]], p: usize) -> Json {
    let any = |c: &mut Choices| NODES[c.int(0, NODES.len() as i64 - 1) as usize].0;
    let from = any(c);
    let to = c.pick(&neighbours(node(from).unwrap()));
    let to = NODES[to].0;
    let have = forces[node(from).unwrap()][p];
    match c.int(0, 11) {
        0 => json!({"type": "move", "from": "nowhere", "to": to, "amount": 1}),
        1 => json!({"type": "move", "from": from, "to": "elsewhere", "amount": 1}),
        2 => json!({"type": "move", "from": from, "to": any(c), "amount": 1}),
        3 => json!({"type": "move", "from": from, "to": from, "amount": 1}),
        4 => json!({"type": "move", "from": from, "to": to, "amount": c.pick(&[0, -1, -7])}),
        5 => json!({"type": "move", "from": from, "to": to, "amount": 2.5}),
        6 => json!({"type": "move", "from": from, "to": to, "amount": "3"}),
        7 => json!({"type": "move", "from": from, "to": to}),
        8 => json!({"type": "move", "from": from, "to": to, "amount": have + c.int(1, 3)}),
        9 => {
            json!({"type": "reinforce", "amount": c.pick(&[json!(0), json!(-2), json!(1.5), json!(null), json!("2")])})
        }
        10 => json!({"type": "reinforce"}),
        _ => json!({"type": "pass", "reasoning": "extra fields are ignored"}),
    }
}

impl Controller {
    pub fn new(seed: u32, player: usize, policy: Policy) -> Self {
        Controller {
            policy,
            choices: Choices((u64::from(seed) << 1) | player as u64),
        }
    }

    pub fn submission(&mut self, m: &Model) -> Vec<Json> {
        let policy = match self.policy {
            Policy::Mixed => self
                .choices
                .pick(&[Policy::March, Policy::Random, Policy::Turtle]),
            p => p,
        };
        let p = m.active;
        let c = &mut self.choices;
        // What the controller expects to have: forces as they stand, supply with this ply's income.
        let mut forces = m.forces.clone();
        let mut supply = m.supply[p] + m.income(p);
        let budget = m.s.budget;
        let mut out = Vec::new();
        match policy {
            Policy::March => {
                let to_enemy = distances_to(HQ[1 - p]);
                if supply >= m.s.cost && c.chance(80) {
                    let amount = supply / m.s.cost;
                    out.push(json!({"type": "reinforce", "amount": amount}));
                    forces[HQ[p]][p] += amount;
                }
                while out.len() < budget {
                    let Some(from) = (0..NODES.len())
                        .filter(|&n| forces[n][p] > 0 && n != HQ[1 - p])
                        .max_by_key(|&n| (forces[n][p], usize::MAX - to_enemy[n]))
                    else {
                        out.push(json!({"type": "pass"}));
                        continue;
                    };
                    let closer: Vec<usize> = neighbours(from)
                        .into_iter()
                        .filter(|&b| to_enemy[b] < to_enemy[from])
                        .collect();
                    let to = c.pick(&closer);
                    let all = forces[from][p];
                    let amount = if all > 1 && c.chance(15) {
                        c.int(1, all - 1)
                    } else {
                        all
                    };
                    out.push(json!({"type": "move", "from": NODES[from].0, "to": NODES[to].0, "amount": amount}));
                    forces[from][p] -= amount;
                    forces[to][p] += amount;
                }
            }
            Policy::Random => {
                let n = if c.chance(15) {
                    budget as i64 + c.int(1, 3)
                } else {
                    c.int(0, budget as i64)
                };
                for _ in 0..n {
                    let entry = match c.int(0, 9) {
                        0..=3 => {
                            let mine: Vec<usize> =
                                (0..NODES.len()).filter(|&k| forces[k][p] > 0).collect();
                            let from = if mine.is_empty() {
                                c.int(0, NODES.len() as i64 - 1) as usize
                            } else {
                                c.pick(&mine)
                            };
                            let to = c.pick(&neighbours(from));
                            let amount = c.int(1, forces[from][p].max(0) + 1);
                            if forces[from][p] >= amount {
                                forces[from][p] -= amount;
                                forces[to][p] += amount;
                            }
                            json!({"type": "move", "from": NODES[from].0, "to": NODES[to].0, "amount": amount})
                        }
                        4 | 5 => {
                            let amount = c.int(1, supply / m.s.cost + 2);
                            if amount * m.s.cost <= supply {
                                supply -= amount * m.s.cost;
                                forces[HQ[p]][p] += amount;
                            }
                            json!({"type": "reinforce", "amount": amount})
                        }
                        6 => json!({"type": "pass"}),
                        _ => mistake(c, &forces, p),
                    };
                    out.push(entry);
                }
            }
            Policy::Turtle | Policy::Mixed => {
                let home = [HQ[p], HQ[p] + 1];
                for _ in 0..c.int(0, budget as i64) {
                    let entry = match c.int(0, 3) {
                        0 if supply >= m.s.cost => {
                            let amount = c.int(1, supply / m.s.cost);
                            supply -= amount * m.s.cost;
                            forces[HQ[p]][p] += amount;
                            json!({"type": "reinforce", "amount": amount})
                        }
                        1 | 2 => {
                            let (from, to) = if c.chance(50) {
                                (home[0], home[1])
                            } else {
                                (home[1], home[0])
                            };
                            if forces[from][p] == 0 {
                                json!({"type": "pass"})
                            } else {
                                let amount = c.int(1, forces[from][p]);
                                forces[from][p] -= amount;
                                forces[to][p] += amount;
                                json!({"type": "move", "from": NODES[from].0, "to": NODES[to].0, "amount": amount})
                            }
                        }
                        _ => json!({"type": "pass"}),
                    };
                    out.push(entry);
                }
            }
        }
        out
    }
}
