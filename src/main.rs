//! The `arbiter` binary: hands over to the CLI module and exits with the code it returns.
fn main() {
    std::process::exit(arbiter::cli::main());
}
