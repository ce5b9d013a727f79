//! Analysis: turns a parsed ruleset, its scenario and scripts into a `Game`, or reports every problem found,
//! each at the YAML line and column it comes from. Never fails half-way: it collects and goes on. `build`
//! calls one function per section of a ruleset, in order, over a shared context (`Cx`); a declaration that
//! fails is reported once, and its uses later are follow-ups, not further diagnostics.
mod actions;
mod agents;
mod board;
mod diags;
mod flow;
mod initial;
mod players;
mod position;
mod scripts;
mod settings;
mod tables;
mod types;
mod variables;
mod victory;

use std::sync::Arc;

use serde_json::Value as Json;

use self::diags::Diags;
use super::compile::{Catalog, Failed};
use super::raw::{RawRuleset, RawScenario};
use super::yaml::YamlDoc;
use crate::diagnostic::{Diagnostic, SourceFile};
use crate::ir::game::{Game, Symbols, SIGHT_SLOT};

/// A script file as read by the loader.
pub struct ScriptFile {
    pub listed: String,
    pub source: Arc<SourceFile>,
}

/// Everything analysis needs: the parsed documents (overrides already applied) and the scripts.
pub struct Sources {
    pub ruleset: YamlDoc,
    pub scenario: YamlDoc,
    pub scripts: Vec<ScriptFile>,
    /// `--set` overrides, for messages (the values are already in the documents).
    pub overrides: Vec<String>,
    /// The ruleset's settings as written, before overrides: their types are the settings' types.
    pub declared_settings: serde_json::Map<String, Json>,
}

/// What every section reads and writes: the sources, the diagnostics found so far, the interned names,
/// and the local slots the largest block of rules needs.
struct Cx<'s> {
    src: &'s Sources,
    /// The ruleset document.
    rd: &'s YamlDoc,
    /// The scenario document.
    sd: &'s YamlDoc,
    d: Diags,
    symbols: Symbols,
    /// The most local slots any block of rules (an action, a phase, a rule) uses.
    max_locals: usize,
}

/// Analyses the sources into a game, with the warnings found once it has no errors.
pub fn analyze(src: &Sources) -> Result<(Game, Vec<Diagnostic>), Vec<Diagnostic>> {
    let game = build(src)?;
    let warnings = super::warnings::warnings(&game, &src.ruleset);
    Ok((game, warnings))
}

