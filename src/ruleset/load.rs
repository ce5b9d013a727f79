//! Finding and reading ruleset, scenario and script files; applying `--set` overrides; detecting the kind
//! of a document. With the CLI, the only module that touches the filesystem.
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value as Json;

use super::analyze::{analyze, ScriptFile, Sources};
use super::schemas::DocKind;
use super::yaml::{self, YamlDoc};
use super::Game;
use crate::diagnostic::{Diagnostic, SourceFile};
use crate::limits::MAX_FILE_BYTES;

/// A game loaded from files.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub game: Arc<Game>,
    /// What analysis found questionable but valid (shown by `validate`).
    pub warnings: Vec<Diagnostic>,
    pub ruleset_path: PathBuf,
    pub scenario_path: PathBuf,
}

/// Why loading failed: unreadable or missing files (exit 2) or invalid content (exit 1).
#[derive(Debug)]
pub enum LoadError {
    Unreadable(Vec<Diagnostic>),
    Invalid(Vec<Diagnostic>),
}

impl LoadError {
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            LoadError::Unreadable(d) | LoadError::Invalid(d) => d,
        }
    }
    pub fn exit_code(&self) -> i32 {
        match self {
            LoadError::Unreadable(_) => 2,
            LoadError::Invalid(_) => 1,
        }
    }
}

/// Extra folders (each holding `rulesets/` and `scenarios/`) from the project's `arbiter.toml`.
static SEARCH_ROOTS: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();

/// Adds folders searched for bare ruleset and scenario names (set once, at startup).
pub fn set_search_roots(roots: Vec<PathBuf>) {
    let _ = SEARCH_ROOTS.set(roots);
}

/// Folders searched for bare ruleset names: the current directory, then the installed project.
pub fn roots() -> Vec<PathBuf> {
    let mut r = vec![PathBuf::from(".")];
    if let Some(extra) = SEARCH_ROOTS.get() {
        r.extend(extra.iter().cloned());
    }
    let home = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if home.exists() {
        r.push(home);
    }
    r
}

/// Resolves `--ruleset R`: a folder, a `ruleset.yaml` path, or a bare name under `rulesets/`.
pub fn find_ruleset(arg: &str) -> Option<PathBuf> {
    let p = PathBuf::from(arg);
    if p.is_file() {
        return Some(p);
    }
    if p.is_dir() && p.join("ruleset.yaml").is_file() {
        return Some(p.join("ruleset.yaml"));
    }
    if !arg.contains('/') && !arg.contains('\\') {
        for root in roots() {
            let f = root.join("rulesets").join(arg).join("ruleset.yaml");
            if f.is_file() {
                return Some(f);
            }
        }
    }
    None
}

/// Resolves `--scenario S` for a ruleset: a path, or a bare name under `scenarios/<ruleset id>/`.
pub fn find_scenario(ruleset_path: &Path, ruleset_id: &str, arg: &str) -> Option<PathBuf> {
    let p = PathBuf::from(arg);
    if p.is_file() {
        return Some(p);
    }
    let file = if arg.ends_with(".yaml") {
        arg.to_string()
    } else {
        format!("{arg}.yaml")
    };
    let mut candidates = Vec::new();
    if let Some(project) = ruleset_path
        .parent()
        .and_then(|d| d.parent())
        .and_then(|d| d.parent())
    {
        candidates.push(project.join("scenarios").join(ruleset_id).join(&file));
    }
    if let Some(dir) = ruleset_path.parent() {
        candidates.push(dir.join("scenarios").join(&file));
    }
    for root in roots() {
        candidates.push(root.join("scenarios").join(ruleset_id).join(&file));
    }
    candidates.into_iter().find(|c| c.is_file())
}

/// The bytes of a file of at most [`MAX_FILE_BYTES`]; `Ok(Err(size))` for a larger one, which is not
/// read: its size is checked first, then reading stops one byte past the limit (a file that grows, or
/// reports no size, is caught too; `size` is then `None`).
fn read_limited(path: &Path) -> std::io::Result<Result<Vec<u8>, Option<u64>>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    if size > MAX_FILE_BYTES {
        return Ok(Err(Some(size)));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Ok(Err(None));
    }
    Ok(Ok(bytes))
}

