//! An independent model of the public ASG reference engine's ply loop and the controllers that play it,
//! for tests/asg_reference_model.rs (a module folder, so Cargo does not build it as a test of its own).
pub mod controllers;
pub mod model;
