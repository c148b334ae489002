#!/usr/bin/env bash
# compute-sanitizer over every Triton kernel of dsv4_native (issue 23), at small sizes, on a CUDA GPU:
# benchmarks/sanitize_kernels.py (it fails if a kernel of dsv4_native has no case) runs four times at once,
# one process each on the GPU: plain (tells a driver failure from a sanitizer finding), and under memcheck,
# racecheck and synccheck. memcheck runs with PyTorch's caching allocator off, so every tensor is its own
# allocation and an access past its end is out of bounds, not inside a cached segment.
#
#   scripts/sanitize.sh [driver args]       e.g. scripts/sanitize.sh --case sampler_filters
#
# SANITIZE_OUT=DIR keeps the logs (plain.log, memcheck.log, racecheck.log, synccheck.log); COMPUTE_SANITIZER
# names the binary; SANITIZE_TIMEOUT caps each run (default 480 s). Prints each tool's ERROR SUMMARY line and a last line `sanitize: PASS` (exit 0) only when
# the plain run passed and every tool finished the driver with 0 errors; FAIL is exit 1, no GPU or no
# compute-sanitizer exit 2.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${SANITIZE_OUT:-$(mktemp -d)}
SAN=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
TOOLS=(memcheck racecheck synccheck)
LIMIT=${SANITIZE_TIMEOUT:-480}  # seconds per run: a hung tool still leaves a report (exit 124)
mkdir -p "$OUT"

if [ ! -x "$SAN" ]; then
    echo "sanitize: error: compute-sanitizer not found at $SAN (set COMPUTE_SANITIZER)" >&2
    exit 2
fi
"$PY" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else "sanitize: error: needs a CUDA GPU")' \
    || exit 2
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
DRIVER=(benchmarks/sanitize_kernels.py "$@")

start=$SECONDS
declare -A pid

launch() {  # launch NAME CMD...: in the background, output to NAME.log, its time appended
    local name=$1
    shift
    {
        timeout "$LIMIT" "$@" >"$OUT/$name.log" 2>&1
        local rc=$?
        echo "sanitize.sh: $name took $((SECONDS - start)) s, exit $rc" >>"$OUT/$name.log"
        exit "$rc"
    } &
    pid[$name]=$!
}

launch plain "$PY" "${DRIVER[@]}"
for tool in "${TOOLS[@]}"; do
    cache=()
    [ "$tool" = memcheck ] && cache=(PYTORCH_NO_CUDA_MEMORY_CACHING=1)
    launch "$tool" env "${cache[@]}" "$SAN" --tool "$tool" --report-api-errors no --print-limit 20 \
        --error-exitcode 99 "$PY" "${DRIVER[@]}"
done

wait "${pid[plain]}"
plain_rc=$?
echo "plain: $(grep -h "^sanitize_kernels: \(PASS\|FAIL\|done\)" "$OUT/plain.log" | tail -n 1) ($(tail -n 1 "$OUT/plain.log"))"
ok=$((plain_rc == 0))
for tool in "${TOOLS[@]}"; do
    wait "${pid[$tool]}"
    rc=$?
    summary=$(grep -h "ERROR SUMMARY" "$OUT/$tool.log" | tail -n 1)
    # the driver's own last line: it got through every case (a kernel fault aborts it before)
    echo "$tool: ${summary:-no ERROR SUMMARY (see $OUT/$tool.log)} ($(tail -n 1 "$OUT/$tool.log"))"
    if ! grep -q "^sanitize_kernels: \(PASS\|done\)" "$OUT/$tool.log" || [ "$rc" -ne 0 ] \
            || ! grep -q "ERROR SUMMARY: 0 errors" <<<"$summary"; then
        ok=0
        grep -h "^=========" "$OUT/$tool.log" | grep -v "SUMMARY" | head -n 12  # the first report
        grep -h "Error\|error:" "$OUT/$tool.log" | grep -v "^=========" | tail -n 3  # a Python traceback's end
    fi
    grep -h "RACECHECK SUMMARY" "$OUT/$tool.log" | tail -n 1
done
echo "sanitize: $([ "$ok" = 1 ] && echo PASS || echo FAIL) in $((SECONDS - start)) s (logs in $OUT)"
[ "$ok" = 1 ]
