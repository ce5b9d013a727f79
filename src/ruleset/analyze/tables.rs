//! Tables of plain data: columns typed from their values (defaults, then rows), cells in row order; and
//! the table that `units` names as the unit types.
use serde_json::Value as Json;

use super::diags::Diags;
use super::types::json_scalar_ty;
use super::Cx;
use crate::ir::game::Table;
use crate::model::{Ty, Value};
use crate::ruleset::compile::closest;
use crate::ruleset::raw::RawRuleset;
use crate::ruleset::yaml::{pointer_escape as esc, YamlDoc};

/// The tables, in declaration order.
pub(super) fn build(cx: &mut Cx, raw: &RawRuleset) -> Vec<Table> {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
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
            add_col(c, v, d, &format!("{base}/defaults/{}", esc(c)), rd);
        }
        for (r, row) in &t.rows {
            for (c, v) in row {
                add_col(c, v, d, &format!("{base}/rows/{}/{}", esc(r), esc(c)), rd);
            }
        }
        let keys: Vec<String> = t.rows.keys().cloned().collect();
        let key_syms = keys.iter().map(|k| symbols.intern(k)).collect();
        let mut cells = Vec::new();
        for row in t.rows.values() {
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
        }
        tables.push(Table {
            name: name.clone(),
            keys,
            key_syms,
            columns,
            cells,
        });
    }
    tables
}

/// The table of unit types, if the ruleset declares units.
pub(super) fn unit_table(cx: &mut Cx, raw: &RawRuleset, tables: &[Table]) -> Option<u16> {
    let (rd, d) = (cx.rd, &mut cx.d);
    match &raw.units {
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
    }
}
