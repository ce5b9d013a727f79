//! The error of running rules: a script failure or an impossible operation the analysis could not rule out.

/// An error while running rules: a script failure or an impossible operation the analysis could not rule out.
#[derive(Debug, Clone, PartialEq)]
pub struct RunError {
    /// Boxed so results on the evaluation hot path stay small.
    pub message: Box<String>,
}

impl RunError {
    pub fn new(m: impl Into<String>) -> Self {
        RunError {
            message: Box::new(m.into()),
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message.as_str())
    }
}
