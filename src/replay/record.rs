//! The replay document (INTERFACE.md section 5): what `run` and `match` write and `replay verify` reads.
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::engine::{Engine, Match};
use crate::model::MatchState;
use crate::ruleset::Game;

/// The `format` field of every replay.
pub const FORMAT: &str = "arbiter-replay";
/// The `version` field this build writes and reads.
pub const VERSION: u64 = 1;

/// What one player handed in at one decision point, in wire form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionRecord {
    pub player: String,
    pub actions: Vec<Json>,
    /// Why, in the words of an agent outside the process (the `rationale` of its reply); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rationale: Option<String>,
}

impl SubmissionRecord {
    /// A submission without a rationale.
    pub fn new(player: String, actions: Vec<Json>) -> Self {
        SubmissionRecord {
            player,
            actions,
            rationale: None,
        }
    }
}

/// Which ruleset a replay was played with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RulesetRef {
    pub id: String,
    pub version: String,
    pub digest: String,
}

/// How the match stands: `finished` (with a winner or `null` for a draw) or `ongoing`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultRecord {
    pub status: String,
    pub winner: Option<String>,
    pub reason: Option<String>,
}

impl ResultRecord {
    pub fn of(game: &Game, st: &MatchState) -> Self {
        match &st.result {
            Some(r) => ResultRecord {
                status: "finished".into(),
                winner: r.winner.map(|w| game.players[w as usize].clone()),
                reason: Some(r.reason.to_string()),
            },
            None => ResultRecord {
                status: "ongoing".into(),
                winner: None,
                reason: None,
            },
        }
    }
}

/// A whole replay. Field order is the order of the written JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replay {
    pub format: &'static str,
    pub version: u64,
    pub ruleset: RulesetRef,
    pub scenario: String,
    pub seed: u64,
    pub settings: IndexMap<String, Json>,
    /// `--set` overrides outside `settings` (path to value); absent when there are none.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub overrides: IndexMap<String, Json>,
    pub submissions: Vec<SubmissionRecord>,
    pub events: Vec<Json>,
    pub result: ResultRecord,
    pub state: Json,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Json>,
    /// Decisions an agent outside the process failed to make (`{"player", "decision", "kind", "detail"}`,
    /// INTERFACE.md section 10); absent when there were none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<Json>,
}

impl Replay {
    /// The replay of match `m` as it stands now.
    pub fn new(
        engine: &Engine,
        m: &Match,
        submissions: Vec<SubmissionRecord>,
        events: Vec<Json>,
    ) -> Self {
        let g = &engine.game;
        Replay {
            format: FORMAT,
            version: VERSION,
            ruleset: RulesetRef {
                id: g.id.clone(),
                version: g.version.clone(),
                digest: g.digest.clone(),
            },
            scenario: g.scenario.clone(),
            seed: m.seed,
            settings: g.settings.clone(),
            overrides: g.rule_overrides.iter().cloned().collect(),
            submissions,
            events,
            result: ResultRecord::of(g, &m.state),
            state: engine.state_json(m),
            legal: None,
            faults: Vec::new(),
        }
    }

    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).unwrap_or(Json::Null)
    }

    /// The replay as written to a file: pretty JSON with a final newline.
    pub fn to_text(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}
