//! The Ray driver (python/arbiter_ray) end to end on a local 2-CPU Ray: its merged results are byte for
//! byte those of a single-process `experiment run`, a shard whose `arbiter` fails is retried by Ray, and a
//! rerun of the driver reuses the shards it kept. Needs python3 with the `ray` package (.ci/run installs it).
mod support;
use std::path::Path;
use std::process::{Command, Output};

use support::{arbiter_in, code, root, scratch, stderr, stdout};

fn driver(dir: &Path, args: &[&str]) -> Output {
    Command::new("python3")
        .args(["-m", "arbiter_ray"])
        .args(args)
        .current_dir(dir)
        .env("PYTHONPATH", root().join("python"))
        .env("RAY_USAGE_STATS_ENABLED", "0")
        .env_remove("RAY_ADDRESS")
        .output()
        .expect("python3 runs")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn ray_results_equal_the_single_process_results() {
    let has_ray = Command::new("python3")
        .args(["-c", "import ray"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        has_ray,
        "this test runs the Ray driver: `python3 -m pip install ray` (.ci/run does)"
    );
    let dir = scratch("ray", "equals_single");
    std::fs::write(
        dir.join("e.toml"),
        "ruleset = \"strategic_influence\"\ngames = 30\nseed = 11\nagents = [[\"random\", \"random\"], [\"greedy\", \"random\"]]\n[grid]\n\"settings.turns\" = [3, 5]\n",
    )
    .unwrap();
    let single = arbiter_in(&dir, &["experiment", "run", "e.toml", "--out", "single"]);
    assert_eq!(code(&single), 0, "{}", stderr(&single));

    // The binary as Ray's tasks see it: it fails once (the first shard to start), then works.
    let wrapper = dir.join("flaky-arbiter");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nif [ \"$1 $2\" = \"experiment run\" ] && [ \"$4\" = \"--shard\" ] && mkdir \"{}\" 2>/dev/null; then echo 'injected failure' >&2; exit 3; fi\nexec \"{}\" \"$@\"\n",
            dir.join("failed-once").display(),
            env!("CARGO_BIN_EXE_arbiter")
        ),
    )
    .unwrap();
    let mut perms = std::fs::metadata(&wrapper).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&wrapper, perms).unwrap();

    let args = [
        "e.toml",
        "--out",
        "ray",
        "--shards",
        "3",
        "--num-cpus",
        "2",
        "--retries",
        "2",
        "--arbiter",
        wrapper.to_str().unwrap(),
    ];
    let o = driver(&dir, &args);
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        dir.join("failed-once").is_dir(),
        "a shard failed once and was retried"
    );
    assert!(stdout(&o).contains("3 run now"), "{}", stdout(&o));
    for f in ["results.jsonl", "results.csv"] {
        assert_eq!(
            read(&dir.join("ray").join(f)),
            read(&dir.join("single").join(f)),
            "{f}"
        );
    }
    // Run again: the kept shards are reused and the merged results are already there.
    let o = driver(&dir, &args);
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("3 from an earlier run"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("already merged"), "{}", stdout(&o));
}
