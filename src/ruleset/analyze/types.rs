//! Types as declared (`type:`, with `table:` for rows) for variables and parameters, and the types of
//! YAML scalars (settings, table values).
use serde_json::Value as Json;

use super::diags::Diags;
use crate::ir::game::Table;
use crate::model::Ty;
use crate::ruleset::compile::closest;
use crate::ruleset::yaml::YamlDoc;

/// A declared type that cannot be used: the message, the key at fault (`type` or `table`), and a hint.
pub(super) struct BadType {
    message: String,
    key: &'static str,
    hint: Option<String>,
}

impl BadType {
    pub(super) fn report(self, d: &mut Diags, doc: &YamlDoc, decl: &str) {
        let ptr = format!("{decl}/{}", self.key);
        d.at(doc, &ptr, "ruleset::bad_type", self.message, self.hint);
    }
}

pub(super) fn parse_ty(raw: &str, table: Option<&str>, tables: &[Table]) -> Result<Ty, BadType> {
    match (raw, table) {
        ("row", Some(t)) if !tables.iter().any(|x| x.name == t) => {
            return Err(BadType {
                message: format!("no table `{t}`"),
                key: "table",
                hint: Some(match closest(t, tables.iter().map(|x| x.name.as_str())) {
                    Some(c) => format!("did you mean `{c}`?"),
                    None if tables.is_empty() => "declare it under `tables:`".into(),
                    None => format!(
                        "tables: {}",
                        tables
                            .iter()
                            .map(|x| x.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }),
            })
        }
        _ => {}
    }
    parse_ty_name(raw, table, tables).map_err(|message| BadType {
        message,
        key: "type",
        hint: Some(
            "types: int, float, bool, text, cell, unit, player, or row (with `table:`)".into(),
        ),
    })
}

fn parse_ty_name(raw: &str, table: Option<&str>, tables: &[Table]) -> Result<Ty, String> {
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

pub(super) fn json_scalar_ty(v: &Json) -> Option<Ty> {
    match v {
        Json::Bool(_) => Some(Ty::Bool),
        Json::Number(n) if n.is_i64() || n.is_u64() => Some(Ty::Int),
        Json::Number(_) => Some(Ty::Float),
        Json::String(_) => Some(Ty::Text),
        Json::Null => None,
        _ => None,
    }
}
