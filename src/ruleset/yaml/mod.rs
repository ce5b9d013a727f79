//! The YAML front end: turns a user file into a `serde_json::Value` and remembers where every
//! value came from (JSON pointer -> key and value byte spans), so that schema and semantic checks
//! can point at the exact text.
//!
//! Semantics are the YAML 1.2 core schema (so `no` and `on` stay strings), made stricter for data
//! files: tags, `.inf`/`.nan`, integers outside `i64`, duplicate keys, collection keys, nesting
//! deeper than [`MAX_DEPTH`] and alias expansion beyond [`MAX_ALIAS_NODES`] are all errors. JSON is
//! YAML, so JSON files go through the same path.
//!
//! saphyr 0.3 exposes neither its event parser nor its span type, only node loaders, so parsing
//! takes two loader passes over the text:
//! 1. when the text may contain an alias, a shape pass with a node type that keeps only a
//!    constant-size summary of each subtree (height, alias-produced node count). Cloning such a
//!    node is O(1), so no alias bomb can exhaust memory here (saphyr's own alias budget does not
//!    count mapping keys), and the real tree is built only if it is within limits;
//! 2. a span pass with saphyr's `MarkedYamlOwned`, which carries a span on every node. Its loader
//!    stops at the first duplicate key, so each duplicate it reports is renamed in a private copy
//!    of the text (one character swapped for a private-use one, keeping every character position)
//!    and the text is parsed again, until the whole tree loads; duplicates are then reported from
//!    our own walk, which also knows where the first occurrence is.
//!
//! saphyr's event parser recurses once per level of block nesting, which no node type can
//! prevent. Before parsing, the nesting is bounded from the indentation of the text (every level
//! of block nesting needs more indentation, see `block_nesting_bound`), and both passes run on
//! a thread whose stack is sized for that bound.
//!
//! saphyr positions count characters; everything stored here is converted to byte offsets.

mod build;
mod shape;
mod tags;
#[cfg(test)]
mod tests;

use build::*;
use shape::*;
use tags::*;

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use saphyr::{
    AnnotatedMappingOwned, LoadableYamlNode, MarkedYamlOwned, Marker, ScalarOwned, ScanError, Yaml,
    YamlDataOwned,
};
use serde_json::{Map, Number, Value};

use crate::diagnostic::{line_col_at, Diagnostic, SourceFile};

/// Deepest accepted nesting of collections (a scalar is depth 0, `[1]` is depth 1).
pub const MAX_DEPTH: usize = 64;
/// Most nodes that alias expansion may add to a document.
pub const MAX_ALIAS_NODES: u64 = 100_000;
/// Most duplicate keys found by re-parsing; each costs a full parse, so stop somewhere.
const MAX_DUPLICATE_RENAMES: usize = 8;
/// Widest indentation accepted; it bounds block nesting and so the parser's stack use.
const MAX_COLUMN: usize = 1024;
/// saphyr nests flow collections at most this deep (its flow level is a `u8`).
const MAX_FLOW_LEVELS: usize = 256;
/// Stack per level of parser recursion: about 4 KiB were measured in debug builds, doubled.
const STACK_PER_LEVEL: usize = 8 * 1024;
/// saphyr's message for a duplicate key; the only way to tell that error from a syntax error.
const SAPHYR_DUPLICATE: &str = "duplicated key in mapping";
const DUPLICATE_HINT: &str = "a key may appear only once in a mapping; remove or rename one";

/// A parsed YAML file and the source location of each of its values.
#[derive(Debug, Clone)]
pub struct YamlDoc {
    pub source: Arc<SourceFile>,
    pub value: Value,
    spans: HashMap<String, NodeSpans>,
}

/// Byte spans of one value and, for a mapping member, of its key.
#[derive(Debug, Clone)]
struct NodeSpans {
    key: Option<Range<usize>>,
    value: Range<usize>,
}

impl YamlDoc {
    /// Span of the value at `pointer` (RFC 6901), if that exact node exists in the file. A member
    /// with an empty value (`key:`) reports its key's span, the only text there is to show.
    pub fn value_span(&self, pointer: &str) -> Option<Range<usize>> {
        self.spans.get(pointer).map(|s| s.value.clone())
    }

