//! Settings: the effective values (ruleset defaults, then the scenario's, then `--set`), their types, the
//! random generator they name, and their limits: `one_of`, and `min`/`max` bounds that are numbers or
//! constant expressions of other settings (`max: settings.maxPieces`), checked on the effective values. A
//! designer states a constraint between settings once, where the constrained setting is.
use std::collections::HashMap;

use indexmap::IndexMap;
use serde_json::Value as Json;

use super::types::json_scalar_ty;
use super::Cx;
use crate::diagnostic::Diagnostic;
use crate::ir::game::Symbols;
use crate::model::{Ty, Value};
use crate::rng::RngKind;
use crate::ruleset::compile::{closest, fold, Catalog, Compiler};
use crate::ruleset::raw::{RawLimit, RawRuleset, RawScenario};
use crate::ruleset::yaml::{pointer_escape as esc, YamlDoc};

/// The effective settings, checked against their types and limits, and the random generator.
pub(super) fn effective(
    cx: &mut Cx,
    raw: &RawRuleset,
    scen: &RawScenario,
) -> (IndexMap<String, Json>, RngKind) {
    let (src, rd, sd, d) = (cx.src, cx.rd, cx.sd, &mut cx.d);
    let mut settings: IndexMap<String, Json> = raw.settings.clone();
    let mut setting_ptr: HashMap<String, (bool, String)> = raw
        .settings
        .keys()
        .map(|k| (k.clone(), (false, format!("/settings/{}", esc(k)))))
        .collect();
    for (k, v) in &scen.settings {
        let ptr = format!("/settings/{}", esc(k));
        // Precedence: ruleset, then scenario, then `--set` (already in the ruleset document).
        if src.overrides.iter().any(|o| *o == format!("settings.{k}")) {
            continue;
        }
        match settings.get(k) {
            None => d.key(
                sd,
                &ptr,
                "scenario::unknown_setting",
                format!("ruleset `{}` has no setting `{k}`", raw.id),
                closest(k, raw.settings.keys().map(|s| s.as_str()))
                    .map(|c| format!("did you mean `{c}`?")),
            ),
            Some(old)
                if json_scalar_ty(old) != json_scalar_ty(v)
                    && !(json_scalar_ty(old) == Some(Ty::Float)
                        && json_scalar_ty(v) == Some(Ty::Int)) =>
            {
                d.at(
                    sd,
                    &ptr,
                    "scenario::setting_type",
                    format!(
                        "setting `{k}` is {}, this value is not",
                        json_scalar_ty(old).map_or("null", |t| t.name())
                    ),
                    None,
                )
            }
            _ => {
                settings.insert(k.clone(), v.clone());
                setting_ptr.insert(k.clone(), (true, ptr));
            }
        }
    }
    for (k, v) in &settings {
        if !matches!(v, Json::Bool(_) | Json::Number(_) | Json::String(_)) {
            let (_, ptr) = &setting_ptr[k];
            d.at(
                rd,
                ptr,
                "ruleset::setting_type",
                format!("setting `{k}` must be a number, text or boolean"),
                None,
            );
        }
    }
    {
        let declared =
            |k: &str| json_scalar_ty(src.declared_settings.get(k).or(raw.settings.get(k))?);
        let site = |k: &str| {
            let (in_scenario, pointer) = setting_ptr[k].clone();
            Site {
                doc: if in_scenario { sd } else { rd },
                pointer,
                via_set: src.overrides.iter().any(|o| *o == format!("settings.{k}")),
            }
        };
        let limits = Limits {
            ruleset: rd,
            players: &raw.players,
            settings: &settings,
            declared: &declared,
            site: &site,
        };
        d.list.extend(limits.check(&raw.limits));
    }
    let rng = match settings.get("rng") {
        None => RngKind::ChaCha8,
        Some(Json::String(s)) => match s.parse::<RngKind>() {
            Ok(k) => k,
            Err(_) => {
                let (in_scenario, ptr) = setting_ptr["rng"].clone();
                d.at(
                    if in_scenario { sd } else { rd },
                    &ptr,
                    "ruleset::unknown_rng",
                    format!("unknown random generator `{s}`"),
                    Some("use chacha8 or xorshift32".into()),
                );
                RngKind::ChaCha8
            }
        },
        Some(_) => {
            d.at(
                rd,
                "/settings/rng",
                "ruleset::unknown_rng",
                "`rng` names a generator: chacha8 or xorshift32",
                None,
            );
            RngKind::ChaCha8
        }
    };
    (settings, rng)
}

