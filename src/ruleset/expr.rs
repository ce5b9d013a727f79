//! The expression language's syntax: text to an untyped tree with byte positions. Typing happens in `compile`.
//!
//! Grammar (loosest first): `S where cond`, `a ?? b`, `or`, `and`, `not`, comparisons, `+ -`, `* / %`,
//! unary `-`, postfix `.field` / `[index]`, then literals (lists `[a, b]` too), names, calls and parentheses.

#[derive(Clone, Debug, PartialEq)]
pub enum Ast {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    None,
    Name(String),
    Field(Box<Node>, String),
    Index(Box<Node>, Box<Node>),
    Neg(Box<Node>),
    Not(Box<Node>),
    Binary(String, Box<Node>, Box<Node>),
    Call(String, Vec<Node>),
    Where(Box<Node>, Box<Node>),
    /// `[a, b, c]`: a list literal.
    List(Vec<Node>),
}

/// A syntax node with the byte offset where it starts in the expression text.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub ast: Ast,
    pub pos: usize,
}

/// A syntax error at a byte offset of the expression text.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub pos: usize,
    pub message: String,
    /// What to write instead, for mistakes with a known cure (`!x`, `a ? b : c`, `a < b < c`).
    pub hint: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Float(f64),
    Str(String),
    Ident(String),
    Op(&'static str),
    End,
}

const OPS: [&str; 19] = [
    "??", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "+", "-", "*", "/", "%", "(", ")", "[",
    "]", ",",
];

fn lex(src: &str) -> Result<Vec<(Tok, usize)>, SyntaxError> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
                i += 1;
            }
            let mut is_float = false;
            if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
                is_float = true;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let text: String = src[start..i].chars().filter(|c| *c != '_').collect();
            let tok = if is_float {
                Tok::Float(text.parse().map_err(|_| SyntaxError {
                    hint: None,
                    pos: start,
                    message: "bad number".into(),
                })?)
            } else {
                Tok::Int(text.parse().map_err(|_| SyntaxError {
                    hint: None,
                    pos: start,
                    message: format!("integer {text} is out of range"),
                })?)
            };
            out.push((tok, start));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Ident(src[start..i].to_string()), start));
            continue;
        }
        if c == b'\'' || c == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += 1;
            }
            if i >= bytes.len() {
                return Err(SyntaxError {
                    hint: None,
                    pos: start,
                    message: "unterminated string".into(),
                });
            }
            out.push((Tok::Str(src[start + 1..i].to_string()), start));
            i += 1;
            continue;
        }
        if c == b'.' {
            out.push((Tok::Op("."), start));
            i += 1;
            continue;
        }
        if let Some(op) = OPS.iter().find(|op| src[i..].starts_with(**op)) {
            out.push((Tok::Op(op), start));
            i += op.len();
            continue;
        }
        let ch = src[i..].chars().next().unwrap_or('?');
        return Err(SyntaxError {
            hint: super::hints::stray_character(ch).map(str::to_string),
            pos: start,
            message: format!("unexpected character '{ch}'"),
        });
    }
    out.push((Tok::End, src.len()));
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    at: usize,
}

/// Parses one expression.
pub fn parse(src: &str) -> Result<Node, SyntaxError> {
    let mut p = Parser {
        toks: lex(src)?,
        at: 0,
    };
    let node = p.expr(0)?;
    match p.peek() {
        Tok::End => Ok(node),
        t => Err(SyntaxError {
            hint: None,
            pos: p.pos(),
            message: format!("unexpected {} after the expression", describe(t)),
        }),
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Int(i) => format!("number {i}"),
        Tok::Float(f) => format!("number {f}"),
        Tok::Str(s) => format!("text '{s}'"),
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Op(o) => format!("'{o}'"),
        Tok::End => "end of expression".into(),
    }
}

/// Deepest expression tree accepted: parentheses, calls, prefix operators and each further term of an
/// operator chain (`a + b + c` is two levels) all count. Compiling and evaluating recurse over the tree,
/// so this bounds their stack use; a longer formula is split with `let`.
pub const MAX_DEPTH: usize = 256;

