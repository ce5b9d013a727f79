//! The diagnostics sink of analysis: every problem with its code, message, span and hint, in the order
//! found. Follow-ups (uses of a name whose definition failed) are kept apart, shown only if nothing else is.
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::ruleset::compile::{EffectError, ExprError};
use crate::ruleset::yaml::YamlDoc;

#[derive(Default)]
pub(super) struct Diags {
    pub(super) list: Vec<Diagnostic>,
    /// Errors that only follow from one already in `list` (a name whose definition failed): not shown,
    /// unless nothing else was found, which would be a bug in the tracking, never a reason to accept.
    pub(super) follow_ups: Vec<Diagnostic>,
}

impl Diags {
    pub(super) fn at(
        &mut self,
        doc: &YamlDoc,
        ptr: &str,
        code: &str,
        msg: impl Into<String>,
        hint: Option<String>,
    ) {
        let mut d = doc.diag(code, msg.into(), ptr);
        if let Some(h) = hint {
            d = d.hint(h);
        }
        self.list.push(d);
    }
    pub(super) fn key(
        &mut self,
        doc: &YamlDoc,
        ptr: &str,
        code: &str,
        msg: impl Into<String>,
        hint: Option<String>,
    ) {
        let span = doc.key_span(ptr).unwrap_or_else(|| doc.span_or_parent(ptr));
        let mut d = Diagnostic::error(code, msg).at(doc.source.clone(), span);
        if let Some(h) = hint {
            d = d.hint(h);
        }
        self.list.push(d);
    }
    pub(super) fn expr(&mut self, doc: &YamlDoc, ptr: &str, mut e: ExprError) {
        let code = "ruleset::expression";
        if let Some(hint) = yaml_quoted_text(doc, ptr, &e) {
            e.hint = Some(hint);
        }
        let follow_up = e.follow_up;
        let seen = self.list.len();
        if e.pos == usize::MAX {
            let ExprError { message, hint, .. } = e;
            self.key(doc, ptr, code, message, hint);
        } else {
            let span = expr_span(doc, ptr, e.pos);
            let mut d = Diagnostic::error(code, e.message).at(doc.source.clone(), span);
            if let Some(h) = e.hint {
                d = d.hint(h);
            }
            self.list.push(d);
        }
        if follow_up {
            self.follow_ups.extend(self.list.drain(seen..));
        }
    }
    /// Everything found; follow-ups only if they are all there is.
    pub(super) fn finish(mut self) -> Vec<Diagnostic> {
        if self.list.is_empty() {
            self.list = self.follow_ups;
        }
        self.list
    }
    pub(super) fn effects(&mut self, doc: &YamlDoc, errors: Vec<EffectError>) {
        for e in errors {
            self.expr(doc, &e.pointer, e.error);
        }
    }
}

/// `outcome: 'won'`: the quotes are YAML's, so the expression is the bare name `won`. When that name is
/// unknown, the help says so rather than "quote it", which the designer believes they did.
fn yaml_quoted_text(doc: &YamlDoc, ptr: &str, e: &ExprError) -> Option<String> {
    let text = doc.source.text.get(doc.value_span(ptr)?)?;
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    if e.follow_up || e.message != format!("unknown name `{inner}`") {
        return None;
    }
    Some(format!(
        "these single quotes are YAML's, so the expression is the bare name `{inner}`; for the text, quote it inside the expression too: \"'{inner}'\""
    ))
}

/// The span of the character at `pos` inside the expression written at `ptr`.
pub(super) fn expr_span(doc: &YamlDoc, ptr: &str, pos: usize) -> Range<usize> {
    let vs = doc
        .value_span(ptr)
        .unwrap_or_else(|| doc.span_or_parent(ptr));
    let text = doc.source.text.get(vs.clone()).unwrap_or("");
    let quoted = text.starts_with('"') || text.starts_with('\'');
    let start = (vs.start + pos + usize::from(quoted)).min(vs.end.max(vs.start));
    let end = if start < vs.end {
        (start + 1).max(start)
    } else {
        start
    };
    let mut end = end;
    while end < vs.end && !doc.source.text.is_char_boundary(end) {
        end += 1;
    }
    start..end.max(start)
}
