//! Comparing JSON values: partial (subset) matching for expectations and the first difference for verify.
use serde_json::Value as Json;

/// Whether `actual` contains everything `pattern` says: objects recursively by key (extra keys allowed),
/// arrays element by element with equal length, numbers by value (1 matches 1.0), other values exactly.
pub fn matches(pattern: &Json, actual: &Json) -> bool {
    match (pattern, actual) {
        (Json::Object(p), Json::Object(a)) => p
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|av| matches(v, av))),
        (Json::Array(p), Json::Array(a)) => {
            p.len() == a.len() && p.iter().zip(a).all(|(x, y)| matches(x, y))
        }
        (Json::Number(p), Json::Number(a)) => p == a || p.as_f64() == a.as_f64(),
        _ => pattern == actual,
    }
}

/// Where `actual` first departs from `expected`, as `path: expected X, got Y`; `None` when equal.
pub fn first_difference(expected: &Json, actual: &Json, path: &str) -> Option<String> {
    match (expected, actual) {
        (Json::Object(e), Json::Object(a)) => {
            for (k, ev) in e {
                let p = format!("{path}/{k}");
                match a.get(k) {
                    Some(av) => {
                        if let Some(d) = first_difference(ev, av, &p) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{p}: expected {}, missing", short(ev))),
                }
            }
            a.keys()
                .find(|k| !e.contains_key(*k))
                .map(|k| format!("{path}/{k}: unexpected {}", short(&a[k])))
        }
        (Json::Array(e), Json::Array(a)) => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                if let Some(d) = first_difference(ev, av, &format!("{path}/{i}")) {
                    return Some(d);
                }
            }
            (e.len() != a.len())
                .then(|| format!("{path}: expected {} items, got {}", e.len(), a.len()))
        }
        _ if expected == actual => None,
        _ => Some(format!(
            "{}: expected {}, got {}",
            if path.is_empty() { "/" } else { path },
            short(expected),
            short(actual)
        )),
    }
}

/// A value as compact JSON, cut short when long.
pub fn short(v: &Json) -> String {
    let s = v.to_string();
    if s.chars().count() > 200 {
        let cut: String = s.chars().take(200).collect();
        format!("{cut}...")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn subset_matching() {
        let actual = json!({"type": "move", "from": "a", "n": 2, "list": [1, 2]});
        assert!(matches(&json!({"type": "move"}), &actual));
        assert!(matches(&json!({"n": 2.0, "list": [1, 2]}), &actual));
        assert!(!matches(&json!({"type": "capture"}), &actual));
        assert!(!matches(&json!({"list": [1]}), &actual));
        assert!(!matches(&json!({"missing": null}), &actual));
        assert!(matches(
            &json!({"list": [{}, 2]}),
            &json!({"list": [{"a": 1}, 2]})
        ));
    }

    #[test]
    fn first_difference_paths() {
        assert_eq!(
            first_difference(&json!({"a": [1, 2]}), &json!({"a": [1, 2]}), ""),
            None
        );
        assert_eq!(
            first_difference(&json!({"a": [1, 2]}), &json!({"a": [1, 3]}), "").as_deref(),
            Some("/a/1: expected 2, got 3")
        );
        assert_eq!(
            first_difference(&json!({"a": 1}), &json!({}), "").as_deref(),
            Some("/a: expected 1, missing")
        );
        assert_eq!(
            first_difference(&json!({}), &json!({"b": 1}), "").as_deref(),
            Some("/b: unexpected 1")
        );
        assert_eq!(
            first_difference(&json!([1]), &json!([1, 2]), "/e").as_deref(),
            Some("/e: expected 1 items, got 2")
        );
        assert_eq!(
            first_difference(&json!(1), &json!(2), "").as_deref(),
            Some("/: expected 1, got 2")
        );
    }
}
