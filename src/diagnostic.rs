//! User-facing diagnostics: the one type every loader and validator reports problems with, and
//! its two renderings (miette-style text for people, a flat JSON array for scripts and CI).
//!
//! Spans are byte offsets into [`SourceFile::text`]; line and column are derived from them on
//! demand so that producers never have to track positions twice.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

mod excerpt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};
use serde_json::{json, Map, Value};

/// A file the user handed us, kept whole so diagnostics can quote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The path exactly as the user gave it, so messages point where they expect.
    pub name: String,
    pub text: String,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Arc<SourceFile> {
        Arc::new(SourceFile {
            name: name.into(),
            text: text.into(),
        })
    }
}

/// Delegating to the text lets miette quote the file without copying it per report.
impl SourceCode for SourceFile {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        self.text
            .read_span(span, context_lines_before, context_lines_after)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem found in user input.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Stable identifier such as `yaml::duplicate_key`; scripts match on it, so never reword it.
    pub code: String,
    pub message: String,
    pub file: Option<Arc<SourceFile>>,
    /// Byte offsets into `file.text`.
    pub span: Option<Range<usize>>,
    /// Text shown next to the highlighted span.
    pub label: Option<String>,
    /// Advice on how to fix the problem.
    pub hint: Option<String>,
    pub severity: Severity,
}

impl Diagnostic {
    pub fn error(code: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            code: code.into(),
            message: message.into(),
            file: None,
            span: None,
            label: None,
            hint: None,
            severity: Severity::Error,
        }
    }

    pub fn warning(code: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    /// Locates the problem at `span` (byte offsets) in `file`.
    pub fn at(mut self, file: Arc<SourceFile>, span: Range<usize>) -> Self {
        self.file = Some(file);
        self.span = Some(span);
        self
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// 1-based line and column of the span start; the column counts characters, not bytes,
    /// because that is what editors show.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        let file = self.file.as_ref()?;
        let span = self.span.as_ref()?;
        Some(line_col_at(&file.text, span.start))
    }
}

/// 1-based (line, column in characters) of byte offset `offset`, clamped into `text` so that a
/// stale or foreign span can never make rendering fail.
pub fn line_col_at(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset);
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

/// The largest char boundary `<= offset` (and `<= text.len()`).
fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Adapter that lets miette draw one of our diagnostics.
struct Report<'a> {
    diag: &'a Diagnostic,
    source: Option<Quoted>,
    span: Option<Range<usize>>,
}

/// What a report quotes: the file itself, or an excerpt of its long lines.
enum Quoted {
    File(NamedSource<Arc<SourceFile>>),
    Excerpt(excerpt::Excerpt),
}

impl<'a> Report<'a> {
    fn new(diag: &'a Diagnostic) -> Self {
        let (source, span) = match (&diag.file, &diag.span) {
            (Some(file), Some(span)) => {
                // Clamp so that miette never sees a span outside the text or inside a character.
                let start = floor_char_boundary(&file.text, span.start);
                let end = floor_char_boundary(&file.text, span.end.max(start));
                match excerpt::excerpt(file, start..end) {
                    Some((quoted, span)) => (Some(Quoted::Excerpt(quoted)), Some(span)),
                    None => {
                        let source = NamedSource::new(file.name.clone(), Arc::clone(file));
                        (Some(Quoted::File(source)), Some(start..end))
                    }
                }
            }
            _ => (None, None),
        };
        Report { diag, source, span }
    }
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.diag, f)
    }
}

/// The header reads `error[code]: message`, like rustc, which is what users grep for.
impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}]: {}",
            self.diag.severity.as_str(),
            self.diag.code,
            self.diag.message
        )
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag
            .hint
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| match s {
            Quoted::File(f) => f as &dyn SourceCode,
            Quoted::Excerpt(e) => e as &dyn SourceCode,
        })
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.span.clone()?;
        let label = LabeledSpan::new_with_span(self.diag.label.clone(), span);
        Some(Box::new(std::iter::once(label)))
    }
}

/// Most reports drawn as text: past a screenful, more help nobody; the JSON rendering lists more.
pub const MAX_TEXT_REPORTS: usize = 100;
/// Most entries of the JSON rendering, which a tool reads whole.
pub const MAX_JSON_REPORTS: usize = 10_000;

/// Renders the diagnostics as miette graphical reports, one after the other, the first
/// [`MAX_TEXT_REPORTS`] of them and then how many more there are.
pub fn render_text(diags: &[Diagnostic], color: bool) -> String {
    let mut out = render_reports(&diags[..diags.len().min(MAX_TEXT_REPORTS)], color);
    if diags.len() > MAX_TEXT_REPORTS {
        out.push_str(&format!(
            "\n... and {} more diagnostics not shown (the first {MAX_TEXT_REPORTS} are; `validate --format json` lists up to {MAX_JSON_REPORTS})\n",
            diags.len() - MAX_TEXT_REPORTS
        ));
    }
    out
}

fn render_reports(diags: &[Diagnostic], color: bool) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_links(false);
    let mut out = String::new();
    for diag in diags {
        let report = Report::new(diag);
        let mut one = String::new();
        if handler.render_report(&mut one, &report).is_err() {
            // miette only fails when it cannot read the span; keep the message rather than lose it.
            one = format!("{report}\n");
            if let Some(hint) = &diag.hint {
                one.push_str(&format!("  help: {hint}\n"));
            }
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&one);
    }
    out
}

