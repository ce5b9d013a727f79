//! Names, fields and indexing: what a bare name, `x.field` and `x[i]` mean in a scope, with did-you-mean
//! hints for the names that do not resolve.
use super::*;

impl Compiler<'_, '_> {
    pub(super) fn name(&mut self, name: &str, pos: usize) -> R<(Expr, Ty)> {
        if let Some(b) = self.names.iter().rev().find(|b| b.name == name) {
            if b.failed {
                return Err(ExprError::follow_up(pos, name));
            }
            return Ok((Expr::Local(b.slot), b.ty));
        }
        if name == "it" {
            return match self.elems.last() {
                Some(&(slot, ty)) => Ok((Expr::Local(slot), ty)),
                None => err(
                    pos,
                    "`it` is only defined inside `where` filters and predicates",
                ),
            };
        }
        if let Some(&(slot, ty)) = self.elems.last() {
            match self.field_of(Expr::Local(slot), ty, name, pos) {
                Ok(r) => return Ok(r),
                Err(e) if e.follow_up => return Err(e),
                Err(_) => {}
            }
        }
        match name {
            "me" if self.has_me => return Ok((Expr::Me, Ty::Player)),
            "opponent" if self.has_me => {
                if self.cat.players.len() != 2 {
                    return err(pos, "`opponent` needs exactly two players");
                }
                return Ok((Expr::Opponent, Ty::Player));
            }
            "turn" => return Ok((Expr::Counter(Counter::Turn), Ty::Int)),
            "ply" => return Ok((Expr::Counter(Counter::Ply), Ty::Int)),
            "points" => return Ok((Expr::Counter(Counter::Points), Ty::Int)),
            "round" => return Ok((Expr::Counter(Counter::Round), Ty::Int)),
            _ => {}
        }
        if let Some(i) = self.cat.players.iter().position(|p| p == name) {
            return Ok((Expr::Const(Value::Player(i as u8)), Ty::Player));
        }
        err_hint(
            pos,
            format!("unknown name `{name}`"),
            self.unknown_name_hint(name),
        )
    }

    /// Help for an unknown bare name: a name of the right kind written without its prefix, a word of
    /// another language, a close local name; always the reminder that text needs quotes.
    pub(super) fn unknown_name_hint(&self, name: &str) -> String {
        let quote = format!("to write text, quote it: '{name}'");
        if self.cat.settings.contains_key(name) {
            return format!("settings are read with their prefix: `settings.{name}`");
        }
        if self.cat.player_vars.iter().any(|v| v.name == name) && self.has_me {
            return format!(
                "`{name}` is a player variable: write `me.{name}` (or `p.{name}` for a player p)"
            );
        }
        if let Some(v) = self.cat.cell_vars.iter().find(|v| v.name == name) {
            let index = if v.per_player { "[player]" } else { "" };
            return format!(
                "`{name}` is a cell variable: read it from a cell, as in `c.{name}{index}`"
            );
        }
        if self.cat.unit_vars.iter().any(|v| v.name == name) {
            return format!("`{name}` is a unit variable: read it from a unit, as in `u.{name}`");
        }
        let is_set = ["cells", "units", "players"].contains(&name)
            || self.cat.tables.iter().any(|t| t.name == name);
        if is_set {
            return format!("`{name}` is a set, not a value: wrap it: count({name}), any({name} where ...), first(...) or sum(..., value)");
        }
        if let Some(h) = super::hints::foreign_name(name) {
            return h.to_string();
        }
        let mut known: Vec<&str> = self
            .names
            .iter()
            .filter(|b| !b.failed)
            .map(|b| b.name.as_str())
            .collect();
        known.extend([
            "me", "opponent", "turn", "ply", "points", "round", "settings", "it",
        ]);
        known.extend(self.cat.players.iter().map(String::as_str));
        if let Some(c) = closest(name, known.iter().copied()) {
            return format!("did you mean `{c}`? ({quote})");
        }
        // A misspelt variable or setting written without what it belongs to.
        let mut prefixed: Vec<(&str, String)> = Vec::new();
        for v in self.cat.cell_vars {
            let index = if v.per_player { "[player]" } else { "" };
            prefixed.push((&v.name, format!("c.{}{index}` (a cell variable", v.name)));
        }
        if self.has_me {
            for v in self.cat.player_vars {
                prefixed.push((&v.name, format!("me.{}` (a player variable", v.name)));
            }
        }
        for v in self.cat.unit_vars {
            prefixed.push((&v.name, format!("u.{}` (a unit variable", v.name)));
        }
        for k in self.cat.settings.keys() {
            prefixed.push((k, format!("settings.{k}` (a setting")));
        }
        match closest(name, prefixed.iter().map(|(n, _)| *n)) {
            Some(c) => {
                let full = prefixed.iter().find(|(n, _)| *n == c).map_or("", |(_, f)| f.as_str());
                format!("did you mean `{full})? ({quote})")
            }
            None => format!("names available here: parameters, `let` names, me, opponent, turn, ply, points, round, settings.NAME; {quote}"),
        }
    }