fn build(src: &Sources) -> Result<Game, Vec<Diagnostic>> {
    let mut cx = Cx {
        src,
        rd: &src.ruleset,
        sd: &src.scenario,
        d: Diags::default(),
        symbols: Symbols::default(),
        max_locals: 0,
    };
    let Some((raw, scen)) = documents(&mut cx) else {
        return Err(cx.d.finish());
    };
    // Declarations.
    players::check(&mut cx, &raw);
    let (settings, rng) = settings::effective(&mut cx, &raw, &scen);
    let player_syms = players::intern(&mut cx, &raw);
    let tables = tables::build(&mut cx, &raw);
    let mut vars = variables::declare(&mut cx, &raw, &settings, &tables);
    let unit_table = tables::unit_table(&mut cx, &raw, &tables);
    let (scripts, script_fns) = scripts::inspect(&mut cx, &tables, &vars, unit_table);
    let failed = Failed {
        vars: &vars.failed,
        units: raw.units.is_some() && unit_table.is_none(),
        scripts: cx.d.list.iter().any(|x| x.code == "script::compile"),
    };
    let board = board::build(&mut cx, &raw.board, &scen);

    let stage_names = flow::stage_names(&raw);
    // Rules, compiled against the declarations.
    let cat = Catalog {
        players: &raw.players,
        settings: &settings,
        tables: &tables,
        player_vars: &vars.player,
        cell_vars: &vars.cell,
        unit_vars: &vars.unit,
        game_vars: &vars.game,
        board: board.as_ref(),
        unit_table,
        stages: &stage_names,
        script_fns: &script_fns,
        board_size: board.as_ref().map_or((0, 0), |b| (b.width(), b.height())),
        failed,
    };
    let cell_initials = variables::cell_initials(&mut cx, &cat, &raw);
    let sight = board::sight(&mut cx, &cat, &raw.board);
    let initial_owner = board::initial_owner(&mut cx, &cat, &raw.board);
    let (actions, wire_aliases) = actions::compile(&mut cx, &cat, &raw);
    let phases = flow::compile(&mut cx, &cat, &raw, &scen, &actions);
    let victory = victory::compile(&mut cx, &cat, &raw);
    let invariants = victory::invariants(&mut cx, &cat, &raw);
    let evaluations = agents::evaluations(&mut cx, &cat, &raw);
    for (i, e) in cell_initials {
        vars.cell[i].initial_expr = Some(e);
    }

    // The scenario's starting position.
    let Some(board) = board else {
        return Err(cx.d.finish());
    };
    let cell_syms: Vec<u32> = (0..board.len() as u32)
        .map(|c| cx.symbols.intern(board.id(c)))
        .collect();
    let (initial, scenario_owned) =
        position::build(&mut cx, &raw, &scen, &board, &tables, &vars, unit_table);
    let (display, problems) = crate::ruleset::display::resolve(
        raw.display.as_ref(),
        &crate::ruleset::display::Inputs {
            doc: cx.rd,
            board_raw: &raw.board,
            board: &board,
            nodes: &scen.board.nodes,
            players: &raw.players,
            cell_vars: &vars.cell,
            tables: &tables,
            unit_table,
        },
    );
    cx.d.list.extend(problems);

    if !cx.d.list.is_empty() || !cx.d.follow_ups.is_empty() {
        return Err(cx.d.finish());
    }
    let mut game = Game {
        id: raw.id.clone(),
        version: raw.version.clone(),
        digest: digest(src),
        scenario: scen.id.clone(),
        players: raw.players.clone(),
        player_syms,
        settings,
        // Filled in by the loader, which has the values.
        rule_overrides: Vec::new(),
        rng,
        board,
        cell_syms,
        sight,
        initial_owner,
        scenario_owned,
        symbols: cx.symbols,
        tables,
        player_vars: vars.player,
        cell_vars: vars.cell,
        unit_vars: vars.unit,
        game_vars: vars.game,
        player_slots: vars.player_slots,
        cell_slots: vars.cell_slots,
        unit_slots: vars.unit_slots,
        unit_table,
        unit_ids: raw
            .units
            .as_ref()
            .map_or_else(|| "{owner}-{n}".into(), |u| u.ids.clone()),
        wire_key: raw.wire.discriminator.clone(),
        wire_aliases,
        actions,
        phases,
        victory,
        invariants,
        evaluations,
        display,
        when_stuck: raw.when_stuck.unwrap_or_default(),
        when_stuck_declared: raw.when_stuck.is_some(),
        scripts,
        script_fns,
        script_native: Vec::new(),
        initial,
        max_locals: cx.max_locals.max(SIGHT_SLOT as usize + 16),
    };
    // Script functions within the native subset run as IR (their locals go above `max_locals`).
    crate::script::native::attach(&mut game);
    Ok(game)
}

/// The ruleset and the scenario as their serde mirrors (`None` if either does not fit, reported), and
/// whether the scenario is for this ruleset.
fn documents(cx: &mut Cx) -> Option<(RawRuleset, RawScenario)> {
    let (rd, sd, d) = (cx.rd, cx.sd, &mut cx.d);
    let raw: RawRuleset = match serde_json::from_value(rd.value.clone()) {
        Ok(r) => r,
        Err(e) => {
            d.at(
                rd,
                "",
                "ruleset::structure",
                format!("this ruleset's structure is not valid: {e}"),
                None,
            );
            return None;
        }
    };
    let scen: RawScenario = match serde_json::from_value(sd.value.clone()) {
        Ok(r) => r,
        Err(e) => {
            d.at(
                sd,
                "",
                "scenario::structure",
                format!("this scenario's structure is not valid: {e}"),
                None,
            );
            return None;
        }
    };
    if scen.ruleset != raw.id {
        d.at(
            sd,
            "/ruleset",
            "scenario::ruleset_mismatch",
            format!(
                "this scenario is for ruleset `{}`, not `{}`",
                scen.ruleset, raw.id
            ),
            None,
        );
    }
    Some((raw, scen))
}

/// The digest of the ruleset and its scripts, as replays record it.
fn digest(src: &Sources) -> String {
    use sha2::{Digest, Sha256};
    let mut input = src.ruleset.source.text.clone();
    for s in &src.scripts {
        input.push('\0');
        input.push_str(&s.source.text);
    }
    let h = Sha256::digest(input.as_bytes());
    let hex: String = h.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}
