//! The host API: the functions scripts call to read and change the match. A call's context is reachable
//! through a thread-local pointer set only for the duration of that call.
use std::cell::Cell;

use rhai::{Dynamic, Engine, EvalAltResult, ImmutableString, Map};
use serde_json::Value as Json;

use crate::ir::game::Game;
use crate::model::state::{NO_OWNER, NO_UNIT};
use crate::model::{MatchState, PlayerIdx, Ty, Value};
use crate::rng::Rng;

/// Host functions whose second argument names a variable or column; their literals are checked at analysis.
pub const NAMED_ACCESSORS: &[&str] = &[
    "stat",
    "cell_var",
    "cell_var_of",
    "set_cell_var",
    "set_cell_var_of",
    "unit_var",
    "set_unit_var",
    "player_var",
    "set_player_var",
];

#[derive(Clone, Copy)]
struct Ctx {
    game: *const Game,
    queries: *const (dyn super::Queries + 'static),
    st: *mut MatchState,
    rng: *mut Rng,
    log: *mut Option<Vec<Json>>,
    me: PlayerIdx,
}

thread_local! {
    static CTX: Cell<Option<Ctx>> = const { Cell::new(None) };
}

/// Clears the context when the call ends, even on error.
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        CTX.with(|c| c.set(None));
    }
}

pub fn enter(
    game: &Game,
    st: &mut MatchState,
    rng: &mut Rng,
    log: &mut Option<Vec<Json>>,
    me: PlayerIdx,
    queries: &dyn super::Queries,
) -> Guard {
    // SAFETY: only the lifetime is erased; the pointer is cleared (Guard) before the borrow ends.
    let queries: *const (dyn super::Queries + 'static) = unsafe {
        std::mem::transmute::<*const (dyn super::Queries + '_), *const (dyn super::Queries + 'static)>(
            queries,
        )
    };
    CTX.with(|c| {
        c.set(Some(Ctx {
            game,
            queries,
            st,
            rng,
            log,
            me,
        }))
    });
    Guard
}

type Res<T> = Result<T, Box<EvalAltResult>>;

fn fail<T>(msg: impl Into<String>) -> Res<T> {
    Err(msg.into().into())
}

/// Runs `f` with the current call's game and state.
fn with<T>(
    f: impl FnOnce(&Game, &mut MatchState, &mut Rng, &mut Option<Vec<Json>>, PlayerIdx) -> Res<T>,
) -> Res<T> {
    let Some(ctx) = CTX.with(|c| c.get()) else {
        return fail("the host API is only available during a game");
    };
    // SAFETY: the pointers were made from live references in `ScriptHost::call`, which holds them borrowed
    // for the whole script call and clears the context (Guard) before returning; host functions run one at a
    // time on this thread and never re-enter a script, so no two of these references are alive at once.
    unsafe {
        f(
            &*ctx.game,
            &mut *ctx.st,
            &mut *ctx.rng,
            &mut *ctx.log,
            ctx.me,
        )
    }
}

/// Cached Rhai strings for ids so converting values does not allocate.
pub struct Ids {
    cells: Vec<ImmutableString>,
    players: Vec<ImmutableString>,
}

impl Ids {
    pub fn new(g: &Game) -> Self {
        Ids {
            cells: (0..g.board.len() as u32)
                .map(|c| g.board.id(c).into())
                .collect(),
            players: g.players.iter().map(|p| p.as_str().into()).collect(),
        }
    }
    pub fn to_dynamic(&self, g: &Game, st: &MatchState, v: Value) -> Dynamic {
        match v {
            Value::None => Dynamic::UNIT,
            Value::Int(i) => i.into(),
            Value::Float(f) => f.into(),
            Value::Bool(b) => b.into(),
            Value::Text(s) => g.symbols.name(s).to_string().into(),
            Value::Cell(c) => self.cells[c as usize].clone().into(),
            Value::Player(p) => self.players[p as usize].clone().into(),
            Value::Unit(u) => st
                .units
                .get(u as usize)
                .map_or(Dynamic::UNIT, |u| u.id.to_string().into()),
            Value::Row(t, r) => g.tables[t as usize].keys[r as usize].clone().into(),
            // Analysis passes no list to a script.
            Value::List(..) => Dynamic::UNIT,
        }
    }
    pub fn value_of(&self, g: &Game, _st: &MatchState, d: Dynamic) -> Value {
        dyn_value(g, d)
    }
}

