//! Playing chunks of games on a rayon pool: chunks run side by side and so do the games inside each (so
//! two cores stay busy whether there are many small cells or one large one). Game i of a cell is seeded
//! from (seed, i) alone and played exactly as `simulate` plays it; each finished chunk is handed to `save`
//! as soon as its totals are in.
use std::ops::Range;
use std::sync::Mutex;

use rayon::prelude::*;

use super::prepare::Plan;
use super::store::Part;
use super::totals::Totals;
use crate::agents::AgentSpec;
use crate::rng::game_seed;
use crate::simulate::pool::{one_game, worker_pool, Worker};

/// Games `games` of cell `cell`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub cell: usize,
    pub games: Range<u64>,
}

/// Plays one chunk of `plan` and adds it up.
pub fn play_chunk(plan: &Plan, chunk: &Chunk, tick: Option<&(dyn Fn() + Sync)>) -> Part {
    let cell = &plan.cells[chunk.cell];
    let seats: Vec<&AgentSpec> = cell.specs.iter().collect();
    let players = &cell.game.players;
    let seed = plan.description.seed;
    let totals = chunk
        .games
        .clone()
        .into_par_iter()
        .map_init(
            || Worker::new(cell.game.clone()),
            |worker, i| {
                let o = one_game(worker, &seats, game_seed(seed, i), false);
                if let Some(tick) = tick {
                    tick();
                }
                (i, o)
            },
        )
        .fold(
            || Totals::new(players),
            |mut t, (i, o)| {
                t.add(i, &o);
                t
            },
        )
        .reduce(|| Totals::new(players), Totals::merge);
    Part {
        cell: chunk.cell,
        games: chunk.games.clone(),
        totals,
    }
}

/// Plays `chunks` of `plan` on `jobs` threads, saving each as it finishes. The first failure to save
/// stops the chunks not yet started and is returned.
pub fn play_chunks(
    plan: &Plan,
    chunks: &[Chunk],
    jobs: usize,
    tick: Option<&(dyn Fn() + Sync)>,
    save: &(dyn Fn(&Part) -> Result<(), String> + Sync),
) -> Result<(), String> {
    let pool = worker_pool(jobs)?;
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let failed = || failure.lock().map(|f| f.is_some()).unwrap_or(true);
    pool.install(|| {
        chunks.par_iter().for_each(|chunk| {
            if failed() {
                return;
            }
            let part = play_chunk(plan, chunk, tick);
            if let Err(e) = save(&part) {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(e);
                }
            }
        })
    });
    match failure.into_inner() {
        Ok(None) => Ok(()),
        Ok(Some(e)) => Err(e),
        Err(_) => Err("a worker thread failed while saving results".into()),
    }
}
