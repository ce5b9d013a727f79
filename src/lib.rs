//! Arbiter: a rules interpreter for turn-based strategy games written as data.
//!
//! A game is a ruleset folder (YAML plus a few Rhai scripts) and a scenario. `ruleset` parses and analyses
//! them into an immutable [`ruleset::Game`]; `engine` runs matches of it; `agents` choose actions;
//! `replay` records and verifies matches; `simulate` plays many; `cli` is the command line.
pub mod agents;
pub mod board;
pub mod cli;
pub mod diagnostic;
pub mod engine;
pub mod experiment;
pub mod ir;
pub mod limits;
pub mod model;
pub mod play;
pub mod render;
pub mod replay;
pub mod rng;
pub mod ruleset;
pub mod script;
pub mod simulate;
