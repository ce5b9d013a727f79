//! Architecture invariants, stated as absences (rust-analyzer's habit): the engine names no game; only
//! `script` imports rhai; only `server` and `cli` import tokio and axum; only `cli` prints or exits; only
//! `ruleset::load`, `replay` file readers, `experiment::store` and `cli` touch the filesystem; every source
//! file says what it owns on its first line; no file runs past ~800 lines.
use std::path::{Path, PathBuf};

fn sources() -> Vec<(PathBuf, String)> {
    rust_files("src")
}

/// Every `.rs` file under `dir` (relative to the crate root), in path order, with its text.
fn rust_files(dir: &str) -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("src/")
            .filter_map(|e| e.ok())
            .collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).expect("readable");
                out.push((p, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir),
        &mut out,
    );
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(p)
        .display()
        .to_string()
}

/// Words of the canonical games: ruleset ids, units, ground, resources and their ids.
const GAME_WORDS: &[&str] = &[
    "asg",
    "attrition",
    "strategic_influence",
    "strategic influence",
    "infantry",
    "cavalry",
    "archer",
    "stronghold",
    "fortif",
    "shield_wall",
    "shieldwall",
    "lumber",
    "gold_mine",
    "crown",
    "reinforce",
    "supply",
    "stone",
    "p1_hq",
    "p2_hq",
    "deploy_a",
    "deploy_b",
    "high_ground",
    "forest",
    "terrain",
    // The games shipped as data beyond the canonical three (issue 9).
    "breakthrough",
    "pawn",
    "conquest",
    "armies",
    "blotto",
    "battlefield",
];