    pub(super) fn var_field(decls: &[VarDecl], name: &str) -> Option<VarDecl> {
        decls.iter().find(|d| d.name == name).cloned()
    }

    /// Resolves `base.field` where base has type `ty`.
    pub(super) fn field_of(
        &mut self,
        base: Expr,
        ty: Ty,
        field: &str,
        pos: usize,
    ) -> R<(Expr, Ty)> {
        let b = Box::new(base);
        match ty {
            Ty::Cell => match field {
                "owner" => Ok((Expr::CellOwner(b), Ty::Player)),
                "id" => Ok((Expr::CellId(b), Ty::Text)),
                "row" => Ok((Expr::CellRow(b), Ty::Int)),
                "col" => Ok((Expr::CellCol(b), Ty::Int)),
                "unit" => Ok((Expr::CellUnit(b), Ty::Unit)),
                "empty" => Ok((Expr::CellEmpty(b), Ty::Bool)),
                _ => match Self::var_field(self.cat.cell_vars, field) {
                    Some(d) if d.per_player => err_hint(
                        pos,
                        format!("`{field}` has one value per player"),
                        format!("index it with a player: {field}[me]"),
                    ),
                    Some(d) => Ok((Expr::CellVar(b, d.slot, d.ty), d.ty)),
                    None => self.unknown_field(
                        "cell",
                        field,
                        pos,
                        self.cat.cell_vars,
                        &["owner", "id", "row", "col", "unit", "empty"],
                    ),
                },
            },
            Ty::Unit => match field {
                "owner" => Ok((Expr::UnitOwner(b), Ty::Player)),
                "at" => Ok((Expr::UnitAt(b), Ty::Cell)),
                "id" => Ok((*b, Ty::Unit)),
                "type" => match self.cat.unit_table {
                    Some(t) => Ok((Expr::UnitType(b), Ty::Row(t))),
                    None if self.cat.failed.units => Err(ExprError::follow_up(pos, "units")),
                    None => err(pos, "this ruleset declares no units"),
                },
                _ => match Self::var_field(self.cat.unit_vars, field) {
                    Some(d) => Ok((Expr::UnitVar(b, d.slot, d.ty), d.ty)),
                    None => self.unknown_field(
                        "unit",
                        field,
                        pos,
                        self.cat.unit_vars,
                        &["owner", "at", "id", "type"],
                    ),
                },
            },
            Ty::Player => match field {
                "id" => Ok((Expr::PlayerId(b), Ty::Text)),
                _ => match Self::var_field(self.cat.player_vars, field) {
                    Some(d) => Ok((Expr::PlayerVar(b, d.slot, d.ty), d.ty)),
                    None => self.unknown_field("player", field, pos, self.cat.player_vars, &["id"]),
                },
            },
            Ty::Row(t) => {
                let table = &self.cat.tables[t as usize];
                if field == "key" {
                    return Ok((Expr::RowKey(b), Ty::Text));
                }
                match table.column(field) {
                    Some(c) => Ok((Expr::RowCol(b, t, c), table.columns[c as usize].1)),
                    None => {
                        let names: Vec<&str> =
                            table.columns.iter().map(|(c, _)| c.as_str()).collect();
                        let hint = match closest(field, names.iter().copied()) {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => format!("columns of `{}`: {}", table.name, names.join(", ")),
                        };
                        err_hint(
                            pos,
                            format!("table `{}` has no column `{field}`", table.name),
                            hint,
                        )
                    }
                }
            }
            other => err(pos, format!("{} has no fields (`.{field}`)", other.name())),
        }
    }

    pub(super) fn unknown_field<T>(
        &self,
        what: &str,
        field: &str,
        pos: usize,
        decls: &[VarDecl],
        builtins: &[&str],
    ) -> R<T> {
        if self.cat.failed.vars.iter().any(|v| v == field) {
            return Err(ExprError::follow_up(pos, field));
        }
        let mut names: Vec<&str> = decls.iter().map(|d| d.name.as_str()).collect();
        names.extend(builtins);
        let hint = match closest(field, names.iter().copied()) {
            Some(c) => format!("did you mean `{c}`?"),
            None => format!("{what} fields: {}", names.join(", ")),
        };
        err_hint(pos, format!("a {what} has no field `{field}`"), hint)
    }

