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

const KINDS: [DocKind; 5] = [
    DocKind::Ruleset,
    DocKind::Scenario,
    DocKind::MatchScript,
    DocKind::Conformance,
    DocKind::Replay,
];

/// The schema document of a kind, parsed once.
pub fn schema(kind: DocKind) -> Option<&'static serde_json::Value> {
    static CACHE: [OnceLock<Option<serde_json::Value>>; 5] = [const { OnceLock::new() }; 5];
    let i = KINDS.iter().position(|k| *k == kind)?;
    CACHE[i]
        .get_or_init(|| serde_json::from_str(kind.text()).ok())
        .as_ref()
}

static VALIDATORS: [OnceLock<Option<Validator>>; 5] = [const { OnceLock::new() }; 5];

/// The compiled validator of a kind, compiled on first use. The embedded schemas are tested to compile.
pub fn validator(kind: DocKind) -> Option<&'static Validator> {
    let i = KINDS.iter().position(|k| *k == kind)?;
    VALIDATORS[i]
        .get_or_init(|| schema(kind).and_then(|v| super::schema::compile(v).ok()))
        .as_ref()
}

/// Whether the validators of `kinds` are compiled (or known not to compile): see `load::prefetch`.
pub fn compiled(kinds: &[DocKind]) -> bool {
    kinds.iter().all(|&kind| {
        KINDS
            .iter()
            .position(|k| *k == kind)
            .is_some_and(|i| VALIDATORS[i].get().is_some())
    })
}

/// Checks a document against the schema of its kind, with "did you mean" hints from the schema.
pub fn check(kind: DocKind, doc: &super::yaml::YamlDoc) -> Vec<crate::diagnostic::Diagnostic> {
    match (validator(kind), schema(kind)) {
        (Some(v), Some(s)) => super::schema::check_with_schema(v, s, doc),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_schema_compiles() {
        for k in KINDS {
            assert!(
                validator(k).is_some(),
                "schema of {} does not compile",
                k.name()
            );
        }
    }
}
