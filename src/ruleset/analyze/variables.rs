//! State variables of players, cells and units: types, slots (a per-player cell variable takes one per
//! player), constant starting values (`initial.rs`), bounds and reserved names; and the starting values of
//! cell variables written as expressions of the cell, compiled once the board is known.
use indexmap::IndexMap;
use serde_json::Value as Json;

use super::initial::{self, Refused};
use super::types::parse_ty;
use super::Cx;
use crate::ir::game::{Table, VarDecl};
use crate::ir::{Builtin, Expr};
use crate::model::{Ty, Value};
use crate::ruleset::compile::{Catalog, Compiler};
use crate::ruleset::raw::RawRuleset;
use crate::ruleset::yaml::pointer_escape as esc;

/// The variables of each scope, with the slots they take.
pub(super) struct Vars {
    pub(super) player: Vec<VarDecl>,
    pub(super) cell: Vec<VarDecl>,
    pub(super) unit: Vec<VarDecl>,
    /// Variables of the whole game, in the player slots after the player variables (of player 0).
    pub(super) game: Vec<VarDecl>,
    /// Player variables whose `initial` is a mapping from player to value: the declaration, the pointer
    /// of the mapping and the values as written (checked and written like a scenario's `players:`).
    pub(super) per_player_initial: Vec<PerPlayerInitial>,
    pub(super) player_slots: usize,
    pub(super) cell_slots: usize,
    pub(super) unit_slots: usize,
    /// Variables whose declaration failed (and was reported): their uses are not mistakes of their own.
    pub(super) failed: Vec<String>,
}

/// A player variable starting from a value per player: its declaration, the pointer of the mapping and the
/// values as written.
pub(super) type PerPlayerInitial = (VarDecl, String, IndexMap<String, Json>);

