//! The match script (INTERFACE.md section 4): reading its structure, with `match::*` diagnostics that point
//! into the file. Action contents are not checked here: wrong actions are events, not script errors.
use std::sync::Arc;

use serde_json::Value as Json;

use crate::diagnostic::{Diagnostic, SourceFile};
use crate::ruleset::yaml::{self, YamlDoc};

/// Keys a match script may have.
pub const KEYS: &[&str] = &["ruleset", "scenario", "seed", "set", "submissions"];

/// One submission as written: the player and its actions, unchecked.
#[derive(Debug, Clone)]
pub struct ScriptSubmission {
    pub player: String,
    pub actions: Vec<Json>,
}

/// A parsed match script, with its document kept for diagnostics that point at a submission.
#[derive(Debug, Clone)]
pub struct MatchScript {
    pub doc: YamlDoc,
    pub ruleset: String,
    pub scenario: Option<String>,
    pub seed: u64,
    /// `set` as `--set` overrides, in file order.
    pub overrides: Vec<(String, Json)>,
    pub submissions: Vec<ScriptSubmission>,
}

impl MatchScript {
    /// Parses a match script; `extra_keys` are further top-level keys the caller accepts (conformance cases).
    pub fn parse(
        source: Arc<SourceFile>,
        extra_keys: &[&str],
    ) -> Result<MatchScript, Vec<Diagnostic>> {
        let doc = yaml::parse(source)?;
        Self::from_doc(doc, extra_keys)
    }

