//! Scripts: each file compiled once to list its functions (defined twice is a mistake); calls to functions
//! that exist nowhere, and literal variable or stat names the host API is called with that the ruleset does
//! not declare, are found before any match runs.
use std::sync::Arc;

use super::variables::Vars;
use super::Cx;
use crate::diagnostic::Diagnostic;
use crate::ir::game::{ScriptSource, Table};
use crate::ruleset::compile::closest;

/// The scripts of the game and their functions (name and number of parameters), in the order listed.
pub(super) fn inspect(
    cx: &mut Cx,
    tables: &[Table],
    vars: &Vars,
    unit_table: Option<u16>,
) -> (Vec<ScriptSource>, Vec<(String, usize)>) {
    let (src, rd, d) = (cx.src, cx.rd, &mut cx.d);
    let (player_vars, cell_vars, unit_vars) = (&vars.player, &vars.cell, &vars.unit);
    let failed_vars = &vars.failed;
    let mut script_fns: Vec<(String, usize)> = Vec::new();
    let mut scripts = Vec::new();
    for (i, s) in src.scripts.iter().enumerate() {
        match crate::script::inspect(&s.source.text) {
            Ok(fns) => {
                for f in fns {
                    if script_fns.iter().any(|(n, _)| *n == f.0) {
                        d.at(
                            rd,
                            &format!("/scripts/{i}"),
                            "script::duplicate_function",
                            format!("script function `{}` is defined twice", f.0),
                            None,
                        );
                    }
                    script_fns.push(f);
                }
            }
            Err(e) => {
                let span = line_col_offset(&s.source.text, e.line, e.column);
                d.list.push(
                    Diagnostic::error(
                        "script::compile",
                        format!("script does not compile: {}", e.message),
                    )
                    .at(s.source.clone(), span..span)
                    .hint("fix the Rhai syntax at this position"),
                );
            }
        }
        if let Ok(fns) = crate::script::inspect(&s.source.text) {
            let all: Vec<(String, usize)> = src
                .scripts
                .iter()
                .filter_map(|x| crate::script::inspect(&x.source.text).ok())
                .flatten()
                .chain(fns)
                .collect();
            for (name, off) in crate::script::unknown_calls(&s.source.text, &all) {
                d.list.push(
                    Diagnostic::error(
                        "script::unknown_function",
                        format!("`{name}` is not a function of the scripts, the host API or Rhai"),
                    )
                    .at(s.source.clone(), off..off + name.len())
                    .hint(
                        match closest(
                            &name,
                            all.iter()
                                .map(|(n, _)| n.as_str())
                                .chain(crate::script::HOST_FUNCTIONS.iter().copied()),
                        ) {
                            Some(c) => format!("did you mean `{c}`?"),
                            None => "see the host API in docs/ruleset-language.md".into(),
                        },
                    ),
                );
            }
        }
        for (f, lit, off) in crate::script::literal_names(&s.source.text) {
            let known = match f.as_str() {
                "stat" => unit_table.map(|t| tables[t as usize].column(&lit).is_some()),
                "cell_var" | "cell_var_of" | "set_cell_var" | "set_cell_var_of" => {
                    Some(cell_vars.iter().any(|v| v.name == lit))
                }
                "unit_var" | "set_unit_var" => Some(unit_vars.iter().any(|v| v.name == lit)),
                _ => Some(player_vars.iter().any(|v| v.name == lit)),
            };
            if known == Some(false) && !failed_vars.contains(&lit) {
                let candidates: Vec<String> = match f.as_str() {
                    "stat" => unit_table
                        .map(|t| {
                            tables[t as usize]
                                .columns
                                .iter()
                                .map(|c| c.0.clone())
                                .collect()
                        })
                        .unwrap_or_default(),
                    "cell_var" | "cell_var_of" | "set_cell_var" | "set_cell_var_of" => {
                        cell_vars.iter().map(|v| v.name.clone()).collect()
                    }
                    "unit_var" | "set_unit_var" => {
                        unit_vars.iter().map(|v| v.name.clone()).collect()
                    }
                    _ => player_vars.iter().map(|v| v.name.clone()).collect(),
                };
                let what = if f == "stat" { "unit stat" } else { "variable" };
                d.list.push(
                    Diagnostic::error(
                        "script::unknown_name",
                        format!("`{f}` refers to unknown {what} \"{lit}\""),
                    )
                    .at(s.source.clone(), off..off + lit.len())
                    .hint(
                        match closest(&lit, candidates.iter().map(|s| s.as_str())) {
                            Some(c) => format!("did you mean \"{c}\"?"),
                            None => format!("known: {}", candidates.join(", ")),
                        },
                    ),
                );
            }
        }
        scripts.push(ScriptSource {
            name: s.listed.clone(),
            path: s.source.name.clone(),
            text: Arc::from(s.source.text.as_str()),
        });
    }
    (scripts, script_fns)
}

fn line_col_offset(text: &str, line: usize, col: usize) -> usize {
    let mut off = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let mut chars = l.char_indices();
            let byte = chars.nth(col.saturating_sub(1)).map_or(l.len(), |(b, _)| b);
            return off + byte;
        }
        off += l.len();
    }
    text.len()
}
