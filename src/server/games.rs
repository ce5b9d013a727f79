//! The rulesets a server offers (the catalogue, found by `cli`, which reads folders) and the games its
//! matches are played with: loaded and lowered once per ruleset, scenario and overrides, and shared.
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use indexmap::IndexMap;
use serde_json::{json, Value as Json};

use super::error::ApiError;
use crate::engine::{Options, Program};
use crate::ir::game::Game;
use crate::ruleset::load;

/// One ruleset a server offers.
#[derive(Clone, Debug)]
pub struct RulesetEntry {
    pub id: String,
    pub version: String,
    pub title: Option<String>,
    pub players: Vec<String>,
    /// Scenario names, the ruleset's default first.
    pub scenarios: Vec<String>,
    /// Its `ruleset.yaml`.
    pub path: PathBuf,
}

impl RulesetEntry {
    /// Its line of `GET /rulesets`.
    pub fn to_json(&self) -> Json {
        json!({
            "id": self.id,
            "version": self.version,
            "title": self.title,
            "players": self.players,
            "scenarios": self.scenarios,
        })
    }
}

/// A game ready to play: the analysed game and its lowered program, with a key naming the pair.
pub struct ReadyGame {
    pub key: u64,
    pub game: Arc<Game>,
    pub prog: Arc<Program>,
}

/// Most games kept loaded; a match keeps its own game alive after it leaves the cache.
const CACHED_GAMES: usize = 64;

/// Games by ruleset, scenario and overrides.
#[derive(Default)]
pub struct GameCache {
    games: Mutex<IndexMap<String, Arc<ReadyGame>>>,
    next_key: AtomicU64,
}

impl GameCache {
    /// The game of `entry` with `scenario` (its default when `None`) and the `set` overrides; a mistake
    /// in them is a 400 naming every problem.
    pub fn get(
        &self,
        entry: &RulesetEntry,
        scenario: Option<&str>,
        set: &[(String, Json)],
    ) -> Result<Arc<ReadyGame>, ApiError> {
        let name = format!(
            "{}\n{}\n{}",
            entry.id,
            scenario.unwrap_or(""),
            Json::Array(set.iter().map(|(k, v)| json!([k, v])).collect())
        );
        if let Some(g) = self.lock().get(&name) {
            return Ok(g.clone());
        }
        let loaded = load(&entry.path.display().to_string(), scenario, set).map_err(|e| {
            let problems: Vec<String> = e
                .diagnostics()
                .iter()
                .take(5)
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect();
            ApiError::bad_body(format!("the game does not load: {}", problems.join("; ")))
        })?;
        let prog = Program::new(&loaded.game, Options::optimised());
        let ready = Arc::new(ReadyGame {
            key: self.next_key.fetch_add(1, Ordering::Relaxed),
            game: loaded.game,
            prog,
        });
        let mut games = self.lock();
        if games.len() >= CACHED_GAMES {
            games.shift_remove_index(0);
        }
        games.insert(name, ready.clone());
        Ok(ready)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, IndexMap<String, Arc<ReadyGame>>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }
}