/// Reads a file as text; an unreadable file, or one over [`MAX_FILE_BYTES`], is a diagnostic (exit 2).
#[allow(clippy::result_large_err)] // one diagnostic, once per file: size does not matter here
pub fn read_source(path: &Path) -> Result<Arc<SourceFile>, Diagnostic> {
    let name = path.display().to_string();
    match read_limited(path) {
        Ok(Err(size)) => {
            let size = size.map_or("more than that".to_string(), |n| format!("{n} bytes"));
            Err(Diagnostic::error(
                "io::too_large",
                format!(
                    "{name} is too large to read: files of at most {MAX_FILE_BYTES} bytes (16 MiB) are read, this one is {size}"
                ),
            )
            .at(
                Arc::new(SourceFile {
                    name,
                    text: String::new(),
                }),
                0..0,
            )
            .hint("split the document, or record a shorter match (docs/limits.md)"))
        }
        Ok(Ok(bytes)) => match String::from_utf8(bytes) {
            Ok(text) => Ok(Arc::new(SourceFile { name, text })),
            Err(e) => {
                // Point at the first byte that is not UTF-8: show the valid text before it.
                let good = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let at = text
                    .char_indices()
                    .nth(
                        String::from_utf8_lossy(&e.as_bytes()[..good])
                            .chars()
                            .count(),
                    )
                    .map_or(text.len(), |(i, _)| i);
                Err(
                    Diagnostic::error("io::not_utf8", format!("{name} is not UTF-8 text"))
                        .at(Arc::new(SourceFile { name, text }), at..at)
                        .hint("save the file as UTF-8"),
                )
            }
        },
        Err(e) => {
            let hint = if path.is_dir() {
                "give a file (a ruleset folder stands for its ruleset.yaml)"
            } else {
                "check the path and its permissions"
            };
            Err(
                Diagnostic::error("io::unreadable", format!("cannot read {name}: {e}"))
                    .at(
                        Arc::new(SourceFile {
                            name,
                            text: String::new(),
                        }),
                        0..0,
                    )
                    .hint(hint),
            )
        }
    }
}

/// Parses `K=V` where V is YAML.
pub fn parse_override(kv: &str) -> Result<(String, Json), String> {
    let Some((k, v)) = kv.split_once('=') else {
        return Err(format!("`{kv}` is not KEY=VALUE"));
    };
    let k = k.trim();
    if k.is_empty() || k.split('.').any(|s| s.is_empty()) {
        return Err(format!(
            "`{k}` is not a dotted path such as settings.turnLimit"
        ));
    }
    let src = Arc::new(SourceFile {
        name: "--set".into(),
        text: v.to_string(),
    });
    match yaml::parse(src) {
        Ok(doc) => Ok((k.to_string(), doc.value)),
        Err(_) => Ok((k.to_string(), Json::String(v.to_string()))),
    }
}

/// The setting an override path names (`settings.K`), if it names one.
pub fn setting_name(path: &str) -> Option<&str> {
    path.strip_prefix("settings.").filter(|k| !k.contains('.'))
}

/// `--set settings.K=V` for a K the ruleset does not declare would add a setting no rule reads: a typo
/// that silently changes nothing.
fn unknown_settings(
    declared: &serde_json::Map<String, Json>,
    overrides: &[(String, Json)],
) -> Vec<Diagnostic> {
    overrides
        .iter()
        .filter_map(|(path, _)| {
            let k = setting_name(path)?;
            if declared.is_empty() || declared.contains_key(k) {
                return None;
            }
            let mut d = Diagnostic::error(
                "set::unknown_setting",
                format!("--set {path}: the ruleset has no setting `{k}`"),
            );
            d = match super::compile::closest(k, declared.keys().map(String::as_str)) {
                Some(near) => d.hint(format!("did you mean `settings.{near}`?")),
                None => d.hint(format!(
                    "the settings are: {}",
                    declared.keys().cloned().collect::<Vec<_>>().join(", ")
                )),
            };
            Some(d)
        })
        .collect()
}

