//! The frame of every page Arbiter writes: one self-contained HTML document whose Content Security
//! Policy forbids loading anything (no network, no external script, style, font or image), the seat
//! colours as CSS classes, and an error catcher that writes any script error into the page itself.
use super::escape::html;

/// How many seat colours there are (seats past the last reuse them from the first).
pub const SEAT_COLOURS: usize = 6;

/// Seat colours: strong (text, lines) and light (cell fills): blue, red, green, amber, purple, teal.
pub const STRONG: [&str; SEAT_COLOURS] = [
    "#1d4ed8", "#b91c1c", "#15803d", "#b45309", "#7e22ce", "#0e7490",
];
pub const LIGHT: [&str; SEAT_COLOURS] = [
    "#bfdbfe", "#fecaca", "#bbf7d0", "#fde68a", "#e9d5ff", "#a5f3fc",
];

/// Nothing may be loaded; inline styles and scripts only.
const POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/// Records errors and blocked loads into `#errors` (tests read it; people see it).
const CATCHER: &str = include_str!("catch_errors.js");

/// Seat colour classes: `.oK` fills, `.tK` text, `.sK` strokes and swatches.
fn seat_css() -> String {
    let mut css = String::new();
    for k in 0..SEAT_COLOURS {
        css.push_str(&format!(
            ".o{k}{{fill:{l}}}.t{k}{{fill:{s};color:{s}}}.s{k}{{stroke:{s};background:{s};fill:{s}}}.f{k}{{fill:{l};background:{l}}}\n",
            l = LIGHT[k],
            s = STRONG[k]
        ));
    }
    css
}

/// A whole page: `title`, extra `css`, the `body` markup, and `script` (may be empty) run at the end.
pub fn page(title: &str, css: &str, body: &str, script: &str) -> String {
    let mut out = String::with_capacity(body.len() + css.len() + script.len() + 4096);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n"
    ));
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!("<title>{}</title>\n", html(title)));
    out.push_str("<style>\n");
    out.push_str(include_str!("page.css"));
    out.push_str(&seat_css());
    out.push_str(css);
    out.push_str("</style>\n");
    out.push_str(&format!("<script>\n{CATCHER}</script>\n"));
    out.push_str("</head>\n<body>\n");
    out.push_str(body);
    out.push_str("\n<pre id=\"errors\" hidden></pre>\n");
    if !script.is_empty() {
        out.push_str("<script>\n");
        out.push_str(script);
        out.push_str("</script>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}
