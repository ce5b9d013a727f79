//! `arbiter serve`: matches on an HTTP server (INTERFACE.md section 11). Seats are `remote` (played
//! through the API with the seat's secret token) or an agent of the engine's own, played on the server.
//! axum on tokio for HTTP (only this module and `cli` import them); the games run on worker threads with
//! deep stacks (`worker`), each match on one of them. The server never touches the filesystem: `cli`
//! finds the rulesets it offers.
pub mod api;
pub mod error;
pub mod games;
pub mod registry;
pub mod secret;
pub mod worker;

use std::net::SocketAddr;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

pub use games::RulesetEntry;
pub use registry::Limits;

use games::GameCache;
use registry::Registry;

/// Stack of every worker thread (rule scripts recurse).
pub const WORKER_STACK: usize = 16 << 20;
/// The largest request body (INTERFACE.md: 413 above 1 MiB).
pub const MAX_BODY: usize = 1 << 20;
/// `--max-matches` when none is given.
pub const DEFAULT_MAX_MATCHES: usize = 1000;
/// `--idle-timeout` when none is given: ten minutes.
pub const DEFAULT_IDLE_SECS: u64 = 600;

/// What to serve, where.
pub struct ServeConfig {
    pub addr: SocketAddr,
    pub catalogue: Vec<RulesetEntry>,
    pub limits: Limits,
    /// Worker threads playing the matches.
    pub workers: usize,
}

/// Serves until the process is stopped; `on_ready` gets the bound address once it listens.
pub fn serve(cfg: ServeConfig, on_ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let games = Arc::new(GameCache::default());
    let mut senders = Vec::new();
    for i in 0..cfg.workers.max(1) {
        let (tx, rx) = mpsc::channel();
        let (me, g) = (tx.clone(), games.clone());
        std::thread::Builder::new()
            .name(format!("serve-worker-{i}"))
            .stack_size(WORKER_STACK)
            .spawn(move || worker::run(me, rx, g))
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        senders.push(tx);
    }
    let idle = cfg.limits.idle;
    let registry = Arc::new(Registry::new(cfg.catalogue, games, cfg.limits, senders));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .enable_time()
        .thread_name("serve-http")
        .build()
        .map_err(|e| format!("cannot start the HTTP runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(cfg.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", cfg.addr))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {}: {e}", cfg.addr))?;
        on_ready(addr);
        let reaper = registry.clone();
        tokio::spawn(async move {
            let every = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(10));
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                reaper.expire();
            }
        });
        axum::serve(listener, api::router(registry))
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}
