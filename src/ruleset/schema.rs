//! JSON Schema (draft 2020-12) validation of parsed YAML, with every error turned into a
//! [`Diagnostic`] that points at the offending text and says what is wrong in plain words.
//!
//! Codes are `schema::<keyword>` in snake case (`schema::type`, `schema::additional_properties`,
//! ...). Locations come from the [`YamlDoc`] span index: the offending value, its key for unknown
//! keys, the enclosing mapping for missing keys.

use std::collections::HashSet;
use std::ops::Range;
use std::sync::Arc;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::ruleset::yaml::{pointer_escape, YamlDoc};

mod wording;

use wording::{closest, describe, join_or, quote, snake_case, type_name};

/// Most enum options listed in a message.
const OPTIONS_LIMIT: usize = 8;
/// How deep `oneOf`/`anyOf` alternatives are explored for a precise error.
const BRANCH_DEPTH_LIMIT: usize = 8;

/// Compiles a draft 2020-12 schema. Compile once and reuse: it is far slower than validating.
pub fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::draft202012::new(schema).map_err(|e| e.to_string())
}

/// Validates `doc` and returns one diagnostic per problem, sorted by position.
///
/// Without the schema itself, unknown keys can only be matched against required keys that are
/// missing from the same mapping; [`check_with_schema`] suggests from every listed property.
pub fn check(validator: &Validator, doc: &YamlDoc) -> Vec<Diagnostic> {
    run(validator, None, doc)
}

/// Like [`check`], with `schema` (the value `validator` was compiled from) used to suggest the
/// closest allowed key for an unknown one.
pub fn check_with_schema(validator: &Validator, schema: &Value, doc: &YamlDoc) -> Vec<Diagnostic> {
    run(validator, Some(schema), doc)
}

fn run(validator: &Validator, schema: Option<&Value>, doc: &YamlDoc) -> Vec<Diagnostic> {
    let errors: Vec<ValidationError<'_>> = validator.iter_errors(&doc.value).collect();
    let ctx = Context {
        doc,
        schema,
        missing: missing_required(&errors),
    };
    let mut out = Vec::new();
    for error in &errors {
        ctx.convert(error, 0, &mut out);
    }
    let mut seen = HashSet::new();
    out.retain(|d| {
        seen.insert((
            d.span.clone().map(|s| (s.start, s.end)),
            d.code.clone(),
            d.message.clone(),
        ))
    });
    out.sort_by(|a, b| {
        let pos = |d: &Diagnostic| d.span.as_ref().map_or((0, 0), |s| (s.start, s.end));
        pos(a)
            .cmp(&pos(b))
            .then_with(|| a.code.cmp(&b.code))
            .then_with(|| a.message.cmp(&b.message))
    });
    out
}

/// Missing required keys per object pointer: the best guess for what a misspelt key meant.
fn missing_required(errors: &[ValidationError<'_>]) -> Vec<(String, String)> {
    errors
        .iter()
        .filter_map(|e| match e.kind() {
            ValidationErrorKind::Required { property } => Some((
                e.instance_path().as_str().to_owned(),
                property.as_str()?.to_owned(),
            )),
            _ => None,
        })
        .collect()
}

struct Context<'a> {
    doc: &'a YamlDoc,
    schema: Option<&'a Value>,
    missing: Vec<(String, String)>,
}