/// Declares the variables of players, cells and units, in that order.
pub(super) fn declare(
    cx: &mut Cx,
    raw: &RawRuleset,
    settings: &IndexMap<String, Json>,
    tables: &[Table],
) -> Vars {
    let mut failed = Vec::new();
    let mut per_player_initial = Vec::new();
    let mut ppi = Some(&mut per_player_initial);
    let (player_vars, own_slots) = decls(
        cx,
        "player",
        raw,
        settings,
        tables,
        &mut failed,
        0,
        ppi.take(),
    );
    // Game variables live in the slots after the player variables (the first player's are read).
    let (game_vars, player_slots) = decls(
        cx,
        "game",
        raw,
        settings,
        tables,
        &mut failed,
        own_slots,
        None,
    );
    let (cell_vars, cell_slots) = decls(cx, "cell", raw, settings, tables, &mut failed, 0, None);
    let (unit_vars, unit_slots) = decls(cx, "unit", raw, settings, tables, &mut failed, 0, None);
    let (rd, d) = (cx.rd, &mut cx.d);
    for (scope, decls) in [
        ("player", &player_vars),
        ("game", &game_vars),
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
    Vars {
        player: player_vars,
        cell: cell_vars,
        unit: unit_vars,
        game: game_vars,
        per_player_initial,
        player_slots,
        cell_slots,
        unit_slots,
        failed,
    }
}

/// The variables of one scope (`player`, `game`, `cell` or `unit`), from slot `first`, and the slot after
/// the last they take. Player variables whose `initial` maps players to values go to `per_player`.
#[allow(clippy::too_many_arguments)] // one scope's declarations and where its findings go
fn decls(
    cx: &mut Cx,
    scope: &str,
    raw: &RawRuleset,
    settings: &IndexMap<String, Json>,
    tables: &[Table],
    failed_vars: &mut Vec<String>,
    first: usize,
    mut per_player: Option<&mut Vec<PerPlayerInitial>>,
) -> (Vec<VarDecl>, usize) {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    let raw_vars = match scope {
        "player" => &raw.state.player,
        "game" => &raw.state.game,
        "cell" => &raw.state.cell,
        _ => &raw.state.unit,
    };
    let mut out = Vec::new();
    let mut slot = first;
    let mut mapped = Vec::new();
    for (name, v) in raw_vars {
        let ptr = format!("/state/{scope}/{}", esc(name));
        let ty = match parse_ty(&v.ty, v.table.as_deref(), tables) {
            Ok(t) => t,
            Err(bad) => {
                bad.report(d, rd, &ptr);
                failed_vars.push(name.clone());
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
            // One value per player, checked and written with the starting position.
            (Some(Json::Object(m)), _) if per_player.is_some() => {
                if v.scratch {
                    d.at(
                        rd,
                        &format!("{ptr}/initial"),
                        "ruleset::bad_type",
                        "a scratch variable is reset to one value for every player",
                        Some("give one `initial` value, or drop `scratch`".into()),
                    );
                }
                mapped.push((out.len(), format!("{ptr}/initial"), m.clone()));
                Value::None
            }
            (Some(Json::Object(_)), _) => {
                d.at(
                    rd,
                    &format!("{ptr}/initial"),
                    "ruleset::bad_type",
                    format!("only player variables start from a value per player; a {scope} variable has one `initial`"),
                    Some("give one value, or an expression as text".into()),
                );
                Value::None
            }
            (None, Ty::Int) => Value::Int(0),
            (None, Ty::Bool) => Value::Bool(false),
            (None, Ty::Float) => Value::Float(0.0),
            (None, _) => Value::None,
            (Some(Json::Number(n)), Ty::Int) if n.is_i64() => Value::Int(n.as_i64().unwrap_or(0)),
            (Some(Json::Number(n)), Ty::Float) => Value::Float(n.as_f64().unwrap_or(0.0)),
            (Some(Json::Bool(b)), Ty::Bool) => Value::Bool(*b),
            (Some(Json::Null), _) => Value::None,
            (Some(Json::String(s)), Ty::Text) => Value::Text(symbols.intern(s)),
            (Some(Json::String(s)), Ty::Row(t)) if tables[t as usize].row(s).is_some() => {
                Value::Row(t, tables[t as usize].row(s).unwrap_or(0))
            }
            // A per-cell expression, compiled once the board is known.
            (Some(Json::String(_)), _) if scope == "cell" => Value::None,
            (Some(Json::String(s)), _) => {
                let players = &raw.players;
                match initial::constant(s, ty, scope, players, settings, tables, symbols) {
                    Ok(v) => v,
                    Err(Refused::Expression(e)) => {
                        d.expr(rd, &format!("{ptr}/initial"), e);
                        Value::None
                    }
                    Err(Refused::Type { message, hint }) => {
                        let at = format!("{ptr}/initial");
                        d.at(rd, &at, "ruleset::bad_type", message, Some(hint));
                        Value::None
                    }
                }
            }
            (Some(_), _) => {
                d.at(
                    rd,
                    &format!("{ptr}/initial"),
                    "ruleset::bad_type",
                    format!("initial value does not fit type {}", ty.name()),
                    Some(format!(
                        "give {} value, or an expression as text",
                        initial::with_article(ty)
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
                    format!(
                        "initial value {i} is outside the variable's own bounds ({bound} {edge})"
                    ),
                    Some(format!(
                        "start at a value the variable may hold, or change its `{bound}`"
                    )),
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
            owner_only: v.visible.as_deref() == Some("owner"),
            constant: v.constant,
        });
        slot += if v.per_player { raw.players.len() } else { 1 };
    }
    if let Some(list) = per_player.as_mut() {
        for (i, ptr, m) in mapped {
            list.push((out[i].clone(), ptr, m.into_iter().collect()));
        }
    }
    (out, slot)
}

/// The starting values of cell variables written as expressions of the cell (`it`), by index among the
/// cell variables.
pub(super) fn cell_initials(cx: &mut Cx, cat: &Catalog, raw: &RawRuleset) -> Vec<(usize, Expr)> {
    let (rd, d, symbols) = (cx.rd, &mut cx.d, &mut cx.symbols);
    let (tables, cell_vars) = (cat.tables, cat.cell_vars);
    let mut exprs = Vec::new();
    for (i, v) in raw.state.cell.iter().enumerate() {
        if let Some(Json::String(s)) = &v.1.initial {
            let decl = &cell_vars.iter().find(|x| x.name == *v.0);
            let Some(decl) = decl else { continue };
            let literal_row = matches!(decl.ty, Ty::Row(t) if tables[t as usize].row(s).is_some());
            if decl.ty == Ty::Text || literal_row {
                continue;
            }
            let mut c = Compiler::new(cat, symbols, false);
            c.push_elem(Ty::Cell);
            let ptr = format!("/state/cell/{}/initial", esc(v.0));
            match c.text_expr(s) {
                Ok((e, t)) if t == decl.ty || t == Ty::Nothing => exprs.push((i, e)),
                Ok((e, Ty::Int)) if decl.ty == Ty::Float => {
                    exprs.push((i, Expr::Call(Builtin::Float, vec![e])))
                }
                Ok((_, t)) => d.at(
                    rd,
                    &ptr,
                    "ruleset::bad_type",
                    format!(
                        "this initial expression gives {}, the variable is {}",
                        t.name(),
                        decl.ty.name()
                    ),
                    Some(format!(
                        "give {} expression",
                        initial::with_article(decl.ty)
                    )),
                ),
                Err(e) => d.expr(rd, &ptr, e),
            }
        }
    }
    exprs
}