/// `a < b < c`: kept out of line so the parser's recursive frames stay small.
#[inline(never)]
#[cold]
fn chained(pos: usize, op: &str, next: &str) -> SyntaxError {
    SyntaxError {
        pos,
        message: format!("comparisons do not chain: `a {op} b {next} c`"),
        hint: Some(format!(
            "compare twice and join with `and`: `a {op} b and b {next} c`"
        )),
    }
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.at].0
    }
    fn pos(&self) -> usize {
        self.toks[self.at].1
    }
    fn bump(&mut self) -> (Tok, usize) {
        let t = self.toks[self.at].clone();
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
        t
    }
    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }
    fn is_op(&self, o: &str) -> bool {
        matches!(self.peek(), Tok::Op(s) if *s == o)
    }
    fn expect(&mut self, o: &str) -> Result<(), SyntaxError> {
        if self.is_op(o) {
            self.bump();
            Ok(())
        } else {
            Err(SyntaxError {
                hint: None,
                pos: self.pos(),
                message: format!("expected '{o}', found {}", describe(self.peek())),
            })
        }
    }

    /// Fails once the tree being built would be deeper than [`MAX_DEPTH`].
    fn check_depth(&self, depth: usize) -> Result<(), SyntaxError> {
        if depth > MAX_DEPTH {
            return Err(SyntaxError {
                hint: None,
                pos: self.pos(),
                message: format!(
                    "expression nested too deeply (more than {MAX_DEPTH} levels of parentheses, calls, prefix operators or chained terms); split it with `let`"
                ),
            });
        }
        Ok(())
    }

    fn expr(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        self.check_depth(depth)?;
        let left = self.coalesce(depth)?;
        if self.is_word("where") {
            let pos = self.pos();
            self.bump();
            let cond = self.expr(depth + 1)?;
            return Ok(Node {
                ast: Ast::Where(Box::new(left), Box::new(cond)),
                pos,
            });
        }
        Ok(left)
    }

    fn coalesce(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let mut left = self.or(depth)?;
        let mut chained = depth;
        while self.is_op("??") {
            chained += 1;
            self.check_depth(chained)?;
            let pos = self.pos();
            self.bump();
            let right = self.or(depth)?;
            left = Node {
                ast: Ast::Binary("??".into(), Box::new(left), Box::new(right)),
                pos,
            };
        }
        Ok(left)
    }

    fn or(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let mut left = self.and(depth)?;
        let mut chained = depth;
        while self.is_word("or") || self.is_op("||") {
            chained += 1;
            self.check_depth(chained)?;
            let pos = self.pos();
            self.bump();
            let right = self.and(depth)?;
            left = Node {
                ast: Ast::Binary("or".into(), Box::new(left), Box::new(right)),
                pos,
            };
        }
        Ok(left)
    }

    fn and(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let mut left = self.not(depth)?;
        let mut chained = depth;
        while self.is_word("and") || self.is_op("&&") {
            chained += 1;
            self.check_depth(chained)?;
            let pos = self.pos();
            self.bump();
            let right = self.not(depth)?;
            left = Node {
                ast: Ast::Binary("and".into(), Box::new(left), Box::new(right)),
                pos,
            };
        }
        Ok(left)
    }

    fn not(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        if self.is_word("not") {
            self.check_depth(depth + 1)?;
            let pos = self.pos();
            self.bump();
            let inner = self.not(depth + 1)?;
            return Ok(Node {
                ast: Ast::Not(Box::new(inner)),
                pos,
            });
        }
        self.cmp(depth)
    }

    fn cmp_op(&self) -> Option<&'static str> {
        ["==", "!=", "<=", ">=", "<", ">"]
            .into_iter()
            .find(|op| self.is_op(op))
    }

    fn cmp(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let left = self.sum(depth)?;
        let Some(op) = self.cmp_op() else {
            return Ok(left);
        };
        let pos = self.pos();
        self.bump();
        let right = self.sum(depth)?;
        if let Some(next) = self.cmp_op() {
            return Err(chained(self.pos(), op, next));
        }
        Ok(Node {
            ast: Ast::Binary(op.into(), Box::new(left), Box::new(right)),
            pos,
        })
    }

    fn sum(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let mut left = self.product(depth)?;
        let mut chained = depth;
        loop {
            let op = if self.is_op("+") {
                "+"
            } else if self.is_op("-") {
                "-"
            } else {
                return Ok(left);
            };
            chained += 1;
            self.check_depth(chained)?;
            let pos = self.pos();
            self.bump();
            let right = self.product(depth)?;
            left = Node {
                ast: Ast::Binary(op.into(), Box::new(left), Box::new(right)),
                pos,
            };
        }
    }

    fn product(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let mut left = self.unary(depth)?;
        let mut chained = depth;
        loop {
            let op = if self.is_op("*") {
                "*"
            } else if self.is_op("/") {
                "/"
            } else if self.is_op("%") {
                "%"
            } else {
                return Ok(left);
            };
            chained += 1;
            self.check_depth(chained)?;
            let pos = self.pos();
            self.bump();
            let right = self.unary(depth)?;
            left = Node {
                ast: Ast::Binary(op.into(), Box::new(left), Box::new(right)),
                pos,
            };
        }
    }

    fn unary(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        if self.is_op("-") {
            self.check_depth(depth + 1)?;
            let pos = self.pos();
            self.bump();
            let inner = self.unary(depth + 1)?;
            return Ok(Node {
                ast: Ast::Neg(Box::new(inner)),
                pos,
            });
        }
        self.postfix(depth)
    }

    fn postfix(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let mut node = self.primary(depth)?;
        loop {
            if self.is_op(".") {
                self.bump();
                let (tok, pos) = self.bump();
                match tok {
                    Tok::Ident(name) => {
                        node = Node {
                            ast: Ast::Field(Box::new(node), name),
                            pos,
                        }
                    }
                    t => {
                        return Err(SyntaxError {
                            hint: None,
                            pos,
                            message: format!(
                                "expected a field name after '.', found {}",
                                describe(&t)
                            ),
                        })
                    }
                }
            } else if self.is_op("[") {
                let pos = self.pos();
                self.bump();
                let index = self.expr(depth + 1)?;
                self.expect("]")?;
                node = Node {
                    ast: Ast::Index(Box::new(node), Box::new(index)),
                    pos,
                };
            } else {
                return Ok(node);
            }
        }
    }

    fn primary(&mut self, depth: usize) -> Result<Node, SyntaxError> {
        let (tok, pos) = self.bump();
        let ast = match tok {
            Tok::Int(i) => Ast::Int(i),
            Tok::Float(f) => Ast::Float(f),
            Tok::Str(s) => Ast::Str(s),
            Tok::Ident(name) => match name.as_str() {
                "true" => Ast::Bool(true),
                "false" => Ast::Bool(false),
                "none" => Ast::None,
                _ if self.is_op("(") => {
                    self.bump();
                    let mut args = Vec::new();
                    if !self.is_op(")") {
                        loop {
                            args.push(self.expr(depth + 1)?);
                            if self.is_op(",") {
                                self.bump();
                            } else {
                                break;
                            }
                        }
                    }
                    self.expect(")")?;
                    Ast::Call(name, args)
                }
                _ => Ast::Name(name),
            },
            Tok::Op("(") => {
                let inner = self.expr(depth + 1)?;
                self.expect(")")?;
                return Ok(inner);
            }
            Tok::Op("[") => {
                let mut items = Vec::new();
                if !self.is_op("]") {
                    loop {
                        items.push(self.expr(depth + 1)?);
                        if self.is_op(",") {
                            self.bump();
                        } else {
                            break;
                        }
                    }
                }
                self.expect("]")?;
                Ast::List(items)
            }
            t => {
                return Err(SyntaxError {
                    hint: None,
                    pos,
                    message: format!("expected a value, found {}", describe(&t)),
                })
            }
        };
        Ok(Node { ast, pos })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(n: &Node) -> String {
        match &n.ast {
            Ast::Int(i) => i.to_string(),
            Ast::Float(f) => f.to_string(),
            Ast::Str(s) => format!("'{s}'"),
            Ast::Bool(b) => b.to_string(),
            Ast::None => "none".into(),
            Ast::Name(s) => s.clone(),
            Ast::Field(b, f) => format!("{}.{f}", show(b)),
            Ast::Index(b, i) => format!("{}[{}]", show(b), show(i)),
            Ast::Neg(x) => format!("(-{})", show(x)),
            Ast::Not(x) => format!("(not {})", show(x)),
            Ast::Binary(o, a, b) => format!("({} {o} {})", show(a), show(b)),
            Ast::Call(f, args) => format!(
                "{f}({})",
                args.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            Ast::Where(s, c) => format!("({} where {})", show(s), show(c)),
            Ast::List(items) => format!(
                "[{}]",
                items.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    #[test]
    fn precedence_and_postfix() {
        let n = parse("a + b * 2 > c.d[me] and not x or y").unwrap();
        assert_eq!(show(&n), "((((a + (b * 2)) > c.d[me]) and (not x)) or y)");
    }

    #[test]
    fn where_binds_loosest_and_stops_at_commas() {
        let n = parse("sum(cells where owner == me, yield_of)").unwrap();
        assert_eq!(show(&n), "sum((cells where (owner == me)), yield_of)");
    }

    #[test]
    fn errors_carry_positions() {
        let e = parse("a + ").unwrap_err();
        assert_eq!(e.pos, 4);
        let e = parse("a $ b").unwrap_err();
        assert_eq!(e.pos, 2);
        assert_eq!(e.hint, None);
        assert!(parse("f(a,").is_err());
        assert!(parse("99999999999999999999").is_err());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = MAX_DEPTH + 1;
        let long = 100_000;
        for text in [
            format!("{}1{}", "(".repeat(deep), ")".repeat(deep)),
            format!("{}1", "-".repeat(long)),
            format!("{}true", "not ".repeat(long)),
            vec!["1"; long].join(" + "),
            vec!["2"; long].join(" * "),
            vec!["a"; long].join(" or "),
            vec!["a"; long].join(" and "),
            vec!["a"; long].join(" ?? "),
            format!("{}1{}", "f(".repeat(deep), ")".repeat(deep)),
        ] {
            let e = parse(&text).expect_err("too deep");
            assert!(e.message.contains("nested too deeply"), "{}", e.message);
        }
        // Just inside the limit is fine.
        assert!(parse(&vec!["1"; MAX_DEPTH].join(" + ")).is_ok());
        assert!(parse(&format!("{}1", "-".repeat(MAX_DEPTH - 1))).is_ok());
    }

    #[test]
    fn habits_from_other_languages_get_hints() {
        let e = parse("1 < x < 3").unwrap_err();
        assert_eq!(e.pos, 6);
        assert!(e.message.contains("do not chain"), "{}", e.message);
        assert!(e.hint.unwrap().contains("a < b and b < c"));
        for (text, at, hint) in [
            ("!x", 0, "not x"),
            ("a ? b : c", 2, "if:"),
            ("a = b", 2, "=="),
            ("a & b", 2, "and"),
        ] {
            let e = parse(text).unwrap_err();
            assert_eq!(e.pos, at, "{text}");
            assert!(
                e.hint.as_deref().unwrap_or("").contains(hint),
                "{text}: {e:?}"
            );
        }
    }

    #[test]
    fn floats_and_strings() {
        let n = parse("floor(x * 0.35) ?? 'a b'").unwrap();
        assert_eq!(show(&n), "(floor((x * 0.35)) ?? 'a b')");
    }
}
