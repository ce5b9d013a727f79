//! Text made safe for an HTML page: escaped for element text and attribute values, and JSON made safe
//! to embed in a `<script>` element (no `</script>` or `<!--` can end it early).
use serde_json::Value as Json;

/// `text` as HTML element text or a quoted attribute value.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// `value` as compact JSON that can sit inside a `<script>` element: every `<`, `>` and `&` is written
/// as a JSON escape, which reads back as the same string.
pub fn script_json(value: &Json) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            _ => out.push(ch),
        }
    }
    out
}

/// A number for an SVG attribute: at most two decimals, no trailing zeros.
pub fn num(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    let s = format!("{r:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes() {
        assert_eq!(
            html("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        let j = script_json(&json!({"t": "</script><!-- & \u{2028}"}));
        assert!(!j.contains('<') && !j.contains('>') && !j.contains('&'));
        let back: Json = serde_json::from_str(&j).unwrap();
        assert_eq!(back["t"], "</script><!-- & \u{2028}");
        assert_eq!(num(1.005), "1");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(10.0), "10");
    }
}
