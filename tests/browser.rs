//! The viewer and report pages in a real headless Chromium (Debian's `chromium`; `.ci/run` installs it):
//! each page loads with no console message, no script error and nothing blocked; the viewer's self-test
//! (`#selftest`) finds every cell of the board, sees the board change when it steps forward (button,
//! arrow keys, slider), ends on the result, and shows each player only what they may see; a screenshot
//! of each page has the window's size, is not blank and carries the seat colours. Chromium missing is a
//! failure, never a skip.
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value as Json;
use support::{arbiter_in, code, root, scratch, stderr};

/// Window of every screenshot.
const WIDTH: u32 = 1280;
const HEIGHT: u32 = 900;
/// Longest a page may take to load and be dumped before the test gives up on Chromium (a hang guard,
/// not a speed check: pages take well under a second).
const GIVE_UP: Duration = Duration::from_secs(90);

/// Chromium: `$ARBITER_CHROMIUM`, else `chromium` (or `chromium-browser`) on the PATH.
fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("ARBITER_CHROMIUM") {
        return PathBuf::from(p);
    }
    for name in ["chromium", "chromium-browser"] {
        let Some(path) = std::env::var_os("PATH") else {
            break;
        };
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "chromium is missing: the browser tests need a real headless Chromium. Install it with \
         `apt-get install -y chromium` (.ci/run does so in CI), or point ARBITER_CHROMIUM at one."
    );
}

/// What one headless run printed: stdout (a DOM dump) and the page's console lines from stderr.
struct Run {
    stdout: String,
    console: Vec<String>,
}

/// Runs headless Chromium on `page` (with `fragment`) with `extra` flags, in a fresh profile.
fn headless(page: &Path, fragment: &str, extra: &[String], dir: &Path) -> Run {
    let profile = dir.join(format!(
        "profile-{}",
        page.file_stem().unwrap().to_string_lossy()
    ));
    let _ = std::fs::remove_dir_all(&profile);
    let url = format!(
        "file://{}{fragment}",
        page.canonicalize().unwrap().display()
    );
    let out_path = profile.with_extension("out");
    let err_path = profile.with_extension("err");
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--window-size={WIDTH},{HEIGHT}"),
        ])
        .args(extra)
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("chromium runs") {
            assert!(status.success(), "chromium failed on {url}: {status}");
            break;
        }
        if started.elapsed() > GIVE_UP {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish {url} within {GIVE_UP:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let err = std::fs::read_to_string(&err_path).unwrap_or_default();
    let console = err
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect();
    let _ = std::fs::remove_dir_all(&profile);
    Run { stdout, console }
}

/// The DOM after load, asserting the page said nothing on the console and caught no error.
fn dump(page: &Path, fragment: &str, dir: &Path) -> String {
    let run = headless(page, fragment, &["--dump-dom".to_string()], dir);
    assert!(
        run.console.is_empty(),
        "{}: console messages:\n{}",
        page.display(),
        run.console.join("\n")
    );
    assert!(
        run.stdout.contains("<pre id=\"errors\" hidden=\"\"></pre>"),
        "{}: the page caught errors: {}",
        page.display(),
        element(&run.stdout, "errors").unwrap_or_default()
    );
    run.stdout
}

/// The text of the element with `id` in a DOM dump, entities decoded.
fn element(dom: &str, id: &str) -> Option<String> {
    let start = dom.find(&format!("id=\"{id}\""))?;
    let open = start + dom[start..].find('>')? + 1;
    let close = open + dom[open..].find("</")?;
    Some(
        dom[open..close]
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&nbsp;", "\u{a0}")
            .replace("&amp;", "&"),
    )
}

/// The viewer's self-test result.
fn self_test(page: &Path, dir: &Path) -> Json {
    let dom = dump(page, "#selftest", dir);
    let text = element(&dom, "selftest").expect("the page wrote #selftest");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("#selftest is not JSON ({e}): {text}"))
}

