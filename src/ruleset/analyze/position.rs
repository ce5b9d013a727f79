//! The scenario's starting position: every variable at its declared start, then what the scenario writes
//! on cells (nodes of a graph, layers of rows, cells by id: owners and cell variables), the players'
//! variables and the units, each value checked against its variable's type and bounds.
use std::collections::HashSet;
use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::Value as Json;

use super::diags::Diags;
use super::variables::Vars;
use super::Cx;
use crate::board::Board;
use crate::ir::game::{Symbols, Table, VarDecl};
use crate::model::state::{MatchState, NO_OWNER, NO_UNIT};
use crate::model::{Ty, Value};
use crate::ruleset::compile::closest;
use crate::ruleset::raw::{RawRuleset, RawScenario, RawUnit, RawUnitLayer};
use crate::ruleset::yaml::{pointer_escape as esc, YamlDoc};

/// The match state at the start, and which cells the scenario gives an owner (`initial_owner` computes the
/// others').
pub(super) fn build(
    cx: &mut Cx,
    raw: &RawRuleset,
    scen: &RawScenario,
    board: &Board,
    tables: &[Table],
    vars: &Vars,
    unit_table: Option<u16>,
) -> (MatchState, Vec<bool>) {
    let (d, symbols) = (&mut cx.d, &mut cx.symbols);
    let mut p = Position::start(cx.sd, raw, board, tables, vars);
    p.cells(scen, d, symbols);
    p.ruleset_player_values(cx.rd, d, symbols);
    p.players(scen, d, symbols);
    p.units(raw, scen, unit_table, d, symbols);
    // The position was written cell by cell above: derive the owner and occupancy bit sets once.
    p.st.rebuild_bits(raw.players.len());
    (p.st, p.owned)
}

/// A starting position being written.
struct Position<'a> {
    sd: &'a YamlDoc,
    players: &'a [String],
    board: &'a Board,
    tables: &'a [Table],
    vars: &'a Vars,
    st: MatchState,
    /// Cells whose owner the scenario gives.
    owned: Vec<bool>,
}

