//! Self-contained HTML pages (inline SVG, CSS and script; nothing loaded from anywhere): the replay
//! viewer of `arbiter view`. Cells are labelled by the same display model as the terminal drawing.
pub mod board;
pub mod escape;
pub mod frames;
pub mod layout;
pub mod page;
pub mod position;
pub mod viewer;

pub use frames::Encoder;
pub use position::Position;
pub use viewer::{viewer, viewer_of, MatchInfo};
