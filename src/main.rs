//! The `arbiter` binary: hands over to the CLI module and exits with the code it returns.
fn main() {
    // A server runs for days and keeps the allocator's defaults, which give freed memory back sooner.
    if std::env::args_os()
        .nth(1)
        .is_none_or(|command| command != "serve")
    {
        tune_allocator();
    }
    std::process::exit(arbiter::cli::main());
}

/// glibc's allocator grows a heap by what each request needs: a `brk` or `mprotect` call per step. Loading
/// a ruleset (YAML, the JSON Schema validators, Rhai's engine) allocates a few megabytes in hundreds of
/// such steps, on the main thread and on the helper thread that compiles the validators. Asking for 16 MiB
/// of headroom at each growth makes them a handful: a command starts 0.2-1 ms sooner (`simulate --games
/// 1` of the shipped rulesets, alternated `perf stat -r 30` runs; the figures are in the commit that made
/// this). Headroom never written costs address space, not memory; memory freed at the top of a heap is
/// kept up to that much for the next growth.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_allocator() {
    // SAFETY: mallopt(3) only sets a parameter of the allocator; no thread has started yet.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_allocator() {}