/// Pixels of a screenshot of `page` at `fragment`, checked for size.
fn screenshot(page: &Path, fragment: &str, dir: &Path) -> Vec<[u8; 3]> {
    let png_path = dir.join(format!(
        "{}.png",
        page.file_stem().unwrap().to_string_lossy()
    ));
    let _ = std::fs::remove_file(&png_path);
    let run = headless(
        page,
        fragment,
        // Every compositor stage done before a frame is drawn: on a loaded machine a shot was otherwise
        // now and then taken of a half-painted page (the report's charts blank, its seat colours absent).
        &[
            format!("--screenshot={}", png_path.display()),
            "--run-all-compositor-stages-before-draw".to_string(),
        ],
        dir,
    );
    assert!(run.console.is_empty(), "{:?}", run.console);
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).expect("chromium wrote the screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("PNG size")];
    let info = reader.next_frame(&mut buf).expect("PNG pixels");
    assert_eq!(
        (info.width, info.height),
        (WIDTH, HEIGHT),
        "{}: screenshot size",
        page.display()
    );
    let channels = info.color_type.samples();
    assert!(channels >= 3, "colour screenshot");
    buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

/// Share of pixels within 12 of `rgb` in every channel.
fn share_near(pixels: &[[u8; 3]], rgb: [u8; 3]) -> f64 {
    let n = pixels
        .iter()
        .filter(|p| (0..3).all(|i| p[i].abs_diff(rgb[i]) <= 12))
        .count();
    n as f64 / pixels.len() as f64
}

/// The pixels are not a blank page: enough ink, several colours, both seats' fills present.
fn not_blank(pixels: &[[u8; 3]], what: &str, seat_fills: bool) {
    let white = share_near(pixels, [255, 255, 255]);
    assert!(white < 0.99, "{what}: {:.1}% white", 100.0 * white);
    let mut colours: Vec<[u8; 3]> = pixels.iter().step_by(7).copied().collect();
    colours.sort();
    colours.dedup();
    assert!(colours.len() > 20, "{what}: only {} colours", colours.len());
    if seat_fills {
        // The light seat colours of page.rs: #bfdbfe (seat 1) and #fecaca (seat 2).
        for (seat, rgb) in [(1, [0xbf, 0xdb, 0xfe]), (2, [0xfe, 0xca, 0xca])] {
            // At least most of one cell's fill.
            let count = (share_near(pixels, rgb) * pixels.len() as f64).round();
            assert!(
                count > 800.0,
                "{what}: seat {seat}'s colour covers {count} pixels"
            );
        }
    }
}

/// A replay of `args` (a `match` command line) and its viewer page in `dir`.
fn viewer_page(dir: &Path, name: &str, args: &[&str]) -> (PathBuf, Json) {
    let replay = dir.join(format!("{name}.json"));
    let page = dir.join(format!("{name}.html"));
    let mut a: Vec<&str> = args.to_vec();
    let replay_arg = replay.display().to_string();
    a.extend(["--out", &replay_arg]);
    let o = arbiter_in(&root(), &a);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let page_arg = page.display().to_string();
    let o = arbiter_in(&root(), &["view", &replay_arg, "-o", &page_arg]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let json: Json = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    (page, json)
}

fn check_viewer(game: &str, cells: u64) {
    let dir = scratch("browser", game);
    let (page, replay) = viewer_page(
        &dir,
        game,
        &[
            "match",
            "--ruleset",
            game,
            "--p1",
            "random",
            "--p2",
            "random",
            "--seed",
            "1",
        ],
    );
    let steps = replay["submissions"].as_array().unwrap().len() as u64;
    assert!(steps >= 2, "{game}: a replay of several submissions");
    let t = self_test(&page, &dir);
    assert_eq!(t["cells"], cells, "{game}: cells drawn: {t}");
    assert_eq!(t["expected_cells"], cells, "{game}: {t}");
    assert_eq!(
        t["steps"],
        steps + 1,
        "{game}: the start and every submission"
    );
    assert_eq!(
        t["views"], 3,
        "{game}: the whole board and two players' views"
    );
    assert_eq!(t["after_next"], 1, "{game}: {t}");
    assert_eq!(
        t["next_changed_board"], true,
        "{game}: stepping forward changes the board"
    );
    assert_eq!(t["after_arrow"], 2, "{game}: the right arrow steps forward");
    assert_eq!(
        t["after_arrow_back"], 1,
        "{game}: the left arrow steps back"
    );
    assert_eq!(t["after_slider"], 1, "{game}: the slider moves to its step");
    assert_eq!(t["after_end"], steps, "{game}: End goes to the last step");
    let status = t["last_status"].as_str().unwrap();
    let result = &replay["result"];
    let expected = match result["winner"].as_str() {
        Some(w) => format!("{w} wins ({})", result["reason"].as_str().unwrap()),
        None => format!("a draw ({})", result["reason"].as_str().unwrap()),
    };
    assert!(
        status.ends_with(&expected),
        "{game}: the last step shows the result `{expected}`: {status}"
    );
    assert!(t["result"].as_str().unwrap().contains(&expected), "{t}");
    assert_eq!(
        t["views_equal_whole"],
        serde_json::json!([true, true]),
        "{game} hides nothing: each player's view is the whole board"
    );
    assert_eq!(t["errors"], serde_json::json!([]));
    // At step 2 both seats own cells in every canonical game (Strategic Influence's setup is done).
    let pixels = screenshot(&page, "#step=2", &dir);
    not_blank(&pixels, game, true);
}

#[test]
fn asg_viewer_in_chromium() {
    check_viewer("asg", 12);
}

#[test]
fn war_of_attrition_viewer_in_chromium() {
    check_viewer("war_of_attrition", 189);
}

#[test]
fn strategic_influence_viewer_in_chromium() {
    check_viewer("strategic_influence", 25);
}

/// Matching pennies with each player's pick visible to its owner alone: after both picks, each
/// player's view differs from the whole board (it lacks the other's pick).
#[test]
fn hidden_information_stays_hidden_in_each_players_view() {
    let dir = scratch("browser", "hidden");
    std::fs::create_dir_all(dir.join("rulesets")).unwrap();
    let from = root().join("tests/fixtures/simultaneous/pennies");
    copy_dir(&from, &dir.join("rulesets/pennies"));
    std::fs::write(
        dir.join("script.yaml"),
        "ruleset: pennies\nseed: 2\nset: {state.cell.pick.visible: owner, display.cells.number: pick}\n\
         submissions:\n  - player: P1\n    actions: [{type: pick, at: A1}]\n  \
         - player: P2\n    actions: [{type: pick, at: B1}]\n",
    )
    .unwrap();
    let o = arbiter_in(&dir, &["run", "script.yaml", "--out", "pennies.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = arbiter_in(&dir, &["view", "pennies.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let t = self_test(&dir.join("pennies.html"), &dir);
    assert_eq!(t["cells"], 2);
    assert_eq!(t["next_changed_board"], true, "{t}");
    assert_eq!(
        t["views_equal_whole"],
        serde_json::json!([false, false]),
        "each player sees only their own pick: {t}"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

#[test]
fn report_in_chromium() {
    let dir = scratch("browser", "report");
    let fixture = root().join("tests/fixtures/report/experiment");
    let sim = dir.join("sim.json");
    let o = support::command(&root())
        .args([
            "simulate",
            "--ruleset",
            "asg",
            "--p1",
            "greedy",
            "--p2",
            "random",
            "--games",
            "40",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    std::fs::write(&sim, &o.stdout).unwrap();
    let page = dir.join("report.html");
    let o = arbiter_in(
        &root(),
        &[
            "report",
            &fixture.display().to_string(),
            &sim.display().to_string(),
            "-o",
            &page.display().to_string(),
        ],
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let dom = dump(&page, "", &dir);
    // 13 runs: the win-rate chart, first-player chart, one histogram (simulate's run), end reasons, two
    // sweeps.
    assert_eq!(
        dom.matches("<svg class=\"chart\"").count(),
        6,
        "charts drawn"
    );
    assert_eq!(dom.matches("<tr><td>").count(), 13, "one table row per run");
    let pixels = screenshot(&page, "", &dir);
    not_blank(&pixels, "report", true);
}