/// Where a setting's effective value was written, to point at it.
pub struct Site<'a> {
    pub doc: &'a YamlDoc,
    pub pointer: String,
    /// The value came from `--set` (or a match script's `set:`).
    pub via_set: bool,
}

/// One bound of a limit, as checked.
struct Bound {
    value: f64,
    /// The expression it came from, when it is not a plain number.
    text: Option<String>,
}

impl Bound {
    fn show(b: &Option<Bound>, missing: &str) -> String {
        b.as_ref().map_or(missing.into(), |b| b.value.to_string())
    }
}

/// Everything the limits need to know.
pub struct Limits<'a> {
    pub ruleset: &'a YamlDoc,
    pub players: &'a [String],
    /// Effective values.
    pub settings: &'a IndexMap<String, Json>,
    /// The types the ruleset declared (a whole-number setting stays whole).
    pub declared: &'a dyn Fn(&str) -> Option<Ty>,
    pub site: &'a dyn Fn(&str) -> Site<'a>,
}

impl Limits<'_> {
    /// Checks every limit; problems are returned, one per root cause.
    pub fn check(&self, limits: &IndexMap<String, RawLimit>) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for (k, lim) in limits {
            self.check_one(k, lim, &mut out);
        }
        out
    }

    fn check_one(&self, k: &str, lim: &RawLimit, out: &mut Vec<Diagnostic>) {
        let lptr = format!("/limits/{}", esc(k));
        let Some(v) = self.settings.get(k) else {
            let span = self
                .ruleset
                .key_span(&lptr)
                .unwrap_or_else(|| self.ruleset.span_or_parent(&lptr));
            out.push(
                Diagnostic::error(
                    "ruleset::unknown_setting",
                    format!("limit for unknown setting `{k}`"),
                )
                .at(self.ruleset.source.clone(), span)
                .hint(match closest(k, self.settings.keys().map(String::as_str)) {
                    Some(c) => format!("did you mean `{c}`?"),
                    None => "declare the setting under `settings:` first".into(),
                }),
            );
            return;
        };
        let site = (self.site)(k);
        let origin = if site.via_set {
            " (set with --set)"
        } else {
            ""
        };
        let at = |code: &str, message: String| site.doc.diag(code, message, &site.pointer);
        if !lim.one_of.is_empty() && !lim.one_of.contains(v) {
            let opts: Vec<String> = lim.one_of.iter().map(|x| x.to_string()).collect();
            out.push(at(
                "ruleset::setting_out_of_range",
                format!(
                    "setting `{k}` is {v}{origin}, which is not one of {}",
                    opts.join(", ")
                ),
            ));
            return;
        }
        let min = self.bound(&lptr, "min", lim.min.as_ref(), out);
        let max = self.bound(&lptr, "max", lim.max.as_ref(), out);
        let Some(x) = v.as_f64() else {
            if lim.min.is_some() || lim.max.is_some() {
                out.push(at(
                    "ruleset::setting_type",
                    format!("setting `{k}` must be a number"),
                ));
            }
            return;
        };
        let low = min.as_ref().is_some_and(|m| {
            if lim.min_exclusive {
                x <= m.value
            } else {
                x < m.value
            }
        });
        let high = max.as_ref().is_some_and(|m| x > m.value);
        if low || high {
            let range = format!(
                "{}{} .. {}",
                if lim.min_exclusive { "more than " } else { "" },
                Bound::show(&min, "-inf"),
                Bound::show(&max, "+inf")
            );
            let broken = if low { &min } else { &max };
            let (source, hint) = match broken.as_ref().and_then(|b| b.text.as_ref()) {
                Some(t) => {
                    // The other settings the bound reads, and which of them were overridden.
                    let read: Vec<&str> = self
                        .settings
                        .keys()
                        .map(String::as_str)
                        .filter(|o| reads(t, o))
                        .collect();
                    let set: Vec<String> = read
                        .iter()
                        .filter(|o| (self.site)(o).via_set)
                        .map(|o| format!("`{o}` is {} (set with --set)", self.settings[*o]))
                        .collect();
                    let which = if low { "the minimum" } else { "the maximum" };
                    let source = if set.is_empty() {
                        format!(" ({which} is `{t}`)")
                    } else {
                        format!(" ({which} is `{t}`; {})", set.join(", "))
                    };
                    let others: Vec<String> = read.iter().map(|o| format!("`{o}`")).collect();
                    let hint = format!(
                        "choose a value in {range}, or change {}",
                        others.join(" or ")
                    );
                    (source, hint)
                }
                None => (String::new(), format!("choose a value in {range}")),
            };
            out.push(
                at(
                    "ruleset::setting_out_of_range",
                    format!(
                        "setting `{k}` is {v}{origin}, outside its allowed range {range}{source}"
                    ),
                )
                .hint(hint),
            );
        }
        if (self.declared)(k) == Some(Ty::Int) && v.as_i64().is_none() {
            out.push(at(
                "ruleset::setting_type",
                format!("setting `{k}` must be a whole number"),
            ));
        }
    }

    /// A bound's value: a number, or a constant expression of settings.
    fn bound(
        &self,
        lptr: &str,
        which: &str,
        raw: Option<&Json>,
        out: &mut Vec<Diagnostic>,
    ) -> Option<Bound> {
        let ptr = format!("{lptr}/{which}");
        let text = match raw? {
            Json::Number(n) => {
                return n.as_f64().map(|value| Bound { value, text: None });
            }
            Json::String(s) => s,
            _ => return None, // the schema refuses anything else
        };
        let cat = Catalog {
            players: self.players,
            settings: self.settings,
            tables: &[],
            player_vars: &[],
            cell_vars: &[],
            unit_vars: &[],
            game_vars: &[],
            board: None,
            unit_table: None,
            stages: &[],
            script_fns: &[],
            board_size: (0, 0),
            failed: Default::default(),
        };
        let mut symbols = Symbols::default();
        let mut c = Compiler::new(&cat, &mut symbols, false);
        let problem = match c.text_expr(text) {
            Ok((e, t)) => match fold(&e) {
                Some(Value::Int(i)) => {
                    return Some(Bound {
                        value: i as f64,
                        text: Some(text.clone()),
                    })
                }
                Some(Value::Float(f)) => {
                    return Some(Bound {
                        value: f,
                        text: Some(text.clone()),
                    })
                }
                Some(_) => (
                    0,
                    format!("a limit's `{which}` is a number, this is {}", t.name()),
                    None,
                ),
                None => (
                    0,
                    format!("a limit's `{which}` must be a constant: numbers and settings"),
                    Some(
                        "write a number, or an expression of settings such as `settings.other - 1`"
                            .to_string(),
                    ),
                ),
            },
            Err(e) => (e.pos, e.message, e.hint),
        };
        let (pos, message, hint) = problem;
        let span = super::diags::expr_span(self.ruleset, &ptr, pos);
        let mut d =
            Diagnostic::error("ruleset::expression", message).at(self.ruleset.source.clone(), span);
        if let Some(h) = hint {
            d = d.hint(h);
        }
        out.push(d);
        None
    }
}

/// Whether the expression `text` reads `settings.<name>` (and not merely a longer name starting so).
fn reads(text: &str, name: &str) -> bool {
    let needle = format!("settings.{name}");
    text.match_indices(&needle).any(|(i, _)| {
        let after = text[i + needle.len()..].chars().next();
        let before = text[..i].chars().last();
        !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_whole_setting_names() {
        assert!(super::reads("settings.cap - 1", "cap"));
        assert!(!super::reads("settings.capital", "cap"));
        assert!(super::reads("min(settings.a, settings.cap)", "cap"));
    }
}