fn dyn_value(g: &Game, d: Dynamic) -> Value {
    if let Some(i) = d.clone().try_cast::<i64>() {
        return Value::Int(i);
    }
    if let Some(f) = d.clone().try_cast::<f64>() {
        return Value::Float(f);
    }
    if let Some(b) = d.clone().try_cast::<bool>() {
        return Value::Bool(b);
    }
    if let Some(s) = d.try_cast::<ImmutableString>() {
        if let Some(c) = g.board.find(&s) {
            return Value::Cell(c);
        }
        if let Some(p) = g.player_index(&s) {
            return Value::Player(p);
        }
        return g.symbols.get(&s).map_or(Value::None, Value::Text);
    }
    Value::None
}

fn to_dyn(g: &Game, st: &MatchState, v: Value) -> Dynamic {
    match v {
        Value::None => Dynamic::UNIT,
        Value::Int(i) => i.into(),
        Value::Float(f) => f.into(),
        Value::Bool(b) => b.into(),
        Value::Text(s) => g.symbols.name(s).to_string().into(),
        Value::Cell(c) => g.board.id(c).to_string().into(),
        Value::Player(p) => g.players[p as usize].clone().into(),
        Value::Unit(u) => st
            .units
            .get(u as usize)
            .map_or(Dynamic::UNIT, |u| u.id.to_string().into()),
        Value::Row(t, r) => g.tables[t as usize].keys[r as usize].clone().into(),
        Value::List(..) => Dynamic::UNIT,
    }
}

/// Converts a script value into a variable of type `ty`.
fn from_dyn(g: &Game, ty: Ty, d: Dynamic) -> Res<Value> {
    if d.is_unit() {
        return Ok(Value::None);
    }
    let v = match ty {
        Ty::Int => d.as_int().map(Value::Int).ok(),
        Ty::Float => d
            .as_float()
            .map(Value::Float)
            .ok()
            .or_else(|| d.as_int().ok().map(|i| Value::Float(i as f64))),
        Ty::Bool => d.as_bool().map(Value::Bool).ok(),
        Ty::Cell => d
            .into_immutable_string()
            .ok()
            .and_then(|s| g.board.find(&s))
            .map(Value::Cell),
        Ty::Player => d
            .into_immutable_string()
            .ok()
            .and_then(|s| g.player_index(&s))
            .map(Value::Player),
        Ty::Row(t) => d
            .into_immutable_string()
            .ok()
            .and_then(|s| g.tables[t as usize].row(&s))
            .map(|r| Value::Row(t, r)),
        Ty::Text => d
            .into_immutable_string()
            .ok()
            .and_then(|s| g.symbols.get(&s))
            .map(Value::Text),
        _ => None,
    };
    v.map_or_else(
        || {
            fail(format!(
                "value does not fit a variable of type {}",
                ty.name()
            ))
        },
        Ok,
    )
}

fn cell(g: &Game, id: &str) -> Res<u32> {
    g.board
        .find(id)
        .map_or_else(|| fail(format!("no cell '{id}'")), Ok)
}
fn player(g: &Game, id: &str) -> Res<u8> {
    g.player_index(id)
        .map_or_else(|| fail(format!("no player '{id}'")), Ok)
}
fn unit(st: &MatchState, id: &str) -> Res<usize> {
    st.units
        .iter()
        .position(|u| u.alive && &*u.id == id)
        .map_or_else(|| fail(format!("no living unit '{id}'")), Ok)
}
fn var<'g>(
    decls: &'g [crate::ir::game::VarDecl],
    name: &str,
    what: &str,
) -> Res<&'g crate::ir::game::VarDecl> {
    decls
        .iter()
        .find(|d| d.name == name)
        .map_or_else(|| fail(format!("no {what} variable '{name}'")), Ok)
}

