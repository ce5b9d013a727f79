//! Measures the search agents on one thread against greedy, per canonical ruleset: MCTS iterations per
//! second and minimax time per decision (a decision is one action or handing in).
//! `cargo run --release --example search_speed -- [ITERATIONS] [DEPTH] [GAMES]`
use std::time::{Duration, Instant};

use arbiter::agents::mcts::{MctsAgent, MctsConfig};
use arbiter::agents::minimax::{MinimaxAgent, MinimaxConfig};
use arbiter::agents::{by_name, Agent};
use arbiter::engine::Engine;
use arbiter::ruleset::load;

/// Plays `agent` as the first player against greedy; returns the time it spent and its actions.
fn play(engine: &mut Engine, agent: &mut dyn Agent, seed: u64) -> (Duration, u64) {
    let mut m = engine.start(seed).unwrap();
    let mut greedy = by_name("greedy", seed, 1).unwrap();
    let (mut time, mut actions) = (Duration::ZERO, 0);
    while !m.state.is_over() {
        if engine.due(&m)[0] == 0 {
            let t = Instant::now();
            actions += agent.act(engine, &mut m, 0).unwrap().len() as u64 + 1;
            time += t.elapsed();
        } else {
            greedy.act(engine, &mut m, 1).unwrap();
        }
    }
    (time, actions)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let iterations: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let depth: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let games: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    for r in ["strategic_influence", "asg", "war_of_attrition"] {
        let game = load(r, None, &[]).expect("loads").game;
        let mut engine = Engine::new(game.clone()).unwrap();
        let eval = game.evaluation("greedy");
        let (mut t_mcts, mut its) = (Duration::ZERO, 0);
        let (mut t_mm, mut decisions) = (Duration::ZERO, 0);
        for seed in 0..games {
            let cfg = MctsConfig {
                iterations,
                eval,
                ..MctsConfig::default()
            };
            let mut a = MctsAgent::new(seed, 0, cfg);
            t_mcts += play(&mut engine, &mut a, seed).0;
            its += a.iterations_total;
            let cfg = MinimaxConfig {
                depth,
                eval,
                samples: 1,
            };
            let mut b = MinimaxAgent::new(seed, 0, cfg);
            let (t, d) = play(&mut engine, &mut b, seed);
            t_mm += t;
            decisions += d;
        }
        println!(
            "{r}: mcts {its} iterations in {:.2} s = {:.0} it/s; minimax depth {depth}: {decisions} decisions in {:.2} s = {:.1} ms each",
            t_mcts.as_secs_f64(),
            its as f64 / t_mcts.as_secs_f64(),
            t_mm.as_secs_f64(),
            1000.0 * t_mm.as_secs_f64() / decisions.max(1) as f64
        );
    }
}