    /// Span of the value at `pointer`, or of its nearest ancestor that exists; `0..0` if none.
    pub fn span_or_parent(&self, pointer: &str) -> Range<usize> {
        self.nearest(pointer)
            .map_or(0..0, |(_, spans)| spans.value.clone())
    }

    /// Span of the mapping key of the member at `pointer`.
    pub fn key_span(&self, pointer: &str) -> Option<Range<usize>> {
        self.spans.get(pointer).and_then(|s| s.key.clone())
    }

    /// A compact location for a diagnostic about the value at `pointer` (or its nearest
    /// ancestor): its span when it fits on one line, otherwise its key, otherwise its first line.
    /// Rendering a whole multi-line mapping under one label would bury the message.
    pub fn focus_span(&self, pointer: &str) -> Range<usize> {
        let Some((_, spans)) = self.nearest(pointer) else {
            return 0..0;
        };
        let text = &self.source.text;
        let value = spans.value.clone();
        let Some(newline) = text.get(value.clone()).and_then(|t| t.find('\n')) else {
            return value;
        };
        if let Some(key) = &spans.key {
            return key.clone();
        }
        trim_end(text, value.start..value.start + newline)
    }

    /// An error about the value at `pointer`, located at [`YamlDoc::focus_span`].
    pub fn diag(
        &self,
        code: impl Into<String>,
        message: impl Into<String>,
        pointer: &str,
    ) -> Diagnostic {
        Diagnostic::error(code, message).at(Arc::clone(&self.source), self.focus_span(pointer))
    }

    fn nearest<'a>(&'a self, pointer: &'a str) -> Option<(&'a str, &'a NodeSpans)> {
        let mut p = pointer;
        loop {
            if let Some(spans) = self.spans.get(p) {
                return Some((p, spans));
            }
            if p.is_empty() {
                return None;
            }
            p = p.rfind('/').map_or("", |i| &p[..i]);
        }
    }
}

/// Escapes one JSON pointer segment (RFC 6901): `~` becomes `~0`, `/` becomes `~1`.
pub fn pointer_escape(seg: &str) -> String {
    let mut out = String::with_capacity(seg.len());
    push_escaped(&mut out, seg);
    out
}

fn push_escaped(out: &mut String, seg: &str) {
    for c in seg.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Parses `source` as a single YAML document. Returns every problem found, sorted by position.
pub fn parse(source: Arc<SourceFile>) -> Result<YamlDoc, Vec<Diagnostic>> {
    let bad_tags = unparsable_core_tags(&source);
    if !bad_tags.is_empty() {
        return Err(bad_tags);
    }
    let (column, line_start) = block_nesting_bound(&source.text);
    if column > MAX_COLUMN {
        let end = char_end(&source.text, line_start);
        return Err(vec![Diagnostic::error(
            "yaml::too_deep",
            format!("indentation deeper than {MAX_COLUMN} columns"),
        )
        .at(Arc::clone(&source), line_start..end)
        .hint("flatten the structure")]);
    }
    let levels = 2 * (column + 1) + MAX_FLOW_LEVELS + 16;
    let stack = (1 << 20) + levels * STACK_PER_LEVEL;
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("yaml-parser".into())
            .stack_size(stack)
            .spawn_scoped(scope, || parse_here(Arc::clone(&source), levels))
            .map(|handle| handle.join())
    });
    let internal = |what: &str| {
        Err(vec![Diagnostic::error(
            "yaml::internal",
            format!("the YAML parser {what}"),
        )
        .at(Arc::clone(&source), 0..0)])
    };
    match outcome {
        Ok(Ok(result)) => result,
        Ok(Err(_panic)) => internal("failed on this input"),
        Err(_spawn) => internal("could not be started"),
    }
}

