//! Analysis: turns a parsed ruleset, its scenario and scripts into a `Game`, or reports every problem found,
//! each at the YAML line and column it comes from. Never fails half-way: it collects and goes on.
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::Value as Json;

use super::compile::{closest, Catalog, Compiler, EffectError, ExprError};
use super::game::*;
use super::ir::Expr;
use super::raw::*;
use super::yaml::{pointer_escape as esc, YamlDoc};
use crate::board::{Axis, Board, BoardError, HexLayout, IdScheme, Label};
use crate::diagnostic::{Diagnostic, SourceFile};
use crate::model::state::{MatchState, NO_OWNER, NO_UNIT};
use crate::model::{Ty, Value};
use crate::rng::RngKind;

pub use crate::ir::game::SIGHT_SLOT;

/// A script file as read by the loader.
pub struct ScriptFile {
    pub listed: String,
    pub source: Arc<SourceFile>,
}

/// Everything analysis needs: the parsed documents (overrides already applied) and the scripts.
pub struct Sources {
    pub ruleset: YamlDoc,
    pub scenario: YamlDoc,
    pub scripts: Vec<ScriptFile>,
    /// `--set` overrides, for messages (the values are already in the documents).
    pub overrides: Vec<String>,
    /// The ruleset's settings as written, before overrides: their types are the settings' types.
    pub declared_settings: serde_json::Map<String, Json>,
}

struct Diags {
    list: Vec<Diagnostic>,
}

