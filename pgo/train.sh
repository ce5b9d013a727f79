#!/usr/bin/env bash
# Refreshes pgo/arbiter.profdata, the profile that optimised builds use (pgo/README.md): builds an
# instrumented arbiter, runs a workload of every shipped ruleset (random, random_kind, greedy, mcts and
# minimax games, conformance cases, validation, a replay check), merges the counters and records the
# compiler that made them. Needs llvm-profdata of the toolchain's own LLVM:
#   rustup component add llvm-tools
# Run from anywhere; takes a few minutes (one instrumented release build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sysroot=$(rustc --print sysroot)
profdata=$(ls "$sysroot"/lib/rustlib/*/bin/llvm-profdata 2>/dev/null | head -1)
[ -x "$profdata" ] || { echo "llvm-profdata missing: rustup component add llvm-tools" >&2; exit 1; }
work=${PGO_WORK:-${TMPDIR:-/tmp}/arbiter-pgo}
mkdir -p "$work/raw"
# RUSTFLAGS replaces the rustflags of .cargo/config.toml: the processor level it sets is repeated here, so
# the instrumented build makes the code the optimised build will.
cpu=""
[ "$(uname -m)" = x86_64 ] && cpu="-Ctarget-cpu=x86-64-v2"
RUSTFLAGS="-Cprofile-generate=$work/raw -Cllvm-args=-vp-counters-per-site=8 $cpu" cargo build --release --locked --bin arbiter --target-dir "$work/target"
bin=$work/target/release/arbiter
# Only the workload's counters: proc macros built by the instrumented build write theirs here too.
rm -rf "$work/raw"
mkdir -p "$work/raw"

for dir in rulesets/*/; do
  r=$(basename "$dir")
  "$bin" validate "$dir" >/dev/null 2>&1
  if [ -d "$dir/conformance" ]; then "$bin" conformance "$dir/conformance" >/dev/null; fi
  "$bin" simulate --ruleset "$r" --p1 random --p2 random --games 400 --seed 1 --jobs 1 --format json >/dev/null
  "$bin" simulate --ruleset "$r" --p1 random_kind --p2 random --games 100 --seed 2 --jobs 1 --format json >/dev/null
  "$bin" simulate --ruleset "$r" --p1 greedy --p2 random --games 20 --seed 3 --jobs 1 --format json >/dev/null
  "$bin" simulate --ruleset "$r" --p1 mcts:iterations=50 --p2 random --games 2 --seed 4 --jobs 1 --format json >/dev/null
  "$bin" simulate --ruleset "$r" --p1 minimax:depth=2 --p2 greedy --games 2 --seed 5 --jobs 1 --format json >/dev/null
  "$bin" match --ruleset "$r" --p1 random --p2 random --seed 6 --out "$work/replay.json" >/dev/null
  "$bin" replay verify "$work/replay.json" >/dev/null
done

# The test fixtures reach shapes no shipped ruleset uses (larger boards, every kind of set walked, simultaneous
# moves), so their paths are not laid out as never taken.
for dir in $(dirname $(ls tests/fixtures/*/ruleset.yaml tests/fixtures/*/*/ruleset.yaml)); do
  "$bin" simulate --ruleset "$dir" --p1 random --p2 random_kind --games 100 --seed 1 --jobs 1 --format json >/dev/null
done

# Long simulations of the three canonical games weigh most, as they do in use: random against random
# (simulate's and MCTS rollouts' agent; compare.sh's games) and greedy. With these, random games of asg and
# strategic_influence took 0.94 and 0.97 of the time, greedy ones 0.96-0.98, search the same (pgo/README.md).
for spec in "asg random random 8000" "war_of_attrition random random 2000" \
  "strategic_influence random random 40000" "asg greedy greedy 100" \
  "war_of_attrition greedy random 30" "strategic_influence greedy greedy 200"; do
  set -- $spec
  "$bin" simulate --ruleset "$1" --p1 "$2" --p2 "$3" --games "$4" --seed 9 --jobs 1 --format json >/dev/null
done

"$profdata" merge --sparse -o pgo/arbiter.profdata "$work/raw"
rustc -vV | sed -n 's/^commit-hash: //p' >pgo/rustc-commit
echo "pgo/arbiter.profdata: $(wc -c <pgo/arbiter.profdata) bytes, made by rustc $(cat pgo/rustc-commit)"
