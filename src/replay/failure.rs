//! Why a match script or replay could not be run: diagnostics and the exit code they call for.
use crate::diagnostic::Diagnostic;
use crate::engine::RunError;
use crate::ruleset::LoadError;

/// A failure with its diagnostics: exit 1 for invalid input, 2 for files that cannot be found or read.
#[derive(Debug, Clone)]
pub struct Failure {
    pub exit_code: i32,
    pub diagnostics: Vec<Diagnostic>,
}

impl Failure {
    /// Invalid input (exit 1).
    pub fn invalid(diagnostics: Vec<Diagnostic>) -> Self {
        Failure {
            exit_code: 1,
            diagnostics,
        }
    }

    /// A rule failed while running (a script error, say): the ruleset is at fault, so exit 1.
    pub fn run(e: &RunError) -> Self {
        Failure::invalid(vec![Diagnostic::error(
            "match::run_error",
            format!("the rules failed while running: {e}"),
        )])
    }

    /// The messages of every diagnostic, one per line, for places without a renderer.
    pub fn summary(&self) -> String {
        let lines: Vec<String> = self
            .diagnostics
            .iter()
            .map(|d| format!("[{}] {}", d.code, d.message))
            .collect();
        lines.join("; ")
    }
}

impl From<LoadError> for Failure {
    fn from(e: LoadError) -> Self {
        Failure {
            exit_code: e.exit_code(),
            diagnostics: e.diagnostics().to_vec(),
        }
    }
}
