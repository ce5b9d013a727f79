//! `arbiter validate`: every file's problems, as miette text on stderr or a JSON array on stdout.
use std::path::{Path, PathBuf};

use super::args::{Format, ValidateArgs};
use super::output::{json_text, print_diagnostics, write_output};
use super::{INVALID, OK, USAGE};
use crate::diagnostic::{render_json, Diagnostic, Severity};
use crate::ruleset::explain::explain;
use crate::ruleset::load::{parse_override, validate_file};

/// Files in `dir` (one level) whose name satisfies `keep`, sorted.
fn files_in(dir: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| keep(p))
            .collect(),
        Err(_) => Vec::new(),
    };
    out.sort();
    out
}

fn is_yaml(p: &Path) -> bool {
    p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml")
}

/// Every `.yaml` file under `dir`, at any depth, sorted.
fn yaml_tree(dir: &Path, out: &mut Vec<PathBuf>) {
    out.extend(files_in(dir, &is_yaml));
    for sub in files_in(dir, &|p: &Path| p.is_dir()) {
        yaml_tree(&sub, out);
    }
}

/// The default set: each `rulesets/*/ruleset.yaml` and its conformance cases, and every scenario.
pub fn default_paths() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for dir in files_in(Path::new("rulesets"), &|p: &Path| p.is_dir()) {
        let r = dir.join("ruleset.yaml");
        if r.is_file() {
            paths.push(r);
        }
        paths.extend(files_in(&dir.join("conformance"), &is_yaml));
    }
    yaml_tree(Path::new("scenarios"), &mut paths);
    paths
}

pub fn validate(a: &ValidateArgs) -> i32 {
    let paths = if a.paths.is_empty() {
        default_paths()
    } else {
        a.paths.clone()
    };
    if a.explain && a.format == Format::Json {
        return super::output::fail(USAGE, "--explain prints text: leave out --format json");
    }
    let mut overrides = Vec::new();
    for kv in &a.set {
        match parse_override(kv) {
            Ok(o) => overrides.push(o),
            Err(e) => return super::output::fail(USAGE, format!("--set {e}")),
        }
    }
    let mut all: Vec<Diagnostic> = Vec::new();
    let mut explained = String::new();
    let mut unreadable = false;
    for path in &paths {
        match validate_file(path, &overrides) {
            Ok(v) => {
                let valid = v.diagnostics.iter().all(|d| d.severity != Severity::Error);
                if let (true, true, Some(game)) = (a.explain, valid, &v.game) {
                    explained.push_str(&format!("{}: {}", path.display(), explain(game)));
                }
                all.extend(v.diagnostics);
            }
            Err(d) => {
                unreadable = true;
                all.push(d);
            }
        }
    }
    if !explained.is_empty() && write_output(None, &explained) != OK {
        return USAGE;
    }
    let errors = all.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = all.len() - errors;
    let written = match a.format {
        Format::Json => write_output(None, &json_text(&render_json(&all))),
        Format::Text => {
            print_diagnostics(&all);
            let files = if paths.len() == 1 { "file" } else { "files" };
            let plural = |n: usize| if n == 1 { "" } else { "s" };
            let and_warnings = match warnings {
                0 => String::new(),
                w => format!(", {w} warning{}", plural(w)),
            };
            match errors {
                0 => eprintln!("{} {files} valid{and_warnings}", paths.len()),
                n => eprintln!(
                    "{n} error{}{and_warnings} in {} {files}",
                    plural(n),
                    paths.len()
                ),
            }
            OK
        }
    };
    if unreadable || written != OK {
        USAGE
    } else if errors > 0 {
        INVALID
    } else {
        OK
    }
}
