//! The JSON Schemas of every file format, embedded at build time and compiled once per process.
use std::sync::OnceLock;

use jsonschema::Validator;

/// The kinds of documents Arbiter reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocKind {
    Ruleset,
    Scenario,
    MatchScript,
    Conformance,
    Replay,
}

impl DocKind {
    pub fn name(self) -> &'static str {
        match self {
            DocKind::Ruleset => "ruleset",
            DocKind::Scenario => "scenario",
            DocKind::MatchScript => "match script",
            DocKind::Conformance => "conformance case",
            DocKind::Replay => "replay",
        }
    }
    fn text(self) -> &'static str {
        match self {
            DocKind::Ruleset => include_str!("../../schemas/ruleset.schema.json"),
            DocKind::Scenario => include_str!("../../schemas/scenario.schema.json"),
            DocKind::MatchScript => include_str!("../../schemas/match.schema.json"),
            DocKind::Conformance => include_str!("../../schemas/conformance.schema.json"),
            DocKind::Replay => include_str!("../../schemas/replay.schema.json"),
        }
    }
}

const KINDS: [DocKind; 5] = [DocKind::Ruleset, DocKind::Scenario, DocKind::MatchScript, DocKind::Conformance, DocKind::Replay];

/// The compiled validator of a kind. The embedded schemas are tested to compile, so failure here is a bug.
pub fn validator(kind: DocKind) -> Option<&'static Validator> {
    static CACHE: OnceLock<Vec<Option<Validator>>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        KINDS
            .iter()
            .map(|k| serde_json::from_str(k.text()).ok().and_then(|v| super::schema::compile(&v).ok()))
            .collect()
    });
    all[KINDS.iter().position(|k| *k == kind)?].as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_schema_compiles() {
        for k in KINDS {
            assert!(validator(k).is_some(), "schema of {} does not compile", k.name());
        }
    }
}