impl<'a> Position<'a> {
    /// Every variable at its declared start (a cell variable with a per-cell expression at none).
    fn start(
        sd: &'a YamlDoc,
        raw: &'a RawRuleset,
        board: &'a Board,
        tables: &'a [Table],
        vars: &'a Vars,
    ) -> Self {
        let (player_vars, cell_vars) = (&vars.player, &vars.cell);
        let (player_slots, cell_slots) = (vars.player_slots, vars.cell_slots);
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
            for v in player_vars.iter().chain(&vars.game) {
                st.player_vars[p * player_slots + v.slot as usize] = v.initial.encode();
            }
        }
        st.cell_vars = vec![0; cell_slots * n];
        for c in 0..n {
            for v in cell_vars {
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
        Position {
            sd,
            players: &raw.players,
            board,
            tables,
            vars,
            st,
            owned: vec![false; n],
        }
    }

    /// `v` as a value of type `ty`, if it is one.
    fn value(&self, ty: Ty, v: &Json, symbols: &mut Symbols) -> Option<Value> {
        let (board, players, tables) = (self.board, self.players, self.tables);
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
    }

    /// Writes the fields of cell `c` written at `ptr` (its owner and cell variables), except `skip`.
    fn cell_fields(
        &mut self,
        c: usize,
        fields: &IndexMap<String, Json>,
        ptr: &str,
        d: &mut Diags,
        symbols: &mut Symbols,
        skip: &[&str],
    ) {
        let (sd, players, tables, vars) = (self.sd, self.players, self.tables, self.vars);
        let (player_vars, cell_vars, failed_vars) = (&vars.player, &vars.cell, &vars.failed);
        let cell_slots = vars.cell_slots;
        for (k, v) in fields {
            if skip.contains(&k.as_str()) {
                continue;
            }
            let fptr = format!("{ptr}/{}", esc(k));
            if k == "owner" {
                self.owned[c] = true;
                match v {
                    Json::Null => self.st.owner[c] = NO_OWNER,
                    Json::String(p) => match players.iter().position(|x| x == p) {
                        Some(i) => self.st.owner[c] = i as u8,
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
                if failed_vars.contains(k) {
                    continue; // its declaration failed, and was reported
                }
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
                    match self.value(decl.ty, x, symbols) {
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
                            self.st.cell_vars[c * cell_slots + decl.slot as usize + pi] =
                                val.encode()
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
            match self.value(decl.ty, v, symbols) {
                Some(val) => {
                    if let Some(m) = outside_bounds(decl, val) {
                        d.at(sd, &fptr, "scenario::bad_value", m, None);
                    }
                    self.st.cell_vars[c * cell_slots + decl.slot as usize] = val.encode();
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
    }

    /// What the scenario writes on cells: nodes of a graph, layers of rows, then cells by id.
    fn cells(&mut self, scen: &RawScenario, d: &mut Diags, symbols: &mut Symbols) {
        let (sd, board) = (self.sd, self.board);
        for (i, node) in scen.board.nodes.iter().enumerate() {
            let Some(Json::String(id)) = node.get("id") else {
                continue;
            };
            if let Some(c) = board.find(id) {
                self.cell_fields(
                    c as usize,
                    node,
                    &format!("/board/nodes/{i}"),
                    d,
                    symbols,
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
                    self.cell_fields(c as usize, &fields, &rptr, d, symbols, &[]);
                }
            }
        }
        for (id, fields) in &scen.board.cells {
            let ptr = format!("/board/cells/{}", esc(id));
            match board.find(id) {
                Some(c) => self.cell_fields(c as usize, fields, &ptr, d, symbols, &[]),
                None => d.key(
                    sd,
                    &ptr,
                    "scenario::unknown_cell",
                    format!("no cell `{id}` on this board"),
                    None,
                ),
            }
        }
    }

    /// The player variables whose `initial` is a mapping from player to value (in the ruleset).
    fn ruleset_player_values(&mut self, rd: &YamlDoc, d: &mut Diags, symbols: &mut Symbols) {
        let (players, vars) = (self.players, self.vars);
        for (decl, ptr, values) in &vars.per_player_initial {
            for (p, v) in values {
                let vptr = format!("{ptr}/{}", esc(p));
                let Some(pi) = players.iter().position(|x| x == p) else {
                    d.key(
                        rd,
                        &vptr,
                        "ruleset::unknown_player",
                        format!("no player `{p}`"),
                        Some(format!("players: {}", players.join(", "))),
                    );
                    continue;
                };
                match self.value(decl.ty, v, symbols) {
                    Some(val) => {
                        if let Some(m) = outside_bounds(decl, val) {
                            d.at(rd, &vptr, "ruleset::initial_out_of_range", m, None);
                        }
                        let i = pi * vars.player_slots + decl.slot as usize;
                        self.st.player_vars[i] = val.encode();
                    }
                    None => d.at(
                        rd,
                        &vptr,
                        "ruleset::bad_type",
                        format!("initial value does not fit type {}", decl.ty.name()),
                        Some(format!(
                            "give {} value",
                            super::initial::with_article(decl.ty)
                        )),
                    ),
                }
            }
            let missing: Vec<&str> = players
                .iter()
                .filter(|p| !values.contains_key(*p))
                .map(String::as_str)
                .collect();
            if !missing.is_empty() {
                d.at(
                    rd,
                    ptr,
                    "ruleset::bad_type",
                    format!(
                        "`{}` starts from a value per player, but none is given for {}",
                        decl.name,
                        missing.join(", ")
                    ),
                    Some("give a value for every player".into()),
                );
            }
        }
    }

    /// The players' variables.
    fn players(&mut self, scen: &RawScenario, d: &mut Diags, symbols: &mut Symbols) {
        let (sd, players, vars) = (self.sd, self.players, self.vars);
        let (player_vars, cell_vars, failed_vars) = (&vars.player, &vars.cell, &vars.failed);
        let player_slots = vars.player_slots;
        for (p, vars) in &scen.players {
            let pptr = format!("/players/{}", esc(p));
            let Some(pi) = players.iter().position(|x| x == p) else {
                d.key(
                    sd,
                    &pptr,
                    "scenario::unknown_player",
                    format!("no player `{p}`"),
                    Some(format!("players: {}", players.join(", "))),
                );
                continue;
            };
            for (k, v) in vars {
                let vptr = format!("{pptr}/{}", esc(k));
                let Some(decl) = player_vars.iter().find(|x| x.name == *k) else {
                    if failed_vars.contains(k) {
                        continue; // its declaration failed, and was reported
                    }
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
                match self.value(decl.ty, v, symbols) {
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
                    Some(val) => {
                        self.st.player_vars[pi * player_slots + decl.slot as usize] = val.encode()
                    }
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
    }

    /// The units, each on its own cell.
    fn units(
        &mut self,
        raw: &RawRuleset,
        scen: &RawScenario,
        unit_table: Option<u16>,
        d: &mut Diags,
        symbols: &mut Symbols,
    ) {
        let (sd, board, tables, vars) = (self.sd, self.board, self.tables, self.vars);
        let (unit_vars, failed_vars) = (&vars.unit, &vars.failed);
        let unit_slots = vars.unit_slots;
        let mut unit_ids = HashSet::new();
        // The listed units, then those of the unit layer in board order (their ids generated).
        let mut entries: Vec<(RawUnit, String, String)> = scen
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| (u.clone(), format!("/units/{i}"), format!("/units/{i}/at")))
            .collect();
        if let Some(layer) = &scen.unit_layer {
            entries.extend(unit_layer(layer, board, sd, d));
        }
        let too_many = entries.len() > crate::limits::MAX_UNITS;
        let mut reported = HashSet::new();
        if too_many {
            d.at(
                sd,
                if scen.units.is_empty() { "/unit_layer" } else { "/units" },
                "scenario::too_many_units",
                format!(
                    "the scenario places {} units; a match holds at most {}, destroyed ones included",
                    entries.len(),
                    crate::limits::MAX_UNITS
                ),
                Some("place fewer units (docs/limits.md)".into()),
            );
        }
        for (u, uptr, at_ptr) in entries.iter().take_while(|_| !too_many) {
            let uptr = uptr.clone();
            let Some(t) = unit_table else {
                if raw.units.is_some() {
                    break; // `units` names an unknown table, which was reported
                }
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
            // A legend entry stands for many units: its problems are reported once.
            let first_use = reported.insert(uptr.clone());
            if kind.is_none() && first_use {
                d.at(
                    sd,
                    &format!("{uptr}/type"),
                    "scenario::unknown_unit_type",
                    format!("no unit type `{}`", u.kind),
                    closest(&u.kind, table.keys.iter().map(|s| s.as_str()))
                        .map(|c| format!("did you mean `{c}`?")),
                );
            }
            if owner.is_none() && first_use {
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
                    at_ptr,
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
                Some(c) if self.st.occupant[c as usize] != NO_UNIT => {
                    let other = self.st.units[self.st.occupant[c as usize] as usize]
                        .id
                        .clone();
                    d.at(
                        sd,
                        at_ptr,
                        "scenario::occupied",
                        format!("cell `{}` already holds unit `{other}`", u.at),
                        Some("one unit per cell".into()),
                    );
                }
                _ => {}
            }
            // A unit of the layer takes the ruleset's id pattern, numbered on from its owner's units.
            let generated = u.id.is_empty();
            let id = match owner {
                Some(o) if generated => {
                    let mut n = self.st.units_created[o] + 1;
                    loop {
                        let id = raw
                            .units
                            .as_ref()
                            .map_or("{owner}-{n}", |x| x.ids.as_str())
                            .replace("{owner}", &raw.players[o])
                            .replace("{n}", &n.to_string());
                        if !unit_ids.contains(&id) && !scen.units.iter().any(|x| x.id == id) {
                            break id;
                        }
                        n += 1;
                    }
                }
                _ => u.id.clone(),
            };
            if !generated && !unit_ids.insert(id.clone()) {
                d.at(
                    sd,
                    &format!("{uptr}/id"),
                    "scenario::duplicate_id",
                    format!("unit id `{}` is used twice", u.id),
                    None,
                );
            }
            if let (Some(kind), Some(owner), Some(at)) = (kind, owner, at) {
                if self.st.occupant[at as usize] != NO_UNIT {
                    continue;
                }
                unit_ids.insert(id.clone());
                let idx = self.st.units.len() as u32;
                self.st.units.push(crate::model::state::UnitState {
                    id: Arc::from(id.as_str()),
                    kind,
                    owner: owner as u8,
                    at,
                    alive: true,
                });
                self.st.units_created[owner] += 1;
                for v in unit_vars {
                    self.st.unit_vars.push(v.initial.encode());
                }
                for (k, v) in &u.vars {
                    match unit_vars.iter().find(|x| x.name == *k) {
                        Some(decl) => match self.value(decl.ty, v, symbols) {
                            Some(val) => {
                                if let Some(m) = outside_bounds(decl, val) {
                                    let ptr = format!("{uptr}/vars/{}", esc(k));
                                    d.at(sd, &ptr, "scenario::bad_value", m, None);
                                }
                                let i = idx as usize * unit_slots + decl.slot as usize;
                                self.st.unit_vars[i] = val.encode();
                            }
                            None => d.at(
                                sd,
                                &format!("{uptr}/vars/{}", esc(k)),
                                "scenario::bad_value",
                                format!("`{k}` takes {} values", decl.ty.name()),
                                None,
                            ),
                        },
                        None if failed_vars.contains(k) => {}
                        None => d.key(
                            sd,
                            &format!("{uptr}/vars/{}", esc(k)),
                            "scenario::unknown_var",
                            format!("units have no variable `{k}`"),
                            None,
                        ),
                    }
                }
                self.st.occupant[at as usize] = idx;
            }
        }
    }
}

/// The units a unit layer draws, as listed units without ids (generated when placed), each with the
/// pointer of its legend entry (type, owner, vars) and of its row (where it stands).
fn unit_layer(
    layer: &RawUnitLayer,
    board: &Board,
    sd: &YamlDoc,
    d: &mut Diags,
) -> Vec<(RawUnit, String, String)> {
    let mut out = Vec::new();
    if board.width() == 0 {
        d.at(
            sd,
            "/unit_layer",
            "scenario::bad_board",
            "a unit layer needs a grid board (width and height)",
            Some("list the units under `units:` on a graph".into()),
        );
        return out;
    }
    if layer.rows.len() as u32 != board.height() {
        d.at(
            sd,
            "/unit_layer/rows",
            "scenario::grid_size",
            format!(
                "the unit layer has {} rows, the board has {}",
                layer.rows.len(),
                board.height()
            ),
            None,
        );
        return out;
    }
    for (r, line) in layer.rows.iter().enumerate() {
        let rptr = format!("/unit_layer/rows/{r}");
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() as u32 != board.width() {
            d.at(
                sd,
                &rptr,
                "scenario::grid_size",
                format!(
                    "row {} of the unit layer has {} entries, the board is {} wide",
                    r + 1,
                    tokens.len(),
                    board.width()
                ),
                None,
            );
            continue;
        }
        for (col, tok) in tokens.iter().enumerate() {
            if *tok == "." {
                continue;
            }
            let Some(c) = board.cell_at(r as u32, col as u32) else {
                continue;
            };
            let Some(l) = layer.legend.get(*tok) else {
                d.at(
                    sd,
                    &rptr,
                    "scenario::unknown_symbol",
                    format!(
                        "`{tok}` in row {} of the unit layer is not in its legend",
                        r + 1
                    ),
                    Some(
                        match layer
                            .legend
                            .keys()
                            .find(|k| k.eq_ignore_ascii_case(tok))
                            .map(String::as_str)
                            .or_else(|| closest(tok, layer.legend.keys().map(String::as_str)))
                        {
                            Some(k) => format!("did you mean `{k}`? (`.` is an empty cell)"),
                            None => format!(
                                "legend symbols: {} (`.` is an empty cell)",
                                layer.legend.keys().cloned().collect::<Vec<_>>().join(", ")
                            ),
                        },
                    ),
                );
                continue;
            };
            let unit = RawUnit {
                id: String::new(),
                kind: l.kind.clone(),
                owner: l.owner.clone(),
                at: board.id(c).to_string(),
                vars: l.vars.clone(),
            };
            out.push((
                unit,
                format!("/unit_layer/legend/{}", esc(tok)),
                rptr.clone(),
            ));
        }
    }
    out
}

/// The message for a scenario value outside its variable's `min`/`max`, if it is outside.
fn outside_bounds(decl: &VarDecl, v: Value) -> Option<String> {
    let Value::Int(i) = v else { return None };
    if !(decl.min.is_some_and(|m| i < m) || decl.max.is_some_and(|m| i > m)) {
        return None;
    }
    let name = &decl.name;
    Some(match (decl.min, decl.max) {
        (Some(lo), Some(hi)) => format!("`{name}` must be within {lo} .. {hi}, this is {i}"),
        (Some(lo), None) => format!("`{name}` must be at least {lo}, this is {i}"),
        (_, Some(hi)) => format!("`{name}` must be at most {hi}, this is {i}"),
        (None, None) => return None,
    })
}
