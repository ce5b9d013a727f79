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

// ---------------------------------------------------------------------------------------------
// Pass 1: shapes.

static NEXT_SHAPE_ID: AtomicU64 = AtomicU64::new(0);

fn next_shape_id() -> u64 {
    NEXT_SHAPE_ID.fetch_add(1, Ordering::Relaxed)
}

/// A constant-size summary of one subtree, as built by saphyr's loader in the shape pass.
///
/// A collection holds its children only until it is complete; then they are folded into the
/// summary and dropped, so clones (which saphyr makes for anchors and aliases) cost O(1).
#[derive(Debug)]
struct Shape {
    /// Unique per instance, clones included, so that saphyr's loader never sees two equal keys:
    /// it would stop at the first, and duplicates are reported by the span pass anyway.
    id: u64,
    /// Made by `Clone`; in the finished tree that only happens for alias expansions.
    cloned: bool,
    /// Character index where a collection starts (scalars never receive one).
    start: Option<usize>,
    /// Collections from here down to the deepest leaf; 0 for a scalar.
    height: u32,
    /// Nodes in the expanded subtree, keys included.
    size: u64,
    /// Nodes in the subtree produced by alias expansion.
    alias_nodes: u64,
    /// Start of the innermost collection on the deepest path.
    deepest: Option<usize>,
    /// Start of the first collection whose aliases went over the limit.
    over_limit: Option<usize>,
    kind: ShapeKind,
}

#[derive(Debug)]
enum ShapeKind {
    /// saphyr's "no value" marker (also what it uses to mean "expecting a key").
    Bad,
    Scalar,
    Seq(Vec<Shape>),
    Map(AnnotatedMappingOwned<Shape>),
}

impl Shape {
    fn leaf(kind: ShapeKind) -> Shape {
        Shape {
            id: next_shape_id(),
            cloned: false,
            start: None,
            height: 0,
            size: 1,
            alias_nodes: 0,
            deepest: None,
            over_limit: None,
            kind,
        }
    }

    /// Folds the children of a finished collection into its summary and drops them.
    fn summarize(&mut self) {
        let mut children = Vec::new();
        match &mut self.kind {
            ShapeKind::Seq(items) => children.append(items),
            ShapeKind::Map(map) => {
                for (k, v) in std::mem::take(map) {
                    children.push(k);
                    children.push(v);
                }
            }
            ShapeKind::Bad | ShapeKind::Scalar => return,
        }
        let mut deepest_child: Option<&Shape> = None;
        for child in &children {
            self.size = self.size.saturating_add(child.size);
            let from_alias = if child.cloned {
                child.size
            } else {
                child.alias_nodes
            };
            self.alias_nodes = self.alias_nodes.saturating_add(from_alias);
            if self.over_limit.is_none() {
                self.over_limit = child.over_limit;
            }
            if child.height > deepest_child.map_or(0, |d| d.height) {
                deepest_child = Some(child);
            }
        }
        match deepest_child {
            Some(child) => {
                self.height = child.height.saturating_add(1);
                self.deepest = child.deepest.or(child.start);
            }
            None => {
                self.height = 1;
                self.deepest = self.start;
            }
        }
        if self.over_limit.is_none() && self.alias_nodes > MAX_ALIAS_NODES {
            self.over_limit = self.start;
        }
    }
}

/// O(1): a finished collection has no children left (see [`Shape::summarize`]).
impl Clone for Shape {
    fn clone(&self) -> Self {
        let kind = match &self.kind {
            ShapeKind::Bad => ShapeKind::Bad,
            ShapeKind::Scalar => ShapeKind::Scalar,
            ShapeKind::Seq(_) => ShapeKind::Seq(Vec::new()),
            ShapeKind::Map(_) => ShapeKind::Map(AnnotatedMappingOwned::default()),
        };
        Shape {
            id: next_shape_id(),
            cloned: true,
            kind,
            ..*self
        }
    }
}

impl PartialEq for Shape {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Shape {}

impl std::hash::Hash for Shape {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl<'input> LoadableYamlNode<'input> for Shape {
    type HashKey = Shape;

    fn from_bare_yaml(yaml: Yaml<'input>) -> Self {
        Shape::leaf(match yaml {
            Yaml::Sequence(_) => ShapeKind::Seq(Vec::new()),
            Yaml::Mapping(_) => ShapeKind::Map(AnnotatedMappingOwned::default()),
            Yaml::Tagged(_, inner) => return Shape::from_bare_yaml(*inner),
            Yaml::BadValue | Yaml::Alias(_) => ShapeKind::Bad,
            Yaml::Value(_) | Yaml::Representation(..) => ShapeKind::Scalar,
        })
    }

