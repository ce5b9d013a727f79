//! Starting values of player and unit variables: a literal of the variable's type, or a constant
//! expression (literals, settings, player ids) folded at analysis. Cell variables may also start from a
//! per-cell expression, compiled in `analyze`; this module only decides what fits.
use indexmap::IndexMap;
use serde_json::Value as Json;

use crate::ir::game::{Symbols, Table};
use crate::model::{Ty, Value};
use crate::ruleset::compile::{closest, fold, Catalog, Compiler, ExprError};

/// Why an `initial` was refused: an expression problem (at a position of the text) or a type problem.
pub enum Refused {
    Expression(ExprError),
    Type { message: String, hint: String },
}

/// `value` as a value of type `ty`, if it is one (an int is a float; a row key is a row).
pub fn fit(value: Value, ty: Ty, tables: &[Table], symbols: &Symbols) -> Option<Value> {
    Some(match (value, ty) {
        (Value::None, _) => Value::None,
        (Value::Int(i), Ty::Int) => Value::Int(i),
        (Value::Int(i), Ty::Float) => Value::Float(i as f64),
        (Value::Float(f), Ty::Float) => Value::Float(f),
        (Value::Bool(b), Ty::Bool) => Value::Bool(b),
        (Value::Text(t), Ty::Text) => Value::Text(t),
        (Value::Text(t), Ty::Row(table)) => {
            let row = tables[table as usize].row(symbols.name(t))?;
            Value::Row(table, row)
        }
        (Value::Player(p), Ty::Player) => Value::Player(p),
        (Value::Row(a, r), Ty::Row(b)) if a == b => Value::Row(a, r),
        _ => return None,
    })
}

/// The value of a player or unit variable's `initial` written as text (not a plain literal of its type):
/// a constant expression folded now. `scope` is `player` or `unit`.
pub fn constant(
    text: &str,
    ty: Ty,
    scope: &str,
    players: &[String],
    settings: &IndexMap<String, Json>,
    tables: &[Table],
    symbols: &mut Symbols,
) -> Result<Value, Refused> {
    let where_set = if scope == "player" {
        "per player in the scenario's `players:` section, or with a mapping `initial: {P1: ..., P2: ...}`"
    } else if scope == "game" {
        "with an effect when the game starts (`on_turn_start` of the first phase)"
    } else {
        "per unit in the scenario's `units:` entries (`vars:`) or with `create_unit ... vars`"
    };
    if matches!(ty, Ty::Cell | Ty::Unit) {
        return Err(Refused::Type {
            message: format!(
                "a {scope} variable of type {} cannot start at a fixed {} (`initial` applies to every {scope})",
                ty.name(),
                ty.name()
            ),
            hint: format!("leave out `initial` (it starts as none) and set it {where_set}"),
        });
    }
    let cat = Catalog {
        players,
        settings,
        tables,
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
    if let Ty::Row(t) = ty {
        let table = &tables[t as usize];
        let word = !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if word && !settings.contains_key(text) {
            return Err(Refused::Type {
                message: format!("table `{}` has no row '{text}'", table.name),
                hint: match closest(text, table.keys.iter().map(String::as_str)) {
                    Some(k) => format!("did you mean `{k}`?"),
                    None => format!("rows: {}", table.keys.join(", ")),
                },
            });
        }
    }
    let mut c = Compiler::new(&cat, symbols, false);
    let folded = match c.text_expr(text) {
        Ok((e, _)) => fold(&e),
        Err(e) => return Err(Refused::Expression(e)),
    };
    let Some(value) = folded else {
        return Err(Refused::Type {
            message: format!(
                "a {scope} variable's `initial` must be a constant: literals, settings and player ids"
            ),
            hint: format!("set values that depend on the position {where_set}; only cell variables start from per-cell expressions"),
        });
    };
    fit(value, ty, tables, symbols).ok_or_else(|| Refused::Type {
        message: format!(
            "initial value {} does not fit type {}",
            describe(value, symbols),
            ty.name()
        ),
        hint: format!("give {} value", with_article(ty)),
    })
}

fn describe(v: Value, symbols: &Symbols) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Text(t) => format!("'{}'", symbols.name(t)),
        Value::Player(_) => "(a player)".into(),
        _ => "(a value of another type)".into(),
    }
}

/// "an int", "a cell": the type's name with its article, for messages.
pub fn with_article(ty: Ty) -> String {
    let name = ty.name();
    let vowel = name.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {name}", if vowel { "an" } else { "a" })
}