/// Applies `--set` overrides to a document value; returns a problem for a path that cannot be set.
fn apply_overrides(doc: &mut YamlDoc, overrides: &[(String, Json)]) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for (path, value) in overrides {
        let parts: Vec<&str> = path.split('.').collect();
        if !set_path(&mut doc.value, &parts, value) {
            problems.push(Diagnostic::error(
                "set::bad_path",
                format!("--set {path}: the path goes through a value that is not a mapping"),
            ));
        }
    }
    problems
}

fn set_path(node: &mut Json, parts: &[&str], value: &Json) -> bool {
    let Json::Object(m) = node else { return false };
    match parts {
        [] => false,
        [last] => {
            m.insert(last.to_string(), value.clone());
            true
        }
        [first, rest @ ..] => set_path(
            m.entry(first.to_string())
                .or_insert_with(|| Json::Object(Default::default())),
            rest,
            value,
        ),
    }
}

/// A problem found at a value that `--set` replaced points at the file's original value: say so, and
/// show the value that was actually checked.
pub fn mark_overridden(doc: &YamlDoc, overrides: &[(String, Json)], found: &mut [Diagnostic]) {
    for (path, value) in overrides {
        let pointer: String = path
            .split('.')
            .map(|p| format!("/{}", yaml::pointer_escape(p)))
            .collect();
        let spans = [
            doc.value_span(&pointer),
            doc.key_span(&pointer),
            Some(doc.focus_span(&pointer)),
        ];
        for d in found.iter_mut() {
            let here = d
                .span
                .as_ref()
                .is_some_and(|s| spans.iter().flatten().any(|x| x == s));
            if here && !d.message.contains("--set") {
                d.message = format!("{} (the value given with --set {path}={value})", d.message);
            }
        }
    }
}

/// Parses a document and checks it against its schema.
pub fn parse_checked(
    source: Arc<SourceFile>,
    kind: DocKind,
    overrides: &[(String, Json)],
) -> Result<YamlDoc, Vec<Diagnostic>> {
    check_parsed(yaml::parse(source)?, kind, overrides)
}

/// Applies `overrides` to a parsed document and checks it against its schema.
fn check_parsed(
    mut doc: YamlDoc,
    kind: DocKind,
    overrides: &[(String, Json)],
) -> Result<YamlDoc, Vec<Diagnostic>> {
    let mut problems = apply_overrides(&mut doc, overrides);
    let mut found = super::schemas::check(kind, &doc);
    mark_overridden(&doc, overrides, &mut found);
    problems.extend(found);
    if problems.is_empty() {
        Ok(doc)
    } else {
        Err(problems)
    }
}

/// The documents' validators and the names of the script library, made once per process and the same
/// for every ruleset: made on a helper thread when loading starts, they take most of the time of loading
/// a ruleset (a few milliseconds) and overlap reading, parsing and analysing it. Whoever needs one first
/// waits for the helper's, as a `OnceLock` makes them.
fn prefetch() {
    const KINDS: &[DocKind] = &[DocKind::Ruleset, DocKind::Scenario];
    static LISTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if super::schemas::compiled(KINDS) && LISTED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    // Without a thread (none can be made) each is made where it is first needed.
    let _ = std::thread::Builder::new()
        .name("load-prefetch".into())
        .spawn(|| {
            for &k in KINDS {
                super::schemas::validator(k);
            }
            crate::script::list_library_names();
            LISTED.store(true, std::sync::atomic::Ordering::Relaxed);
        });
}

