//! What a report is drawn from: runs of many games, read from `simulate --format json` output (one JSON
//! object) or from an experiment's `results.jsonl` (one cell per line, INTERFACE.md section 13). Both
//! become [`Run`]s: the settings and agents that define the run, wins per seat, draws, and (when the
//! input has them) game lengths and end reasons.
use indexmap::IndexMap;
use serde_json::Value as Json;

/// One run of many games under one combination of settings and agents.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Where it came from: a file name, with `:LINE` for a line of a results file.
    pub source: String,
    pub ruleset: Option<String>,
    /// The overrides (dotted path to value) and the seats' agents (`p1`, `p2`, ...).
    pub cell: IndexMap<String, Json>,
    /// Every setting's effective value as `settings.NAME` (simulate output says; experiment lines
    /// do not): where a run has no override for a swept setting, this is its value.
    pub defaults: IndexMap<String, Json>,
    /// Seat names, in seat order.
    pub players: Vec<String>,
    pub games: u64,
    /// By seat.
    pub wins: Vec<u64>,
    pub draws: u64,
    pub mean_turns: Option<f64>,
    /// Finished games by final turn, ascending (empty when the input does not say).
    pub lengths: Vec<(i64, u64)>,
    /// Finished games by end reason (empty when the input does not say).
    pub reasons: Vec<(String, u64)>,
}

impl Run {
    /// The seats' agents, `p1 vs p2`.
    pub fn pairing(&self) -> String {
        let agents: Vec<String> = (1..=self.players.len().max(2))
            .filter_map(|i| self.cell.get(&format!("p{i}")).map(text))
            .collect();
        if agents.is_empty() {
            "agents not given".into()
        } else {
            agents.join(" vs ")
        }
    }

    /// The pairing, after the ruleset's id when `with_ruleset` (runs of several games side by side).
    pub fn group(&self, with_ruleset: bool) -> String {
        match (&self.ruleset, with_ruleset) {
            (Some(id), true) => format!("{id}: {}", self.pairing()),
            _ => self.pairing(),
        }
    }

    /// The value of override or setting `key` in this run, if known.
    pub fn value(&self, key: &str) -> Option<&Json> {
        self.cell.get(key).or_else(|| self.defaults.get(key))
    }

    /// The values of `keys`, `key=value` joined by spaces (`settings.` left off; unknown ones left out).
    pub fn settings(&self, keys: &[String]) -> String {
        let parts: Vec<String> = keys
            .iter()
            .filter_map(|k| {
                self.value(k)
                    .map(|v| format!("{}={}", short_key(k), text(v)))
            })
            .collect();
        parts.join(" ")
    }

    /// The keys of the cell that are overrides (not agents).
    pub fn settings_keys(&self) -> impl Iterator<Item = &String> {
        self.cell.keys().filter(|k| !is_agent_key(k))
    }

    /// Pairing and the values of `keys` in one line.
    pub fn label(&self, keys: &[String]) -> String {
        let s = self.settings(keys);
        if s.is_empty() {
            self.pairing()
        } else {
            format!("{}, {s}", self.pairing())
        }
    }
}