    fn is_sequence(&self) -> bool {
        matches!(self.kind, ShapeKind::Seq(_))
    }

    fn is_mapping(&self) -> bool {
        matches!(self.kind, ShapeKind::Map(_))
    }

    fn is_badvalue(&self) -> bool {
        matches!(self.kind, ShapeKind::Bad)
    }

    /// saphyr only asks after checking `is_sequence`; anything else is turned into an empty
    /// sequence rather than panicking.
    fn sequence_mut(&mut self) -> &mut Vec<Self> {
        if !self.is_sequence() {
            self.kind = ShapeKind::Seq(Vec::new());
        }
        match &mut self.kind {
            ShapeKind::Seq(items) => items,
            _ => unreachable!("just made a sequence"),
        }
    }

    fn mapping_mut(&mut self) -> &mut AnnotatedMappingOwned<Self> {
        if !self.is_mapping() {
            self.kind = ShapeKind::Map(AnnotatedMappingOwned::default());
        }
        match &mut self.kind {
            ShapeKind::Map(map) => map,
            _ => unreachable!("just made a mapping"),
        }
    }

    fn into_tagged(self, _tag: std::borrow::Cow<'input, saphyr::Tag>) -> Self {
        // Tags are reported by the span pass; the shape is unchanged.
        self
    }

    fn take(&mut self) -> Self {
        std::mem::replace(self, Shape::leaf(ShapeKind::Bad))
    }

    fn with_start_marker(mut self, mark: Marker) -> Self {
        self.start = Some(mark.index());
        self
    }

    fn with_end_marker(mut self, _mark: Marker) -> Self {
        self.summarize();
        self
    }
}

// ---------------------------------------------------------------------------------------------
// Pass 2: conversion to JSON with spans.

/// Character index -> byte offset, for the non-ASCII case.
struct CharIndex {
    /// Byte offset of each character; `None` when the text is ASCII and the two coincide.
    table: Option<Vec<usize>>,
    len: usize,
}

impl CharIndex {
    fn new(text: &str) -> Self {
        let table = (!text.is_ascii()).then(|| text.char_indices().map(|(b, _)| b).collect());
        CharIndex {
            table,
            len: text.len(),
        }
    }

    fn byte(&self, char_idx: usize) -> usize {
        match &self.table {
            None => char_idx.min(self.len),
            Some(t) => t.get(char_idx).copied().unwrap_or(self.len),
        }
    }
}

/// End of the character starting at byte `start` (for one-character spans).
fn char_end(text: &str, start: usize) -> usize {
    text.get(start..)
        .and_then(|t| t.chars().next())
        .map_or(start, |c| start + c.len_utf8())
}

/// Shrinks `r` so it does not end in whitespace (block collections end where the next token
/// starts, often lines later).
fn trim_end(text: &str, r: Range<usize>) -> Range<usize> {
    match text.get(r.clone()) {
        Some(t) => r.start..r.start + t.trim_end().len(),
        None => r,
    }
}

/// Core tags (`!!int`, `!!float`, `!!bool`, `!!null`) on text that is not of their type: saphyr turns such
/// a node into a bad value and, as a mapping key, silently drops the pair and shifts the mapping. Found by
/// a scan of the text before parsing, outside quotes and comments.
fn unparsable_core_tags(source: &Arc<SourceFile>) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut offset = 0;
    for line in source.text.split_inclusive('\n') {
        let bytes = line.as_bytes();
        let mut quote: Option<u8> = None;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match quote {
                Some(q) if b == q => quote = None,
                Some(_) => {}
                None if b == b'"' || b == b'\'' => quote = Some(b),
                None if b == b'#' && (i == 0 || bytes[i - 1].is_ascii_whitespace()) => break,
                None if bytes[i..].starts_with(b"!!")
                    && (i == 0 || b" \t[{,:-?".contains(&bytes[i - 1])) =>
                {
                    let tag_end = line[i..]
                        .find(|c: char| c.is_whitespace() || ",]}".contains(c))
                        .map_or(line.len(), |k| i + k);
                    let rest = &line[tag_end..];
                    let start = tag_end + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
                    let value_end = line[start..]
                        .find(['\n', ',', ']', '}', '#'])
                        .map_or(line.len(), |k| start + k);
                    let mut value = line[start..value_end].trim_end();
                    if let Some(key) = value.strip_suffix(':') {
                        value = key;
                    } else if let Some(k) = value.find(": ") {
                        value = &value[..k];
                    }
                    let tag = &line[i..tag_end];
                    let fits = match tag {
                        "!!int" => value.parse::<i64>().is_ok(),
                        "!!float" => value.parse::<f64>().is_ok(),
                        "!!bool" => matches!(value, "true" | "false"),
                        "!!null" => matches!(value, "" | "~" | "null"),
                        _ => true,
                    };
                    if !fits {
                        found.push(
                            Diagnostic::error(
                                "yaml::tag",
                                format!("`{tag} {value}`: `{value}` is not of the tag's type, and tags are not supported"),
                            )
                            .at(Arc::clone(source), offset + i..offset + tag_end)
                            .hint("remove the tag; the schema decides each value's type"),
                        );
                    }
                    i = tag_end;
                    continue;
                }
                None => {}
            }
            i += 1;
        }
        offset += line.len();
    }
    found
}