/// Loads and analyses a ruleset with a scenario (its default when `None`).
pub fn load(
    ruleset: &str,
    scenario: Option<&str>,
    overrides: &[(String, Json)],
) -> Result<Loaded, LoadError> {
    prefetch();
    let Some(rpath) = find_ruleset(ruleset) else {
        return Err(LoadError::Unreadable(vec![Diagnostic::error(
            "io::no_ruleset",
            format!("no ruleset `{ruleset}`"),
        )
        .hint(
            "give a folder, a ruleset.yaml path, or a name under rulesets/",
        )]));
    };
    let rsrc = read_source(&rpath).map_err(|d| LoadError::Unreadable(vec![d]))?;
    // Parsed once: overrides naming no declared setting are reported first (before any YAML problem).
    let parsed = yaml::parse(rsrc);
    let declared_settings = match &parsed {
        Ok(d) => d
            .value
            .get("settings")
            .and_then(|v| v.as_object())
            .cloned()
            .unwrap_or_default(),
        Err(_) => Default::default(),
    };
    let unknown = unknown_settings(&declared_settings, overrides);
    if !unknown.is_empty() {
        return Err(LoadError::Invalid(unknown));
    }
    let rdoc = check_parsed(
        parsed.map_err(LoadError::Invalid)?,
        DocKind::Ruleset,
        overrides,
    )
    .map_err(LoadError::Invalid)?;
    let id = rdoc
        .value
        .get("id")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string();
    let scen_name = match scenario {
        Some(s) => s.to_string(),
        None => match rdoc.value.get("default_scenario").and_then(|v| v.as_str()) {
            Some(s) => s.to_string(),
            None => {
                return Err(LoadError::Invalid(vec![rdoc.diag(
                    "ruleset::no_scenario",
                    "the ruleset names no `default_scenario`",
                    "",
                )]))
            }
        },
    };
    let Some(spath) = find_scenario(&rpath, &id, &scen_name) else {
        return Err(LoadError::Unreadable(vec![Diagnostic::error(
            "io::no_scenario",
            format!("no scenario `{scen_name}` for ruleset `{id}`"),
        )
        .hint(format!("give a path, or a name under scenarios/{id}/"))]));
    };
    let ssrc = read_source(&spath).map_err(|d| LoadError::Unreadable(vec![d]))?;
    let sdoc = parse_checked(ssrc, DocKind::Scenario, &[]).map_err(LoadError::Invalid)?;
    let dir = rpath.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut scripts = Vec::new();
    let mut unreadable = Vec::new();
    if let Some(Json::Array(list)) = rdoc.value.get("scripts") {
        for (i, s) in list.iter().enumerate() {
            let Some(name) = s.as_str() else { continue };
            if name.contains("..") || Path::new(name).is_absolute() {
                unreadable.push(rdoc.diag(
                    "ruleset::script_path",
                    "scripts live in the ruleset folder: give a plain file name",
                    &format!("/scripts/{i}"),
                ));
                continue;
            }
            match read_source(&dir.join(name)) {
                Ok(src) => scripts.push(ScriptFile {
                    listed: name.to_string(),
                    source: src,
                }),
                Err(_) => unreadable.push(rdoc.diag(
                    "ruleset::missing_script",
                    format!("cannot read script `{name}` next to the ruleset"),
                    &format!("/scripts/{i}"),
                )),
            }
        }
    }
    if !unreadable.is_empty() {
        return Err(LoadError::Invalid(unreadable));
    }
    let sources = Sources {
        ruleset: rdoc,
        scenario: sdoc,
        scripts,
        overrides: overrides.iter().map(|(k, _)| k.clone()).collect(),
        declared_settings,
    };
    match analyze(&sources).map_err(|mut d| {
        mark_overridden(&sources.ruleset, overrides, &mut d);
        d
    }) {
        Ok((mut game, warnings)) => {
            game.rule_overrides = overrides
                .iter()
                .filter(|(k, _)| setting_name(k).is_none())
                .cloned()
                .collect();
            Ok(Loaded {
                game: Arc::new(game),
                warnings,
                ruleset_path: rpath,
                scenario_path: spath,
            })
        }
        Err(d) => Err(LoadError::Invalid(d)),
    }
}