#[test]
fn the_engine_names_no_game() {
    let mut hits = Vec::new();
    for (path, text) in sources() {
        for (i, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for w in GAME_WORDS {
                // Whole-word-ish match: the word not glued to other letters on its left.
                let mut from = 0;
                while let Some(at) = lower[from..].find(w) {
                    let start = from + at;
                    let before = lower[..start].chars().last();
                    if !before.is_some_and(|c| c.is_ascii_alphabetic()) {
                        hits.push(format!(
                            "{}:{}: `{w}` in: {}",
                            rel(&path),
                            i + 1,
                            line.trim()
                        ));
                    }
                    from = start + w.len();
                }
            }
            if lower.contains("\"hq\"") || lower.contains(" hq ") {
                hits.push(format!(
                    "{}:{}: `hq` in: {}",
                    rel(&path),
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "game words in src/ (move the knowledge into a ruleset):\n{}",
        hits.join("\n")
    );
}

#[test]
fn only_the_script_module_imports_rhai() {
    for (path, text) in sources() {
        let r = rel(&path);
        if r.starts_with("src/script/") {
            continue;
        }
        assert!(
            !text.contains("rhai::") && !text.contains("use rhai"),
            "{r} uses rhai directly"
        );
    }
}

#[test]
fn only_the_server_and_the_cli_import_the_http_stack() {
    for (path, text) in sources() {
        let r = rel(&path);
        if r.starts_with("src/server/") || r.starts_with("src/cli/") {
            continue;
        }
        for needle in ["tokio::", "axum::", "use tokio", "use axum"] {
            assert!(
                !text.contains(needle),
                "{r} uses {needle}: only src/server (and src/cli) may import the HTTP server stack"
            );
        }
    }
}

#[test]
fn only_the_cli_prints_or_exits() {
    for (path, text) in sources() {
        let r = rel(&path);
        if r.starts_with("src/cli/") || r == "src/main.rs" {
            continue;
        }
        for needle in [
            "println!",
            "eprintln!",
            "print!(",
            "eprint!(",
            "process::exit",
            "std::io::stdout",
            "std::io::stderr",
        ] {
            let code: Vec<&str> = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect();
            assert!(
                !code.iter().any(|l| l.contains(needle))
                    || r.contains("/tests")
                    || text.contains("#[cfg(test)]") && only_in_tests(&text, needle),
                "{r} uses {needle}: only src/cli prints or exits"
            );
        }
    }
}

/// Whether every use of `needle` is inside the file's test module.
fn only_in_tests(text: &str, needle: &str) -> bool {
    match text.find("#[cfg(test)]") {
        Some(t) => !text[..t].contains(needle),
        None => false,
    }
}

#[test]
fn only_loaders_and_the_cli_touch_the_filesystem() {
    let allowed = [
        "src/ruleset/load.rs",
        "src/replay/conformance.rs",
        "src/experiment/store.rs",
    ];
    for (path, text) in sources() {
        let r = rel(&path);
        if r.starts_with("src/cli/") || allowed.contains(&r.as_str()) {
            continue;
        }
        let code = match text.find("#[cfg(test)]") {
            Some(t) => &text[..t],
            None => &text[..],
        };
        for needle in [
            "std::fs",
            "fs::read",
            "fs::write",
            "File::open",
            "File::create",
        ] {
            assert!(
                !code.contains(needle),
                "{r} touches the filesystem ({needle})"
            );
        }
    }
}

/// One concept per file: a file longer than this is split along its seams (tests included).
const MAX_FILE_LINES: usize = 850;

#[test]
fn no_source_file_is_too_long() {
    let long: Vec<String> = ["src", "tests", "benches"]
        .iter()
        .flat_map(|dir| rust_files(dir))
        .filter(|(_, text)| text.lines().count() > MAX_FILE_LINES)
        .map(|(path, text)| format!("{} ({} lines)", rel(&path), text.lines().count()))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines; split each along its seams: {}",
        long.join(", ")
    );
}

#[test]
fn every_source_file_starts_with_a_module_doc() {
    for (path, text) in sources() {
        assert!(
            text.starts_with("//!"),
            "{} must start with a `//!` line saying what it owns",
            rel(&path)
        );
    }
}

/// What each top-level module may import, bottom layer first: vocabulary (`model`, `board`, `rng`,
/// `diagnostic`, `limits`) → `ir` (the typed program) → `script` → the front end (`ruleset`) and the
/// `engine`, which never import each other → `agents`, `replay` → `simulate` and the surfaces built on them
/// → `cli`. Nothing imports upward, so there is no cycle between top-level modules.
const LAYERS: &[(&str, &[&str])] = &[
    ("limits", &[]),
    ("rng", &[]),
    ("diagnostic", &[]),
    ("board", &["limits"]),
    ("model", &["board", "limits"]),
    ("ir", &["model", "board", "rng", "limits"]),
    ("script", &["ir", "model", "board", "rng", "limits"]),
    (
        "ruleset",
        &[
            "script",
            "ir",
            "model",
            "board",
            "rng",
            "diagnostic",
            "limits",
        ],
    ),
    (
        "engine",
        &["script", "ir", "model", "board", "rng", "limits"],
    ),
    (
        "agents",
        &[
            "engine",
            "script",
            "ir",
            "model",
            "board",
            "rng",
            "diagnostic",
            "limits",
        ],
    ),
    (
        "render",
        &["simulate", "engine", "ir", "model", "board", "limits"],
    ),
    (
        "replay",
        &[
            "engine",
            "ruleset",
            "script",
            "ir",
            "model",
            "board",
            "rng",
            "diagnostic",
            "limits",
        ],
    ),
    (
        "simulate",
        &[
            "agents",
            "replay",
            "engine",
            "ruleset",
            "script",
            "ir",
            "model",
            "board",
            "rng",
            "diagnostic",
            "limits",
        ],
    ),
    (
        "server",
        &[
            "agents",
            "replay",
            "engine",
            "ruleset",
            "ir",
            "model",
            "board",
            "rng",
            "diagnostic",
            "limits",
        ],
    ),
    (
        "experiment",
        &[
            "simulate",
            "agents",
            "engine",
            "ruleset",
            "rng",
            "diagnostic",
            "limits",
        ],
    ),
    (
        "play",
        &[
            "render",
            "agents",
            "replay",
            "engine",
            "ir",
            "model",
            "board",
            "rng",
            "diagnostic",
            "limits",
        ],
    ),
];

/// The top-level modules a source file imports through `crate::` paths.
fn imports(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // `use crate::{a::x, b}`: every name at the start of a path inside the braces.
                let inner = group.split('}').next().unwrap_or("");
                for part in inner.split(',') {
                    let name: String = part
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push(name);
                    }
                }
                continue;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

#[test]
fn modules_import_only_the_layers_below_them() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for (path, text) in sources() {
        let Ok(inner) = path.strip_prefix(&src) else {
            continue;
        };
        let first = inner
            .components()
            .next()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .unwrap_or_default();
        let Some((_, allowed)) = LAYERS.iter().find(|(m, _)| *m == first) else {
            continue;
        };
        for m in imports(&text) {
            if m != first && !allowed.contains(&m.as_str()) {
                wrong.push(format!("{} imports crate::{m}", rel(&path)));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "imports against the layer order:\n{}",
        wrong.join("\n")
    );
}