/// Where a node's content starts once its properties (`&anchor`, `!tag`, which saphyr includes
/// in the span) are skipped, and the span of its tag if it has one. Works on the original text.
fn skip_properties(text: &str, span: Range<usize>) -> (usize, Option<Range<usize>>) {
    let mut at = span.start;
    let mut tag = None;
    loop {
        let Some(rest) = text.get(at..span.end.max(at)) else {
            return (at, tag);
        };
        let Some(first) = rest.chars().next() else {
            return (at, tag);
        };
        if first != '&' && first != '!' {
            return (at, tag);
        }
        let token = rest
            .find(|c: char| c.is_whitespace() || ",[]{}".contains(c))
            .unwrap_or(rest.len());
        if first == '!' {
            tag = Some(at..at + token);
        }
        at += token;
        // Blanks, line breaks and comments may separate properties from the content.
        loop {
            let rest = text.get(at..span.end.max(at)).unwrap_or("");
            let blanks = rest.len() - rest.trim_start().len();
            at += blanks;
            let rest = &rest[blanks..];
            if blanks > 0 && rest.starts_with('#') {
                at += rest.find('\n').unwrap_or(rest.len());
            } else {
                break;
            }
        }
    }
}

/// A plain scalar that YAML 1.2 core reads as an integer.
fn looks_integer(s: &str) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if let Some(hex) = s.strip_prefix("0x") {
        return !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit());
    }
    if let Some(oct) = s.strip_prefix("0o") {
        return !oct.is_empty() && oct.chars().all(|c| matches!(c, '0'..='7'));
    }
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

struct Builder<'a> {
    source: &'a Arc<SourceFile>,
    text: &'a str,
    index: &'a CharIndex,
    /// Private-use characters put into duplicate keys -> the characters they replaced.
    renamed: &'a HashMap<char, char>,
    spans: HashMap<String, NodeSpans>,
    diags: Vec<Diagnostic>,
}

