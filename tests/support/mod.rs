//! Helpers shared by the integration tests (each test file says `mod support;`): the project root, the
//! shipped rulesets, the `arbiter` binary run from a folder, fresh scratch folders, output as text, and a
//! deep-stack thread.
#![allow(dead_code)] // every test file uses a different part of it
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The project root (where `rulesets/` and `scenarios/` live).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every shipped ruleset: the folders under `rulesets/` with a `ruleset.yaml`, sorted.
pub fn shipped_rulesets() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("rulesets"))
        .expect("rulesets/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("ruleset.yaml").is_file())
        .collect();
    v.sort();
    v
}

/// The `arbiter` binary as a command run in `dir`, with colours off so output can be compared as text.
pub fn command(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    c.current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR");
    c
}

/// Runs the binary in `dir` with `args` and waits for it.
pub fn arbiter_in(dir: &Path, args: &[&str]) -> Output {
    command(dir).args(args).output().expect("the binary runs")
}

/// Runs the binary in the project root with `args` and waits for it.
pub fn arbiter(args: &[&str]) -> Output {
    arbiter_in(&root(), args)
}

/// A fresh, empty folder for one test's files: `<cargo's test tmpdir>/<group>/<test>`.
pub fn scratch(group: &str, test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// The exit code (a test fails if the process was killed by a signal).
pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `f` on a thread with a deep stack, as the CLI does (Rhai recursion needs it); a panic fails the test.
pub fn deep<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("thread starts")
        .join()
        .expect("no panic")
}

/// A process a test started in the background: killed and reaped when dropped, so none outlives its test.
pub struct Background {
    pub child: std::process::Child,
}

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `cmd` with its stdout piped and returns it with the first line it prints (a server's address,
/// say), without the line end. Panics if it prints nothing.
pub fn start_with_first_line(mut cmd: Command) -> (Background, String) {
    use std::io::BufRead;
    cmd.stdout(std::process::Stdio::piped());
    let mut child = cmd.spawn().expect("the process starts");
    let out = child.stdout.take().expect("piped stdout");
    let bg = Background { child };
    let mut line = String::new();
    std::io::BufReader::new(out)
        .read_line(&mut line)
        .expect("a first line");
    assert!(!line.is_empty(), "the process printed nothing");
    (bg, line.trim_end().to_string())
}

/// Whether process `pid` is gone for good: not running and not a zombie waiting to be reaped.
#[cfg(unix)]
pub fn process_gone(pid: u32) -> bool {
    // SAFETY: kill(2) with signal 0 only checks that the process exists; it touches no memory.
    let r = unsafe { libc::kill(pid as libc::pid_t, 0) };
    r == -1 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

/// Every `http://` or `https://` in a page outside comments (HTML `<!-- -->`, and `/* */` and `//`
/// comments of its styles and scripts), and every `src=`/`href=` that does not point inside the page:
/// what a self-contained page must not have.
pub fn network_references(page: &str) -> Vec<String> {
    fn strip(text: &str, open: &str, close: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find(open) {
            out.push_str(&rest[..i]);
            rest = match rest[i + open.len()..].find(close) {
                Some(j) => &rest[i + open.len() + j + close.len()..],
                None => "",
            };
        }
        out.push_str(rest);
        out
    }
    let text = strip(&strip(page, "<!--", "-->"), "/*", "*/");
    let text: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let lower = text.to_lowercase();
    let mut found = Vec::new();
    for needle in ["http://", "https://"] {
        for (i, _) in lower.match_indices(needle) {
            found.push(text[i.saturating_sub(40)..(i + 60).min(text.len())].to_string());
        }
    }
    for attr in ["src=\"", "href=\""] {
        for (i, _) in lower.match_indices(attr) {
            let value = &lower[i + attr.len()..];
            if !value.starts_with('#') {
                found.push(text[i..(i + 60).min(text.len())].to_string());
            }
        }
    }
    found
}
