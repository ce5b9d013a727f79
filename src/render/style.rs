//! Colours for terminals (ANSI SGR), or none at all: a frame drawn for a pipe holds no escape codes.

/// What a piece of text is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Owned by (or belonging to) the player of this seat.
    Player(u8),
    /// Neutral cells, labels, the frame around the board.
    Dim,
    /// Headings.
    Bold,
    Plain,
}

/// Foreground colours of seats 1, 2, 3...: blue, red, green, yellow, magenta, cyan (bright).
const SEATS: [&str; 6] = ["94", "91", "92", "93", "95", "96"];

/// `text` in the colour of `role` when `color` is on; `text` itself otherwise.
pub fn paint(text: &str, role: Role, color: bool) -> String {
    if !color || text.is_empty() {
        return text.to_string();
    }
    let code = match role {
        Role::Player(p) => SEATS[p as usize % SEATS.len()],
        Role::Dim => "2",
        Role::Bold => "1",
        Role::Plain => return text.to_string(),
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// Clears the screen and moves the cursor home (terminals only).
pub const CLEAR: &str = "\x1b[H\x1b[2J";
