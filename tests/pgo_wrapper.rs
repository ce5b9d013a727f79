//! The rustc wrapper of `pgo/` (see pgo/README.md), run for real with a stand-in compiler that prints the
//! arguments it was given: the profile is added to optimised builds by the compiler that made it, and to
//! nothing else. A wrapper that silently stopped adding it would only make release builds slower; one
//! that added it wrongly would break every build on another toolchain.
mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Held by each test that writes and runs scripts: a test forking while another still has its fresh
/// script open for writing would make that script fail to start ("text file busy"), so they take turns.
static SCRIPTS: Mutex<()> = Mutex::new(());

fn take_turn() -> std::sync::MutexGuard<'static, ()> {
    SCRIPTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// A copy of the wrapper beside a profile made by compiler `commit` (a file with no counters: the
/// stand-in compiler never reads it), and a stand-in `rustc` reporting commit `ours`.
fn setup(test: &str, commit: Option<&str>, ours: &str) -> (PathBuf, PathBuf) {
    let dir = support::scratch("pgo_wrapper", test);
    let pgo = dir.join("pgo");
    std::fs::create_dir_all(&pgo).unwrap();
    std::fs::copy(
        support::root().join("pgo/rustc-wrapper"),
        pgo.join("rustc-wrapper"),
    )
    .unwrap();
    std::fs::write(pgo.join("arbiter.profdata"), b"").unwrap();
    if let Some(c) = commit {
        std::fs::write(pgo.join("rustc-commit"), format!("{c}\n")).unwrap();
    }
    let rustc = dir.join("rustc");
    std::fs::write(
        &rustc,
        format!(
            "#!/bin/sh\nif [ \"$1\" = -vV ]; then echo 'rustc 1.0.0'; echo 'commit-hash: {ours}'; exit 0; fi\n\
             for a in \"$@\"; do echo \"$a\"; done\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&rustc, std::fs::Permissions::from_mode(0o755)).unwrap();
    (pgo.join("rustc-wrapper"), rustc)
}

/// The arguments the stand-in compiler received through the wrapper, run as Cargo runs it (an executable:
/// the copy keeps the checked-in file's mode).
fn through(wrapper: &Path, rustc: &Path, args: &[&str]) -> Vec<String> {
    let out = Command::new(wrapper)
        .arg(rustc)
        .args(args)
        .output()
        .expect("sh runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

const RELEASE: &[&str] = &["--crate-name", "arbiter", "-C", "opt-level=3", "src/lib.rs"];

#[test]
fn optimised_builds_by_the_profiles_compiler_use_it() {
    let _turn = take_turn();
    let (wrapper, rustc) = setup("same_compiler", Some("abc123"), "abc123");
    let got = through(&wrapper, &rustc, RELEASE);
    let profile = wrapper.parent().unwrap().join("arbiter.profdata");
    assert_eq!(&got[..RELEASE.len()], RELEASE);
    assert!(
        got.contains(&format!("-Cprofile-use={}", profile.display())),
        "{got:?}"
    );
    // Functions edited since the profile was made would each print an LLVM warning.
    assert!(got.contains(&"-Cllvm-args=-no-pgo-warn-mismatch".to_string()));
    // The layout that uses the profile's block frequencies.
    assert!(got.contains(&"-Cllvm-args=-enable-ext-tsp-block-placement".to_string()));
}

#[test]
fn other_builds_and_compilers_run_unchanged() {
    let _turn = take_turn();
    let (wrapper, rustc) = setup("others", Some("abc123"), "abc123");
    // A debug build (clippy and `cargo test` without --release are these).
    let debug = ["--crate-name", "arbiter", "-C", "debuginfo=2", "src/lib.rs"];
    assert_eq!(through(&wrapper, &rustc, &debug), debug);
    // The training build, which instruments instead.
    let mut training = RELEASE.to_vec();
    training.push("-Cprofile-generate=/tmp/raw");
    assert_eq!(through(&wrapper, &rustc, &training), training);
    // Another compiler: the profile is not its own.
    let (wrapper, rustc) = setup("other_compiler", Some("abc123"), "def456");
    assert_eq!(through(&wrapper, &rustc, RELEASE), RELEASE);
    // No record of the compiler that made the profile.
    let (wrapper, rustc) = setup("no_record", None, "abc123");
    assert_eq!(through(&wrapper, &rustc, RELEASE), RELEASE);
}

#[test]
fn the_checked_in_profile_names_its_compiler() {
    let commit = std::fs::read_to_string(support::root().join("pgo/rustc-commit")).unwrap();
    let commit = commit.trim();
    assert!(
        commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit()),
        "pgo/rustc-commit holds `{commit}`, not a commit hash: rerun pgo/train.sh"
    );
    let profile = std::fs::metadata(support::root().join("pgo/arbiter.profdata")).unwrap();
    assert!(profile.len() > 0);
}

/// The features of every library the release binary uses, as `cargo tree` prints them (`name version
/// features`), for dependency kinds `edges`.
fn features(edges: &str) -> std::collections::BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(support::root())
        .args(["tree", "--locked", "--prefix", "none"])
        .args(["-e", edges, "-f", "{p} {f}"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim_end_matches(" (*)").trim_end().to_string())
        .collect()
}

/// `cargo bench` and `cargo test --release` build this crate's library with its dev-dependencies, whose
/// features are unified with the release binary's dependencies. Were a shared dependency given a feature
/// there that the binary's build does not give it, the library would be another build (other symbol
/// hashes) that the profile does not fit: benchmarks would run ~16% slower than the binary they stand for.
/// So every crate of the binary's tree has the same features in both.
#[test]
fn benchmarks_build_the_library_the_profile_was_made_for() {
    let normal = features("normal");
    let with_dev = features("normal,dev");
    let name_of = |l: &String| l.split(' ').take(2).collect::<Vec<_>>().join(" ");
    let shipped: std::collections::BTreeSet<String> = normal.iter().map(name_of).collect();
    let differing: Vec<&String> = with_dev
        .iter()
        .filter(|l| shipped.contains(&name_of(l)) && !normal.contains(*l))
        .collect();
    assert!(
        differing.is_empty(),
        "dev-dependencies add features to crates the binary uses: {differing:?}; give the binary's \
         dependencies the same features in Cargo.toml (see the comment on clap there)"
    );
}
