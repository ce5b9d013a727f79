//! Fuzz target `replay`: see tests/fuzz_support/mod.rs for what it runs, docs/fuzzing.md for how.
#![no_main]
#[path = "../../tests/fuzz_support/mod.rs"]
mod support;

#[allow(dead_code)]
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = support::replay(std::path::Path::new(ROOT), data);
});