pub fn register(e: &mut Engine) {
    e.register_fn("me", || {
        with(|g, _, _, _, me| Ok(Dynamic::from(g.players[me as usize].clone())))
    });
    e.register_fn("turn", || with(|_, st, _, _, _| Ok(st.turn)));
    e.register_fn("ply", || with(|_, st, _, _, _| Ok(st.ply)));
    e.register_fn("setting", |name: &str| {
        with(|g, _, _, _, _| match g.settings.get(name) {
            Some(Json::Number(n)) if n.is_i64() => Ok(Dynamic::from(n.as_i64().unwrap_or(0))),
            Some(Json::Number(n)) => Ok(Dynamic::from(n.as_f64().unwrap_or(0.0))),
            Some(Json::Bool(b)) => Ok(Dynamic::from(b.to_owned())),
            Some(Json::String(s)) => Ok(Dynamic::from(s.clone())),
            _ => fail(format!("no setting '{name}'")),
        })
    });
    e.register_fn("random", |lo: i64, hi: i64| {
        if lo > hi {
            return fail(format!(
                "random({lo}, {hi}): the lower bound is above the upper bound"
            ));
        }
        with(|_, _, rng, _, _| Ok(rng.int_in(lo, hi)))
    });
    e.register_fn("coin", || with(|_, _, rng, _, _| Ok(rng.coin())));
    e.register_fn("chance", |p: f64| {
        if !(0.0..=1.0).contains(&p) {
            return fail(format!(
                "chance({p}): a probability must be between 0 and 1"
            ));
        }
        with(|_, _, rng, _, _| Ok(rng.chance(p)))
    });
    e.register_fn("owner", |c: &str| {
        with(|g, st, _, _, _| {
            let c = cell(g, c)?;
            Ok(match st.owner[c as usize] {
                NO_OWNER => Dynamic::UNIT,
                p => Dynamic::from(g.players[p as usize].clone()),
            })
        })
    });
    e.register_fn("set_owner", |c: &str, p: Dynamic| {
        with(|g, st, _, _, _| {
            let c = cell(g, c)?;
            let p = if p.is_unit() {
                NO_OWNER
            } else {
                player(g, &p.into_string().unwrap_or_default())?
            };
            st.set_owner(c, p);
            Ok(())
        })
    });
    e.register_fn("cell_var", |c: &str, name: &str| {
        with(|g, st, _, _, _| {
            let c = cell(g, c)?;
            let d = var(&g.cell_vars, name, "cell")?;
            if d.per_player {
                return fail(format!(
                    "'{name}' has one value per player: use cell_var_of(cell, \"{name}\", player)"
                ));
            }
            Ok(to_dyn(
                g,
                st,
                Value::decode(
                    st.cell_vars[c as usize * g.cell_slots + d.slot as usize],
                    d.ty,
                ),
            ))
        })
    });
    e.register_fn("cell_var_of", |c: &str, name: &str, p: &str| {
        with(|g, st, _, _, _| {
            let c = cell(g, c)?;
            let p = player(g, p)?;
            let d = var(&g.cell_vars, name, "cell")?;
            let i = c as usize * g.cell_slots
                + d.slot as usize
                + if d.per_player { p as usize } else { 0 };
            Ok(to_dyn(g, st, Value::decode(st.cell_vars[i], d.ty)))
        })
    });
    e.register_fn("set_cell_var", |c: &str, name: &str, v: Dynamic| {
        with(|g, st, _, _, _| {
            let c = cell(g, c)?;
            let d = var(&g.cell_vars, name, "cell")?;
            if d.per_player {
                return fail(format!(
                    "'{name}' has one value per player: use set_cell_var_of(cell, \"{name}\", player, value)"
                ));
            }
            st.cell_vars[c as usize * g.cell_slots + d.slot as usize] =
                from_dyn(g, d.ty, v)?.encode();
            Ok(())
        })
    });
    e.register_fn(
        "set_cell_var_of",
        |c: &str, name: &str, p: &str, v: Dynamic| {
            with(|g, st, _, _, _| {
                let c = cell(g, c)?;
                let p = player(g, p)?;
                let d = var(&g.cell_vars, name, "cell")?;
                let i = c as usize * g.cell_slots
                    + d.slot as usize
                    + if d.per_player { p as usize } else { 0 };
                st.cell_vars[i] = from_dyn(g, d.ty, v)?.encode();
                Ok(())
            })
        },
    );
    e.register_fn("player_var", |p: &str, name: &str| {
        with(|g, st, _, _, _| {
            let p = player(g, p)?;
            let d = var(&g.player_vars, name, "player")?;
            Ok(to_dyn(
                g,
                st,
                Value::decode(
                    st.player_vars[p as usize * g.player_slots + d.slot as usize],
                    d.ty,
                ),
            ))
        })
    });
    e.register_fn("set_player_var", |p: &str, name: &str, v: Dynamic| {
        with(|g, st, _, _, _| {
            let p = player(g, p)?;
            let d = var(&g.player_vars, name, "player")?;
            st.player_vars[p as usize * g.player_slots + d.slot as usize] =
                from_dyn(g, d.ty, v)?.encode();
            Ok(())
        })
    });
    e.register_fn("unit_at", |c: &str| {
        with(|g, st, _, _, _| {
            let c = cell(g, c)?;
            Ok(match st.occupant[c as usize] {
                NO_UNIT => Dynamic::UNIT,
                u => Dynamic::from(st.units[u as usize].id.to_string()),
            })
        })
    });
    e.register_fn("unit_owner", |u: &str| {
        with(|g, st, _, _, _| {
            let u = unit(st, u)?;
            Ok(g.players[st.units[u].owner as usize].clone())
        })
    });
    e.register_fn("unit_cell", |u: &str| {
        with(|g, st, _, _, _| {
            let u = unit(st, u)?;
            Ok(g.board.id(st.units[u].at).to_string())
        })
    });
    e.register_fn("unit_type", |u: &str| {
        with(|g, st, _, _, _| {
            let u = unit(st, u)?;
            let t = g.unit_table().map_or_else(|| fail("no unit table"), Ok)?;
            Ok(t.keys[st.units[u].kind as usize].clone())
        })
    });
    e.register_fn("unit_var", |u: &str, name: &str| {
        with(|g, st, _, _, _| {
            let u = unit(st, u)?;
            let d = var(&g.unit_vars, name, "unit")?;
            Ok(to_dyn(
                g,
                st,
                Value::decode(st.unit_vars[u * g.unit_slots + d.slot as usize], d.ty),
            ))
        })
    });
    e.register_fn("set_unit_var", |u: &str, name: &str, v: Dynamic| {
        with(|g, st, _, _, _| {
            let u = unit(st, u)?;
            let d = var(&g.unit_vars, name, "unit")?;
            st.unit_vars[u * g.unit_slots + d.slot as usize] = from_dyn(g, d.ty, v)?.encode();
            Ok(())
        })
    });
    e.register_fn("stat", |u: &str, column: &str| {
        with(|g, st, _, _, _| {
            let u = unit(st, u)?;
            let t = g.unit_table().map_or_else(|| fail("no unit table"), Ok)?;
            let c = t
                .column(column)
                .map_or_else(|| fail(format!("unit types have no column '{column}'")), Ok)?;
            Ok(to_dyn(g, st, t.value(st.units[u].kind, c)))
        })
    });
    e.register_fn("table", |table: &str, row: &str, column: &str| {
        with(|g, st, _, _, _| {
            let t = g
                .tables
                .iter()
                .find(|t| t.name == table)
                .map_or_else(|| fail(format!("no table '{table}'")), Ok)?;
            let r = t
                .row(row)
                .map_or_else(|| fail(format!("table '{table}' has no row '{row}'")), Ok)?;
            let c = t.column(column).map_or_else(
                || fail(format!("table '{table}' has no column '{column}'")),
                Ok,
            )?;
            Ok(to_dyn(g, st, t.value(r, c)))
        })
    });
    e.register_fn("neighbours", |c: &str| {
        with(|g, _, _, _, _| {
            let c = cell(g, c)?;
            Ok(g.board
                .neighbours(c)
                .iter()
                .map(|n| Dynamic::from(g.board.id(*n).to_string()))
                .collect::<rhai::Array>())
        })
    });
    e.register_fn("distance", |a: &str, b: &str| {
        with(|g, _, _, _, _| {
            let (a, b) = (cell(g, a)?, cell(g, b)?);
            Ok(g.board
                .distance(a, b)
                .map_or(Dynamic::UNIT, |d| Dynamic::from(d as i64)))
        })
    });
    e.register_fn("line_of_sight", |a: &str, b: &str| {
        with(|g, st, rng, _, me| {
            let (a, b) = (cell(g, a)?, cell(g, b)?);
            // The ruleset's own line-of-sight rule, evaluated natively by the engine.
            let queries = CTX.with(|c| c.get()).map(|c| c.queries);
            let Some(q) = queries else {
                return fail("the host API is only available during a game");
            };
            // SAFETY: set by `enter` from a reference that outlives the script call.
            unsafe { &*q }
                .line_of_sight(g, st, rng, me, a, b)
                .map_err(|e| e.to_string().into())
        })
    });
    e.register_fn("path_length", |a: &str, b: &str, max: i64| {
        with(|g, st, _, _, _| {
            let (a, b) = (cell(g, a)?, cell(g, b)?);
            let mut scratch = crate::board::SearchScratch::default();
            let occupant = &st.occupant;
            let max = max.clamp(0, u32::MAX as i64) as u32;
            let d = g
                .board
                .steps(a, b, max, |x| occupant[x as usize] == NO_UNIT, &mut scratch);
            Ok(d.map_or(Dynamic::UNIT, |d| Dynamic::from(d as i64)))
        })
    });
    e.register_fn("adjacent", |a: &str, b: &str| {
        with(|g, _, _, _, _| Ok(g.board.adjacent(cell(g, a)?, cell(g, b)?)))
    });
    e.register_fn("emit", |event: Map| {
        // Checked whether or not events are kept, so a match behaves the same logged or not.
        let typed = event
            .get("type")
            .and_then(|t| t.clone().into_immutable_string().ok())
            .is_some_and(|t| !t.is_empty());
        if !typed {
            return fail(
                "emit needs a `type` that is a non-empty text, e.g. emit(#{type: \"volley\"})",
            );
        }
        with(|_, _, _, log, _| {
            if let Some(l) = log {
                let mut m = serde_json::Map::new();
                if let Some(t) = event.get("type") {
                    m.insert("type".into(), dyn_json(t));
                }
                for (k, v) in &event {
                    if k.as_str() != "type" {
                        m.insert(k.to_string(), dyn_json(v));
                    }
                }
                l.push(Json::Object(m));
            }
            Ok(())
        })
    });
    e.register_fn("logging", || with(|_, _, _, log, _| Ok(log.is_some())));
}

fn dyn_json(d: &Dynamic) -> Json {
    if d.is_unit() {
        return Json::Null;
    }
    if let Ok(i) = d.as_int() {
        return Json::from(i);
    }
    if let Ok(b) = d.as_bool() {
        return Json::Bool(b);
    }
    if let Ok(f) = d.as_float() {
        return serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number);
    }
    if let Some(s) = d.read_lock::<ImmutableString>() {
        return Json::String(s.to_string());
    }
    if let Some(a) = d.read_lock::<rhai::Array>() {
        return Json::Array(a.iter().map(dyn_json).collect());
    }
    if let Some(m) = d.read_lock::<Map>() {
        return Json::Object(
            m.iter()
                .map(|(k, v)| (k.to_string(), dyn_json(v)))
                .collect(),
        );
    }
    Json::String(d.to_string())
}