impl Context<'_> {
    fn diag(&self, keyword: &str, message: String, span: Range<usize>) -> Diagnostic {
        Diagnostic::error(format!("schema::{}", snake_case(keyword)), message)
            .at(Arc::clone(&self.doc.source), span)
    }

    /// Location of the value at `pointer`, compact for multi-line values.
    fn at(&self, pointer: &str) -> Range<usize> {
        self.doc.focus_span(pointer)
    }

    /// Location of the key of the member `name` of the object at `pointer`.
    fn key_at(&self, pointer: &str, name: &str) -> Range<usize> {
        let member = format!("{pointer}/{}", pointer_escape(name));
        self.doc
            .key_span(&member)
            .unwrap_or_else(|| self.at(&member))
    }

    fn convert(&self, error: &ValidationError<'_>, depth: usize, out: &mut Vec<Diagnostic>) {
        let pointer = error.instance_path().as_str();
        let instance: &Value = error.instance();
        let keyword = error.kind().keyword();
        match error.kind() {
            ValidationErrorKind::Type { kind } => {
                let expected = match kind {
                    TypeKind::Single(t) => type_name(*t).to_owned(),
                    TypeKind::Multiple(set) => {
                        let names: Vec<&str> = set.iter().map(type_name).collect();
                        join_or(&names)
                    }
                };
                out.push(
                    self.diag(
                        keyword,
                        format!("expected {expected}, found {}", describe(instance)),
                        self.at(pointer),
                    )
                    .label(format!("expected {expected}")),
                );
            }
            ValidationErrorKind::Required { property } => {
                let name = property
                    .as_str()
                    .map_or_else(|| property.to_string(), str::to_owned);
                out.push(
                    self.diag(
                        keyword,
                        format!("missing required key {}", quote(&name)),
                        self.at(pointer),
                    )
                    .label(format!("{} is missing here", quote(&name)))
                    .hint(format!("add {} to this mapping", quote(&name))),
                );
            }
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                let allowed = self.allowed_keys(error, pointer);
                for name in unexpected {
                    let mut d = self
                        .diag(
                            keyword,
                            format!("unknown key {}", quote(name)),
                            self.key_at(pointer, name),
                        )
                        .label("not allowed here");
                    if let Some(best) = closest(name, allowed.iter().map(String::as_str)) {
                        d = d.hint(format!("did you mean {}?", quote(best)));
                    }
                    out.push(d);
                }
            }
            ValidationErrorKind::Enum { options } => {
                let list: Vec<&Value> = options
                    .as_array()
                    .map(|a| a.iter().collect())
                    .unwrap_or_default();
                let mut shown: Vec<String> = list
                    .iter()
                    .take(OPTIONS_LIMIT)
                    .map(|v| v.to_string())
                    .collect();
                if list.len() > OPTIONS_LIMIT {
                    shown.push(format!("... ({} in all)", list.len()));
                }
                let mut d = self
                    .diag(
                        keyword,
                        format!(
                            "expected one of {}, found {}",
                            shown.join(", "),
                            describe(instance)
                        ),
                        self.at(pointer),
                    )
                    .label("not one of the allowed values");
                if let Some(found) = instance.as_str() {
                    let names = list.iter().filter_map(|v| v.as_str());
                    if let Some(best) = closest(found, names) {
                        d = d.hint(format!("did you mean {}?", quote(best)));
                    }
                }
                out.push(d);
            }
            ValidationErrorKind::Constant { expected_value } => {
                out.push(self.diag(
                    keyword,
                    format!("expected {expected_value}, found {}", describe(instance)),
                    self.at(pointer),
                ));
            }
            ValidationErrorKind::Minimum { limit } => {
                out.push(self.bound(keyword, pointer, instance, "at least", limit));
            }
            ValidationErrorKind::Maximum { limit } => {
                out.push(self.bound(keyword, pointer, instance, "at most", limit));
            }
            ValidationErrorKind::ExclusiveMinimum { limit } => {
                out.push(self.bound(keyword, pointer, instance, "greater than", limit));
            }
            ValidationErrorKind::ExclusiveMaximum { limit } => {
                out.push(self.bound(keyword, pointer, instance, "less than", limit));
            }
            ValidationErrorKind::MultipleOf { multiple_of } => {
                out.push(self.diag(
                    keyword,
                    format!(
                        "must be a multiple of {multiple_of}, found {}",
                        describe(instance)
                    ),
                    self.at(pointer),
                ));
            }
            ValidationErrorKind::MinLength { limit } => {
                out.push(self.count(keyword, pointer, instance, "at least", *limit, "character"));
            }
            ValidationErrorKind::MaxLength { limit } => {
                out.push(self.count(keyword, pointer, instance, "at most", *limit, "character"));
            }
            ValidationErrorKind::MinItems { limit } => {
                out.push(self.count(keyword, pointer, instance, "at least", *limit, "item"));
            }
            ValidationErrorKind::MaxItems { limit } => {
                out.push(self.count(keyword, pointer, instance, "at most", *limit, "item"));
            }
            ValidationErrorKind::MinProperties { limit } => {
                out.push(self.count(keyword, pointer, instance, "at least", *limit, "key"));
            }
            ValidationErrorKind::MaxProperties { limit } => {
                out.push(self.count(keyword, pointer, instance, "at most", *limit, "key"));
            }
            ValidationErrorKind::Pattern { pattern } => {
                out.push(
                    self.diag(
                        keyword,
                        format!(
                            "{} does not match the pattern `{pattern}`",
                            describe(instance)
                        ),
                        self.at(pointer),
                    )
                    .label("wrong format"),
                );
            }
            ValidationErrorKind::Format { format } => {
                out.push(self.diag(
                    keyword,
                    format!("{} is not a valid {format}", describe(instance)),
                    self.at(pointer),
                ));
            }
            ValidationErrorKind::UniqueItems => {
                let at = duplicate_item(instance)
                    .map_or_else(|| self.at(pointer), |i| self.at(&format!("{pointer}/{i}")));
                out.push(
                    self.diag(keyword, "list items must be unique".into(), at)
                        .label("repeats an earlier item"),
                );
            }
            ValidationErrorKind::OneOfNotValid { context }
            | ValidationErrorKind::AnyOf { context } => {
                self.alternatives(keyword, error, context, depth, out);
            }
            ValidationErrorKind::OneOfMultipleValid { .. } => {
                out.push(
                    self.diag(
                        keyword,
                        "matches more than one of the allowed forms".into(),
                        self.at(pointer),
                    )
                    .hint("make the value match exactly one form"),
                );
            }
            ValidationErrorKind::PropertyNames { error: inner } => {
                let name = inner.instance().as_str().unwrap_or_default().to_owned();
                let mut nested = Vec::new();
                self.convert(inner, depth + 1, &mut nested);
                let reason = nested
                    .first()
                    .map_or_else(|| inner.to_string(), |d| d.message.clone());
                out.push(
                    self.diag(
                        keyword,
                        format!("invalid key {}: {reason}", quote(&name)),
                        self.key_at(pointer, &name),
                    )
                    .label("invalid key"),
                );
            }
            ValidationErrorKind::FalseSchema => {
                let (parent, last) = split_pointer(pointer);
                let parent_is_object = self.doc.value.pointer(parent).is_some_and(Value::is_object);
                let d = match last {
                    Some(name) if parent_is_object => self.diag(
                        keyword,
                        format!("key {} is not allowed here", quote(&name)),
                        self.key_at(parent, &name),
                    ),
                    _ => self.diag(
                        keyword,
                        "this value is not allowed here".into(),
                        self.at(pointer),
                    ),
                };
                out.push(d);
            }
            ValidationErrorKind::Not { .. } => {
                out.push(self.diag(
                    keyword,
                    "this value is not allowed here".into(),
                    self.at(pointer),
                ));
            }
            ValidationErrorKind::Contains => {
                out.push(self.diag(
                    keyword,
                    "no item of this list has the required form".into(),
                    self.at(pointer),
                ));
            }
            ValidationErrorKind::AdditionalItems { limit } => {
                out.push(self.diag(
                    keyword,
                    format!("too many items: at most {limit} allowed"),
                    self.at(&format!("{pointer}/{limit}")),
                ));
            }
            ValidationErrorKind::UnevaluatedItems { .. } => {
                out.push(self.diag(
                    keyword,
                    "unexpected items in this list".into(),
                    self.at(pointer),
                ));
            }
            ValidationErrorKind::Custom { message, .. } => {
                out.push(self.diag(keyword, message.clone(), self.at(pointer)));
            }
            // Schema-side failures (unresolvable `$ref`, regex limits, content decoding): the
            // library's own wording is the best we have.
            _ => {
                out.push(self.diag(keyword, error.to_string(), self.at(pointer)));
            }
        }
    }

    fn bound(
        &self,
        keyword: &str,
        pointer: &str,
        instance: &Value,
        rel: &str,
        limit: &Value,
    ) -> Diagnostic {
        self.diag(
            keyword,
            format!("must be {rel} {limit}, found {}", describe(instance)),
            self.at(pointer),
        )
        .label(format!("must be {rel} {limit}"))
    }

    fn count(
        &self,
        keyword: &str,
        pointer: &str,
        instance: &Value,
        rel: &str,
        limit: u64,
        unit: &str,
    ) -> Diagnostic {
        let found = match instance {
            Value::String(s) => s.chars().count(),
            Value::Array(a) => a.len(),
            Value::Object(o) => o.len(),
            _ => 0,
        };
        let plural = |n: u64| {
            if n == 1 {
                unit.to_owned()
            } else {
                format!("{unit}s")
            }
        };
        self.diag(
            keyword,
            format!("needs {rel} {limit} {}, found {found}", plural(limit)),
            self.at(pointer),
        )
    }

    /// `oneOf`/`anyOf` with no matching alternative. When exactly one alternative has the right
    /// shape (no type or const mismatch at the value itself, nor a const mismatch on one of its
    /// keys, which is how tagged unions discriminate), its errors are the precise ones to show.
    fn alternatives(
        &self,
        keyword: &str,
        error: &ValidationError<'_>,
        branches: &[Vec<ValidationError<'static>>],
        depth: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        let pointer = error.instance_path().as_str();
        let fits: Vec<&Vec<ValidationError<'static>>> = branches
            .iter()
            .filter(|errors| errors.iter().all(|e| !is_shape_mismatch(e, pointer)))
            .collect();
        if let ([only], true) = (fits.as_slice(), depth < BRANCH_DEPTH_LIMIT) {
            for e in only.iter() {
                self.convert(e, depth + 1, out);
            }
            return;
        }
        let mut d = self
            .diag(
                keyword,
                format!("matches none of the {} allowed forms", branches.len()),
                self.at(pointer),
            )
            .label("no allowed form matches");
        let closest = if fits.is_empty() {
            branches.iter().collect()
        } else {
            fits
        };
        if let Some(best) = closest.into_iter().min_by_key(|errors| errors.len()) {
            if let Some(first) = best.first() {
                let mut nested = Vec::new();
                self.convert(first, BRANCH_DEPTH_LIMIT, &mut nested);
                if let Some(n) = nested.first() {
                    d = d.hint(format!("closest form: {}", n.message));
                }
            }
        }
        out.push(d);
    }

    /// Property names the schema allows where `error` (an unknown-key error) was raised.
    fn allowed_keys(&self, error: &ValidationError<'_>, pointer: &str) -> Vec<String> {
        let from_schema = self.schema.and_then(|schema| {
            // The error's schema path ends with the keyword; its parent holds `properties`.
            let path = error.schema_path().as_str();
            let parent = &path[..path.rfind('/')?];
            let properties = schema.pointer(parent)?.get("properties")?.as_object()?;
            Some(properties.keys().cloned().collect::<Vec<_>>())
        });
        from_schema.unwrap_or_else(|| {
            self.missing
                .iter()
                .filter(|(at, _)| at == pointer)
                .map(|(_, name)| name.clone())
                .collect()
        })
    }
}

