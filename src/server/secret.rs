//! Secrets of the server: seat tokens and match ids drawn from the operating system's generator (never
//! from a match's generator, which replays make public), and a comparison that takes the same time
//! wherever two tokens differ.

/// Bytes of randomness in a seat token (256 bits, written as 64 hex digits).
const TOKEN_BYTES: usize = 32;
/// Bytes of randomness in a match id (written as 16 hex digits).
const ID_BYTES: usize = 8;

fn random_hex(n: usize) -> Result<String, String> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness from the system: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A new seat token.
pub fn token() -> Result<String, String> {
    random_hex(TOKEN_BYTES)
}

/// A new match id.
pub fn match_id() -> Result<String, String> {
    random_hex(ID_BYTES)
}

/// A seed for a match that names none.
pub fn seed() -> Result<u64, String> {
    getrandom::u64().map_err(|e| format!("no randomness from the system: {e}"))
}

/// Whether `a` and `b` are equal, looking at every byte whatever the first difference.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_hex() {
        let (a, b) = (token().unwrap(), token().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(match_id().unwrap().len(), 16);
    }

    #[test]
    fn comparison_is_exact() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "ab"));
        assert!(!same("", "a"));
    }
}
