//! Help for what designers bring from other languages: operators (`!`, `? :`, `=`, chained comparisons),
//! function names (`neighbors`, `len`, `pow`) and words (`null`, `True`, `this`) the rule language spells
//! differently or does without. Each answer is the hint of the one diagnostic its mistake produces.

/// Set functions: they give sets, usable where a set is expected.
pub const SET_FUNCTIONS: [&str; 4] = ["neighbours", "within", "reachable", "range"];

/// The hint for a character the expression language has no use for on its own.
pub fn stray_character(ch: char) -> Option<&'static str> {
    Some(match ch {
        '!' => "write `not x` for negation; `!` only appears in `!=`",
        '?' => "there is no conditional operator `c ? a : b`: use an `if:` effect with `then:` and `else:`, `min`/`max` for a bound, or `a ?? b` for a default when `a` is none",
        ':' => "there is no conditional operator `c ? a : b`: use an `if:` effect with `then:` and `else:`",
        '=' => "compare with `==`; to change a variable, use a `set:` effect",
        '&' => "join conditions with `and` (or `&&`)",
        '|' => "join conditions with `or` (or `||`)",
        '^' => "there is no power operator: multiply, or compute it in a script function",
        '{' | '}' => "braces have no meaning in an expression: group with parentheses",
        _ => return None,
    })
}

/// The hint for a function the language does not have but another language does, if it is a known one.
pub fn foreign_function(f: &str) -> Option<String> {
    let lower = f.to_ascii_lowercase();
    Some(match lower.as_str() {
        "neighbors" | "neighbor" | "neighbour" | "adjacent_cells" => {
            "the set of a cell's neighbours is `neighbours(c)` (British spelling)".into()
        }
        "len" | "length" | "size" | "count_of" => "count the elements of a set with `count(S)`".into(),
        "if" | "iif" | "ifelse" | "if_else" | "cond" | "ternary" | "choose" => {
            "there is no conditional expression: use an `if:` effect with `then:` and `else:`, `min`/`max` for a bound, or `a ?? b` for a default".into()
        }
        "pow" | "sqrt" | "exp" | "log" | "ln" => {
            "there is no such function: multiply, or compute it in a script function".into()
        }
        "round" => "round with `floor(x + 0.5)`; `round` is the counter of rounds (no parentheses)".into(),
        "int" | "trunc" | "integer" => "turn a number into an int with `floor(x)` or `ceil(x)`".into(),
        "contains" | "includes" | "in" | "member" | "exists" => {
            "test whether a set holds something with `any(S where it == x)`".into()
        }
        "all" | "every" => "test that every element passes with `not any(S where not cond)`".into(),
        "filter" | "select" => "filter a set with `S where cond`".into(),
        "isnull" | "is_none" | "isnone" | "is_null" | "defined" | "is_some" => {
            "test for a value with `has(x)` (`x == none` also works)".into()
        }
        "rand" | "randint" | "rnd" | "random_int" | "dice" | "roll" => {
            "draw an integer with `random(lo, hi)`, a boolean with `chance(p)` or `coin()`".into()
        }
        "not" => "`not` is an operator: `not x` (parentheses are fine: `not (a and b)`)".into(),
        _ => return None,
    })
}

/// The hint for a bare word that other languages use for a value the rule language spells differently.
pub fn foreign_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "True" | "TRUE" | "False" | "FALSE" | "yes" | "no" => {
            "booleans are written `true` and `false`"
        }
        "null" | "nil" | "None" | "NULL" | "undefined" | "nothing" => "no value is written `none`",
        "this" | "self" => "inside `where` filters and predicates the current element is `it`",
        "AND" | "And" => "join conditions with `and`",
        "OR" | "Or" => "join conditions with `or`",
        "NOT" | "Not" => "negate with `not`",
        _ => return None,
    })
}

/// The hint for a function name that is neither built in nor a script function.
pub fn unknown_function(f: &str, closest: Option<&str>, set_position: bool) -> String {
    if SET_FUNCTIONS.contains(&f) && !set_position {
        return format!(
            "`{f}(...)` is a set, not a value: wrap it: count(...), any(...), first(...) or sum(..., value)"
        );
    }
    if let Some(h) = foreign_function(f) {
        return h;
    }
    match closest {
        Some(c) => format!("did you mean `{c}`?"),
        None => {
            "built-in functions and the functions of the ruleset's scripts are available".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_from_other_languages_get_a_hint() {
        for ch in ['!', '?', '=', '&', '|'] {
            assert!(stray_character(ch).is_some(), "{ch}");
        }
        assert!(stray_character('$').is_none());
    }

    #[test]
    fn functions_from_other_languages_get_a_hint() {
        assert!(unknown_function("neighbors", None, true).contains("neighbours(c)"));
        assert!(unknown_function("neighbours", None, false).contains("is a set"));
        assert!(unknown_function("len", None, false).contains("count(S)"));
        assert_eq!(
            unknown_function("cout", Some("count"), false),
            "did you mean `count`?"
        );
    }
}
