//! `arbiter serve`: finds the rulesets to offer (the `rulesets/` folders of the current directory, the
//! `arbiter.toml` search folders and the installed project, first one of an id wins), checks the address
//! (loopback unless `--public`), prints `listening on http://ADDR` and serves until stopped.
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::args::ServeArgs;
use super::output::fail;
use super::USAGE;
use crate::ruleset::load::{load, read_source, roots};
use crate::ruleset::yaml;
use crate::server::{self, Limits, RulesetEntry, ServeConfig};

pub fn serve(a: &ServeArgs) -> i32 {
    let addr: SocketAddr = match a.addr.parse() {
        Ok(x) => x,
        Err(_) => {
            return fail(
                USAGE,
                format!("--addr `{}`: not IP:PORT, e.g. 127.0.0.1:8080", a.addr),
            )
        }
    };
    if !addr.ip().is_loopback() && !a.public {
        return fail(
            USAGE,
            format!(
                "--addr {addr} is not a loopback address: add --public to let other machines in (read the security notes in docs/agents.md first)"
            ),
        );
    }
    if a.max_matches == 0 || a.idle_timeout == 0 || a.workers == Some(0) {
        return fail(
            USAGE,
            "--max-matches, --idle-timeout and --workers must be at least 1",
        );
    }
    let catalogue = catalogue();
    if catalogue.is_empty() {
        return fail(
            USAGE,
            "no ruleset to serve: run it where a rulesets/ folder is",
        );
    }
    let workers = a.workers.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .max(2)
    });
    let cfg = ServeConfig {
        addr,
        catalogue,
        limits: Limits {
            max_matches: a.max_matches,
            idle: Duration::from_secs(a.idle_timeout),
            max_body: server::MAX_BODY,
        },
        workers,
    };
    let public = a.public && !addr.ip().is_loopback();
    let result = server::serve(cfg, |bound| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on http://{bound}");
        let _ = out.flush();
        if public {
            eprintln!("warning: serving on {bound}, reachable from other machines: anyone who reaches it can create matches and read every match's state and replay");
        }
    });
    match result {
        Ok(()) => super::OK,
        Err(e) => fail(USAGE, e),
    }
}

/// Every ruleset folder under the search roots that loads, first one of an id wins.
fn catalogue() -> Vec<RulesetEntry> {
    let mut out: Vec<RulesetEntry> = Vec::new();
    for root in roots() {
        let Ok(dir) = std::fs::read_dir(root.join("rulesets")) else {
            continue;
        };
        let mut folders: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        folders.sort();
        for folder in folders {
            let path = folder.join("ruleset.yaml");
            if !path.is_file() {
                continue;
            }
            let Ok(loaded) = load(&path.display().to_string(), None, &[]) else {
                eprintln!(
                    "warning: {} does not load (arbiter validate says why); not served",
                    path.display()
                );
                continue;
            };
            let g = &loaded.game;
            if out.iter().any(|r| r.id == g.id) {
                continue;
            }
            out.push(RulesetEntry {
                id: g.id.clone(),
                version: g.version.clone(),
                title: title(&path),
                players: g.players.clone(),
                scenarios: scenarios(&path, &g.id, &g.scenario),
                path,
            });
        }
    }
    out
}

/// The `title` of a ruleset file.
fn title(path: &Path) -> Option<String> {
    let doc = yaml::parse(read_source(path).ok()?).ok()?;
    doc.value.get("title")?.as_str().map(str::to_string)
}

/// The scenario names a ruleset can be played with: its default first, then the files beside it and
/// under the project's `scenarios/<id>/`, by name.
fn scenarios(ruleset: &Path, id: &str, default: &str) -> Vec<String> {
    let mut dirs = Vec::new();
    if let Some(project) = ruleset
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
    {
        dirs.push(project.join("scenarios").join(id));
    }
    if let Some(dir) = ruleset.parent() {
        dirs.push(dir.join("scenarios"));
    }
    let mut names: Vec<String> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let p = e.path();
            (p.extension().is_some_and(|x| x == "yaml"))
                .then(|| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .flatten()
        })
        .filter(|n| n != default)
        .collect();
    names.sort();
    names.dedup();
    names.insert(0, default.to_string());
    names
}
