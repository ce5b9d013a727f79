//! Splitting an `exec:` command line into words as a POSIX shell would (quotes, backslashes), without
//! running a shell: no variables, globs, pipes or redirections.

/// The words of `line`: blanks separate words; `'...'` keeps everything literally; `"..."` keeps
/// everything but `\"`, `\\`, `\$` and `` \` ``; a backslash outside quotes keeps the next character.
/// An unclosed quote or a trailing backslash is an error.
pub fn split(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word has started (so `''` is an empty word, not nothing).
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => word.push(x),
                        None => return Err("a single quote is not closed".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => word.push(x),
                            Some('\n') => {}
                            Some(x) => {
                                word.push('\\');
                                word.push(x);
                            }
                            None => return Err("a double quote is not closed".into()),
                        },
                        Some(x) => word.push(x),
                        None => return Err("a double quote is not closed".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') => {}
                    Some(x) => word.push(x),
                    None => return Err("the command ends with a backslash".into()),
                }
            }
            x => {
                in_word = true;
                word.push(x);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::split;

    fn ok(line: &str) -> Vec<String> {
        split(line).unwrap()
    }

    #[test]
    fn words_are_split_as_a_shell_would() {
        assert_eq!(ok("python3 bot.py"), ["python3", "bot.py"]);
        assert_eq!(ok("  a   b\tc "), ["a", "b", "c"]);
        assert_eq!(ok("a 'b c' \"d e\""), ["a", "b c", "d e"]);
        assert_eq!(ok(r#"a\ b "x\"y" 'q\n'"#), ["a b", "x\"y", "q\\n"]);
        assert_eq!(ok("a '' b"), ["a", "", "b"]);
        assert_eq!(ok("pre'fix'\"ed\""), ["prefixed"]);
        assert_eq!(ok("$HOME *.py | x"), ["$HOME", "*.py", "|", "x"]);
        assert!(ok("").is_empty());
    }

    #[test]
    fn unclosed_quotes_are_errors() {
        assert!(split("a 'b").is_err());
        assert!(split("a \"b").is_err());
        assert!(split("a\\").is_err());
    }
}
