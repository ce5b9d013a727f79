//! docs/tutorial.md cannot rot: its files are written into an empty folder in the order they appear (a
//! fence ```` ```yaml file=PATH ```` writes PATH, ```` append=PATH ```` adds to it), and its commands are run
//! there (each `$ arbiter ...` line of a ```` ```console ```` fence, expecting exit 0 or the fence's
//! `exit=N`); every other line of a console fence is output that must appear in what the command printed.
mod support;
use std::path::Path;
use support::{code, command, root, scratch, stderr, stdout};

/// One step of the tutorial, in document order.
enum Step {
    Write {
        path: String,
        text: String,
        append: bool,
    },
    Run {
        args: Vec<String>,
        exit: i32,
        shown: Vec<String>,
    },
}

fn steps(markdown: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let words: Vec<&str> = info.split_whitespace().collect();
        let body: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        let key = |k: &str| {
            words
                .iter()
                .find_map(|w| w.strip_prefix(k).map(str::to_string))
        };
        if let Some(path) = key("file=") {
            out.push(Step::Write {
                path,
                text: body.join("\n") + "\n",
                append: false,
            });
        } else if let Some(path) = key("append=") {
            out.push(Step::Write {
                path,
                text: body.join("\n") + "\n",
                append: true,
            });
        } else if words.first() == Some(&"console") {
            let exit = key("exit=").map_or(0, |e| e.parse().expect("exit=N"));
            for l in &body {
                if let Some(cmd) = l.strip_prefix("$ ") {
                    let args: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
                    assert_eq!(
                        args[0], "arbiter",
                        "tutorial commands are arbiter commands: {cmd}"
                    );
                    out.push(Step::Run {
                        args: args[1..].to_vec(),
                        exit,
                        shown: Vec::new(),
                    });
                } else if let Some(Step::Run { shown, .. }) = out.last_mut() {
                    shown.push(l.trim().to_string());
                }
            }
        }
    }
    out
}

fn write(dir: &Path, path: &str, text: &str, append: bool) {
    let file = dir.join(path);
    std::fs::create_dir_all(file.parent().expect("a file in a folder")).expect("folder");
    let mut all = if append {
        std::fs::read_to_string(&file)
            .unwrap_or_else(|_| panic!("{path} is appended to before it exists"))
    } else {
        String::new()
    };
    all.push_str(text);
    std::fs::write(&file, all).expect("write");
}

#[test]
fn every_command_of_the_tutorial_runs_as_shown() {
    let markdown =
        std::fs::read_to_string(root().join("docs/tutorial.md")).expect("docs/tutorial.md");
    let dir = scratch("tutorial", "pillars");
    let steps = steps(&markdown);
    let runs = steps
        .iter()
        .filter(|s| matches!(s, Step::Run { .. }))
        .count();
    assert!(runs >= 10, "the tutorial runs its commands ({runs} found)");
    for step in &steps {
        match step {
            Step::Write { path, text, append } => write(&dir, path, text, *append),
            Step::Run { args, exit, shown } => {
                let o = command(&dir).args(args).output().expect("the binary runs");
                let printed = format!("{}{}", stdout(&o), stderr(&o));
                assert_eq!(
                    code(&o),
                    *exit,
                    "`arbiter {}` exited {} (expected {exit}):\n{printed}",
                    args.join(" "),
                    code(&o)
                );
                for line in shown.iter().filter(|l| !l.is_empty()) {
                    assert!(
                        printed.contains(line.as_str()),
                        "`arbiter {}` did not print `{line}`; it printed:\n{printed}",
                        args.join(" ")
                    );
                }
            }
        }
    }
}