    pub(super) fn field(&mut self, base: &Node, field: &str, pos: usize) -> R<(Expr, Ty)> {
        if let Ast::Name(n) = &base.ast {
            if n == "board" && !self.names.iter().any(|b| b.name == "board") {
                return match field {
                    "width" => Ok((
                        Expr::Const(Value::Int(self.cat.board_size.0 as i64)),
                        Ty::Int,
                    )),
                    "height" => Ok((
                        Expr::Const(Value::Int(self.cat.board_size.1 as i64)),
                        Ty::Int,
                    )),
                    _ => err_hint(
                        pos,
                        format!("the board has no field `{field}`"),
                        "board fields: width, height",
                    ),
                };
            }
            if n == "game" && !self.names.iter().any(|b| b.name == "game") {
                return match Self::var_field(self.cat.game_vars, field) {
                    // Stored as the first player's variable (see `Game::game_vars`).
                    Some(d) => Ok((
                        Expr::PlayerVar(Box::new(Expr::Const(Value::Player(0))), d.slot, d.ty),
                        d.ty,
                    )),
                    None => self.unknown_field("game", field, pos, self.cat.game_vars, &[]),
                };
            }
            if n == "settings" && !self.names.iter().any(|b| b.name == "settings") {
                return match self.cat.settings.get(field) {
                    Some(v) => match json_to_const(v, self.symbols) {
                        Some((v, t)) => Ok((Expr::Const(v), t)),
                        None => err(pos, format!("setting `{field}` is not a scalar")),
                    },
                    None => {
                        let hint =
                            match closest(field, self.cat.settings.keys().map(|s| s.as_str())) {
                                Some(c) => format!("did you mean `{c}`?"),
                                None => "declare it under `settings:`".into(),
                            };
                        err_hint(pos, format!("unknown setting `{field}`"), hint)
                    }
                };
            }
        }
        let (b, ty) = self.expr(base)?;
        self.field_of(b, ty, field, pos)
    }

    pub(super) fn index(&mut self, base: &Node, index: &Node, pos: usize) -> R<(Expr, Ty)> {
        const ONLY: &str =
            "only per-player cell variables can be indexed, as in `cell.var[player]`";
        // A bare per-player variable inside a cell filter means the element's: `count[me]`.
        let implicit;
        let (cell, var): (&Node, &String) = match &base.ast {
            Ast::Field(cell, var) => (cell, var),
            Ast::Name(var)
                if matches!(self.elems.last(), Some((_, Ty::Cell)))
                    && !self.names.iter().any(|b| b.name == *var) =>
            {
                implicit = Node {
                    ast: Ast::Name("it".into()),
                    pos: base.pos,
                };
                (&implicit, var)
            }
            _ => {
                // What the base is comes first: an unknown name is that, not an indexing problem.
                let (b, ty) = self.expr(base)?;
                if ty == Ty::List {
                    let over = match &b {
                        Expr::Local(s) => self
                            .split_sets
                            .iter()
                            .find(|x| x.0 == *s)
                            .map(|x| x.1.clone()),
                        _ => None,
                    };
                    return self.list_index(b, over, index);
                }
                return err_hint(pos, format!("{} cannot be indexed", ty.name()), ONLY);
            }
        };
        let (c, cty) = self.expr(cell)?;
        if cty != Ty::Cell {
            // `me.gold[P1]`: an unknown field is reported as such; a known one cannot be indexed.
            self.field_of(c, cty, var, base.pos)?;
            return err_hint(
                pos,
                format!("`{var}` is not a per-player cell variable, so it cannot be indexed"),
                ONLY,
            );
        }
        const BUILTIN: [&str; 6] = ["owner", "id", "row", "col", "unit", "empty"];
        let Some(d) = Self::var_field(self.cat.cell_vars, var) else {
            if self.cat.failed.vars.contains(var) {
                return Err(ExprError::follow_up(base.pos, var));
            }
            if BUILTIN.contains(&var.as_str()) {
                return err_hint(
                    pos,
                    format!("`{var}` is not a per-player variable"),
                    format!("it has one value per cell: write `cell.{var}` without `[...]`"),
                );
            }
            let per_player: Vec<&str> = self
                .cat
                .cell_vars
                .iter()
                .filter(|d| d.per_player)
                .map(|d| d.name.as_str())
                .collect();
            let all = self.cat.cell_vars.iter().map(|d| d.name.as_str());
            let hint = match closest(var, per_player.iter().copied()).or_else(|| closest(var, all))
            {
                Some(near) => format!("did you mean `{near}`?"),
                None if per_player.is_empty() => {
                    "this ruleset declares no per-player cell variables".into()
                }
                None => format!("per-player cell variables: {}", per_player.join(", ")),
            };
            return err_hint(base.pos, format!("unknown variable `{var}`"), hint);
        };
        if !d.per_player {
            return err_hint(
                pos,
                format!("`{var}` is not a per-player variable"),
                format!("it has one value per cell: write `cell.{var}` without `[...]`"),
            );
        }
        let (p, pty) = self.expr(index)?;
        if pty != Ty::Player {
            return err(
                index.pos,
                format!("index `{var}` with a player, not {}", pty.name()),
            );
        }
        Ok((
            Expr::CellVarOf(Box::new(c), d.slot, Box::new(p), d.ty),
            d.ty,
        ))
    }
}
