//! The hardened Rhai engine: bounded operations, call depth, sizes; no eval, no printing, no modules, no time.
use rhai::Engine;

/// Operations one script call may run before it is stopped (an endless loop becomes an error).
pub const MAX_OPERATIONS: u64 = 1_000_000;

pub fn engine() -> Engine {
    let mut e = Engine::new();
    e.set_max_operations(MAX_OPERATIONS);
    e.set_max_call_levels(32);
    e.set_max_expr_depths(64, 32);
    e.set_max_string_size(10_000);
    e.set_max_array_size(10_000);
    e.set_max_map_size(1_000);
    e.set_strict_variables(true);
    e.disable_symbol("eval");
    e.on_print(|_| {});
    e.on_debug(|_, _, _| {});
    e.set_optimization_level(rhai::OptimizationLevel::Full);
    e
}