/// Renders diagnostics as the `validate --format json` array: one object per problem with
/// `file`, `line`, `column` (null when unknown), `code`, `message`, `hint` when present, and
/// `severity: "warning"` for warnings (errors have no `severity`, as before warnings existed).
pub fn render_json(diags: &[Diagnostic]) -> Value {
    let mut lines = LineIndex::default();
    let mut items: Vec<Value> = diags[..diags.len().min(MAX_JSON_REPORTS)]
        .iter()
        .map(|d| {
            let (line, column) = match (&d.file, &d.span) {
                (Some(f), Some(s)) => {
                    let (l, c) = lines.line_col(f, s.start);
                    (json!(l), json!(c))
                }
                _ => (Value::Null, Value::Null),
            };
            let mut obj = Map::new();
            obj.insert(
                "file".into(),
                d.file.as_ref().map_or(Value::Null, |f| json!(f.name)),
            );
            obj.insert("line".into(), line);
            obj.insert("column".into(), column);
            obj.insert("code".into(), json!(d.code));
            obj.insert("message".into(), json!(d.message));
            if let Some(hint) = &d.hint {
                obj.insert("hint".into(), json!(hint));
            }
            if d.severity == Severity::Warning {
                obj.insert("severity".into(), json!(d.severity.as_str()));
            }
            Value::Object(obj)
        })
        .collect();
    if diags.len() > MAX_JSON_REPORTS {
        items.push(json!({
            "file": null, "line": null, "column": null,
            "code": "diagnostic::truncated",
            "message": format!("{} more diagnostics not listed (the first {MAX_JSON_REPORTS} are)", diags.len() - MAX_JSON_REPORTS),
        }));
    }
    Value::Array(items)
}

/// Line starts of the files being reported on, computed once per file: thousands of diagnostics in one
/// large file would otherwise each scan it from the top.
#[derive(Default)]
struct LineIndex {
    file: Option<Arc<SourceFile>>,
    starts: Vec<usize>,
}

impl LineIndex {
    fn line_col(&mut self, file: &Arc<SourceFile>, offset: usize) -> (usize, usize) {
        if !self.file.as_ref().is_some_and(|f| Arc::ptr_eq(f, file)) {
            self.starts = std::iter::once(0)
                .chain(file.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect();
            self.file = Some(Arc::clone(file));
        }
        let offset = floor_char_boundary(&file.text, offset);
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        (line, file.text[start..offset].chars().count() + 1)
    }
}

/// The closest candidate by edit distance, for "did you mean" hints.
pub fn closest<'s>(word: &str, candidates: impl IntoIterator<Item = &'s str>) -> Option<&'s str> {
    let mut best: Option<(&str, usize)> = None;
    for c in candidates {
        let d = edit_distance(word, c);
        if d <= 2.max(word.len() / 3) && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((c, d));
        }
    }
    best.map(|(c, _)| c)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diag
            } else {
                1 + diag.min(above).min(row[j])
            };
            diag = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file() -> Arc<SourceFile> {
        SourceFile::new(
            "rules/game.yaml",
            "name: demo\nplayers:\n  - é: 1\n  - b: x\n",
        )
    }

    #[test]
    fn line_col_counts_characters() {
        let f = file();
        let at = f.text.find("1\n").unwrap();
        let d = Diagnostic::error("t::x", "m").at(f, at..at + 1);
        // "  - é: " is 7 characters but 8 bytes.
        assert_eq!(d.line_col(), Some((3, 8)));
    }

    #[test]
    fn line_col_survives_bad_offsets() {
        let f = file();
        let inside_e = f.text.find('é').unwrap() + 1;
        let d = Diagnostic::error("t::x", "m").at(f.clone(), inside_e..inside_e);
        assert_eq!(d.line_col(), Some((3, 5)));
        let d = Diagnostic::error("t::x", "m").at(f, 10_000..10_001);
        assert_eq!(d.line_col(), Some((5, 1)));
        assert_eq!(Diagnostic::error("t::x", "m").line_col(), None);
    }

    #[test]
    fn text_rendering_has_header_location_label_and_help() {
        let f = file();
        let at = f.text.find("x\n").unwrap();
        let d = Diagnostic::error("schema::type", "expected an integer, found \"x\"")
            .at(f, at..at + 1)
            .label("here")
            .hint("write a number");
        let text = render_text(&[d.clone(), d], false);
        assert!(
            text.contains("error[schema::type]: expected an integer"),
            "{text}"
        );
        assert!(text.contains("rules/game.yaml:4:8"), "{text}");
        assert!(text.contains("here"), "{text}");
        assert!(text.contains("help: write a number"), "{text}");
        assert!(!text.contains('\u{1b}'), "no colour codes: {text}");
        assert_eq!(text.matches("error[schema::type]").count(), 2);
    }

    #[test]
    fn text_rendering_without_file() {
        let d = Diagnostic::warning("io::empty", "nothing to do").hint("pass a path");
        let text = render_text(&[d], false);
        assert!(text.contains("warning[io::empty]: nothing to do"), "{text}");
        assert!(text.contains("help: pass a path"), "{text}");
    }

    #[test]
    fn json_rendering_shape() {
        let f = file();
        let d1 = Diagnostic::error("a::b", "first").at(f, 0..4).hint("h");
        let d2 = Diagnostic::error("c::d", "second");
        let d3 = Diagnostic::warning("e::f", "third");
        let v = render_json(&[d1, d2, d3]);
        assert_eq!(
            v,
            json!([
                {"file": "rules/game.yaml", "line": 1, "column": 1, "code": "a::b",
                 "message": "first", "hint": "h"},
                {"file": null, "line": null, "column": null, "code": "c::d", "message": "second"},
                {"file": null, "line": null, "column": null, "code": "e::f", "message": "third",
                 "severity": "warning"}
            ])
        );
    }
}
