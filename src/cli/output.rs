//! Where output goes: replays and JSON to stdout or a file, diagnostics and messages to stderr.
use std::io::{IsTerminal, Write};
use std::path::Path;

use super::{OK, USAGE};
use crate::diagnostic::{render_text, Diagnostic};

/// Whether stderr is a terminal (colours, progress bars).
pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// Prints diagnostics to stderr in miette style.
pub fn print_diagnostics(diags: &[Diagnostic]) {
    if !diags.is_empty() {
        eprint!("{}", render_text(diags, stderr_is_terminal()));
    }
}

/// Prints an error line to stderr and returns `code`.
pub fn fail(code: i32, message: impl std::fmt::Display) -> i32 {
    eprintln!("error: {message}");
    code
}

/// Writes `text` to `out`, or to stdout when `None`. Returns the exit code.
pub fn write_output(out: Option<&Path>, text: &str) -> i32 {
    match out {
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => OK,
            Err(e) => fail(USAGE, format!("cannot write {}: {e}", path.display())),
        },
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(text.as_bytes())
                .and_then(|_| stdout.flush())
            {
                Ok(()) => OK,
                // A closed pipe (`| head`) is not worth a complaint.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => OK,
                Err(e) => fail(USAGE, format!("cannot write to stdout: {e}")),
            }
        }
    }
}

/// JSON as printed on stdout: pretty, with a final newline.
pub fn json_text(v: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}
