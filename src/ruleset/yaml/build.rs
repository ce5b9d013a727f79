//! The span pass: saphyr's marked nodes converted to JSON while every value's key and value spans are
//! recorded under its JSON pointer (character positions turned into byte offsets).
use super::*;

/// Character index -> byte offset, for the non-ASCII case.
pub(super) struct CharIndex {
    /// Byte offset of each character; `None` when the text is ASCII and the two coincide.
    pub(super) table: Option<Vec<usize>>,
    pub(super) len: usize,
}

impl CharIndex {
    pub(super) fn new(text: &str) -> Self {
        let table = (!text.is_ascii()).then(|| text.char_indices().map(|(b, _)| b).collect());
        CharIndex {
            table,
            len: text.len(),
        }
    }

    pub(super) fn byte(&self, char_idx: usize) -> usize {
        match &self.table {
            None => char_idx.min(self.len),
            Some(t) => t.get(char_idx).copied().unwrap_or(self.len),
        }
    }
}

/// End of the character starting at byte `start` (for one-character spans).
pub(super) fn char_end(text: &str, start: usize) -> usize {
    text.get(start..)
        .and_then(|t| t.chars().next())
        .map_or(start, |c| start + c.len_utf8())
}

/// Shrinks `r` so it does not end in whitespace (block collections end where the next token
/// starts, often lines later).
pub(super) fn trim_end(text: &str, r: Range<usize>) -> Range<usize> {
    match text.get(r.clone()) {
        Some(t) => r.start..r.start + t.trim_end().len(),
        None => r,
    }
}

/// Core tags (`!!int`, `!!float`, `!!bool`, `!!null`) on text that is not of their type: saphyr turns such
/// a node into a bad value and, as a mapping key, silently drops the pair and shifts the mapping. Found by
/// a scan of the text before parsing, outside quotes and comments.
/// A plain scalar that YAML 1.2 core reads as an integer.
pub(super) fn looks_integer(s: &str) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if let Some(hex) = s.strip_prefix("0x") {
        return !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit());
    }
    if let Some(oct) = s.strip_prefix("0o") {
        return !oct.is_empty() && oct.chars().all(|c| matches!(c, '0'..='7'));
    }
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

pub(super) struct Builder<'a> {
    pub(super) source: &'a Arc<SourceFile>,
    pub(super) text: &'a str,
    pub(super) index: &'a CharIndex,
    /// Private-use characters put into duplicate keys -> the characters they replaced.
    pub(super) renamed: &'a HashMap<char, char>,
    pub(super) spans: HashMap<String, NodeSpans>,
    pub(super) diags: Vec<Diagnostic>,
}

impl Builder<'_> {
    pub(super) fn error(
        &mut self,
        code: &str,
        message: String,
        span: Range<usize>,
    ) -> &mut Diagnostic {
        self.diags
            .push(Diagnostic::error(code, message).at(Arc::clone(self.source), span));
        let last = self.diags.len() - 1;
        &mut self.diags[last]
    }

    pub(super) fn record(&mut self, pointer: &str, key: Option<Range<usize>>, value: Range<usize>) {
        // `key:` with nothing after it has an empty value span; its key is the useful location.
        let value = match &key {
            Some(k) if value.is_empty() => k.clone(),
            _ => value,
        };
        self.spans
            .insert(pointer.to_owned(), NodeSpans { key, value });
    }

    pub(super) fn key_span(&self, pointer: &str) -> Option<Range<usize>> {
        self.spans.get(pointer).and_then(|s| s.key.clone())
    }

    pub(super) fn raw_span(&self, node: &MarkedYamlOwned) -> Range<usize> {
        let start = self.index.byte(node.span.start.index());
        let end = self.index.byte(node.span.end.index()).max(start);
        start..end
    }

    /// Converts one node; returns its value and its content span (properties skipped).
    pub(super) fn node(
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

    pub(super) fn too_deep(&mut self, depth: usize, span: &Range<usize>) -> Option<Value> {
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
    pub(super) fn collection_span(
        &self,
        span: Range<usize>,
        last_child_end: usize,
    ) -> Range<usize> {
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

    pub(super) fn mapping(
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
    pub(super) fn key(&mut self, key: &MarkedYamlOwned) -> Option<(String, Range<usize>)> {
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
    pub(super) fn restore(&self, s: &str) -> String {
        if self.renamed.is_empty() {
            return s.to_owned();
        }
        s.chars()
            .map(|c| self.renamed.get(&c).copied().unwrap_or(c))
            .collect()
    }

    pub(super) fn scalar(&mut self, scalar: &ScalarOwned, span: Range<usize>) -> Value {
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

    pub(super) fn out_of_range(&mut self, text: &str, span: Range<usize>) {
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

pub(super) fn quoted(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}