/// An upper bound on the indentation column of any block collection entry, with the start of
/// the line where it occurs. Each level of block nesting is indented further than its parent
/// (a sequence directly under a mapping key may share the key's column, once), so block nesting
/// is at most twice this plus one. Compact entries (`- - x`, `? - x`, `- &a !t k: v`) are followed
/// along the line. Blank and comment lines are ignored. A lone `\r` breaks lines too in YAML.
fn block_nesting_bound(text: &str) -> (usize, usize) {
    let mut best = (0, 0);
    let mut line_start = 0;
    for line in text.split(['\n', '\r']) {
        let content = line.trim_start_matches([' ', '\t']);
        if content.is_empty() || content.starts_with('#') {
            line_start += line.len() + 1;
            continue;
        }
        let mut col = 0;
        let mut rest = line;
        loop {
            let blanks = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            col += blanks;
            rest = &rest[blanks..];
            let mut chars = rest.chars();
            match (chars.next(), chars.next()) {
                (Some('-' | '?' | ':'), None | Some(' ' | '\t')) => {
                    col += 1;
                    rest = &rest[1..];
                }
                (Some('&' | '!'), _) => {
                    let token = rest.find([' ', '\t']).unwrap_or(rest.len());
                    col += rest[..token].chars().count();
                    rest = &rest[token..];
                }
                _ => break,
            }
        }
        if col > best.0 {
            best = (col, line_start + (line.len() - rest.len()));
        }
        line_start += line.len() + 1;
    }
    best
}

/// [`parse`] on the current thread, which must have stack for `max_levels` levels of nesting.
fn parse_here(source: Arc<SourceFile>, max_levels: usize) -> Result<YamlDoc, Vec<Diagnostic>> {
    let text = source.text.as_str();
    let index = CharIndex::new(text);
    let at = |char_idx: usize| index.byte(char_idx);
    let fail = |d: Diagnostic| Err(vec![d]);

    // Pass 1, only when the text may hold an alias: shapes, to refuse what would be too costly
    // to build for real. Without aliases the tree is no bigger than the text and no deeper than
    // the stack was sized for.
    if text.contains('*') {
        let shapes = match Shape::load_from_str(text) {
            Ok(shapes) => shapes,
            Err(e) => return fail(scan_error(&source, &index, &e)),
        };
        let mut gate = Vec::new();
        for shape in &shapes {
            // Aliases can nest a value deeper than its text; the real tree must stay within
            // the stack. Shallower excess is reported, with its exact place, by the walk below.
            if shape.height as usize > max_levels {
                let start = at(shape.deepest.unwrap_or(0));
                gate.push(
                    Diagnostic::error(
                        "yaml::too_deep",
                        format!("value nested deeper than {MAX_DEPTH} levels"),
                    )
                    .at(Arc::clone(&source), start..char_end(text, start))
                    .label("the innermost level is here")
                    .hint("flatten the structure"),
                );
            }
            if shape.alias_nodes > MAX_ALIAS_NODES {
                let start = at(shape.over_limit.unwrap_or(0));
                gate.push(
                    Diagnostic::error(
                        "yaml::alias_limit",
                        format!("aliases expand to more than {MAX_ALIAS_NODES} values"),
                    )
                    .at(Arc::clone(&source), start..char_end(text, start))
                    .label("this value's aliases expand past the limit")
                    .hint("write the data out instead of nesting aliases of aliases"),
                );
            }
        }
        if !gate.is_empty() {
            return Err(finish(gate));
        }
    }

    // Pass 2: the real tree, with spans.
    let (docs, renamed) = match load_renaming_duplicates(text) {
        Ok(found) => found,
        Err(Failure::Scan(e)) => return fail(scan_error(&source, &index, &e)),
        Err(Failure::Duplicates(positions)) => {
            let diags = positions
                .into_iter()
                .map(|p| {
                    let start = at(p);
                    Diagnostic::error("yaml::duplicate_key", "duplicate key")
                        .at(Arc::clone(&source), start..char_end(text, start))
                        .label("this key appears earlier in the same mapping")
                        .hint(DUPLICATE_HINT)
                })
                .collect();
            return Err(finish(diags));
        }
    };

    let mut builder = Builder {
        source: &source,
        text,
        index: &index,
        renamed: &renamed,
        spans: HashMap::new(),
        diags: Vec::new(),
    };
    let mut value = Value::Null;
    if let Some(first) = docs.first() {
        let mut pointer = String::new();
        let (v, span) = builder.node(first, &mut pointer, 0);
        builder.record(&pointer, None, span);
        value = v;
    }
    if let Some(second) = docs.get(1) {
        let start = at(second.span.start.index());
        builder.diags.push(
            Diagnostic::error(
                "yaml::multiple_documents",
                "a file must hold exactly one YAML document",
            )
            .at(Arc::clone(&source), start..char_end(text, start))
            .label("a second document starts here")
            .hint("remove the `---` separator, or split the file"),
        );
    }
    let Builder { spans, diags, .. } = builder;
    if diags.is_empty() {
        Ok(YamlDoc {
            source,
            value,
            spans,
        })
    } else {
        Err(finish(diags))
    }
}