impl Builder<'_> {
    fn error(&mut self, code: &str, message: String, span: Range<usize>) -> &mut Diagnostic {
        self.diags
            .push(Diagnostic::error(code, message).at(Arc::clone(self.source), span));
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    fn record(&mut self, pointer: &str, key: Option<Range<usize>>, value: Range<usize>) {
        // `key:` with nothing after it has an empty value span; its key is the useful location.
        let value = match &key {
            Some(k) if value.is_empty() => k.clone(),
            _ => value,
        };
        self.spans
            .insert(pointer.to_owned(), NodeSpans { key, value });
    }

    fn key_span(&self, pointer: &str) -> Option<Range<usize>> {
        self.spans.get(pointer).and_then(|s| s.key.clone())
    }

    fn raw_span(&self, node: &MarkedYamlOwned) -> Range<usize> {
        let start = self.index.byte(node.span.start.index());
        let end = self.index.byte(node.span.end.index()).max(start);
        start..end
    }

    /// Converts one node; returns its value and its content span (properties skipped).
    fn node(
        &mut self,
        node: &MarkedYamlOwned,
        pointer: &mut String,
        depth: usize,
    ) -> (Value, Range<usize>) {
        let raw = self.raw_span(node);
        // saphyr wraps values with an unknown tag; the outer node has the span that matters.
        let data = match &node.data {
            YamlDataOwned::Tagged(_, inner) => &inner.data,
            other => other,
        };
        let (content, tag) = skip_properties(self.text, raw.clone());
        if let Some(tag) = tag {
            let name = self.text.get(tag.clone()).unwrap_or("!").to_owned();
            self.error(
                "yaml::tag",
                format!("tags are not supported (found `{name}`)"),
                tag,
            )
            .hint = Some("remove the tag; the schema decides each value's type".into());
        }
        let span = trim_end(self.text, content.min(raw.end)..raw.end);
        let value = match data {
            YamlDataOwned::Value(scalar) => self.scalar(scalar, span.clone()),
            YamlDataOwned::Representation(s, ..) => Value::String(s.clone()),
            YamlDataOwned::Sequence(items) => {
                if let Some(v) = self.too_deep(depth, &span) {
                    return (v, span);
                }
                let mut out = Vec::with_capacity(items.len());
                let mut last_end = span.start;
                for (i, item) in items.iter().enumerate() {
                    let len = pointer.len();
                    pointer.push('/');
                    pointer.push_str(&i.to_string());
                    let (v, s) = self.node(item, pointer, depth + 1);
                    last_end = last_end.max(s.end);
                    self.record(pointer, None, s);
                    pointer.truncate(len);
                    out.push(v);
                }
                return (Value::Array(out), self.collection_span(span, last_end));
            }
            YamlDataOwned::Mapping(members) => {
                if let Some(v) = self.too_deep(depth, &span) {
                    return (v, span);
                }
                return self.mapping(members, pointer, depth, span);
            }
            YamlDataOwned::Tagged(..) | YamlDataOwned::Alias(_) => Value::Null,
            YamlDataOwned::BadValue => {
                if self
                    .text
                    .get(span.clone())
                    .is_some_and(|t| t.starts_with('*'))
                {
                    self.error(
                        "yaml::recursive_alias",
                        "an alias cannot refer to the value that contains it".into(),
                        span.clone(),
                    );
                }
                // Otherwise a tag forced a type the text does not have; reported above.
                Value::Null
            }
        };
        (value, span)
    }

    fn too_deep(&mut self, depth: usize, span: &Range<usize>) -> Option<Value> {
        if depth < MAX_DEPTH {
            return None;
        }
        let at = span.start..char_end(self.text, span.start);
        self.error(
            "yaml::too_deep",
            format!("value nested deeper than {MAX_DEPTH} levels"),
            at,
        )
        .hint = Some("flatten the structure".into());
        Some(Value::Null)
    }

    /// Flow collections end at their closing bracket; block ones where the next token starts
    /// (possibly after comments), so they end with their last child instead.
    fn collection_span(&self, span: Range<usize>, last_child_end: usize) -> Range<usize> {
        let flow = self
            .text
            .get(span.clone())
            .is_some_and(|t| t.starts_with(['[', '{']));
        if flow || last_child_end <= span.start {
            span
        } else {
            span.start..last_child_end.min(span.end)
        }
    }

    fn mapping(
        &mut self,
        members: &AnnotatedMappingOwned<MarkedYamlOwned>,
        pointer: &mut String,
        depth: usize,
        span: Range<usize>,
    ) -> (Value, Range<usize>) {
        let mut out = Map::with_capacity(members.len());
        let mut last_end = span.start;
        for (key, member) in members {
            let Some((name, key_span)) = self.key(key) else {
                continue;
            };
            last_end = last_end.max(key_span.end);
            let len = pointer.len();
            pointer.push('/');
            push_escaped(pointer, &name);
            if out.contains_key(&name) {
                let first = self.key_span(pointer).unwrap_or(0..0);
                let (line, col) = line_col_at(self.text, first.start);
                let d = self.error(
                    "yaml::duplicate_key",
                    format!("duplicate key {}", quoted(&name)),
                    key_span,
                );
                d.label = Some(format!("first defined at line {line}, column {col}"));
                d.hint = Some(DUPLICATE_HINT.into());
                pointer.truncate(len);
                continue;
            }
            if name.chars().any(|c| self.renamed.contains_key(&c)) {
                // saphyr called this key a duplicate but no earlier key has the same JSON name
                // (e.g. `~` and `null`): still a duplicate.
                self.error(
                    "yaml::duplicate_key",
                    "duplicate key".into(),
                    key_span.clone(),
                )
                .hint = Some(DUPLICATE_HINT.into());
            }
            let (v, s) = self.node(member, pointer, depth + 1);
            last_end = last_end.max(s.end);
            self.record(pointer, Some(key_span), s);
            pointer.truncate(len);
            out.insert(name, v);
        }
        (Value::Object(out), self.collection_span(span, last_end))
    }

    /// The JSON name of a mapping key and its span. Scalars become strings; collections are
    /// refused since JSON cannot represent them.
    fn key(&mut self, key: &MarkedYamlOwned) -> Option<(String, Range<usize>)> {
        let raw = self.raw_span(key);
        let (content, tag) = skip_properties(self.text, raw.clone());
        if let Some(tag) = tag {
            let name = self.text.get(tag.clone()).unwrap_or("!").to_owned();
            self.error(
                "yaml::tag",
                format!("tags are not supported (found `{name}`)"),
                tag,
            )
            .hint = Some("remove the tag".into());
        }
        let span = trim_end(self.text, content.min(raw.end)..raw.end);
        let data = match &key.data {
            YamlDataOwned::Tagged(_, inner) => &inner.data,
            other => other,
        };
        let name = match data {
            YamlDataOwned::Value(ScalarOwned::String(s)) => self.restore(s),
            YamlDataOwned::Value(ScalarOwned::Integer(i)) => i.to_string(),
            YamlDataOwned::Value(ScalarOwned::FloatingPoint(f)) => f.0.to_string(),
            YamlDataOwned::Value(ScalarOwned::Boolean(b)) => b.to_string(),
            YamlDataOwned::Value(ScalarOwned::Null) => "null".to_owned(),
            YamlDataOwned::Representation(s, ..) => self.restore(s),
            YamlDataOwned::Sequence(_) | YamlDataOwned::Mapping(_) => {
                self.error(
                    "yaml::complex_key",
                    "mapping keys must be plain values, not lists or mappings".into(),
                    span,
                );
                return None;
            }
            YamlDataOwned::Tagged(..) | YamlDataOwned::Alias(_) | YamlDataOwned::BadValue => {
                self.error("yaml::invalid_key", "this key cannot be read".into(), span);
                return None;
            }
        };
        Some((name, span))
    }

    /// Undoes the renaming of duplicate keys.
    fn restore(&self, s: &str) -> String {
        if self.renamed.is_empty() {
            return s.to_owned();
        }
        s.chars()
            .map(|c| self.renamed.get(&c).copied().unwrap_or(c))
            .collect()
    }

    fn scalar(&mut self, scalar: &ScalarOwned, span: Range<usize>) -> Value {
        let text = self.text.get(span.clone()).unwrap_or("");
        match scalar {
            ScalarOwned::Null => Value::Null,
            ScalarOwned::Boolean(b) => Value::Bool(*b),
            ScalarOwned::Integer(i) => Value::from(*i),
            ScalarOwned::FloatingPoint(f) => {
                let f = f.0;
                if looks_integer(text) || (f.is_infinite() && !text.contains(['i', 'I'])) {
                    self.out_of_range(text, span);
                    Value::Null
                } else if let Some(n) = Number::from_f64(f) {
                    Value::Number(n)
                } else {
                    self.error(
                        "yaml::non_finite",
                        format!("`{text}` is not a finite number"),
                        span,
                    )
                    .hint = Some("`.inf` and `.nan` are not allowed; use a finite number".into());
                    Value::Null
                }
            }
            ScalarOwned::String(s) => {
                // Hex or octal too large for i64 falls back to a string in saphyr; a plain
                // scalar whose text is exactly that number is an overflow, not a name.
                if text == s && (s.starts_with("0x") || s.starts_with("0o")) && looks_integer(s) {
                    self.out_of_range(text, span);
                    return Value::Null;
                }
                Value::String(s.clone())
            }
        }
    }

    fn out_of_range(&mut self, text: &str, span: Range<usize>) {
        self.error(
            "yaml::number_out_of_range",
            format!("number out of range: {text}"),
            span,
        )
        .hint = Some(format!(
            "numbers must be integers between {} and {}, or finite decimals",
            i64::MIN,
            i64::MAX
        ));
    }
}

