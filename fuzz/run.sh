#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60), one after another, on the nightly
# toolchain; corpora are seeded from the project's maps, scenarios and generated files.
# A crash stops the run and is left in fuzz/artifacts/TARGET/ for `cargo fuzz run TARGET FILE`.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]    (needs: cargo install cargo-fuzz)
# FUZZ_RUNS=N also stops each target after N executions (the release check: 1000000).
# Built without AddressSanitizer (-s none): botarena has no unsafe code, and the sanitizer
# halves the rate of the targets that build and run matches.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(map_text scenario_toml waypoint_json nav_file replay_bytes small_match)
fi
./seed.sh
for t in "${targets[@]}"; do
  echo "== $t: $seconds s" >&2
  runs=()
  if [ -n "${FUZZ_RUNS:-}" ]; then runs=(-runs="$FUZZ_RUNS"); fi
  # Whole maps make slow inputs (a flood each); small ones reach the same code.
  if [ "$t" = map_text ]; then runs+=(-max_len=8192); fi
  # The structured target's bytes become numbers mapped into range, not magic values to
  # guess: comparison tracing (half of its time) is left out.
  build=()
  if [ "$t" = small_match ]; then build+=(--no-trace-compares); fi
  cargo +nightly fuzz run -O -s none "${build[@]}" "$t" "corpus/$t" -- -max_total_time="$seconds" "${runs[@]}" -print_final_stats=1 \
    -rss_limit_mb=4096 2>&1 | tee "logs/$t.log" | grep -E "^(#[0-9]+ +(DONE|INITED)|stat::|==|SUMMARY|Done)" >&2
done