/// The overrides and settings that take two or more values among the runs that know them, in the
/// order they first appear: what tells the runs apart.
pub fn varying_keys(runs: &[Run]) -> Vec<String> {
    let mut keys: Vec<&String> = Vec::new();
    for r in runs {
        for k in r.settings_keys() {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    for r in runs {
        for k in r.defaults.keys() {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    keys.into_iter()
        .filter(|k| {
            let mut known = runs.iter().filter_map(|r| r.value(k));
            let first = known.next();
            known.any(|v| Some(v) != first)
        })
        .cloned()
        .collect()
}

/// `p1`, `p2`, ...: the seats' agents in a cell.
pub fn is_agent_key(k: &str) -> bool {
    k.strip_prefix('p')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// A setting's path without the `settings.` every setting starts with.
pub fn short_key(k: &str) -> &str {
    k.strip_prefix("settings.").unwrap_or(k)
}

/// A value as a person reads it (strings without quotes).
pub fn text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        _ => v.to_string(),
    }
}

fn count(v: &Json, what: &str) -> Result<u64, String> {
    v.as_u64()
        .ok_or_else(|| format!("`{what}` is not a whole number of games"))
}

/// Wins by seat from a `wins` object (seat order as written).
fn wins(v: &Json) -> Result<(Vec<String>, Vec<u64>), String> {
    let Json::Object(m) = v else {
        return Err("`wins` is not an object of seats".into());
    };
    let mut players = Vec::new();
    let mut counts = Vec::new();
    for (p, n) in m {
        players.push(p.clone());
        counts.push(count(n, &format!("wins.{p}"))?);
    }
    Ok((players, counts))
}

fn lengths(v: Option<&Json>) -> Result<Vec<(i64, u64)>, String> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    let bad = || "`lengths` is not a list of [turns, games] pairs".to_string();
    let items = v.as_array().ok_or_else(bad)?;
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let pair = item.as_array().filter(|p| p.len() == 2).ok_or_else(bad)?;
        let t = pair[0].as_i64().ok_or_else(bad)?;
        let n = pair[1].as_u64().ok_or_else(bad)?;
        out.push((t, n));
    }
    out.sort();
    Ok(out)
}

fn reasons(v: Option<&Json>) -> Result<Vec<(String, u64)>, String> {
    match v {
        None => Ok(Vec::new()),
        Some(Json::Object(m)) => m
            .iter()
            .map(|(k, n)| Ok((k.clone(), count(n, &format!("reasons.{k}"))?)))
            .collect(),
        Some(_) => Err("`reasons` is not an object of counts".into()),
    }
}

fn check(run: &Run) -> Result<(), String> {
    let total = run.wins.iter().fold(run.draws, |a, w| a.saturating_add(*w));
    if total > run.games {
        return Err(format!("{} wins and draws in {} games", total, run.games));
    }
    if run.players.is_empty() {
        return Err("`wins` names no seat".into());
    }
    Ok(())
}

/// A run from the output of `simulate --format json`.
pub fn from_simulate(source: &str, v: &Json) -> Result<Run, String> {
    let field = |k: &str| v.get(k).ok_or_else(|| format!("no `{k}` field"));
    let (players, wins) = wins(field("wins")?)?;
    let mut cell = IndexMap::new();
    if let Some(Json::Object(o)) = v.get("overrides") {
        for (k, x) in o {
            cell.insert(k.clone(), x.clone());
        }
    }
    if let Some(Json::Array(agents)) = v.get("agents") {
        for (i, a) in agents.iter().enumerate() {
            cell.insert(format!("p{}", i + 1), a.clone());
        }
    }
    let defaults = match v.get("settings") {
        Some(Json::Object(o)) => o
            .iter()
            .map(|(k, x)| (format!("settings.{k}"), x.clone()))
            .collect(),
        _ => IndexMap::new(),
    };
    let run = Run {
        source: source.to_string(),
        ruleset: v.get("ruleset").and_then(Json::as_str).map(str::to_string),
        cell,
        defaults,
        players,
        games: count(field("games")?, "games")?,
        wins,
        draws: count(field("draws")?, "draws")?,
        mean_turns: v.get("mean_turns").and_then(Json::as_f64),
        lengths: lengths(v.get("lengths"))?,
        reasons: reasons(v.get("reasons"))?,
    };
    check(&run)?;
    Ok(run)
}

/// A run from one line of an experiment's `results.jsonl`.
pub fn from_experiment_line(source: &str, v: &Json) -> Result<Run, String> {
    let field = |k: &str| v.get(k).ok_or_else(|| format!("no `{k}` field"));
    let Json::Object(cell) = field("cell")? else {
        return Err("`cell` is not an object".into());
    };
    let (players, wins) = wins(field("wins")?)?;
    let run = Run {
        source: source.to_string(),
        ruleset: v.get("ruleset").and_then(Json::as_str).map(str::to_string),
        cell: cell.iter().map(|(k, x)| (k.clone(), x.clone())).collect(),
        defaults: IndexMap::new(),
        players,
        games: count(field("games")?, "games")?,
        wins,
        draws: count(field("draws")?, "draws")?,
        mean_turns: v.get("mean_turns").and_then(Json::as_f64),
        lengths: lengths(v.get("lengths"))?,
        reasons: reasons(v.get("reasons"))?,
    };
    check(&run)?;
    Ok(run)
}

/// The runs in `text` read from `source`: one JSON object written by `simulate --format json`, or JSON
/// lines of an experiment (blank lines skipped). A mistake names the source and line.
pub fn parse(source: &str, text: &str) -> Result<Vec<Run>, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(format!("{source}: empty (no results to chart)"));
    }
    // A whole document that parses is simulate's output; otherwise it is JSON lines.
    if let Ok(v) = serde_json::from_str::<Json>(trimmed) {
        if v.get("cell").is_none() {
            return from_simulate(source, &v)
                .map(|r| vec![r])
                .map_err(|e| format!("{source}: not `simulate --format json` output: {e}"));
        }
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{source}:{}", i + 1);
        let v: Json = serde_json::from_str(line).map_err(|e| format!("{at}: not JSON: {e}"))?;
        out.push(from_experiment_line(&at, &v).map_err(|e| format!("{at}: {e}"))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_both_inputs() {
        let sim = json!({"games": 10, "wins": {"A": 6, "B": 3}, "draws": 1, "mean_turns": 4.5,
            "agents": ["greedy", "random"], "overrides": {"settings.x": 2},
            "lengths": [[5, 4], [4, 6]], "reasons": {"cap": 10}});
        let runs = parse("s.json", &sim.to_string()).unwrap();
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        assert_eq!(r.players, vec!["A", "B"]);
        assert_eq!(r.wins, vec![6, 3]);
        assert_eq!(r.lengths, vec![(4, 6), (5, 4)]);
        assert_eq!(
            r.label(&["settings.x".to_string()]),
            "greedy vs random, x=2"
        );
        assert_eq!(r.label(&[]), "greedy vs random");
        let lines = format!(
            "{}\n\n{}\n",
            json!({"cell": {"settings.x": 1, "p1": "a", "p2": "b"}, "games": 4, "wins": {"P1": 1, "P2": 2}, "draws": 1,
                   "win_rate": {"P1": [0.0, 0.25, 0.7]}, "mean_turns": 3.0}),
            json!({"cell": {"settings.x": 2, "p1": "a", "p2": "b"}, "games": 4, "wins": {"P1": 4, "P2": 0}, "draws": 0})
        );
        let runs = parse("results.jsonl", &lines).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1].source, "results.jsonl:3");
        assert_eq!(varying_keys(&runs), vec!["settings.x".to_string()]);
        assert_eq!(runs[1].settings(&varying_keys(&runs)), "x=2");
    }

    #[test]
    fn mistakes_are_messages() {
        assert!(parse("e", "").unwrap_err().contains("empty"));
        assert!(parse("e", "{\"games\": 3}")
            .unwrap_err()
            .contains("no `wins`"));
        let e = parse(
            "r.jsonl",
            "{\"cell\": {}, \"games\": 1, \"wins\": {\"A\": 2}, \"draws\": 0}\n",
        )
        .unwrap_err();
        assert!(
            e.starts_with("r.jsonl:1: 2 wins and draws in 1 games"),
            "{e}"
        );
        assert!(parse("r.jsonl", "{\"cell\": {}}\nnot json\n")
            .unwrap_err()
            .contains("r.jsonl:1"));
        let huge = format!(
            "{{\"games\": 1, \"wins\": {{\"A\": {m}, \"B\": {m}}}, \"draws\": {m}}}",
            m = u64::MAX
        );
        assert!(parse("h", &huge)
            .unwrap_err()
            .contains("wins and draws in 1 games"));
    }
}