/// Detects what kind of document a parsed value is.
pub fn detect_kind(v: &Json) -> Option<DocKind> {
    let has = |k: &str| v.get(k).is_some();
    if v.get("format").and_then(|f| f.as_str()) == Some("arbiter-replay") {
        return Some(DocKind::Replay);
    }
    if has("expect") {
        return Some(DocKind::Conformance);
    }
    if has("submissions") {
        return Some(DocKind::MatchScript);
    }
    if has("actions") && has("flow") {
        return Some(DocKind::Ruleset);
    }
    if has("board") && has("ruleset") {
        return Some(DocKind::Scenario);
    }
    None
}

/// What validating one file found: its problems (warnings included) and, when it loaded one, the game.
#[derive(Debug, Default)]
pub struct Validated {
    pub diagnostics: Vec<Diagnostic>,
    pub game: Option<Arc<Game>>,
}

impl Validated {
    fn problems(diagnostics: Vec<Diagnostic>) -> Self {
        Validated {
            diagnostics,
            game: None,
        }
    }
}

/// Validates one file of any kind, with `overrides` (`--set`) applied to the ruleset it loads; `Err` when
/// it cannot be read (exit 2).
#[allow(clippy::result_large_err)] // as read_source
pub fn validate_file(path: &Path, overrides: &[(String, Json)]) -> Result<Validated, Diagnostic> {
    // A ruleset folder stands for its ruleset.yaml, as with --ruleset.
    let file = path.join("ruleset.yaml");
    let path: &Path = if path.is_dir() && file.is_file() {
        &file
    } else {
        path
    };
    let src = read_source(path)?;
    let doc = match yaml::parse(src.clone()) {
        Ok(d) => d,
        Err(d) => return Ok(Validated::problems(d)),
    };
    let Some(kind) = detect_kind(&doc.value) else {
        return Ok(Validated::problems(vec![doc.diag(
            "validate::unknown_kind",
            "cannot tell what this file is",
            "",
        )
        .hint("rulesets have `actions` and `flow`; scenarios `ruleset` and `board`; match scripts `submissions`; conformance cases `expect`; replays `format: arbiter-replay`")]));
    };
    let problems = super::schemas::check(kind, &doc);
    if !problems.is_empty() {
        return Ok(Validated::problems(problems));
    }
    let name = |k: &str| {
        doc.value
            .get(k)
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    let result = match kind {
        DocKind::Ruleset => load(&path.display().to_string(), None, overrides).map(Some),
        DocKind::Scenario => match name("ruleset") {
            Some(r) => match find_ruleset(&r).or_else(|| {
                path.parent()
                    .and_then(|d| d.parent())
                    .and_then(|d| d.parent())
                    .map(|p| p.join("rulesets").join(&r).join("ruleset.yaml"))
                    .filter(|p| p.is_file())
            }) {
                Some(rp) => load(
                    &rp.display().to_string(),
                    Some(&path.display().to_string()),
                    overrides,
                )
                .map(Some),
                None => {
                    return Ok(Validated::problems(vec![doc.diag(
                        "scenario::unknown_ruleset",
                        format!("no ruleset `{r}` to check this scenario against"),
                        "/ruleset",
                    )]))
                }
            },
            None => Ok(None),
        },
        // A case that expects an error checks that error when it runs (`arbiter conformance`).
        DocKind::Conformance if doc.value.pointer("/expect/error").is_some() => Ok(None),
        DocKind::MatchScript | DocKind::Conformance => match name("ruleset") {
            Some(r) => {
                let mut set: Vec<(String, Json)> = match doc.value.get("set") {
                    Some(Json::Object(m)) => {
                        m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
                    }
                    _ => Vec::new(),
                };
                set.extend(overrides.iter().cloned());
                load(&r, name("scenario").as_deref(), &set).map(Some)
            }
            None => Ok(None),
        },
        DocKind::Replay => Ok(None),
    };
    match result {
        // Warnings belong to the ruleset: shown when it is validated, not with each file that uses it.
        Ok(Some(loaded)) => Ok(Validated {
            diagnostics: if kind == DocKind::Ruleset {
                loaded.warnings
            } else {
                Vec::new()
            },
            game: Some(loaded.game),
        }),
        Ok(None) => Ok(Validated::default()),
        Err(e) => Ok(Validated::problems(e.diagnostics().to_vec())),
    }
}
