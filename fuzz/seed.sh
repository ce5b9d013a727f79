#!/usr/bin/env bash
# Seeds the fuzz corpora (fuzz/corpus/<target>/) from the project's own files: shipped and fixture
# rulesets with their scenarios, expressions from the rulesets, conformance cases as match scripts,
# golden and freshly recorded replays, and the shipped Rhai scripts.
set -euo pipefail
cd "$(dirname "$0")/.."
c=fuzz/corpus
mkdir -p $c/ruleset $c/expression $c/match_script $c/replay $c/rhai
python3 - <<'PY'
import glob, os, re, json
c = "fuzz/corpus"
mark = "\n#---scenario---\n"
n = 0
for rs in sorted(glob.glob("rulesets/*/ruleset.yaml") + glob.glob("tests/fixtures/**/ruleset.yaml", recursive=True)):
    folder = os.path.dirname(rs)
    text = open(rs).read()
    m = re.search(r"^default_scenario:\s*(\S+)", text, re.M)
    rid = re.search(r"^id:\s*(\S+)", text, re.M)
    scen = ""
    if m and rid:
        for cand in [f"scenarios/{rid.group(1)}/{m.group(1)}.yaml", f"{folder}/scenarios/{m.group(1)}.yaml"]:
            if os.path.exists(cand):
                scen = open(cand).read()
                break
    open(f"{c}/ruleset/{n:03}", "w").write(text + mark + scen)
    n += 1
    # Expressions: every quoted or plain value of an expression-bearing key.
    for i, e in enumerate(re.findall(r'(?:when|evaluate|check|max|min|in|rank|value): *"([^"]+)"', text)):
        open(f"{c}/expression/{os.path.basename(folder)}_{i:03}", "w").write(e)
for i, case in enumerate(sorted(glob.glob("rulesets/*/conformance/*.yaml"))):
    lines, skip = [], False
    for line in open(case):
        if re.match(r"^(expect|description):", line):
            skip = line.startswith("expect")
            continue
        if skip and (line.startswith(" ") or line.startswith("\t") or not line.strip()):
            continue
        skip = False
        lines.append(line)
    open(f"{c}/match_script/{i:03}", "w").write("".join(lines))
for i, s in enumerate(sorted(glob.glob("rulesets/*/*.rhai"))):
    open(f"{c}/rhai/{i:03}", "w").write(open(s).read())
PY
cargo build --release --quiet
for r in asg war_of_attrition strategic_influence; do
  for seed in 1 2 3; do
    ./target/release/arbiter match --ruleset "$r" --p1 greedy --p2 random --seed "$seed" --out "$c/replay/${r}_$seed.json" >/dev/null
  done
done
for f in tests/golden/*.json; do [ -f "$f" ] && cp "$f" "$c/replay/" || true; done
for t in ruleset expression match_script replay rhai; do echo "$t: $(ls $c/$t | wc -l) inputs"; done
