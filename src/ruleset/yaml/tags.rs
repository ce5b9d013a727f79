//! Core tags on text that is not of their type, found by a scan of the text before parsing (saphyr would
//! silently drop such a mapping pair).
use super::*;

pub(super) fn unparsable_core_tags(source: &Arc<SourceFile>) -> Vec<Diagnostic> {
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
pub(super) fn skip_properties(text: &str, span: Range<usize>) -> (usize, Option<Range<usize>>) {
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