fn quoted(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::{Duration, Instant};

    fn src(text: &str) -> Arc<SourceFile> {
        SourceFile::new("test.yaml", text)
    }

    fn ok(text: &str) -> YamlDoc {
        match parse(src(text)) {
            Ok(doc) => doc,
            Err(d) => panic!("unexpected diagnostics: {d:#?}"),
        }
    }

    fn errs(text: &str) -> Vec<Diagnostic> {
        match parse(src(text)) {
            Ok(doc) => panic!("expected an error, parsed {}", doc.value),
            Err(d) => d,
        }
    }

    fn codes(d: &[Diagnostic]) -> Vec<&str> {
        d.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn core_schema_scalars() {
        let doc = ok("a: no\nb: on\nc: yes\nd: true\ne: 12\nf: -3\ng: 1.5\nh: ~\ni:\nj: \"7\"\nk: 0x1F\nl: 0o17\n");
        assert_eq!(
            doc.value,
            json!({"a": "no", "b": "on", "c": "yes", "d": true, "e": 12, "f": -3, "g": 1.5,
                   "h": null, "i": null, "j": "7", "k": 31, "l": 15})
        );
    }

    #[test]
    fn json_text_parses() {
        let doc = ok("{\n\t\"a\": [1, 2.5, \"x\"],\n\t\"b\": {\"c\": null, \"d\": false}\n}\n");
        assert_eq!(
            doc.value,
            json!({"a": [1, 2.5, "x"], "b": {"c": null, "d": false}})
        );
        let span = doc.value_span("/b/d").unwrap();
        assert_eq!(&doc.source.text[span], "false");
    }

    #[test]
    fn empty_file_is_null() {
        assert_eq!(ok("").value, Value::Null);
        assert_eq!(ok("# just a comment\n").value, Value::Null);
    }

    #[test]
    fn duplicate_keys_are_all_reported() {
        let d = errs("a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\na: 2\n");
        assert_eq!(codes(&d), ["yaml::duplicate_key", "yaml::duplicate_key"]);
        assert_eq!(d[0].line_col(), Some((5, 3)));
        assert_eq!(
            d[0].label.as_deref(),
            Some("first defined at line 3, column 3")
        );
        assert!(d[0].message.contains("\"x\""));
        assert_eq!(d[1].line_col(), Some((6, 1)));
        assert_eq!(
            d[1].label.as_deref(),
            Some("first defined at line 1, column 1")
        );
    }

    #[test]
    fn duplicate_quoted_and_flow_keys() {
        let d = errs("m: {\"k\": 1, k: 2}\nn: {'z': 1, \"z\": 2}\n");
        assert_eq!(codes(&d), ["yaml::duplicate_key", "yaml::duplicate_key"]);
        assert_eq!(d[0].line_col(), Some((1, 13)));
        assert_eq!(d[1].line_col(), Some((2, 13)));
    }

    #[test]
    fn duplicates_and_other_errors_together() {
        let d = errs("a: 1\na: 2\nb: !foo 3\n");
        assert_eq!(codes(&d), ["yaml::duplicate_key", "yaml::tag"]);
    }

    #[test]
    fn alias_bomb_is_refused_quickly() {
        let mut text = String::from(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
        for w in names.windows(2) {
            let refs = vec![format!("*{}", w[0]); 9].join(",");
            text.push_str(&format!("{}: &{} [{}]\n", w[1], w[1], refs));
        }
        let started = Instant::now();
        let d = errs(&text);
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "took {:?}",
            started.elapsed()
        );
        assert_eq!(codes(&d), ["yaml::alias_limit"]);
    }

    #[test]
    fn alias_bomb_through_keys_is_refused() {
        // Keys are not counted by saphyr's own budget; the shape pass counts them.
        let mut text = String::from("k0: &k0 [x]\n");
        for i in 1..40 {
            text.push_str(&format!(
                "k{i}: &k{i} {{? [*k{p}, 1] : 1, ? [*k{p}, 2] : 2}}\n",
                p = i - 1
            ));
        }
        let started = Instant::now();
        let d = errs(&text);
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(codes(&d).contains(&"yaml::alias_limit"), "{d:#?}");
    }

    #[test]
    fn small_aliases_expand() {
        let doc = ok("base: &b {size: 3, tags: [x]}\ncopy: *b\n");
        assert_eq!(doc.value["copy"], json!({"size": 3, "tags": ["x"]}));
        let span = doc.value_span("/copy").unwrap();
        assert_eq!(&doc.source.text[span], "*b");
    }

    #[test]
    fn recursive_alias_is_an_error() {
        let d = errs("a: &k [*k]\n");
        assert_eq!(codes(&d), ["yaml::recursive_alias"]);
    }

    #[test]
    fn tags_are_refused() {
        let d = errs("a: !!str 5\nb: !custom [1]\nc: &x !t y\n");
        assert_eq!(codes(&d), ["yaml::tag", "yaml::tag", "yaml::tag"]);
        assert_eq!(d[0].line_col(), Some((1, 4)));
        assert!(d[1].message.contains("!custom"));
        assert_eq!(d[2].line_col(), Some((3, 7)));
    }

    #[test]
    fn nesting_limit() {
        let ok_depth = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        ok(&ok_depth);
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(codes(&errs(&deep)), ["yaml::too_deep"]);
        // Block nesting costs two characters a level; far past any stack if built naively.
        let very_deep = format!("{}x\n", "- ".repeat(100_000));
        assert_eq!(codes(&errs(&very_deep)), ["yaml::too_deep"]);
        let mut stairs = String::new();
        for i in 0..2_000 {
            stairs.push_str(&" ".repeat(i));
            stairs.push_str("-\r");
        }
        assert_eq!(codes(&errs(&stairs)), ["yaml::too_deep"]);
        // Within the indentation bound, saphyr parses it (on the big-stack thread) and the walk
        // refuses it at the first level past the limit.
        let deep_block = format!("{}x\n", "- ".repeat(MAX_COLUMN / 2));
        let d = errs(&deep_block);
        assert_eq!(codes(&d), ["yaml::too_deep"]);
        assert_eq!(d[0].line_col(), Some((1, 2 * MAX_DEPTH + 1)));
        let deep_flow = format!("a:\n  b: {}{}\n", "[".repeat(300), "]".repeat(300));
        assert_eq!(codes(&errs(&deep_flow)), ["yaml::syntax"]);
        let deep_mixed = format!(
            "{}{}{}\n",
            "- ".repeat(200),
            "[".repeat(255),
            "]".repeat(255)
        );
        assert_eq!(codes(&errs(&deep_mixed)), ["yaml::too_deep"]);
    }

    #[test]
    fn aliases_cannot_nest_past_the_stack() {
        let wrap = |inner: &str| format!("{}{inner}{}", "[".repeat(60), "]".repeat(60));
        let mut text = format!("a0: &a0 {}\n", wrap("x"));
        for i in 1..8 {
            text.push_str(&format!("a{i}: &a{i} {}\n", wrap(&format!("*a{}", i - 1))));
        }
        assert_eq!(codes(&errs(&text)), ["yaml::too_deep"]);
        let shallow = format!("a: &a {}\nb: [[[[[[*a]]]]]]\n", wrap("x"));
        let d = errs(&shallow);
        assert_eq!(codes(&d), ["yaml::too_deep"]);
    }

    #[test]
    fn widest_accepted_indentation_parses_within_the_stack() {
        // Two levels (an indentless sequence and a mapping) per two columns, up to the limit,
        // with an alias character so that both passes run.
        let mut text = String::from("# *\nk:\n");
        for i in 0..MAX_COLUMN / 2 - 1 {
            text.push_str(&" ".repeat(2 * i));
            text.push_str("- k:\n");
        }
        assert!(block_nesting_bound(&text).0 <= MAX_COLUMN);
        assert_eq!(codes(&errs(&text)), ["yaml::too_deep"]);
    }

    #[test]
    fn nesting_bound_follows_compact_entries() {
        assert_eq!(block_nesting_bound("a: 1\n  b: 2\n").0, 2);
        assert_eq!(block_nesting_bound("- - - x\n").0, 6);
        assert_eq!(block_nesting_bound("? - &a !t - k: v\n").0, 12);
        assert_eq!(block_nesting_bound("a:\n          # comment\n   \n").0, 0);
    }

    #[test]
    fn numbers_out_of_range() {
        let d = errs(
            "a: 99999999999999999999\nb: -9223372036854775809\nc: 0xFFFFFFFFFFFFFFFFFF\nd: 1e999\n",
        );
        assert_eq!(codes(&d), vec!["yaml::number_out_of_range"; 4]);
        assert!(d[0].message.contains("99999999999999999999"));
        let doc =
            ok("a: 9223372036854775807\nb: -9223372036854775808\nc: \"99999999999999999999\"\n");
        assert_eq!(doc.value["a"], json!(i64::MAX));
        assert_eq!(doc.value["b"], json!(i64::MIN));
        assert_eq!(doc.value["c"], json!("99999999999999999999"));
    }

    #[test]
    fn non_finite_floats() {
        let d = errs("a: .inf\nb: -.Inf\nc: .nan\n");
        assert_eq!(codes(&d), vec!["yaml::non_finite"; 3]);
    }

    #[test]
    fn nested_value_spans() {
        let doc = ok("name: demo\nplayers:\n  - id: A\n    score: 4\n  - id: B\n    score: abc\n");
        let d = doc.diag("t::x", "m", "/players/1/score");
        assert_eq!(d.line_col(), Some((6, 12)));
        assert_eq!(&doc.source.text[d.span.clone().unwrap()], "abc");
        let key = doc.key_span("/players/1/score").unwrap();
        assert_eq!(&doc.source.text[key], "score");
        // A missing member falls back to its parent; a multi-line parent to its first line.
        let d = doc.diag("t::x", "m", "/players/1/missing");
        assert_eq!(&doc.source.text[d.span.clone().unwrap()], "id: B");
        assert_eq!(&doc.source.text[doc.focus_span("/players")], "players");
        assert_eq!(
            doc.span_or_parent("/nope/deeper"),
            doc.value_span("").unwrap()
        );
    }

    #[test]
    fn unicode_before_a_value() {
        let doc = ok("titre: \"Première ébauche\"\nnom: été\ncoût: 7\n");
        let span = doc.value_span("/co\u{fb}t").unwrap();
        assert_eq!(&doc.source.text[span.clone()], "7");
        let d = doc.diag("t::x", "m", "/coût");
        assert_eq!(d.line_col(), Some((3, 7)));
        let span = doc.value_span("/nom").unwrap();
        assert_eq!(&doc.source.text[span], "été");
    }

    #[test]
    fn byte_order_mark_and_crlf() {
        let doc = ok("\u{feff}a: 1\r\nb: x\r\n");
        let span = doc.value_span("/b").unwrap();
        assert_eq!(&doc.source.text[span.clone()], "x");
        assert_eq!(doc.diag("t", "m", "/b").line_col(), Some((2, 4)));
    }

    #[test]
    fn empty_value_points_at_key() {
        let doc = ok("a:\nb: 1\n");
        assert_eq!(&doc.source.text[doc.value_span("/a").unwrap()], "a");
    }

    #[test]
    fn scalar_keys_become_strings() {
        let doc = ok("1: a\ntrue: b\n~: c\n2.5: d\n");
        assert_eq!(
            doc.value,
            json!({"1": "a", "true": "b", "null": "c", "2.5": "d"})
        );
        let d = errs("? [a, b]\n: 1\n");
        assert_eq!(codes(&d), ["yaml::complex_key"]);
    }

    #[test]
    fn pointer_escaping() {
        assert_eq!(pointer_escape("a/b~c"), "a~1b~0c");
        let doc = ok("\"a/b\": {\"~x\": 1}\n");
        assert!(doc.value_span("/a~1b/~0x").is_some());
    }

    #[test]
    fn syntax_error_position() {
        let d = errs("a: 1\n b: 2\n");
        assert_eq!(codes(&d), ["yaml::syntax"]);
        assert_eq!(d[0].line_col(), Some((2, 3)));
        let d = errs("a: [1, 2\n");
        assert_eq!(codes(&d), ["yaml::syntax"]);
        let d = errs("a: *nope\n");
        assert_eq!(codes(&d), ["yaml::unknown_anchor"]);
    }

    #[test]
    fn multiple_documents() {
        let d = errs("a: 1\n---\nb: 2\n");
        assert_eq!(codes(&d), ["yaml::multiple_documents"]);
        assert_eq!(d[0].line_col(), Some((3, 1)));
    }

    #[test]
    fn hostile_inputs_do_not_panic() {
        for text in [
            "\u{0}",
            "[",
            "]",
            "{",
            "&",
            "*",
            "!",
            "? ",
            ": ",
            "- - -",
            "'",
            "\"\\",
            "|",
            ">\n x",
            "a: &x\nb: *x",
            "&a [*a, *a]",
            "{? : }",
            "- !!int\n",
            "!!binary x",
            "%YAML 1.2\n---\n",
            "%TAG ! tag:x\n--- !a b",
            "\t",
            "a:\t1",
            "a: 'x\n",
            "\u{feff}",
            "[[[[[[[[[[",
            "- &a\n- *a",
        ] {
            let _ = parse(src(text));
        }
    }
}