/// Sorts by position and drops repeats (a value reached through several aliases reports once).
fn finish(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let key = |d: &Diagnostic| (d.span.as_ref().map_or(0, |s| s.start), d.code.clone());
    diags.sort_by_key(key);
    diags.dedup_by(|a, b| key(a) == key(b));
    diags
}

fn scan_error(source: &Arc<SourceFile>, index: &CharIndex, e: &ScanError) -> Diagnostic {
    let start = index.byte(e.marker().index());
    let end = char_end(&source.text, start);
    let info = e.info();
    let (code, hint) = if info.contains("alias expansion") {
        (
            "yaml::alias_limit",
            "write the data out instead of nesting aliases of aliases",
        )
    } else if info.contains("unknown anchor") {
        (
            "yaml::unknown_anchor",
            "define the anchor (`&name`) before using `*name`",
        )
    } else {
        (
            "yaml::syntax",
            "check indentation, quoting and brackets around this point",
        )
    };
    Diagnostic::error(code, format!("invalid YAML: {info}"))
        .at(Arc::clone(source), start..end)
        .hint(hint)
}

// ---------------------------------------------------------------------------------------------
// Loading, with duplicate renaming.

enum Failure {
    Scan(ScanError),
    /// Duplicates that could not be renamed away; character positions of the offending keys.
    Duplicates(Vec<usize>),
}

/// Loads the span tree, renaming each duplicate key saphyr stops at (see the module doc).
/// Returns the documents and the map from each private-use character used back to the original.
fn load_renaming_duplicates(
    text: &str,
) -> Result<(Vec<MarkedYamlOwned>, HashMap<char, char>), Failure> {
    let mut variant: Option<Vec<char>> = None;
    let mut renamed: HashMap<char, char> = HashMap::new();
    let mut positions = Vec::new();
    loop {
        let current: String;
        let attempt = match &variant {
            None => MarkedYamlOwned::load_from_str(text),
            Some(chars) => {
                current = chars.iter().collect();
                MarkedYamlOwned::load_from_str(&current)
            }
        };
        let err = match attempt {
            Ok(docs) => return Ok((docs, renamed)),
            Err(e) if e.info() == SAPHYR_DUPLICATE => e,
            Err(e) if positions.is_empty() => return Err(Failure::Scan(e)),
            // A rename should never break the syntax; if it somehow did, report what we know.
            Err(_) => return Err(Failure::Duplicates(positions)),
        };
        let at = err.marker().index();
        positions.push(at);
        let chars = variant.get_or_insert_with(|| text.chars().collect());
        let spot = rename_point(chars, at);
        let private = u32::try_from(renamed.len())
            .ok()
            .and_then(|n| char::from_u32(0xE000 + n));
        match (spot, private) {
            (Some(i), Some(p)) if renamed.len() < MAX_DUPLICATE_RENAMES => {
                renamed.insert(p, chars[i]);
                chars[i] = p;
            }
            _ => return Err(Failure::Duplicates(positions)),
        }
    }
}

/// Which character of the key starting at `at` can be swapped without changing the syntax:
/// the first content character of a plain or quoted scalar. Keys that are aliases, collections,
/// empty quoted strings or start with an escape are left alone (`None`).
fn rename_point(chars: &[char], at: usize) -> Option<usize> {
    let mut i = at;
    // Skip node properties (`&anchor`, `!tag`) and the blanks after them.
    while matches!(chars.get(i), Some('&' | '!')) {
        while chars
            .get(i)
            .is_some_and(|c| !c.is_whitespace() && !",[]{}".contains(*c))
        {
            i += 1;
        }
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
    }
    match *chars.get(i)? {
        q @ ('"' | '\'') => {
            let next = *chars.get(i + 1)?;
            (next != q && next != '\\').then_some(i + 1)
        }
        '*' | '[' | '{' | '?' | '|' | '>' => None,
        c if c.is_whitespace() => None,
        _ => Some(i),
    }
}