/// Whether `e` shows that an alternative does not even have the shape of the value at `pointer`.
fn is_shape_mismatch(e: &ValidationError<'_>, pointer: &str) -> bool {
    let at = e.instance_path().as_str();
    match e.kind() {
        ValidationErrorKind::Type { .. } | ValidationErrorKind::Enum { .. } => at == pointer,
        ValidationErrorKind::Constant { .. } => at == pointer || split_pointer(at).0 == pointer,
        _ => false,
    }
}

/// `pointer` split into its parent and its unescaped last segment.
fn split_pointer(pointer: &str) -> (&str, Option<String>) {
    match pointer.rfind('/') {
        Some(i) => (
            &pointer[..i],
            Some(pointer[i + 1..].replace("~1", "/").replace("~0", "~")),
        ),
        None => (pointer, None),
    }
}

/// Index of the first item of a list that repeats an earlier one.
fn duplicate_item(v: &Value) -> Option<usize> {
    let items = v.as_array()?;
    (1..items.len()).find(|&i| items[..i].contains(&items[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::SourceFile;
    use crate::ruleset::yaml;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "required": ["name", "players"],
            "additionalProperties": false,
            "properties": {
                "name": {"type": "string", "pattern": "^[a-z_]+$"},
                "players": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/player"}},
                "mode": {"enum": ["fast", "slow"]},
                "limit": {"type": "integer", "minimum": 1, "maximum": 99},
                "tags": {"type": "array", "uniqueItems": true},
                "action": {"oneOf": [
                    {"type": "object", "required": ["type"], "additionalProperties": false,
                     "properties": {"type": {"const": "pass"}}},
                    {"type": "object", "required": ["type", "amount"], "additionalProperties": false,
                     "properties": {"type": {"const": "add"}, "amount": {"type": "integer"}}}
                ]}
            },
            "$defs": {
                "player": {
                    "type": "object", "required": ["id"], "additionalProperties": false,
                    "properties": {"id": {"type": "string"}, "score": {"type": "integer"}}
                }
            }
        })
    }

    fn run_check(text: &str, with_schema: bool) -> Vec<Diagnostic> {
        let doc = yaml::parse(SourceFile::new("game.yaml", text)).expect("valid YAML");
        let s = schema();
        let v = compile(&s).expect("schema compiles");
        if with_schema {
            check_with_schema(&v, &s, &doc)
        } else {
            check(&v, &doc)
        }
    }

    fn summary(d: &[Diagnostic]) -> Vec<(String, String, (usize, usize))> {
        d.iter()
            .map(|d| {
                (
                    d.code.clone(),
                    d.message.clone(),
                    d.line_col().unwrap_or((0, 0)),
                )
            })
            .collect()
    }

    #[test]
    fn valid_document_has_no_diagnostics() {
        let d = run_check(
            "name: demo\nplayers:\n  - id: A\n  - id: B\n    score: 3\nlimit: 5\n",
            true,
        );
        assert!(d.is_empty(), "{d:#?}");
    }

    #[test]
    fn type_errors_point_at_the_value() {
        let d = run_check(
            "name: demo\nplayers:\n  - id: A\n  - id: B\n    score: abc\n",
            true,
        );
        assert_eq!(
            summary(&d),
            [(
                "schema::type".into(),
                "expected an integer, found \"abc\"".into(),
                (5, 12)
            )]
        );
    }

    #[test]
    fn missing_and_unknown_keys() {
        let d = run_check("name: demo\nplayerz:\n  - id: A\nfrobnicate: 1\n", true);
        let s = summary(&d);
        assert_eq!(s.len(), 3, "{s:#?}");
        // Missing key: at the root mapping (its first line).
        assert_eq!(
            s[0],
            (
                "schema::required".into(),
                "missing required key \"players\"".into(),
                (1, 1)
            )
        );
        assert_eq!(
            s[1],
            (
                "schema::additional_properties".into(),
                "unknown key \"playerz\"".into(),
                (2, 1)
            )
        );
        assert_eq!(d[1].hint.as_deref(), Some("did you mean \"players\"?"));
        assert_eq!(
            &d[1].file.as_ref().unwrap().text[d[1].span.clone().unwrap()],
            "playerz"
        );
        assert_eq!(s[2].1, "unknown key \"frobnicate\"");
        assert_eq!(d[2].hint, None);
    }

    #[test]
    fn unknown_key_hint_through_ref_and_without_schema() {
        let text = "name: demo\nplayers:\n  - id: A\n    socre: 1\n  - id: B\n";
        let d = run_check(text, true);
        assert_eq!(
            summary(&d),
            [(
                "schema::additional_properties".into(),
                "unknown key \"socre\"".into(),
                (4, 5)
            )]
        );
        assert_eq!(d[0].hint.as_deref(), Some("did you mean \"score\"?"));
        // Without the schema, only missing required keys can be suggested.
        // Both sit at the same place; same position sorts by code.
        let d = run_check("name: demo\nplayers:\n  - ib: A\n  - id: B\n", false);
        let s = summary(&d);
        assert_eq!(
            s[0],
            (
                "schema::additional_properties".into(),
                "unknown key \"ib\"".into(),
                (3, 5)
            )
        );
        assert_eq!(d[0].hint.as_deref(), Some("did you mean \"id\"?"));
        assert_eq!(
            s[1],
            (
                "schema::required".into(),
                "missing required key \"id\"".into(),
                (3, 5)
            )
        );
    }

    #[test]
    fn enum_minimum_pattern_unique() {
        let text =
            "name: Demo\nplayers: [{id: A}, {id: B}]\nmode: fsat\nlimit: 0\ntags: [a, b, a]\n";
        let d = run_check(text, true);
        let s = summary(&d);
        let codes: Vec<&str> = s.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(
            codes,
            [
                "schema::pattern",
                "schema::enum",
                "schema::minimum",
                "schema::unique_items"
            ]
        );
        assert_eq!(s[0].1, "\"Demo\" does not match the pattern `^[a-z_]+$`");
        assert_eq!(s[1].1, "expected one of \"fast\", \"slow\", found \"fsat\"");
        assert_eq!(d[1].hint.as_deref(), Some("did you mean \"fast\"?"));
        assert_eq!(
            s[2],
            (
                "schema::minimum".into(),
                "must be at least 1, found 0".into(),
                (4, 8)
            )
        );
        assert_eq!(s[3].2, (5, 14), "points at the repeated item");
    }

    #[test]
    fn min_items() {
        let d = run_check("name: demo\nplayers: [{id: A}]\n", true);
        assert_eq!(
            summary(&d),
            [(
                "schema::min_items".into(),
                "needs at least 2 items, found 1".into(),
                (2, 10)
            )]
        );
    }

    #[test]
    fn one_of_reports_the_intended_alternative() {
        let base = "name: demo\nplayers: [{id: A}, {id: B}]\n";
        let d = run_check(&format!("{base}action: {{type: add, amount: x}}\n"), true);
        assert_eq!(
            summary(&d),
            [(
                "schema::type".into(),
                "expected an integer, found \"x\"".into(),
                (3, 29)
            )]
        );
        let d = run_check(&format!("{base}action: {{type: jump}}\n"), true);
        assert_eq!(summary(&d)[0].0, "schema::one_of");
        assert_eq!(summary(&d)[0].1, "matches none of the 2 allowed forms");
        let d = run_check(&format!("{base}action: 3\n"), true);
        assert_eq!(summary(&d)[0].0, "schema::one_of");
        assert!(d[0]
            .hint
            .as_deref()
            .unwrap_or("")
            .starts_with("closest form: expected a mapping"));
    }

    #[test]
    fn all_errors_sorted_by_position() {
        let text = "players:\n  - id: 1\n  - score: x\nname: 7\n";
        let d = run_check(text, true);
        let lines: Vec<usize> = d.iter().map(|d| d.line_col().unwrap().0).collect();
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(lines, sorted);
        assert_eq!(d.len(), 4, "{:#?}", summary(&d));
    }

    #[test]
    fn compile_errors_are_strings() {
        assert!(compile(&json!({"type": 12})).is_err());
        assert!(compile(&json!({"$ref": "#/$defs/missing"})).is_err());
    }

    #[test]
    fn helpers() {
        assert_eq!(snake_case("additionalProperties"), "additional_properties");
        assert_eq!(snake_case("$ref"), "ref");
        assert_eq!(crate::diagnostic::edit_distance("kitten", "sitting"), 3);
        assert_eq!(
            closest("playerz", ["players", "name"].into_iter()),
            Some("players")
        );
        assert_eq!(closest("zzz", ["players"].into_iter()), None);
        assert_eq!(closest("integer", ["int", "text"].into_iter()), Some("int"));
        assert_eq!(closest("in", ["int"].into_iter()), Some("int"));
        assert_eq!(quote(&"x".repeat(50)), format!("\"{}...\"", "x".repeat(40)));
    }
}
