#!/usr/bin/env bash
# compute-sanitizer over every Triton kernel of dsv4_native (issue 23), at small sizes, on a CUDA GPU.
#
#   scripts/sanitize.sh [driver args]       e.g. scripts/sanitize.sh --case sampler_filters
#   scripts/sanitize.sh --case attention_l2_prefetch   # the sparse attention's L2 prefetch alone (~30-60 s)
#
# 1. benchmarks/sanitize_kernels.py runs once plain: it compiles every kernel into Triton's on-disk cache (the
#    tools then do not compile under instrumentation), fails if a kernel of dsv4_native has no case, and writes
#    which kernels each case launches (coverage.json).
# 2. Then, all at once, one process each: memcheck and synccheck over every case, and racecheck once PER CASE
#    (racecheck is the slow tool: over all cases it ran past any cap; per case each process has its own).
#    memcheck runs with PyTorch's caching allocator off, so every tensor is its own allocation and an access
#    past its end is out of bounds, not inside a cached segment.
# 3. benchmarks/sanitize_summary.py prints one row per process (exit, seconds, ERROR SUMMARY, racecheck
#    hazards, whether the driver reached its end) and per tool the kernels its finished, clean runs covered,
#    then `sanitize: PASS` (exit 0) or `sanitize: FAIL` (exit 1). No GPU or no compute-sanitizer: exit 2.
#
# SANITIZE_OUT=DIR keeps the logs (plain.log, memcheck.log, racecheck.<case>.log, synccheck.log, summary.md);
# COMPUTE_SANITIZER names the binary; SANITIZE_TIMEOUT caps each tool process (default 270 s: plain ~30 s +
# 270 s + start-up stays under 6 minutes); SANITIZE_PER_CASE lists the tools split per case (default
# "racecheck"; "racecheck memcheck" splits memcheck too). With driver args (--case) nothing is split.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${SANITIZE_OUT:-$(mktemp -d)}
SAN=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
TOOLS=(memcheck racecheck synccheck)
LIMIT=${SANITIZE_TIMEOUT:-270}  # seconds per tool process: a hung tool still leaves a report (exit 124)
PER_CASE=${SANITIZE_PER_CASE:-racecheck}
mkdir -p "$OUT"
rm -f "$OUT"/*.log "$OUT"/coverage.json

if [ ! -x "$SAN" ]; then
    echo "sanitize: error: compute-sanitizer not found at $SAN (set COMPUTE_SANITIZER)" >&2
    exit 2
fi
"$PY" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else "sanitize: error: needs a CUDA GPU")' \
    || exit 2
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
DRIVER=(benchmarks/sanitize_kernels.py "$@")
start=$SECONDS
pids=()

launch() {  # launch NAME CMD...: in the background, output to NAME.log, its time and exit code appended
    local name=$1
    shift
    {
        local t0=$SECONDS
        timeout "$LIMIT" "$@" >"$OUT/$name.log" 2>&1
        local rc=$?
        echo "sanitize.sh: $name took $((SECONDS - t0)) s, exit $rc" >>"$OUT/$name.log"
    } &
    pids+=($!)
}

launch plain "$PY" "${DRIVER[@]}" --coverage "$OUT/coverage.json"
wait "${pids[@]}"
pids=()
# the cases the plain run ran, from its coverage.json (one `"case": [` line each)
cases=$(sed -n 's/^ "\([A-Za-z0-9_]*\)": \[.*/\1/p' "$OUT/coverage.json" 2>/dev/null)
for tool in "${TOOLS[@]}"; do
    cache=()
    [ "$tool" = memcheck ] && cache=(PYTORCH_NO_CUDA_MEMORY_CACHING=1)
    cmd=(env "${cache[@]}" "$SAN" --tool "$tool" --report-api-errors no --print-limit 20 --error-exitcode 99 "$PY")
    if [ $# -eq 0 ] && [[ " $PER_CASE " == *" $tool "* ]]; then
        for case in $cases; do
            launch "$tool.$case" "${cmd[@]}" "${DRIVER[@]}" --case "$case"
        done
    else
        launch "$tool" "${cmd[@]}" "${DRIVER[@]}"
    fi
done
wait "${pids[@]}"

# the first report of each failing process, then the table
for log in "$OUT"/memcheck*.log "$OUT"/racecheck*.log "$OUT"/synccheck*.log; do
    [ -e "$log" ] || continue
    if ! grep -q "ERROR SUMMARY: 0 errors" "$log" || ! grep -q "^sanitize_kernels: \(PASS\|done\)" "$log"; then
        echo "--- $(basename "$log")"
        grep -h "^=========" "$log" | grep -v "SUMMARY" | head -n 8
        grep -h "Error\|error:" "$log" | grep -v "^=========" | tail -n 3  # a Python traceback's end
    fi
done
tools=$(IFS=,; echo "${TOOLS[*]}")
"$PY" benchmarks/sanitize_summary.py "$OUT" --tools "$tools" | tee "$OUT/summary.md"
rc=${PIPESTATUS[0]}
echo "sanitize: done in $((SECONDS - start)) s (logs in $OUT)"
exit "$rc"
