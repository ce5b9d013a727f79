//! How schema errors are worded: type names, quoted values, option lists, snake-case codes and
//! "did you mean" suggestions.

use jsonschema::JsonType;
use serde_json::Value;

use crate::diagnostic::edit_distance;

/// Longest quoted value shown in a message, in characters.
const QUOTE_LIMIT: usize = 40;

pub(super) fn type_name(t: JsonType) -> &'static str {
    match t {
        JsonType::Null => "null",
        JsonType::Boolean => "true or false",
        JsonType::Integer => "an integer",
        JsonType::Number => "a number",
        JsonType::String => "a string",
        JsonType::Array => "a list",
        JsonType::Object => "a mapping",
    }
}

pub(super) fn join_or(names: &[&str]) -> String {
    match names {
        [] => "nothing".into(),
        [one] => (*one).into(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// A short rendering of a found value for messages.
pub(super) fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a mapping".into(),
        other => other.to_string(),
    }
}

/// `s` as a JSON string literal, shortened to [`QUOTE_LIMIT`] characters.
pub(super) fn quote(s: &str) -> String {
    if s.chars().count() <= QUOTE_LIMIT {
        return Value::String(s.to_owned()).to_string();
    }
    let short: String = s.chars().take(QUOTE_LIMIT).collect();
    let quoted = Value::String(short).to_string();
    format!("{}...\"", &quoted[..quoted.len() - 1])
}

/// `camelCase` keyword to `snake_case` code part; `$ref` becomes `ref`.
pub(super) fn snake_case(keyword: &str) -> String {
    let mut out = String::with_capacity(keyword.len() + 4);
    for c in keyword.chars().filter(|c| c.is_ascii_alphanumeric()) {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The candidate closest to `name` by edit distance, if close enough to be a plausible typo.
/// A prefix of at least 3 characters either way (`integer` for `int`) counts as distance 1.
pub(super) fn closest<'c>(
    name: &str,
    candidates: impl Iterator<Item = &'c str>,
) -> Option<&'c str> {
    let folded = name.to_lowercase();
    let limit = (name.chars().count() / 3).max(2);
    candidates
        .map(|c| {
            let c_folded = c.to_lowercase();
            let (short, long) = if c_folded.len() < folded.len() {
                (&c_folded, &folded)
            } else {
                (&folded, &c_folded)
            };
            let d = if short.chars().count() >= 3 && long.starts_with(short.as_str()) {
                1
            } else {
                edit_distance(&folded, &c_folded)
            };
            (d, c)
        })
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}