impl Diags {
    fn at(
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
    fn key(
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
    fn expr(&mut self, doc: &YamlDoc, ptr: &str, e: ExprError) {
        let code = "ruleset::expression";
        if e.pos == usize::MAX {
            let ExprError { message, hint, .. } = e;
            return self.key(doc, ptr, code, message, hint);
        }
        let span = expr_span(doc, ptr, e.pos);
        let mut d = Diagnostic::error(code, e.message).at(doc.source.clone(), span);
        if let Some(h) = e.hint {
            d = d.hint(h);
        }
        self.list.push(d);
    }
    fn effects(&mut self, doc: &YamlDoc, errors: Vec<EffectError>) {
        for e in errors {
            self.expr(doc, &e.pointer, e.error);
        }
    }
}

/// The span of the character at `pos` inside the expression written at `ptr`.
fn expr_span(doc: &YamlDoc, ptr: &str, pos: usize) -> Range<usize> {
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

fn parse_ty(raw: &str, table: Option<&str>, tables: &[Table]) -> Result<Ty, String> {
    Ok(match raw {
        "int" => Ty::Int,
        "float" => Ty::Float,
        "bool" => Ty::Bool,
        "text" => Ty::Text,
        "cell" => Ty::Cell,
        "unit" => Ty::Unit,
        "player" => Ty::Player,
        "row" => {
            let Some(t) = table else {
                return Err("type `row` needs `table: <name>`".into());
            };
            match tables.iter().position(|x| x.name == t) {
                Some(i) => Ty::Row(i as u16),
                None => return Err(format!("no table `{t}`")),
            }
        }
        other => {
            return Err(format!(
                "unknown type `{other}`{}",
                closest(
                    other,
                    ["int", "float", "bool", "text", "cell", "unit", "player", "row"]
                )
                .map_or(String::new(), |c| format!(" (did you mean `{c}`?)"))
            ))
        }
    })
}

fn json_scalar_ty(v: &Json) -> Option<Ty> {
    match v {
        Json::Bool(_) => Some(Ty::Bool),
        Json::Number(n) if n.is_i64() || n.is_u64() => Some(Ty::Int),
        Json::Number(_) => Some(Ty::Float),
        Json::String(_) => Some(Ty::Text),
        Json::Null => None,
        _ => None,
    }
}

/// Analyses the sources into a game.
pub fn analyze(src: &Sources) -> Result<Game, Vec<Diagnostic>> {
    let mut d = Diags { list: Vec::new() };
    let rd = &src.ruleset;
    let sd = &src.scenario;
    let raw: RawRuleset = match serde_json::from_value(rd.value.clone()) {
        Ok(r) => r,
        Err(e) => {
            d.at(
                rd,
                "",
                "ruleset::structure",
                format!("this ruleset's structure is not valid: {e}"),
                None,
            );
            return Err(d.list);
        }
    };
    let scen: RawScenario = match serde_json::from_value(sd.value.clone()) {
        Ok(r) => r,
        Err(e) => {
            d.at(
                sd,
                "",
                "scenario::structure",
                format!("this scenario's structure is not valid: {e}"),
                None,
            );
            return Err(d.list);
        }
    };
    if scen.ruleset != raw.id {
        d.at(
            sd,
            "/ruleset",
            "scenario::ruleset_mismatch",
            format!(
                "this scenario is for ruleset `{}`, not `{}`",
                scen.ruleset, raw.id
            ),
            None,
        );
    }

    // Players.
    let mut seen = HashSet::new();
    for (i, p) in raw.players.iter().enumerate() {
        if !seen.insert(p) {
            d.at(
                rd,
                &format!("/players/{i}"),
                "ruleset::duplicate_player",
                format!("player `{p}` is listed twice"),
                None,
            );
        }
    }
    if raw.players.is_empty() || raw.players.len() > 8 {
        d.at(
            rd,
            "/players",
            "ruleset::players",
            "a ruleset has between 1 and 8 players",
            None,
        );
    }

    // Settings: ruleset defaults, scenario overrides, then limits.
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
    for (k, lim) in &raw.limits {
        let Some(v) = settings.get(k) else {
            d.key(
                rd,
                &format!("/limits/{}", esc(k)),
                "ruleset::unknown_setting",
                format!("limit for unknown setting `{k}`"),
                Some(match closest(k, raw.settings.keys().map(|s| s.as_str())) {
                    Some(c) => format!("did you mean `{c}`?"),
                    None => "declare the setting under `settings:` first".into(),
                }),
            );
            continue;
        };
        let (in_scenario, ptr) = setting_ptr[k].clone();
        let doc = if in_scenario { sd } else { rd };
        let via_set = src.overrides.iter().any(|o| o == &format!("settings.{k}"));
        let origin = if via_set { " (set with --set)" } else { "" };
        if !lim.one_of.is_empty() && !lim.one_of.contains(v) {
            let opts: Vec<String> = lim.one_of.iter().map(|x| x.to_string()).collect();
            d.at(
                doc,
                &ptr,
                "ruleset::setting_out_of_range",
                format!(
                    "setting `{k}` is {v}{origin}, which is not one of {}",
                    opts.join(", ")
                ),
                None,
            );
            continue;
        }
        if let Some(x) = v.as_f64() {
            let low = lim
                .min
                .is_some_and(|m| if lim.min_exclusive { x <= m } else { x < m });
            let high = lim.max.is_some_and(|m| x > m);
            if low || high {
                let range = format!(
                    "{}{} .. {}",
                    if lim.min_exclusive { "more than " } else { "" },
                    lim.min.map_or("-inf".into(), |m| m.to_string()),
                    lim.max.map_or("+inf".into(), |m| m.to_string())
                );
                d.at(
                    doc,
                    &ptr,
                    "ruleset::setting_out_of_range",
                    format!("setting `{k}` is {v}{origin}, outside its allowed range {range}"),
                    Some(format!("choose a value in {range}")),
                );
            }
            let declared = src.declared_settings.get(k).unwrap_or(&raw.settings[k]);
            if json_scalar_ty(declared) == Some(Ty::Int) && v.as_i64().is_none() {
                d.at(
                    doc,
                    &ptr,
                    "ruleset::setting_type",
                    format!("setting `{k}` must be a whole number"),
                    None,
                );
            }
        } else if lim.min.is_some() || lim.max.is_some() {
            d.at(
                doc,
                &ptr,
                "ruleset::setting_type",
                format!("setting `{k}` must be a number"),
                None,
            );
        }
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

    // Symbols and tables.
    let mut symbols = Symbols::default();
    let player_syms: Vec<u32> = raw.players.iter().map(|p| symbols.intern(p)).collect();
    let mut tables = Vec::new();
    for (name, t) in &raw.tables {
        let base = format!("/tables/{}", esc(name));
        let mut columns: Vec<(String, Ty)> = Vec::new();
        let mut add_col = |c: &str, v: &Json, d: &mut Diags, ptr: &str, doc: &YamlDoc| match (
            columns.iter_mut().find(|(n, _)| n == c),
            json_scalar_ty(v),
        ) {
            (_, None) if !v.is_null() => d.at(
                doc,
                ptr,
                "ruleset::table_value",
                "table values are numbers, text, booleans or null",
                None,
            ),
            (None, ty) => columns.push((c.to_string(), ty.unwrap_or(Ty::Nothing))),
            (Some((_, t)), Some(ty)) if *t == Ty::Nothing => *t = ty,
            (Some((_, t)), Some(ty)) if *t != ty && !(t.is_numeric() && ty.is_numeric()) => d.at(
                doc,
                ptr,
                "ruleset::table_value",
                format!(
                    "column `{c}` holds {} elsewhere, {} here",
                    t.name(),
                    ty.name()
                ),
                None,
            ),
            (Some((_, t)), Some(Ty::Float)) => *t = Ty::Float,
            _ => {}
        };
        for (c, v) in &t.defaults {
            add_col(c, v, &mut d, &format!("{base}/defaults/{}", esc(c)), rd);
        }
        for (r, row) in &t.rows {
            for (c, v) in row {
                add_col(
                    c,
                    v,
                    &mut d,
                    &format!("{base}/rows/{}/{}", esc(r), esc(c)),
                    rd,
                );
            }
        }
        let keys: Vec<String> = t.rows.keys().cloned().collect();
        let key_syms = keys.iter().map(|k| symbols.intern(k)).collect();
        let mut cells = Vec::new();
        for (r, row) in &t.rows {
            for (c, ty) in &columns {
                let v = row.get(c).or_else(|| t.defaults.get(c));
                cells.push(match (v, ty) {
                    (None | Some(Json::Null), _) => Value::None,
                    (Some(Json::Number(n)), Ty::Float) => Value::Float(n.as_f64().unwrap_or(0.0)),
                    (Some(Json::Number(n)), _) => n.as_i64().map_or(Value::None, Value::Int),
                    (Some(Json::Bool(b)), _) => Value::Bool(*b),
                    (Some(Json::String(s)), _) => Value::Text(symbols.intern(s)),
                    _ => Value::None,
                });
            }
            let _ = r;
        }
        tables.push(Table {
            name: name.clone(),
            keys,
            key_syms,
            columns,
            cells,
        });
    }

    // Variables.
    let var_decls = |scope: &str,
                     raw_vars: &IndexMap<String, RawVar>,
                     d: &mut Diags,
                     symbols: &mut Symbols|
     -> (Vec<VarDecl>, usize) {
        let mut out = Vec::new();
        let mut slot = 0usize;
        for (name, v) in raw_vars {
            let ptr = format!("/state/{scope}/{}", esc(name));
            let ty = match parse_ty(&v.ty, v.table.as_deref(), &tables) {
                Ok(t) => t,
                Err(m) => {
                    d.at(rd, &format!("{ptr}/type"), "ruleset::bad_type", m, Some("types: int, float, bool, text, cell, unit, player, or row (with `table:`)".into()));
                    continue;
                }
            };
            if v.per_player && scope != "cell" {
                d.at(
                    rd,
                    &format!("{ptr}/per_player"),
                    "ruleset::bad_type",
                    "only cell variables can be per player",
                    Some("remove `per_player`, or declare the variable under `state.cell`".into()),
                );
            }
            let initial = match (&v.initial, ty) {
                (None, Ty::Int) => Value::Int(0),
                (None, Ty::Bool) => Value::Bool(false),
                (None, Ty::Float) => Value::Float(0.0),
                (None, _) => Value::None,
                (Some(Json::Number(n)), Ty::Int) if n.is_i64() => {
                    Value::Int(n.as_i64().unwrap_or(0))
                }
                (Some(Json::Number(n)), Ty::Float) => Value::Float(n.as_f64().unwrap_or(0.0)),
                (Some(Json::Bool(b)), Ty::Bool) => Value::Bool(*b),
                (Some(Json::Null), _) => Value::None,
                (Some(Json::String(s)), Ty::Text) => Value::Text(symbols.intern(s)),
                (Some(Json::String(s)), Ty::Row(t)) if tables[t as usize].row(s).is_some() => {
                    Value::Row(t, tables[t as usize].row(s).unwrap_or(0))
                }
                (Some(Json::String(_)), _) => Value::None, // an expression, compiled below
                (Some(_), _) => {
                    d.at(
                        rd,
                        &format!("{ptr}/initial"),
                        "ruleset::bad_type",
                        format!("initial value does not fit type {}", ty.name()),
                        Some(format!(
                            "give a {} value, or an expression as text",
                            ty.name()
                        )),
                    );
                    Value::None
                }
            };
            if let Value::Int(i) = initial {
                let below = v.min.is_some_and(|m| i < m);
                let above = v.max.is_some_and(|m| i > m);
                if below || above {
                    let (bound, edge) = if below {
                        ("min", v.min.unwrap_or(0))
                    } else {
                        ("max", v.max.unwrap_or(0))
                    };
                    d.at(
                        rd,
                        &format!("{ptr}/initial"),
                        "ruleset::initial_out_of_range",
                        format!("initial value {i} is outside the variable's own bounds ({bound} {edge})"),
                        Some(format!("start at a value the variable may hold, or change its `{bound}`")),
                    );
                }
            }
            out.push(VarDecl {
                name: name.clone(),
                ty,
                per_player: v.per_player,
                slot: slot as u16,
                initial,
                initial_expr: None,
                min: v.min,
                max: v.max,
                scratch: v.scratch,
                hidden: v.hidden,
            });
            slot += if v.per_player { raw.players.len() } else { 1 };
        }
        (out, slot)
    };
    let (player_vars, player_slots) = var_decls("player", &raw.state.player, &mut d, &mut symbols);
    let (mut cell_vars, cell_slots) = var_decls("cell", &raw.state.cell, &mut d, &mut symbols);
    let (unit_vars, unit_slots) = var_decls("unit", &raw.state.unit, &mut d, &mut symbols);
    for (scope, decls) in [
        ("player", &player_vars),
        ("unit", &unit_vars),
        ("cell", &cell_vars),
    ] {
        for v in decls {
            let builtin: &[&str] = match scope {
                "unit" => &["owner", "at", "id", "type"],
                "cell" => &["owner", "id", "row", "col", "unit", "empty"],
                _ => &["id"],
            };
            if builtin.contains(&v.name.as_str()) {
                d.key(
                    rd,
                    &format!("/state/{scope}/{}", esc(&v.name)),
                    "ruleset::reserved_name",
                    format!("`{}` is built in for {scope}s", v.name),
                    None,
                );
            }
        }
    }

    let unit_table = match &raw.units {
        Some(u) => match tables.iter().position(|t| t.name == u.table) {
            Some(i) => Some(i as u16),
            None => {
                d.at(
                    rd,
                    "/units/table",
                    "ruleset::unknown_table",
                    format!("no table `{}`", u.table),
                    closest(&u.table, raw.tables.keys().map(|s| s.as_str()))
                        .map(|c| format!("did you mean `{c}`?")),
                );
                None
            }
        },
        None => None,
    };

    // Scripts.
    let mut script_fns: Vec<(String, usize)> = Vec::new();
    let mut scripts = Vec::new();
    for (i, s) in src.scripts.iter().enumerate() {
        match crate::script::inspect(&s.source.text) {
            Ok(fns) => {
                for f in fns {
                    if script_fns.iter().any(|(n, _)| *n == f.0) {
                        d.at(
                            rd,
                            &format!("/scripts/{i}"),
                            "script::duplicate_function",
                            format!("script function `{}` is defined twice", f.0),
                            None,
                        );
                    }
                    script_fns.push(f);
                }
            }
            Err(e) => {
                let span = line_col_offset(&s.source.text, e.line, e.column);
                d.list.push(
                    Diagnostic::error(
                        "script::compile",
                        format!("script does not compile: {}", e.message),
                    )
                    .at(s.source.clone(), span..span)
                    .hint("fix the Rhai syntax at this position"),
                );
            }
        }
        if let Ok(fns) = crate::script::inspect(&s.source.text) {
            let all: Vec<(String, usize)> = src
                .scripts
                .iter()
                .filter_map(|x| crate::script::inspect(&x.source.text).ok())
                .flatten()
                .chain(fns)
                .collect();
            for (name, off) in crate::script::unknown_calls(&s.source.text, &all) {
                d.list.push(
                    Diagnostic::error(
                        "script::unknown_function",
                        format!("`{name}` is not a function of the scripts, the host API or Rhai"),
                    )
                    .at(s.source.clone(), off..off + name.len())
                    .hint(
                        match closest(
                            &name,
                            all.iter()
                                .map(|(n, _)| n.as_str())
                                .chain(crate::script::HOST_FUNCTIONS.iter().copied()),
                        ) {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => "see the host API in docs/ruleset-language.md".into(),
                        },
                    ),
                );
            }
        }
        for (f, lit, off) in crate::script::literal_names(&s.source.text) {
            let known = match f.as_str() {
                "stat" => unit_table.map(|t| tables[t as usize].column(&lit).is_some()),
                "cell_var" | "cell_var_of" | "set_cell_var" | "set_cell_var_of" => {
                    Some(cell_vars.iter().any(|v| v.name == lit))
                }
                "unit_var" | "set_unit_var" => Some(unit_vars.iter().any(|v| v.name == lit)),
                _ => Some(player_vars.iter().any(|v| v.name == lit)),
            };
            if known == Some(false) {
                let candidates: Vec<String> = match f.as_str() {
                    "stat" => unit_table
                        .map(|t| {
                            tables[t as usize]
                                .columns
                                .iter()
                                .map(|c| c.0.clone())
                                .collect()
                        })
                        .unwrap_or_default(),
                    "cell_var" | "cell_var_of" | "set_cell_var" | "set_cell_var_of" => {
                        cell_vars.iter().map(|v| v.name.clone()).collect()
                    }
                    "unit_var" | "set_unit_var" => {
                        unit_vars.iter().map(|v| v.name.clone()).collect()
                    }
                    _ => player_vars.iter().map(|v| v.name.clone()).collect(),
                };
                let what = if f == "stat" { "unit stat" } else { "variable" };
                d.list.push(
                    Diagnostic::error(
                        "script::unknown_name",
                        format!("`{f}` refers to unknown {what} \"{lit}\""),
                    )
                    .at(s.source.clone(), off..off + lit.len())
                    .hint(
                        match closest(&lit, candidates.iter().map(|s| s.as_str())) {
                            Some(c) => format!("did you mean \"{c}\"?"),
                            None => format!("known: {}", candidates.join(", ")),
                        },
                    ),
                );
            }
        }
        scripts.push(ScriptSource {
            name: s.listed.clone(),
            path: s.source.name.clone(),
            text: Arc::from(s.source.text.as_str()),
        });
    }

    // Board topology and the scenario's map.
    let board = build_board(&raw.board, &scen, rd, sd, &mut d);

    let board_size = board.as_ref().map_or((0, 0), |b| (b.width(), b.height()));
    // Initial-value expressions of cell variables (the cell is `it`).
    let cat_settings = settings.clone();
    {
        let cat = Catalog {
            players: &raw.players,
            settings: &cat_settings,
            tables: &tables,
            player_vars: &player_vars,
            cell_vars: &cell_vars,
            unit_vars: &unit_vars,
            unit_table,
            script_fns: &script_fns,
            board_size,
        };
        let mut exprs = Vec::new();
        for (i, v) in raw.state.cell.iter().enumerate() {
            if let Some(Json::String(s)) = &v.1.initial {
                let decl = &cell_vars.iter().find(|x| x.name == *v.0);
                let Some(decl) = decl else { continue };
                let literal_row =
                    matches!(decl.ty, Ty::Row(t) if tables[t as usize].row(s).is_some());
                if decl.ty == Ty::Text || literal_row {
                    continue;
                }
                let mut c = Compiler::new(&cat, &mut symbols, false);
                c.push_elem(Ty::Cell);
                match c.text_expr(s) {
                    Ok((e, _)) => exprs.push((i, e)),
                    Err(e) => d.expr(rd, &format!("/state/cell/{}/initial", esc(v.0)), e),
                }
            }
        }
        for (i, e) in exprs {
            if let Some(decl) = cell_vars.get_mut(i) {
                decl.initial_expr = Some(e);
            }
        }
    }

    let cat = Catalog {
        players: &raw.players,
        settings: &cat_settings,
        tables: &tables,
        player_vars: &player_vars,
        cell_vars: &cell_vars,
        unit_vars: &unit_vars,
        unit_table,
        script_fns: &script_fns,
        board_size,
    };

    // Line of sight and initial owners.
    let sight = raw.board.line_of_sight.as_ref().map(|s| {
        let pred =
            |v: &Option<Json>, key: &str, d: &mut Diags, symbols: &mut Symbols| -> Option<Expr> {
                let v = v.as_ref()?;
                let mut c = Compiler::new(&cat, symbols, false);
                c.skip_to(SIGHT_SLOT);
                c.push_elem(Ty::Cell);
                match c.json_cond(v) {
                    Ok(e) => Some(e),
                    Err(e) => {
                        d.expr(rd, &format!("/board/line_of_sight/{key}"), e);
                        None
                    }
                }
            };
        Sight {
            opaque: pred(&s.opaque, "opaque", &mut d, &mut symbols),
            screens: pred(&s.screens, "screens", &mut d, &mut symbols),
            see_over: pred(&s.see_over, "see_over", &mut d, &mut symbols),
        }
    });
    let initial_owner = raw.board.initial_owner.as_ref().and_then(|v| {
        let mut c = Compiler::new(&cat, &mut symbols, false);
        c.push_elem(Ty::Cell);
        match c.json_expr(v) {
            Ok((e, Ty::Player | Ty::Nothing)) => Some(e),
            Ok((_, t)) => {
                d.at(
                    rd,
                    "/board/initial_owner",
                    "ruleset::expression",
                    format!(
                        "`initial_owner` must give a player (or none), this gives {}",
                        t.name()
                    ),
                    None,
                );
                None
            }
            Err(e) => {
                d.expr(rd, "/board/initial_owner", e);
                None
            }
        }
    });

    // Actions.
    let mut actions = Vec::new();
    let mut max_locals = 0usize;
    for (name, a) in &raw.actions {
        let base = format!("/actions/{}", esc(name));
        let mut c = Compiler::new(&cat, &mut symbols, true);
        let mut params = Vec::new();
        for (pname, p) in &a.params {
            let pptr = format!("{base}/params/{}", esc(pname));
            let ty = match parse_ty(&p.ty, p.table.as_deref(), &tables) {
                Ok(t) => t,
                Err(m) => {
                    d.at(rd, &format!("{pptr}/type"), "ruleset::bad_type", m, None);
                    continue;
                }
            };
            if matches!(ty, Ty::Float | Ty::Bool | Ty::Text) {
                d.at(
                    rd,
                    &format!("{pptr}/type"),
                    "ruleset::bad_type",
                    "action parameters are cells, units, players, table rows or ints",
                    None,
                );
            }
            let source = match &p.in_set {
                Some(s) => match c.json_set(s) {
                    Ok(set) => {
                        if set.elem != ty {
                            d.at(
                                rd,
                                &format!("{pptr}/in"),
                                "ruleset::expression",
                                format!(
                                    "this set holds {}s but the parameter is a {}",
                                    set.elem.name(),
                                    ty.name()
                                ),
                                None,
                            );
                        }
                        Some((set, p.not_in.clone().unwrap_or_else(|| p.invalid.clone())))
                    }
                    Err(e) => {
                        d.expr(rd, &format!("{pptr}/in"), e);
                        None
                    }
                },
                None => None,
            };
            let slot = c.bind(pname, ty);
            let bound = |b: &Option<RawBound>,
                         key: &str,
                         c: &mut Compiler,
                         d: &mut Diags|
             -> Option<(Expr, String)> {
                let b = b.as_ref()?;
                match c.json_expr(&b.value) {
                    Ok((e, t)) if t.is_numeric() => Some((e, b.reason.clone())),
                    Ok((_, t)) => {
                        d.at(
                            rd,
                            &format!("{pptr}/{key}/value"),
                            "ruleset::expression",
                            format!("a bound is a number, this is {}", t.name()),
                            None,
                        );
                        None
                    }
                    Err(e) => {
                        d.expr(rd, &format!("{pptr}/{key}/value"), e);
                        None
                    }
                }
            };
            let min = bound(&p.min, "min", &mut c, &mut d);
            let max = bound(&p.max, "max", &mut c, &mut d);
            if ty == Ty::Int && source.is_none() && (min.is_none() || max.is_none()) {
                d.at(rd, &pptr, "ruleset::unbounded_param", format!("integer parameter `{pname}` needs `min` and `max` (or `in`) so its legal values can be listed"), None);
            }
            let mut checks = Vec::new();
            for (i, ch) in p.require.iter().enumerate() {
                match c.json_cond(&ch.when) {
                    Ok(e) => checks.push(Check {
                        cond: e,
                        reason: ch.reason.clone(),
                    }),
                    Err(e) => d.expr(rd, &format!("{pptr}/require/{i}/when"), e),
                }
            }
            params.push(ParamSpec {
                wire: pname.clone(),
                ty,
                slot,
                invalid: p.invalid.clone(),
                source,
                source_last: p.in_last,
                min,
                max,
                checks,
                prune: Vec::new(),
                owner_filter: None,
            });
        }
        let mut checks = Vec::new();
        for (i, ch) in a.require.iter().enumerate() {
            match c.json_cond(&ch.when) {
                Ok(e) => checks.push(Check {
                    cond: e,
                    reason: ch.reason.clone(),
                }),
                Err(e) => d.expr(rd, &format!("{base}/require/{i}/when"), e),
            }
        }
        let cost = match &a.cost {
            None => 1,
            Some(v) => match c.json_const(v) {
                Ok(Value::Int(i)) if i >= 0 => i,
                Ok(_) => {
                    d.at(
                        rd,
                        &format!("{base}/cost"),
                        "ruleset::bad_cost",
                        "`cost` is a whole number of points, 0 or more",
                        None,
                    );
                    1
                }
                Err(e) => {
                    d.expr(rd, &format!("{base}/cost"), e);
                    1
                }
            },
        };
        // Legality is evaluated while listing actions too: it must not move the match's random stream.
        let draws = params.iter().any(|p| {
            p.source.as_ref().is_some_and(|(s, _)| s.draws())
                || p.min.as_ref().is_some_and(|(e, _)| e.draws())
                || p.max.as_ref().is_some_and(|(e, _)| e.draws())
                || p.checks.iter().any(|c| c.cond.draws())
        }) || checks.iter().any(|c| c.cond.draws());
        if draws {
            d.at(
                rd,
                &base,
                "ruleset::random_in_condition",
                format!("action `{name}` draws random numbers in its parameters or conditions"),
                Some("legality is checked while listing actions: draw in `effects` instead".into()),
            );
        }
        hoist(&mut params, &checks);
        let mut errs = Vec::new();
        let effects = c.effects(&a.effects, &format!("{base}/effects"), &mut errs);
        d.effects(rd, errs);
        max_locals = max_locals.max(c.locals());
        let slots: Vec<u16> = params.iter().map(|p| p.slot).collect();
        let pre_checks = checks
            .iter()
            .filter(|ch| {
                let mut used = Vec::new();
                ch.cond.reads(&mut used) && !used.iter().any(|s| slots.contains(s))
            })
            .map(|ch| ch.cond.clone())
            .collect();
        actions.push(ActionSpec {
            name: name.clone(),
            params,
            checks,
            cost,
            effects,
            locals: c.locals(),
            pre_checks,
        });
    }
    let mut wire_aliases = Vec::new();
    for (alias, target) in &raw.wire.aliases {
        match actions.iter().position(|a| a.name == *target) {
            Some(i) => wire_aliases.push((alias.clone(), i as u16)),
            None => d.at(
                rd,
                &format!("/wire/aliases/{}", esc(alias)),
                "ruleset::unknown_action",
                format!("alias of unknown action `{target}`"),
                None,
            ),
        }
    }

    // Flow.
    let first_player = match &scen.first_player {
        Some(p) => match raw.players.iter().position(|x| x == p) {
            Some(i) => i as u8,
            None => {
                d.at(
                    sd,
                    "/first_player",
                    "scenario::unknown_player",
                    format!("no player `{p}`"),
                    Some(format!("players: {}", raw.players.join(", "))),
                );
                0
            }
        },
        None => 0,
    };
    let mut phases = Vec::new();
    if raw.flow.phases.is_empty() {
        d.at(
            rd,
            "/flow/phases",
            "ruleset::flow",
            "the flow needs at least one phase",
            None,
        );
    }
    for (pi, ph) in raw.flow.phases.iter().enumerate() {
        let base = format!("/flow/phases/{pi}");
        let order = match ph.order.as_str() {
            "alternating" => Order::Alternating,
            "simultaneous" => Order::Simultaneous,
            o => {
                d.at(
                    rd,
                    &format!("{base}/order"),
                    "ruleset::flow",
                    format!("unknown order `{o}`"),
                    Some("use alternating or simultaneous".into()),
                );
                Order::Alternating
            }
        };
        let submission = match ph.submission.as_str() {
            "single" => Submission::Single,
            "batch" => Submission::Batch,
            "points" => Submission::Points,
            "orders" => Submission::Orders,
            o => {
                d.at(
                    rd,
                    &format!("{base}/submission"),
                    "ruleset::flow",
                    format!("unknown submission kind `{o}`"),
                    Some("use single, batch, points or orders".into()),
                );
                Submission::Single
            }
        };
        if (order == Order::Simultaneous) != (submission == Submission::Orders) {
            d.at(
                rd,
                &format!("{base}/submission"),
                "ruleset::flow",
                "simultaneous phases take `orders`, and `orders` need a simultaneous phase",
                None,
            );
        }
        let mut c = Compiler::new(&cat, &mut symbols, true);
        let budget = match &ph.budget {
            Some(v) => match c.json_const(v) {
                Ok(Value::Int(i)) if i >= 1 => i,
                Ok(_) => {
                    d.at(
                        rd,
                        &format!("{base}/budget"),
                        "ruleset::flow",
                        "`budget` must be a whole number of at least 1",
                        None,
                    );
                    1
                }
                Err(e) => {
                    d.expr(rd, &format!("{base}/budget"), e);
                    1
                }
            },
            None => {
                if matches!(submission, Submission::Batch | Submission::Points) {
                    d.at(
                        rd,
                        &base,
                        "ruleset::flow",
                        "batch and points phases need a `budget`",
                        None,
                    );
                }
                0
            }
        };
        let rounds = match &ph.rounds {
            Some(v) => match c.json_const(v) {
                Ok(Value::Int(i)) if i >= 1 => Some(i),
                Ok(_) => {
                    d.at(
                        rd,
                        &format!("{base}/rounds"),
                        "ruleset::flow",
                        "`rounds` must be at least 1",
                        None,
                    );
                    None
                }
                Err(e) => {
                    d.expr(rd, &format!("{base}/rounds"), e);
                    None
                }
            },
            None => None,
        };
        let mut kinds = Vec::new();
        for (i, a) in ph.actions.iter().enumerate() {
            match actions.iter().position(|x| x.name == *a) {
                Some(k) => kinds.push(k as u16),
                None => d.at(
                    rd,
                    &format!("{base}/actions/{i}"),
                    "ruleset::unknown_action",
                    format!("no action `{a}`"),
                    closest(a, actions.iter().map(|x| x.name.as_str()))
                        .map(|c| format!("did you mean `{c}`?")),
                ),
            }
        }
        let first = match ph.first.as_deref() {
            None | Some("scenario") => first_player,
            Some(p) => match raw.players.iter().position(|x| x == p) {
                Some(i) => i as u8,
                None => {
                    d.at(
                        rd,
                        &format!("{base}/first"),
                        "ruleset::unknown_player",
                        format!("no player `{p}`"),
                        Some(format!(
                            "players: {} (or `scenario` for the scenario's first player)",
                            raw.players.join(", ")
                        )),
                    );
                    0
                }
            },
        };
        let mut errs = Vec::new();
        let on_turn_start = c.effects(
            &ph.on_turn_start,
            &format!("{base}/on_turn_start"),
            &mut errs,
        );
        let on_turn_end = c.effects(&ph.on_turn_end, &format!("{base}/on_turn_end"), &mut errs);
        d.effects(rd, errs);
        let (resolve, flow_vars) =
            resolve_steps(&ph.resolve, &base, &mut c, &cell_vars, rd, &mut d);
        max_locals = max_locals.max(c.locals());
        phases.push(Phase {
            name: ph.name.clone(),
            order,
            submission,
            budget,
            overflow_reason: ph
                .overflow_reason
                .clone()
                .unwrap_or_else(|| "budget_exceeded".into()),
            actions: kinds,
            rounds,
            advances_turn: ph.advances_turn,
            first,
            on_turn_start,
            on_turn_end,
            resolve,
            flow_vars,
        });
    }

    // Victory, invariants, greedy evaluation.
    let mut victory = Vec::new();
    for (i, v) in raw.victory.iter().enumerate() {
        let base = format!("/victory/{i}");
        let mut c = Compiler::new(&cat, &mut symbols, true);
        let check = match v.check.as_deref() {
            None | Some("after_action") => CheckPoint::AfterAction,
            Some("turn_end") => CheckPoint::TurnEnd,
            Some(o) => {
                d.at(
                    rd,
                    &format!("{base}/check"),
                    "ruleset::victory",
                    format!("unknown check point `{o}`"),
                    Some("use after_action or turn_end".into()),
                );
                CheckPoint::AfterAction
            }
        };
        match v.kind.as_str() {
            "control" => match v.cells.as_ref().map(|s| c.json_set(s)) {
                Some(Ok(s)) if s.elem == Ty::Cell => victory.push(VictoryRule::Control {
                    cells: s,
                    check,
                    reason: v.reason.clone(),
                }),
                Some(Ok(_)) => d.at(
                    rd,
                    &format!("{base}/cells"),
                    "ruleset::victory",
                    "`cells` must be a set of cells",
                    None,
                ),
                Some(Err(e)) => d.expr(rd, &format!("{base}/cells"), e),
                None => d.at(
                    rd,
                    &base,
                    "ruleset::victory",
                    "a `control` rule needs `cells`",
                    None,
                ),
            },
            // Without units every player is "eliminated" at once: every game would end drawn.
            "elimination" if raw.units.is_none() => d.at(
                rd,
                &format!("{base}/kind"),
                "ruleset::victory",
                "an `elimination` rule needs units, and this ruleset declares none: every game would end in a draw after the first action",
                Some("declare `units`, or use a `control` or `limit` rule".into()),
            ),
            "elimination" => victory.push(VictoryRule::Elimination {
                check,
                reason: v.reason.clone(),
            }),
            "limit" => {
                let when = match v.when.as_ref().map(|w| c.json_cond(w)) {
                    Some(Ok(e)) => e,
                    Some(Err(e)) => {
                        d.expr(rd, &format!("{base}/when"), e);
                        continue;
                    }
                    None => {
                        d.at(
                            rd,
                            &base,
                            "ruleset::victory",
                            "a `limit` rule needs `when`",
                            None,
                        );
                        continue;
                    }
                };
                let mut rank = Vec::new();
                for (j, r) in v.rank.iter().enumerate() {
                    match c.json_expr(r) {
                        Ok((e, t)) if t.is_numeric() => rank.push(e),
                        Ok(_) => d.at(
                            rd,
                            &format!("{base}/rank/{j}"),
                            "ruleset::victory",
                            "ranking keys are numbers",
                            None,
                        ),
                        Err(e) => d.expr(rd, &format!("{base}/rank/{j}"), e),
                    }
                }
                let mut report = Vec::new();
                for (k, r) in &v.report {
                    match c.json_expr(r) {
                        Ok((e, _)) => report.push((k.clone(), e)),
                        Err(e) => d.expr(rd, &format!("{base}/report/{}", esc(k)), e),
                    }
                }
                victory.push(VictoryRule::Limit {
                    when,
                    rank,
                    report,
                    reason: v.reason.clone(),
                });
            }
            o => d.at(
                rd,
                &format!("{base}/kind"),
                "ruleset::victory",
                format!("unknown victory kind `{o}`"),
                Some("use control, elimination or limit".into()),
            ),
        }
        max_locals = max_locals.max(c.locals());
    }
    let mut invariants = Vec::new();
    for (i, inv) in raw.invariants.iter().enumerate() {
        let mut c = Compiler::new(&cat, &mut symbols, false);
        match c.json_cond(&inv.check) {
            Ok(e) => invariants.push(Invariant {
                check: e,
                message: inv.message.clone(),
            }),
            Err(e) => d.expr(rd, &format!("/invariants/{i}/check"), e),
        }
        max_locals = max_locals.max(c.locals());
    }
    let mut evaluations = Vec::new();
    for (name, g) in &raw.agents {
        let ptr = format!("/agents/{}", esc(name));
        if super::raw::BUILT_IN_AGENTS.contains(&name.as_str()) {
            d.key(
                rd,
                &ptr,
                "ruleset::reserved_name",
                format!("`{name}` is a built-in agent"),
                Some("give the evaluation another name".into()),
            );
            continue;
        }
        let eptr = format!("{ptr}/evaluate");
        let mut c = Compiler::new(&cat, &mut symbols, true);
        match c.json_expr(&g.evaluate) {
            Ok((e, t)) if t.is_numeric() || t == Ty::Nothing => {
                evaluations.push((name.clone(), e));
            }
            Ok((_, t)) => d.at(
                rd,
                &eptr,
                "ruleset::expression",
                format!("the evaluation must be a number, this is {}", t.name()),
                None,
            ),
            Err(e) => d.expr(rd, &eptr, e),
        }
        max_locals = max_locals.max(c.locals());
    }

    // The scenario's starting position.
    let Some(board) = board else {
        return Err(d.list);
    };
    let cell_syms: Vec<u32> = (0..board.len() as u32)
        .map(|c| symbols.intern(board.id(c)))
        .collect();
    let n = board.len();
    let mut st = MatchState {
        turn: raw.state.turn.unwrap_or(1),
        owner: vec![NO_OWNER; n],
        occupant: vec![NO_UNIT; n],
        units_created: vec![0; raw.players.len()],
        ..Default::default()
    };
    st.player_vars = vec![0; player_slots * raw.players.len()];
    for p in 0..raw.players.len() {
        for v in &player_vars {
            st.player_vars[p * player_slots + v.slot as usize] = v.initial.encode();
        }
    }
    st.cell_vars = vec![0; cell_slots * n];
    for c in 0..n {
        for v in &cell_vars {
            let width = if v.per_player { raw.players.len() } else { 1 };
            let init = if v.initial_expr.is_some() {
                Value::None
            } else {
                v.initial
            };
            for k in 0..width {
                st.cell_vars[c * cell_slots + v.slot as usize + k] = init.encode();
            }
        }
    }
    let mut scenario_owned = vec![false; n];
    let players = &raw.players;
    let parse_value = |ty: Ty, v: &Json, symbols: &mut Symbols| -> Option<Value> {
        Some(match (ty, v) {
            (_, Json::Null) => Value::None,
            (Ty::Int, Json::Number(n)) => Value::Int(n.as_i64()?),
            (Ty::Float, Json::Number(n)) => Value::Float(n.as_f64()?),
            (Ty::Bool, Json::Bool(b)) => Value::Bool(*b),
            (Ty::Text, Json::String(s)) => Value::Text(symbols.intern(s)),
            (Ty::Cell, Json::String(s)) => Value::Cell(board.find(s)?),
            (Ty::Player, Json::String(s)) => {
                Value::Player(players.iter().position(|p| p == s)? as u8)
            }
            (Ty::Row(t), Json::String(s)) => Value::Row(t, tables[t as usize].row(s)?),
            _ => return None,
        })
    };
    let mut set_cell_fields = |c: usize,
                               fields: &IndexMap<String, Json>,
                               ptr: &str,
                               st: &mut MatchState,
                               d: &mut Diags,
                               symbols: &mut Symbols,
                               skip: &[&str]| {
        for (k, v) in fields {
            if skip.contains(&k.as_str()) {
                continue;
            }
            let fptr = format!("{ptr}/{}", esc(k));
            if k == "owner" {
                scenario_owned[c] = true;
                match v {
                    Json::Null => st.owner[c] = NO_OWNER,
                    Json::String(p) => match players.iter().position(|x| x == p) {
                        Some(i) => st.owner[c] = i as u8,
                        None => d.at(
                            sd,
                            &fptr,
                            "scenario::unknown_player",
                            format!("no player `{p}`"),
                            Some(format!(
                                "players: {} (or null for nobody)",
                                players.join(", ")
                            )),
                        ),
                    },
                    _ => d.at(
                        sd,
                        &fptr,
                        "scenario::unknown_player",
                        "an owner is a player id or null",
                        None,
                    ),
                }
                continue;
            }
            let Some(decl) = cell_vars.iter().find(|x| x.name == *k) else {
                d.key(
                    sd,
                    &fptr,
                    "scenario::unknown_var",
                    format!("cells have no variable `{k}`"),
                    Some(
                        match closest(k, cell_vars.iter().map(|x| x.name.as_str())) {
                            Some(c) => format!("did you mean `{c}`?"),
                            None if player_vars.iter().any(|x| x.name == *k) => {
                                format!("`{k}` is a player variable: set it under `players:`")
                            }
                            None => format!(
                                "cell variables: {}",
                                cell_vars
                                    .iter()
                                    .map(|x| x.name.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        },
                    ),
                );
                continue;
            };
            if decl.per_player {
                let Json::Object(m) = v else {
                    d.at(
                        sd,
                        &fptr,
                        "scenario::bad_value",
                        format!("`{k}` has one value per player: write {{P: n}}"),
                        None,
                    );
                    continue;
                };
                for (p, x) in m {
                    let Some(pi) = players.iter().position(|q| q == p) else {
                        d.key(
                            sd,
                            &format!("{fptr}/{}", esc(p)),
                            "scenario::unknown_player",
                            format!("no player `{p}`"),
                            None,
                        );
                        continue;
                    };
                    match parse_value(decl.ty, x, symbols) {
                        Some(Value::Int(i))
                            if decl.min.is_some_and(|m| i < m)
                                || decl.max.is_some_and(|m| i > m) =>
                        {
                            d.at(
                                sd,
                                &format!("{fptr}/{}", esc(p)),
                                "scenario::bad_value",
                                format!(
                                    "`{k}` must be within {} .. {}",
                                    decl.min.map_or("-inf".into(), |m| m.to_string()),
                                    decl.max.map_or("+inf".into(), |m| m.to_string())
                                ),
                                None,
                            )
                        }
                        Some(val) => {
                            st.cell_vars[c * cell_slots + decl.slot as usize + pi] = val.encode()
                        }
                        None => d.at(
                            sd,
                            &format!("{fptr}/{}", esc(p)),
                            "scenario::bad_value",
                            format!("`{k}` takes {} values", decl.ty.name()),
                            None,
                        ),
                    }
                }
                continue;
            }
            match parse_value(decl.ty, v, symbols) {
                Some(val) => {
                    if let (Some(min), Value::Int(i)) = (decl.min, val) {
                        if i < min {
                            d.at(
                                sd,
                                &fptr,
                                "scenario::bad_value",
                                format!("`{k}` must be at least {min}"),
                                None,
                            );
                        }
                    }
                    st.cell_vars[c * cell_slots + decl.slot as usize] = val.encode();
                }
                None => {
                    let hint = match (decl.ty, v) {
                        (Ty::Row(t), Json::String(s)) => {
                            closest(s, tables[t as usize].keys.iter().map(|x| x.as_str()))
                                .map(|c| format!("did you mean `{c}`?"))
                        }
                        _ => None,
                    };
                    let msg = match (decl.ty, v) {
                        (Ty::Row(t), Json::String(s)) => {
                            format!("`{s}` is not a row of table `{}`", tables[t as usize].name)
                        }
                        _ => format!("`{k}` takes {} values", decl.ty.name()),
                    };
                    d.at(sd, &fptr, "scenario::bad_value", msg, hint);
                }
            }
        }
    };
    for (i, node) in scen.board.nodes.iter().enumerate() {
        let Some(Json::String(id)) = node.get("id") else {
            continue;
        };
        if let Some(c) = board.find(id) {
            set_cell_fields(
                c as usize,
                node,
                &format!("/board/nodes/{i}"),
                &mut st,
                &mut d,
                &mut symbols,
                &["id", "x", "y"],
            );
        }
    }
    for (layer, rows) in &scen.board.layers {
        let lptr = format!("/board/layers/{}", esc(layer));
        if rows.len() as u32 != board.height() {
            d.at(
                sd,
                &lptr,
                "scenario::grid_size",
                format!(
                    "layer `{layer}` has {} rows, the board has {}",
                    rows.len(),
                    board.height()
                ),
                None,
            );
            continue;
        }
        for (r, line) in rows.iter().enumerate() {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            let rptr = format!("{lptr}/{r}");
            if tokens.len() as u32 != board.width() {
                d.at(
                    sd,
                    &rptr,
                    "scenario::grid_size",
                    format!(
                        "row {} of layer `{layer}` has {} entries, the board is {} wide",
                        r + 1,
                        tokens.len(),
                        board.width()
                    ),
                    None,
                );
                continue;
            }
            for (col, tok) in tokens.iter().enumerate() {
                let Some(c) = board.cell_at(r as u32, col as u32) else {
                    continue;
                };
                let mut fields = IndexMap::new();
                let v = if *tok == "." && layer == "owner" {
                    Json::Null
                } else {
                    Json::String(tok.to_string())
                };
                fields.insert(layer.clone(), v);
                set_cell_fields(
                    c as usize,
                    &fields,
                    &rptr,
                    &mut st,
                    &mut d,
                    &mut symbols,
                    &[],
                );
            }
        }
    }
    for (id, fields) in &scen.board.cells {
        let ptr = format!("/board/cells/{}", esc(id));
        match board.find(id) {
            Some(c) => {
                set_cell_fields(c as usize, fields, &ptr, &mut st, &mut d, &mut symbols, &[])
            }
            None => d.key(
                sd,
                &ptr,
                "scenario::unknown_cell",
                format!("no cell `{id}` on this board"),
                None,
            ),
        }
    }
    for (p, vars) in &scen.players {
        let pptr = format!("/players/{}", esc(p));
        let Some(pi) = raw.players.iter().position(|x| x == p) else {
            d.key(
                sd,
                &pptr,
                "scenario::unknown_player",
                format!("no player `{p}`"),
                Some(format!("players: {}", raw.players.join(", "))),
            );
            continue;
        };
        for (k, v) in vars {
            let vptr = format!("{pptr}/{}", esc(k));
            let Some(decl) = player_vars.iter().find(|x| x.name == *k) else {
                d.key(
                    sd,
                    &vptr,
                    "scenario::unknown_var",
                    format!("players have no variable `{k}`"),
                    Some(match closest(k, player_vars.iter().map(|x| x.name.as_str())) {
                        Some(c) => format!("did you mean `{c}`?"),
                        None if cell_vars.iter().any(|x| x.name == *k) => {
                            format!("`{k}` is a cell variable: set it on the cells (nodes, layers or cells)")
                        }
                        None => format!(
                            "player variables: {}",
                            player_vars.iter().map(|x| x.name.as_str()).collect::<Vec<_>>().join(", ")
                        ),
                    }),
                );
                continue;
            };
            match parse_value(decl.ty, v, &mut symbols) {
                Some(Value::Int(i))
                    if decl.min.is_some_and(|m| i < m) || decl.max.is_some_and(|m| i > m) =>
                {
                    d.at(
                        sd,
                        &vptr,
                        "scenario::bad_value",
                        format!(
                            "`{k}` must be within {} .. {}",
                            decl.min.map_or("-inf".into(), |m| m.to_string()),
                            decl.max.map_or("+inf".into(), |m| m.to_string())
                        ),
                        None,
                    )
                }
                Some(val) => st.player_vars[pi * player_slots + decl.slot as usize] = val.encode(),
                None => {
                    let msg = match (decl.ty, v) {
                        (Ty::Cell, Json::String(s)) => {
                            format!("`{k}` names cell `{s}`, which is not on the board")
                        }
                        _ => format!("`{k}` takes {} values", decl.ty.name()),
                    };
                    d.at(sd, &vptr, "scenario::bad_value", msg, None);
                }
            }
        }
    }
    // Units.
    let mut unit_ids = HashSet::new();
    let too_many = scen.units.len() > crate::limits::MAX_UNITS;
    if too_many {
        d.at(
            sd,
            "/units",
            "scenario::too_many_units",
            format!(
                "the scenario places {} units; a match holds at most {}, destroyed ones included",
                scen.units.len(),
                crate::limits::MAX_UNITS
            ),
            Some("place fewer units (docs/limits.md)".into()),
        );
    }
    for (i, u) in scen.units.iter().enumerate().take_while(|_| !too_many) {
        let uptr = format!("/units/{i}");
        let Some(t) = unit_table else {
            d.at(
                sd,
                &uptr,
                "scenario::no_units",
                "this ruleset declares no units",
                None,
            );
            break;
        };
        let table = &tables[t as usize];
        let kind = table.row(&u.kind);
        let owner = raw.players.iter().position(|p| *p == u.owner);
        let at = board.find(&u.at);
        if kind.is_none() {
            d.at(
                sd,
                &format!("{uptr}/type"),
                "scenario::unknown_unit_type",
                format!("no unit type `{}`", u.kind),
                closest(&u.kind, table.keys.iter().map(|s| s.as_str()))
                    .map(|c| format!("did you mean `{c}`?")),
            );
        }
        if owner.is_none() {
            d.at(
                sd,
                &format!("{uptr}/owner"),
                "scenario::unknown_player",
                format!("no player `{}`", u.owner),
                None,
            );
        }
        match at {
            None => d.at(
                sd,
                &format!("{uptr}/at"),
                "scenario::off_board",
                format!("cell `{}` is not on the board", u.at),
                Some(if board.width() > 0 {
                    format!(
                        "the board has {} cells, from {} to {}",
                        board.len(),
                        board.id(0),
                        board.id(board.len() as u32 - 1)
                    )
                } else {
                    "use one of the node ids of `board.nodes`".into()
                }),
            ),
            Some(c) if st.occupant[c as usize] != NO_UNIT => {
                let other = st.units[st.occupant[c as usize] as usize].id.clone();
                d.at(
                    sd,
                    &format!("{uptr}/at"),
                    "scenario::occupied",
                    format!("cell `{}` already holds unit `{other}`", u.at),
                    Some("one unit per cell".into()),
                );
            }
            _ => {}
        }
        if !unit_ids.insert(u.id.clone()) {
            d.at(
                sd,
                &format!("{uptr}/id"),
                "scenario::duplicate_id",
                format!("unit id `{}` is used twice", u.id),
                None,
            );
        }
        if let (Some(kind), Some(owner), Some(at)) = (kind, owner, at) {
            if st.occupant[at as usize] != NO_UNIT {
                continue;
            }
            let idx = st.units.len() as u32;
            st.units.push(crate::model::state::UnitState {
                id: Arc::from(u.id.as_str()),
                kind,
                owner: owner as u8,
                at,
                alive: true,
            });
            st.units_created[owner] += 1;
            for v in &unit_vars {
                st.unit_vars.push(v.initial.encode());
            }
            for (k, v) in &u.vars {
                match unit_vars.iter().find(|x| x.name == *k) {
                    Some(decl) => match parse_value(decl.ty, v, &mut symbols) {
                        Some(val) => {
                            let i = idx as usize * unit_slots + decl.slot as usize;
                            st.unit_vars[i] = val.encode();
                        }
                        None => d.at(
                            sd,
                            &format!("{uptr}/vars/{}", esc(k)),
                            "scenario::bad_value",
                            format!("`{k}` takes {} values", decl.ty.name()),
                            None,
                        ),
                    },
                    None => d.key(
                        sd,
                        &format!("{uptr}/vars/{}", esc(k)),
                        "scenario::unknown_var",
                        format!("units have no variable `{k}`"),
                        None,
                    ),
                }
            }
            st.occupant[at as usize] = idx;
        }
    }

    let (display, problems) = super::display::resolve(
        raw.display.as_ref(),
        &super::display::Inputs {
            doc: rd,
            board_raw: &raw.board,
            board: &board,
            nodes: &scen.board.nodes,
            players: &raw.players,
            cell_vars: &cell_vars,
            tables: &tables,
            unit_table,
        },
    );
    d.list.extend(problems);
    if !d.list.is_empty() {
        return Err(d.list);
    }
    let mut digest_input = src.ruleset.source.text.clone();
    for s in &src.scripts {
        digest_input.push('\0');
        digest_input.push_str(&s.source.text);
    }
    let digest = {
        use sha2::{Digest, Sha256};
        let h = Sha256::digest(digest_input.as_bytes());
        let hex: String = h.iter().map(|b| format!("{b:02x}")).collect();
        format!("sha256:{hex}")
    };
    Ok(Game {
        id: raw.id.clone(),
        version: raw.version.clone(),
        digest,
        scenario: scen.id.clone(),
        players: raw.players.clone(),
        player_syms,
        settings,
        // Filled in by the loader, which has the values.
        rule_overrides: Vec::new(),
        rng,
        board,
        cell_syms,
        sight,
        initial_owner,
        scenario_owned,
        symbols,
        tables,
        player_vars,
        cell_vars,
        unit_vars,
        player_slots,
        cell_slots,
        unit_slots,
        unit_table,
        unit_ids: raw
            .units
            .as_ref()
            .map_or_else(|| "{owner}-{n}".into(), |u| u.ids.clone()),
        wire_key: raw.wire.discriminator.clone(),
        wire_aliases,
        wire_ignore: raw.wire.ignore.clone(),
        actions,
        phases,
        victory,
        invariants,
        evaluations,
        display,
        when_stuck: raw.when_stuck,
        scripts,
        script_fns,
        initial: st,
        max_locals: max_locals.max(SIGHT_SLOT as usize + 16),
    })
}

/// Attaches to each parameter the later bounds and action checks that depend only on parameters up to it.
fn hoist(params: &mut [ParamSpec], checks: &[Check]) {
    // `p.owner == x` among a unit or cell parameter's checks, x not depending on p: a native pre-filter.
    for p in params.iter_mut() {
        if p.source.is_some() || !matches!(p.ty, Ty::Unit | Ty::Cell) {
            continue;
        }
        for c in &p.checks {
            let Expr::Bin(super::ir::BinOp::Eq, a, b) = &c.cond else {
                continue;
            };
            for (side, other) in [(a, b), (b, a)] {
                let owner_of_p = matches!(&**side, Expr::UnitOwner(x) | Expr::CellOwner(x) if matches!(**x, Expr::Local(s) if s == p.slot));
                let mut used = Vec::new();
                if owner_of_p
                    && other.reads(&mut used)
                    && !used.contains(&p.slot)
                    && p.owner_filter.is_none()
                {
                    p.owner_filter = Some((**other).clone());
                }
            }
        }
    }
    let slots: Vec<u16> = params.iter().map(|p| p.slot).collect();
    // The index of the last parameter an expression reads, if it is pure and reads only parameters.
    let depth = |e: &Expr| -> Option<usize> {
        let mut used = Vec::new();
        if !e.reads(&mut used) {
            return None;
        }
        let mut last = 0;
        for s in used {
            last = last.max(slots.iter().position(|x| *x == s)?);
        }
        Some(last)
    };
    let mut found: Vec<(usize, Prune)> = Vec::new();
    for (j, p) in params.iter().enumerate() {
        if let (Some((lo, _)), Some((hi, _))) = (&p.min, &p.max) {
            if let (Some(a), Some(b)) = (depth(lo), depth(hi)) {
                let i = a.max(b);
                if i < j {
                    found.push((i, Prune::Range(lo.clone(), hi.clone())));
                }
            }
        }
    }
    for c in checks {
        if let Some(i) = depth(&c.cond) {
            if i + 1 < params.len() {
                found.push((i, Prune::Cond(c.cond.clone())));
            }
        }
    }
    for (i, pr) in found {
        params[i].prune.push(pr);
    }
}

fn line_col_offset(text: &str, line: usize, col: usize) -> usize {
    let mut off = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let mut chars = l.char_indices();
            let byte = chars.nth(col.saturating_sub(1)).map_or(l.len(), |(b, _)| b);
            return off + byte;
        }
        off += l.len();
    }
    text.len()
}

fn build_board(
    rb: &RawBoard,
    scen: &RawScenario,
    rd: &YamlDoc,
    sd: &YamlDoc,
    d: &mut Diags,
) -> Option<Board> {
    let ids = |d: &mut Diags| -> Option<IdScheme> {
        let Some(i) = &rb.ids else {
            d.at(
                rd,
                "/board",
                "ruleset::bad_board",
                "grid boards need `ids: {first, rows, cols}`",
                Some("for example ids: {first: row, rows: letters, cols: numbers}".into()),
            );
            return None;
        };
        let label = |s: &str, key: &str, d: &mut Diags| match s {
            "letters" => Some(Label::Letters),
            "numbers" => Some(Label::Numbers),
            _ => {
                d.at(
                    rd,
                    &format!("/board/ids/{key}"),
                    "ruleset::bad_board",
                    "labels are `letters` or `numbers`",
                    None,
                );
                None
            }
        };
        let first = match i.first.as_str() {
            "row" => Axis::Row,
            "col" => Axis::Col,
            _ => {
                d.at(
                    rd,
                    "/board/ids/first",
                    "ruleset::bad_board",
                    "`first` is `row` or `col`",
                    None,
                );
                return None;
            }
        };
        Some(IdScheme {
            first,
            rows: label(&i.rows, "rows", d)?,
            cols: label(&i.cols, "cols", d)?,
        })
    };
    let sb = &scen.board;
    let grid_size = |d: &mut Diags| -> Option<(u32, u32)> {
        match (sb.width, sb.height) {
            (Some(w), Some(h)) if w >= 1 && h >= 1 => Some((w, h)),
            _ => {
                d.at(
                    sd,
                    "/board",
                    "scenario::grid_size",
                    "a grid scenario needs `width` and `height` of at least 1",
                    None,
                );
                None
            }
        }
    };
    let result = match rb.topology.as_str() {
        "graph" => {
            let mut idx: HashMap<String, usize> = HashMap::new();
            let mut names = Vec::new();
            for (i, n) in sb.nodes.iter().enumerate() {
                match n.get("id") {
                    Some(Json::String(id)) => {
                        if let Some(first) = idx.get(id) {
                            d.at(
                                sd,
                                &format!("/board/nodes/{i}/id"),
                                "scenario::duplicate_id",
                                format!("node id `{id}` is used twice"),
                                Some(format!("first used by node {first}")),
                            );
                            continue;
                        }
                        idx.insert(id.clone(), names.len());
                        names.push(id.clone());
                    }
                    _ => d.at(
                        sd,
                        &format!("/board/nodes/{i}"),
                        "scenario::missing_id",
                        "every node needs an `id`",
                        None,
                    ),
                }
            }
            let mut edges = Vec::new();
            for (i, e) in sb.edges.iter().enumerate() {
                if e.len() != 2 {
                    d.at(
                        sd,
                        &format!("/board/edges/{i}"),
                        "scenario::bad_edge",
                        "an edge is a pair of node ids: [a, b]",
                        None,
                    );
                    continue;
                }
                let mut ends = Vec::new();
                for (j, n) in e.iter().enumerate() {
                    match idx.get(n) {
                        Some(k) => ends.push(*k as u32),
                        None => d.at(
                            sd,
                            &format!("/board/edges/{i}/{j}"),
                            "scenario::unknown_node",
                            format!("edge names unknown node `{n}`"),
                            closest(n, names.iter().map(|s| s.as_str()))
                                .map(|c| format!("did you mean `{c}`?")),
                        ),
                    }
                }
                if ends.len() == 2 {
                    if ends[0] == ends[1] {
                        d.at(
                            sd,
                            &format!("/board/edges/{i}"),
                            "scenario::bad_edge",
                            format!("edge joins `{}` to itself", e[0]),
                            None,
                        );
                    } else {
                        edges.push((ends[0], ends[1]));
                    }
                }
            }
            if names.is_empty() {
                d.at(
                    sd,
                    "/board",
                    "scenario::no_cells",
                    "a graph scenario needs at least one node under `nodes`",
                    None,
                );
                return None;
            }
            Board::graph(names, &edges)
        }
        "hex" => {
            let layout = match rb.layout.as_deref() {
                None | Some("odd_r") => HexLayout::OddR,
                Some("even_r") => HexLayout::EvenR,
                Some(o) => {
                    d.at(
                        rd,
                        "/board/layout",
                        "ruleset::bad_board",
                        format!("unknown hex layout `{o}`"),
                        Some("use odd_r or even_r".into()),
                    );
                    HexLayout::OddR
                }
            };
            let (ids, size) = (ids(d), grid_size(d));
            let (ids, (w, h)) = (ids?, size?);
            Board::hex(w, h, layout, ids)
        }
        "square" => {
            let (ids, size) = (ids(d), grid_size(d));
            let (ids, (w, h)) = (ids?, size?);
            Board::square(w, h, rb.diagonal, ids)
        }
        o => {
            d.at(
                rd,
                "/board/topology",
                "ruleset::bad_board",
                format!("unknown topology `{o}`"),
                Some("use graph, hex or square".into()),
            );
            return None;
        }
    };
    match result {
        Ok(b) => {
            if rb.require_connected && !b.is_connected() {
                let comps = b.components();
                let names: Vec<String> = comps
                    .iter()
                    .skip(1)
                    .flat_map(|c| c.iter().map(|x| b.id(*x).to_string()))
                    .take(8)
                    .collect();
                d.at(
                    sd,
                    "/board",
                    "scenario::disconnected",
                    format!(
                        "the map is not connected: {} cannot be reached from {}",
                        names.join(", "),
                        b.id(comps[0][0])
                    ),
                    Some("add edges joining every part of the map".into()),
                );
            }
            Some(b)
        }
        Err(e @ BoardError::TooManyCells { .. }) => {
            d.at(
                sd,
                "/board",
                "scenario::too_many_cells",
                e.to_string(),
                Some("make the board smaller (docs/limits.md lists the limits)".into()),
            );
            None
        }
        Err(e) => {
            d.at(sd, "/board", "scenario::bad_board", e.to_string(), None);
            None
        }
    }
}

/// Compiles the resolution steps of a simultaneous phase.
fn resolve_steps(
    list: &[Json],
    base: &str,
    c: &mut Compiler,
    cell_vars: &[VarDecl],
    rd: &YamlDoc,
    d: &mut Diags,
) -> (Vec<ResolveStep>, Option<FlowVars>) {
    let mut steps = Vec::new();
    let mut fv = None;
    for (i, item) in list.iter().enumerate() {
        let ptr = format!("{base}/resolve/{i}");
        let Json::Object(m) = item else {
            d.at(
                rd,
                &ptr,
                "ruleset::resolve",
                "a resolution step is a mapping such as `{step: depart}`",
                None,
            );
            continue;
        };
        let Some(Json::String(step)) = m.get("step") else {
            d.at(
                rd,
                &ptr,
                "ruleset::resolve",
                "a resolution step needs `step: <name>`",
                None,
            );
            continue;
        };
        let num = |key: &str, d: &mut Diags, c: &mut Compiler| -> Option<Value> {
            let v = m.get(key)?;
            match c.json_const(v) {
                Ok(v) => Some(v),
                Err(e) => {
                    d.expr(rd, &format!("{ptr}/{key}"), e);
                    None
                }
            }
        };
        let text = |key: &str, d: &mut Diags| match m.get(key).and_then(|v| v.as_str()) {
            Some(t) => t.to_string(),
            None => {
                d.at(
                    rd,
                    &ptr,
                    "ruleset::resolve",
                    format!("step `{step}` needs `{key}: <event type>`"),
                    None,
                );
                String::new()
            }
        };
        let prob = |v: Option<Value>, key: &str, d: &mut Diags, positive: bool| -> f64 {
            match v.and_then(|v| v.as_f64()) {
                Some(p) if (0.0..=1.0).contains(&p) && (!positive || p > 0.0) => p,
                _ => {
                    let range = if positive {
                        "more than 0 and at most 1"
                    } else {
                        "between 0 and 1"
                    };
                    d.at(
                        rd,
                        &format!("{ptr}/{key}"),
                        "ruleset::resolve",
                        format!("`{key}` must be a probability {range}"),
                        Some("a zero chance here would let a procedure never end".into())
                            .filter(|_| positive),
                    );
                    0.5
                }
            }
        };
        if step == "flows" {
            let var = |key: &str, d: &mut Diags| -> Option<(u16, String)> {
                let name = m.get(key).and_then(|v| v.as_str());
                match name.and_then(|n| cell_vars.iter().find(|v| v.name == n)) {
                    Some(v) => Some((v.slot, v.name.clone())),
                    None => {
                        d.at(
                            rd,
                            &format!("{ptr}/{key}"),
                            "ruleset::resolve",
                            format!("`{key}` must name a cell variable"),
                            None,
                        );
                        None
                    }
                }
            };
            let (count, outgoing, incoming) =
                (var("count", d), var("outgoing", d), var("incoming", d));
            if let (Some(count), Some(outgoing), Some(incoming)) = (count, outgoing, incoming) {
                fv = Some(FlowVars {
                    count: count.0,
                    count_name: count.1,
                    outgoing: outgoing.0,
                    incoming: incoming.0,
                });
            }
            continue;
        }
        let s = match step.as_str() {
            "depart" => ResolveStep::Depart,
            "arrive_friendly" => ResolveStep::ArriveFriendly,
            "arrive_neutral" => {
                let chance = prob(num("chance", d, c), "chance", d, false);
                let hit = prob(num("contest_hit", d, c), "contest_hit", d, true);
                ResolveStep::ArriveNeutral {
                    chance,
                    hit,
                    event: text("event", d),
                    contest_event: text("contest_event", d),
                }
            }
            "arrive_hostile" => {
                let hit = prob(num("hit", d, c), "hit", d, true);
                let first = m
                    .get("first")
                    .and_then(|v| v.as_str())
                    .unwrap_or("defender");
                if first != "defender" && first != "attacker" {
                    d.at(
                        rd,
                        &format!("{ptr}/first"),
                        "ruleset::resolve",
                        "`first` is `defender` or `attacker`",
                        None,
                    );
                }
                ResolveStep::ArriveHostile {
                    hit,
                    defender_first: first == "defender",
                    event: text("event", d),
                }
            }
            "cap" => ResolveStep::Cap {
                max: num("max", d, c)
                    .and_then(|v| v.as_int())
                    .unwrap_or(i64::MAX),
            },
            "grow" => ResolveStep::Grow {
                amount: num("amount", d, c).and_then(|v| v.as_int()).unwrap_or(1),
                max: num("max", d, c)
                    .and_then(|v| v.as_int())
                    .unwrap_or(i64::MAX),
                event: text("event", d),
            },
            "effects" => {
                let list = m
                    .get("do")
                    .and_then(|v| v.as_array())
                    .cloned()
                    .unwrap_or_default();
                let mut errs = Vec::new();
                let stmts = c.effects(&list, &format!("{ptr}/do"), &mut errs);
                d.effects(rd, errs);
                ResolveStep::Effects(stmts)
            }
            o => {
                d.at(rd, &format!("{ptr}/step"), "ruleset::resolve", format!("unknown resolution step `{o}`"), Some("steps: flows, depart, arrive_friendly, arrive_neutral, arrive_hostile, cap, grow, effects".into()));
                continue;
            }
        };
        steps.push(s);
    }
    let needs_vars = steps.iter().any(|s| !matches!(s, ResolveStep::Effects(_)));
    if needs_vars && fv.is_none() {
        d.at(rd, &format!("{base}/resolve"), "ruleset::resolve", "built-in steps need a `{step: flows, count, outgoing, incoming}` entry naming the cell variables they use", None);
    }
    (steps, fv)
}
