//! Where a decision's time goes, per action kind: plays a seeded random game of a ruleset for a number of
//! submissions, then times, at that position, listing the legal actions as blocks (all kinds, then each kind
//! alone, by an engine whose phases allow only that kind) and applying each kind's legal actions (on a fresh
//! copy of the position each time, the copy's cost taken off). It also counts the allocations of a listing,
//! which should be none. A tool for finding what to make faster (under `valgrind --tool=callgrind
//! --toggle-collect='*listing_cost::listings*'` or `'*listing_cost::applications*'` it gives exact
//! instruction counts), not a test.
//!
//! `cargo run --release --example listing_cost -- RULESET [SUBMISSIONS] [ROUNDS]` (defaults 10 and 100,000);
//! `ONLY=KIND` in the environment times only that kind's listing.
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use std::time::Instant;

use arbiter::agents::by_name;
use arbiter::engine::blocks::BlockList;
use arbiter::engine::{Engine, Match};
use arbiter::model::Action;
use arbiter::ruleset::{load, Loaded};

/// The system allocator, counting each thread's allocations (a listing should make none). Per thread: the
/// schema validators may still be compiling on a helper thread while the listings are timed.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// One more allocation on this thread (none counted while the thread's locals are being torn down).
fn count_allocation() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_allocation();
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        count_allocation();
        // SAFETY: the caller's contract for `realloc` is passed on unchanged.
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn load_ruleset(name: &str) -> Loaded {
    load(&format!("rulesets/{name}"), None, &[]).unwrap_or_else(|_| panic!("{name} loads"))
}

/// Lists the legal actions `rounds` times (kept out of line so a profiler can count just this).
#[inline(never)]
fn listings(engine: &mut Engine, m: &mut Match, player: u8, out: &mut BlockList, rounds: usize) {
    for _ in 0..rounds {
        engine.block_list(m, player, out).expect("listing");
    }
}

/// Applies the actions in turn to a fresh copy of `start`, `rounds` times in all.
#[inline(never)]
fn applications(
    engine: &mut Engine,
    start: &Match,
    copy: &mut Match,
    player: u8,
    actions: &[&Action],
    rounds: usize,
) {
    for i in 0..rounds {
        copy.clone_from(start);
        if !actions.is_empty() {
            engine
                .apply_listed(copy, player, actions[i % actions.len()])
                .expect("apply");
        }
    }
}

/// Nanoseconds per round of `f`, which runs `rounds` rounds.
fn per_round(rounds: usize, f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_nanos() as f64 / rounds as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("asg", String::as_str);
    let submissions: usize = args.get(1).map_or(10, |s| s.parse().expect("SUBMISSIONS"));
    let rounds: usize = args.get(2).map_or(100_000, |s| s.parse().expect("ROUNDS"));
    let loaded = load_ruleset(name);
    let mut engine = Engine::new(loaded.game.clone()).expect("engine");
    engine.set_logging(false);
    let mut m = engine.start(7).expect("start");
    let players = loaded.game.players.len() as u8;
    let mut seats: Vec<_> = (0..players)
        .map(|p| by_name("random", 7, p).expect("agent"))
        .collect();
    for _ in 0..submissions {
        let Some(&p) = engine.due(&m).first() else {
            break;
        };
        seats[p as usize].act(&mut engine, &mut m, p).expect("act");
    }
    let Some(&player) = engine.due(&m).first() else {
        println!("the game ended within {submissions} submissions: ask for fewer");
        return;
    };
    println!(
        "{name} after {submissions} submissions (ply {}, phase {}), player {player} due",
        m.state.ply, m.state.phase
    );

    let mut blocks = BlockList::default();
    listings(&mut engine, &mut m, player, &mut blocks, 10);
    let before = ALLOCATIONS.with(Cell::get);
    // `ONLY=KIND` times that kind's listing alone and nothing else (a profiler then sees only it).
    let only_kind = std::env::var("ONLY").ok();
    let all_rounds = if only_kind.is_some() { 0 } else { rounds };
    let ns = per_round(rounds, || {
        listings(&mut engine, &mut m, player, &mut blocks, all_rounds)
    });
    let allocations = ALLOCATIONS.with(Cell::get) - before;
    if only_kind.is_none() {
        println!("listing, every kind: {ns:8.1} ns for {} actions ({allocations} allocations in {rounds} listings)", blocks.total());
    }
    for (kind, spec) in loaded.game.actions.iter().enumerate() {
        if only_kind.as_ref().is_some_and(|k| *k != spec.name) {
            continue;
        }
        // An engine whose phases that allow this kind allow only it (other phases as they are).
        let mut alone = load_ruleset(name);
        let game = Arc::get_mut(&mut alone.game).expect("a game of its own");
        for phase in &mut game.phases {
            if phase.actions.contains(&(kind as u16)) {
                phase.actions = vec![kind as u16];
            }
        }
        let mut only = Engine::new(alone.game.clone()).expect("engine");
        only.set_logging(false);
        listings(&mut only, &mut m, player, &mut blocks, 10);
        let ns = per_round(rounds, || {
            listings(&mut only, &mut m, player, &mut blocks, rounds)
        });
        println!(
            "listing {:14} {ns:8.1} ns for {} actions",
            spec.name,
            blocks.total()
        );
    }

    if only_kind.is_some() {
        return;
    }
    let mut all = Vec::new();
    engine
        .legal(&mut m.clone(), player, &mut all)
        .expect("legal");
    let mut copy = m.clone();
    let copying = per_round(rounds, || {
        applications(&mut engine, &m, &mut copy, player, &[], rounds)
    });
    for (kind, spec) in loaded.game.actions.iter().enumerate() {
        let of: Vec<&Action> = all.iter().filter(|a| a.kind as usize == kind).collect();
        if of.is_empty() {
            continue;
        }
        let ns = per_round(rounds, || {
            applications(&mut engine, &m, &mut copy, player, &of, rounds)
        });
        println!("applying {:13} {:8.1} ns on average over its {} actions (copying the position: {copying:.1} ns, taken off)", spec.name, ns - copying, of.len());
    }
}
