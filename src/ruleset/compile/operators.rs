//! Binary operators: typing arithmetic, comparisons and logic, and hints for quoted text that meant a name.
use super::*;

impl Compiler<'_, '_> {
    pub(super) fn binary(&mut self, op: &str, a: &Node, b: &Node, pos: usize) -> R<(Expr, Ty)> {
        let (ra, rb) = (self.expr(a), self.expr(b));
        let (ra, rb) = if matches!(op, "==" | "!=") {
            let ty = |r: &R<(Expr, Ty)>| r.as_ref().ok().map(|x| x.1);
            let (ta, tb) = (ty(&ra), ty(&rb));
            (self.text_hint(ra, a, tb), self.text_hint(rb, b, ta))
        } else {
            (ra, rb)
        };
        let mut both = first_real([ra, rb])?.into_iter();
        let (Some((ea, ta)), Some((eb, tb))) = (both.next(), both.next()) else {
            return err(pos, "internal: a binary operator without two operands");
        };
        if (ta == Ty::List || tb == Ty::List) && op != "??" {
            return err_hint(
                pos,
                format!("`{op}` does not apply to lists"),
                "compare or add their items: max(dice), sum(dice), dice[0], len(dice)",
            );
        }
        let bin = |o: BinOp| Expr::Bin(o, Box::new(ea.clone()), Box::new(eb.clone()));
        match op {
            "+" | "-" | "*" | "/" | "%" => {
                if !ta.is_numeric() || !tb.is_numeric() {
                    return err(
                        pos,
                        format!(
                            "`{op}` needs numbers, found {} and {}",
                            ta.name(),
                            tb.name()
                        ),
                    );
                }
                let o = match op {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "/" => BinOp::Div,
                    _ => BinOp::Rem,
                };
                let ty = if ta == Ty::Float || tb == Ty::Float {
                    Ty::Float
                } else {
                    Ty::Int
                };
                Ok((fold_or(bin(o)), ty))
            }
            "<" | "<=" | ">" | ">=" => {
                if !ta.is_numeric() || !tb.is_numeric() {
                    return err(
                        pos,
                        format!(
                            "`{op}` compares numbers, found {} and {}",
                            ta.name(),
                            tb.name()
                        ),
                    );
                }
                let o = match op {
                    "<" => BinOp::Lt,
                    "<=" => BinOp::Le,
                    ">" => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                Ok((fold_or(bin(o)), Ty::Bool))
            }
            "==" | "!=" => {
                let eq = op == "==";
                let keyed = |t: Ty| matches!(t, Ty::Row(_) | Ty::Player | Ty::Unit);
                if keyed(ta) && tb == Ty::Text {
                    self.check_key(ta, &eb, b.pos)?;
                    return Ok((Expr::KeyEq(eq, Box::new(ea), Box::new(eb)), Ty::Bool));
                }
                if keyed(tb) && ta == Ty::Text {
                    self.check_key(tb, &ea, a.pos)?;
                    return Ok((Expr::KeyEq(eq, Box::new(eb), Box::new(ea)), Ty::Bool));
                }
                let compatible = ta == tb
                    || ta == Ty::Nothing
                    || tb == Ty::Nothing
                    || (ta.is_numeric() && tb.is_numeric());
                if !compatible {
                    return err(
                        pos,
                        format!("cannot compare {} with {}", ta.name(), tb.name()),
                    );
                }
                Ok((
                    fold_or(bin(if eq { BinOp::Eq } else { BinOp::Ne })),
                    Ty::Bool,
                ))
            }
            "and" | "or" => {
                if ta != Ty::Bool || tb != Ty::Bool {
                    return err(
                        pos,
                        format!(
                            "`{op}` joins conditions, found {} and {}",
                            ta.name(),
                            tb.name()
                        ),
                    );
                }
                Ok((
                    bin(if op == "and" { BinOp::And } else { BinOp::Or }),
                    Ty::Bool,
                ))
            }
            "??" => {
                let ty = if ta == Ty::Nothing { tb } else { ta };
                Ok((bin(BinOp::Coalesce), ty))
            }
            _ => err(pos, format!("unknown operator {op}")),
        }
    }

    /// `c.kind == grass`: an unknown bare name compared with text, a row or a player was most likely meant
    /// as text; say that first (a row of that table, if it is one), even when a local name is close.
    pub(super) fn text_hint(
        &self,
        r: R<(Expr, Ty)>,
        node: &Node,
        other: Option<Ty>,
    ) -> R<(Expr, Ty)> {
        let mut e = match r {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        let (Ast::Name(name), Some(ty)) = (&node.ast, other) else {
            return Err(e);
        };
        if e.follow_up || e.message != format!("unknown name `{name}`") {
            return Err(e);
        }
        let quoted = match ty {
            Ty::Row(t) => {
                let table = &self.cat.tables[t as usize];
                match table.row(name) {
                    Some(_) => format!("`{name}` is a row of table `{}`: quote it: '{name}'", table.name),
                    None => match closest(name, table.keys.iter().map(String::as_str)) {
                        Some(k) => format!("to compare with a row of table `{}`, quote its key: did you mean '{k}'?", table.name),
                        None => format!("to compare with a row of table `{}`, quote its key (rows: {})", table.name, table.keys.join(", ")),
                    },
                }
            }
            Ty::Text => format!("to compare with text, quote it: '{name}'"),
            Ty::Player => {
                e.hint = Some(
                    match closest(name, self.cat.players.iter().map(String::as_str)) {
                        Some(p) => format!("did you mean the player `{p}`?"),
                        None => format!("players: {}", self.cat.players.join(", ")),
                    },
                );
                return Err(e);
            }
            _ => return Err(e),
        };
        let local = self
            .names
            .iter()
            .filter(|b| !b.failed)
            .map(|b| b.name.as_str());
        e.hint = Some(match closest(name, local) {
            Some(near) => format!("{quoted} (or did you mean the name `{near}`?)"),
            None => quoted,
        });
        Err(e)
    }

    /// A literal compared with a row or player must be one of its keys: catches typos at analysis.
    pub(in crate::ruleset) fn check_key(&mut self, ty: Ty, lit: &Expr, pos: usize) -> R<()> {
        let Expr::Const(Value::Text(sym)) = lit else {
            return Ok(());
        };
        let text = self.symbols.name(*sym).to_string();
        match ty {
            Ty::Row(t) => {
                let table = &self.cat.tables[t as usize];
                if table.row(&text).is_none() {
                    let hint = match closest(&text, table.keys.iter().map(|s| s.as_str())) {
                        Some(c) => format!("did you mean '{c}'?"),
                        None => format!("rows: {}", table.keys.join(", ")),
                    };
                    return err_hint(
                        pos,
                        format!("table `{}` has no row '{text}'", table.name),
                        hint,
                    );
                }
            }
            Ty::Player if !self.cat.players.contains(&text) => {
                return err_hint(
                    pos,
                    format!("no player '{text}'"),
                    format!("players: {}", self.cat.players.join(", ")),
                );
            }
            _ => {}
        }
        Ok(())
    }
}
