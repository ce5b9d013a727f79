//! `arbiter report DIR|FILE... [-o report.html]`: reads `simulate --format json` outputs and experiment
//! results (a folder's `results.jsonl`, or such a file) and writes the report page of charts; and
//! `simulate --report FILE.html`, the same page for the games just simulated.
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use super::args::ReportArgs;
use super::output::fail;
use super::view::{beside, write_page};
use super::{INVALID, USAGE};
use crate::render::report::{parse, report as report_page, runs::from_simulate, Run};

/// The file an experiment folder keeps its results in (INTERFACE.md section 13).
const RESULTS: &str = "results.jsonl";

/// The ruleset id an experiment folder's `manifest.json` names (`experiment.ruleset.id`), if any: results
/// lines do not carry it.
fn manifest_ruleset(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("manifest.json")).ok()?;
    let v: Json = serde_json::from_str(&text).ok()?;
    v["experiment"]["ruleset"]["id"]
        .as_str()
        .map(str::to_string)
}

/// Where the page goes without `-o`: `report.html` in the first folder, else beside the first file.
fn default_out(first: &Path) -> PathBuf {
    if first.is_dir() {
        first.join("report.html")
    } else {
        beside(first)
    }
}

pub fn report(a: &ReportArgs) -> i32 {
    let mut runs: Vec<Run> = Vec::new();
    let mut names = Vec::new();
    for input in &a.inputs {
        let ruleset = if input.is_dir() {
            manifest_ruleset(input)
        } else {
            input.parent().and_then(manifest_ruleset)
        };
        let file = if input.is_dir() {
            let f = input.join(RESULTS);
            if !f.is_file() {
                return fail(
                    USAGE,
                    format!(
                        "{} holds no {RESULTS} (an experiment folder, written by `arbiter experiment run`)",
                        input.display()
                    ),
                );
            }
            f
        } else {
            input.clone()
        };
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => return fail(USAGE, format!("cannot read {}: {e}", file.display())),
        };
        match parse(&file.display().to_string(), &text) {
            Ok(r) => runs.extend(r.into_iter().map(|mut run| {
                if run.ruleset.is_none() {
                    run.ruleset.clone_from(&ruleset);
                }
                run
            })),
            Err(e) => return fail(INVALID, e),
        }
        names.push(input.display().to_string());
    }
    if runs.is_empty() {
        return fail(INVALID, "no results to chart: every input is empty");
    }
    let page = report_page(&runs, &names);
    let out = a.out.clone().unwrap_or_else(|| default_out(&a.inputs[0]));
    write_page(&out, &page, &format!("{} runs", runs.len()))
}

/// `simulate --report FILE.html`: the page for `json`, the simulate output just written.
pub fn write_report(path: &Path, json: &Json) -> i32 {
    match from_simulate("simulate", json) {
        Ok(run) => write_page(
            path,
            &report_page(&[run], &["simulate".to_string()]),
            "1 run",
        ),
        Err(e) => fail(INVALID, format!("cannot chart these results: {e}")),
    }
}