    /// Reads the structure of an already parsed document; every problem is reported.
    pub fn from_doc(doc: YamlDoc, extra_keys: &[&str]) -> Result<MatchScript, Vec<Diagnostic>> {
        let mut problems = Vec::new();
        let Json::Object(top) = &doc.value else {
            return Err(vec![doc.diag(
                "match::not_mapping",
                "a match script is a mapping with `ruleset` and `submissions`",
                "",
            )]);
        };
        for key in top.keys() {
            if !KEYS.contains(&key.as_str()) && !extra_keys.contains(&key.as_str()) {
                let ptr = format!("/{}", yaml::pointer_escape(key));
                let span = doc.key_span(&ptr).unwrap_or_else(|| doc.focus_span(&ptr));
                problems.push(
                    Diagnostic::error(
                        "match::unknown_key",
                        format!("unknown key `{key}` in a match script"),
                    )
                    .at(doc.source.clone(), span)
                    .hint(format!(
                        "known keys: {}",
                        KEYS.iter()
                            .chain(extra_keys)
                            .copied()
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                );
            }
        }
        let ruleset = match top.get("ruleset") {
            Some(Json::String(s)) if !s.is_empty() => s.clone(),
            Some(_) => {
                problems.push(doc.diag(
                    "match::bad_ruleset",
                    "`ruleset` is a ruleset name or path",
                    "/ruleset",
                ));
                String::new()
            }
            None => {
                problems.push(doc.diag(
                    "match::missing_ruleset",
                    "a match script names its `ruleset`",
                    "",
                ));
                String::new()
            }
        };
        let scenario = match top.get("scenario") {
            None | Some(Json::Null) => None,
            Some(Json::String(s)) => Some(s.clone()),
            Some(_) => {
                problems.push(doc.diag(
                    "match::bad_scenario",
                    "`scenario` is a scenario name or path",
                    "/scenario",
                ));
                None
            }
        };
        let seed = match top.get("seed") {
            None | Some(Json::Null) => 0,
            Some(v) => match v.as_u64() {
                Some(s) => s,
                None => {
                    problems.push(doc.diag(
                        "match::bad_seed",
                        "`seed` is a non-negative integer",
                        "/seed",
                    ));
                    0
                }
            },
        };
        let mut overrides = Vec::new();
        match top.get("set") {
            None | Some(Json::Null) => {}
            Some(Json::Object(m)) => {
                overrides.extend(m.iter().map(|(k, v)| (k.clone(), v.clone())))
            }
            Some(_) => problems.push(
                doc.diag(
                    "match::bad_set",
                    "`set` maps dotted paths to values",
                    "/set",
                )
                .hint("for example `set: {settings.turnLimit: 10}`"),
            ),
        }
        let mut submissions = Vec::new();
        match top.get("submissions") {
            Some(Json::Array(list)) => {
                for (i, s) in list.iter().enumerate() {
                    match submission(&doc, i, s) {
                        Ok(s) => submissions.push(s),
                        Err(d) => problems.push(*d),
                    }
                }
            }
            Some(_) => problems.push(doc.diag(
                "match::submissions_not_list",
                "`submissions` is a list",
                "/submissions",
            )),
            None => problems.push(doc.diag(
                "match::missing_submissions",
                "a match script has a `submissions` list",
                "",
            )),
        }
        if problems.is_empty() {
            Ok(MatchScript {
                doc,
                ruleset,
                scenario,
                seed,
                overrides,
                submissions,
            })
        } else {
            Err(problems)
        }
    }

    /// An error about submission `i`, pointing at it in the file.
    pub fn submission_diag(&self, i: usize, code: &str, message: impl Into<String>) -> Diagnostic {
        let message = format!("submission {i}: {}", message.into());
        self.doc.diag(code, message, &format!("/submissions/{i}"))
    }
}

fn submission(doc: &YamlDoc, i: usize, s: &Json) -> Result<ScriptSubmission, Box<Diagnostic>> {
    let ptr = format!("/submissions/{i}");
    let bad = |m: &str, p: &str| {
        Box::new(doc.diag("match::bad_submission", format!("submission {i}: {m}"), p))
    };
    let Json::Object(m) = s else {
        return Err(bad(
            "a submission is a mapping with `player` and `actions`",
            &ptr,
        ));
    };
    if let Some(k) = m.keys().find(|k| *k != "player" && *k != "actions") {
        return Err(bad(
            &format!("unknown key `{k}`; a submission has `player` and `actions`"),
            &format!("{ptr}/{}", yaml::pointer_escape(k)),
        ));
    }
    let player = match m.get("player") {
        Some(Json::String(p)) => p.clone(),
        Some(_) => return Err(bad("`player` is a player id", &format!("{ptr}/player"))),
        None => return Err(bad("the submission names no `player`", &ptr)),
    };
    let actions = match m.get("actions") {
        Some(Json::Array(a)) => a.clone(),
        None | Some(Json::Null) => Vec::new(),
        Some(_) => return Err(bad("`actions` is a list", &format!("{ptr}/actions"))),
    };
    Ok(ScriptSubmission { player, actions })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<MatchScript, Vec<Diagnostic>> {
        MatchScript::parse(SourceFile::new("m.yaml", text), &[])
    }

    #[test]
    fn reads_every_field() {
        let s = parse("ruleset: r\nscenario: s\nseed: 9\nset: {settings.a: 1}\nsubmissions:\n  - {player: A, actions: [{x: 1}, 3]}\n  - {player: B}\n")
            .expect("valid");
        assert_eq!(
            (s.ruleset.as_str(), s.scenario.as_deref(), s.seed),
            ("r", Some("s"), 9)
        );
        assert_eq!(s.overrides, vec![("settings.a".to_string(), Json::from(1))]);
        assert_eq!(s.submissions.len(), 2);
        assert_eq!(s.submissions[0].actions.len(), 2);
        assert!(s.submissions[1].actions.is_empty());
    }

    #[test]
    fn reports_every_structural_problem_with_a_location() {
        let e = parse("seed: -1\nset: 3\nsubmissions:\n  - 5\n  - {player: 1}\n  - {player: A, actions: x}\nother: 1\n").expect_err("invalid");
        let codes: Vec<&str> = e.iter().map(|d| d.code.as_str()).collect();
        for c in [
            "match::unknown_key",
            "match::missing_ruleset",
            "match::bad_seed",
            "match::bad_set",
            "match::bad_submission",
        ] {
            assert!(codes.contains(&c), "{c} missing from {codes:?}");
        }
        assert_eq!(
            codes
                .iter()
                .filter(|c| **c == "match::bad_submission")
                .count(),
            3
        );
        assert!(e
            .iter()
            .filter(|d| d.code == "match::bad_submission")
            .all(|d| d.message.starts_with("submission ")));
        assert!(e.iter().all(|d| d.line_col().is_some()));
    }

    #[test]
    fn rejects_non_mappings_and_non_lists() {
        assert_eq!(
            parse("- 1\n").expect_err("list")[0].code,
            "match::not_mapping"
        );
        assert_eq!(
            parse("ruleset: r\nsubmissions: {}\n").expect_err("map")[0].code,
            "match::submissions_not_list"
        );
        assert!(MatchScript::parse(
            SourceFile::new("c.yaml", "ruleset: r\nsubmissions: []\nexpect: {}\n"),
            &["expect"]
        )
        .is_ok());
    }
}
