//! Quoting long lines: miette draws whole source lines and cannot draw a column past 65,535 (it panics),
//! and a minified one-line file would be echoed whole into every report. A diagnostic whose lines are
//! long is drawn from an excerpt instead: the span's line cut to a window around the span, its neighbour
//! lines cut to their start, with the file's real line and column numbers.
use std::ops::Range;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use super::{floor_char_boundary, line_col_at, SourceFile};

/// Lines up to this many bytes are quoted whole.
pub const LONG_LINE: usize = 240;
/// Bytes kept on each side of the span on a long line, and of a long span itself.
const WINDOW: usize = 60;
const CUT: &str = "...";

/// A few lines of a file, cut short, that read as the original lines.
#[derive(Debug)]
pub struct Excerpt {
    name: String,
    text: String,
    /// 0-based line number of the excerpt's first line in the file.
    first_line: usize,
    /// Where the (shortened) span starts in the excerpt, and its 0-based column in the file.
    span_start: usize,
    column: usize,
}

fn line_bounds(text: &str, at: usize) -> Range<usize> {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    start..end
}

fn ceil_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset += 1;
    }
    offset
}

/// `text[range]` cut to `keep`, marked where it was cut.
fn cut(text: &str, line: Range<usize>, keep: Range<usize>, out: &mut String) {
    if keep.start > line.start {
        out.push_str(CUT);
    }
    out.push_str(&text[keep.clone()]);
    if keep.end < line.end {
        out.push_str(CUT);
    }
}

/// The excerpt to draw `span` of `file` from, and the span inside it; `None` when the lines are short
/// enough to quote as they are.
pub fn excerpt(file: &SourceFile, span: Range<usize>) -> Option<(Excerpt, Range<usize>)> {
    let text = &file.text;
    let line = line_bounds(text, span.start);
    let before = (line.start > 0).then(|| line_bounds(text, line.start - 1));
    let after = (line.end < text.len()).then(|| line_bounds(text, line.end + 1));
    let long = |r: &Range<usize>| r.len() > LONG_LINE;
    if !long(&line) && !before.as_ref().is_some_and(long) && !after.as_ref().is_some_and(long) {
        // Short lines: miette quotes them, a span over several short lines included.
        return None;
    }
    // The span is kept to its first line and to a window's length.
    let end = floor_char_boundary(text, span.end.min(line.end).min(span.start + WINDOW));
    let keep_start = floor_char_boundary(text, span.start.saturating_sub(WINDOW).max(line.start));
    let keep_end = ceil_char_boundary(text, (end.max(span.start) + WINDOW).min(line.end));
    let head = |r: &Range<usize>| r.start..floor_char_boundary(text, (r.start + WINDOW).min(r.end));

    let mut out = String::new();
    let mut first_line = line_col_at(text, span.start).0 - 1;
    if let Some(b) = &before {
        cut(text, b.clone(), head(b), &mut out);
        out.push('\n');
        first_line -= 1;
    }
    let prefix = out.len()
        + if keep_start > line.start {
            CUT.len()
        } else {
            0
        };
    cut(text, line.clone(), keep_start..keep_end, &mut out);
    if let Some(a) = &after {
        out.push('\n');
        cut(text, a.clone(), head(a), &mut out);
    }
    let span_start = prefix + (span.start - keep_start);
    let span_end = prefix + (end.max(span.start) - keep_start);
    let column = line_col_at(text, span.start).1 - 1;
    Some((
        Excerpt {
            name: file.name.clone(),
            text: out,
            first_line,
            span_start,
            column,
        },
        span_start..span_end,
    ))
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let c = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        // Columns on the span's line are the file's, not the excerpt's.
        let column = if c.span().offset() == self.span_start {
            self.column
        } else {
            c.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            c.data(),
            *c.span(),
            c.line() + self.first_line,
            column,
            c.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_quoted_whole() {
        let f = SourceFile::new("a.yaml", "a: 1\nb: 2\n");
        assert!(excerpt(&f, 5..6).is_none());
    }

    #[test]
    fn a_long_line_is_cut_around_the_span() {
        let long = format!("x: \"{}\", bad: 1", "a".repeat(100_000));
        let f = SourceFile::new("a.yaml", format!("first: 1\n{long}\nlast: 2\n"));
        let start = f.text.find("bad").unwrap();
        let (e, span) = excerpt(&f, start..start + 3).unwrap();
        assert!(e.text.len() < 400, "{}", e.text);
        assert_eq!(&e.text[span.clone()], "bad");
        assert_eq!(e.first_line, 0);
        assert_eq!(e.column, long.find("bad").unwrap());
    }

    #[test]
    fn multibyte_text_is_cut_on_character_boundaries() {
        let long = format!("x: \"{}\", bad: 1", "é".repeat(50_000));
        let f = SourceFile::new("a.yaml", long);
        for start in [0, 1, 3, 7, 61, 62, 63, f.text.len() - 1] {
            let start = floor_char_boundary(&f.text, start);
            let (e, span) = excerpt(&f, start..f.text.len()).unwrap();
            assert!(e.text.is_char_boundary(span.start) && e.text.is_char_boundary(span.end));
        }
    }
}
