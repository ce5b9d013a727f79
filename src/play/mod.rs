//! A person at the keyboard: the short text form of actions and the line interpreter of `arbiter play`.
pub mod session;
pub mod text;
