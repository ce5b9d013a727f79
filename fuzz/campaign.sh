#!/usr/bin/env bash
# Runs every fuzz target for MINUTES minutes (default 10), two at a time, on the stable toolchain
# (`cargo fuzz run -s none`), after seeding the corpora. Findings land in fuzz/artifacts/<target>/;
# copy each into tests/fuzz_regressions/<target>/ once fixed. Logs: fuzz/logs/<target>.log.
set -euo pipefail
cd "$(dirname "$0")"
minutes="${1:-10}"
jobs="${JOBS:-2}"
[ -d corpus ] || ./seed.sh
mkdir -p logs
cargo fuzz build -s none
run() {
  local t=$1
  nice -n 10 cargo fuzz run -s none "$t" "$PWD/corpus/$t" -- \
    -max_total_time=$((minutes * 60)) -timeout=20 -rss_limit_mb=4096 -max_len=262144 \
    >"logs/$t.log" 2>&1 || true
  tail -n 3 "logs/$t.log" | sed "s/^/$t: /"
}
export -f run
export minutes
printf '%s\n' ruleset expression match_script replay rhai | xargs -P "$jobs" -I{} bash -c 'run {}'
