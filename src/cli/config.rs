//! `arbiter.toml`: optional project settings read from the current directory at startup.
//!
//! ```toml
//! # Folders searched for bare ruleset and scenario names, after the current directory. Each holds
//! # `rulesets/<name>/` and `scenarios/<ruleset id>/`, like this repository.
//! search = ["../my-games", "/srv/arbiter/games"]
//! ```
use std::path::{Path, PathBuf};

use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    #[serde(default)]
    search: Vec<PathBuf>,
}

/// The file name looked for in the current directory.
pub const FILE: &str = "arbiter.toml";

/// Reads `arbiter.toml` if present and applies it; a broken file is reported (exit 2).
pub fn apply() -> Result<(), String> {
    let path = Path::new(FILE);
    if !path.is_file() {
        return Ok(());
    }
    if std::fs::metadata(path).is_ok_and(|m| m.len() > crate::limits::MAX_FILE_BYTES) {
        return Err(format!(
            "error[config::too_large]: {FILE} is larger than {} bytes (16 MiB)\n  help: the only key is `search = [\"folder\", ...]`",
            crate::limits::MAX_FILE_BYTES
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("error[config::unreadable]: cannot read {FILE}: {e}"))?;
    let config: Config = toml::from_str(&text).map_err(|e| {
        format!("error[config::invalid]: {FILE} is not a valid Arbiter configuration: {}\n  help: the only key is `search = [\"folder\", ...]`", e.message())
    })?;
    // Relative folders are relative to the file.
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    crate::ruleset::load::set_search_roots(
        config
            .search
            .into_iter()
            .map(|p| if p.is_absolute() { p } else { base.join(p) })
            .collect(),
    );
    Ok(())
}
