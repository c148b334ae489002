#!/usr/bin/env bash
# Pre-merge GPU gate: every CUDA-marked test (the capture harness and its Section A inventories in
# tests/gpu, the dsv4_native kernel, model and graph-replay tests in tests/gpu and tests/dsv4) on a
# machine with a CUDA GPU. CI has none, so these tests skip there: run this before merging any change
# that touches graphlint/runtime, dsv4_native or a GPU test, and paste its last line in the PR.
#
#   scripts/gpu_gate.sh [pytest args]       e.g. scripts/gpu_gate.sh -k runtime
#
# GPU_GATE_OUT=DIR keeps the harness reports (reports.jsonl, inventory_*.md), dsv4.txt and gate.xml.
# Exit 0 only when every selected test ran and passed: no GPU is exit 2, a skip or a failure exit 1.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${GPU_GATE_OUT:-$(mktemp -d)}
mkdir -p "$OUT"

"$PY" -c '
import sys
try:
    import torch
except Exception as e:
    sys.exit(f"gpu_gate: error: torch is not importable: {e}")
if not torch.cuda.is_available():
    sys.exit(f"gpu_gate: error: needs a CUDA GPU; torch {torch.__version__} sees none")
' || exit 2

# The pytest plugin is an entry point once graphlint is installed; in a bare checkout load it by name.
PLUGIN=$("$PY" -c '
from importlib.metadata import entry_points
eps = entry_points(group="pytest11")
print("" if any(e.value == "graphlint.runtime.pytest_plugin" for e in eps) else "-p graphlint.runtime.pytest_plugin")
')

# shellcheck disable=SC2086  # PLUGIN is empty or two words
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" GRAPHLINT_GPU_OUT="$OUT" DSV4_REPORT="$OUT/dsv4.txt" \
    "$PY" -m pytest -m cuda -n 0 -p no:cacheprovider $PLUGIN -rfEs --junitxml="$OUT/gate.xml" \
    tests/gpu tests/dsv4 "$@"
RC=$?

"$PY" - "$OUT/gate.xml" "$RC" "$OUT" <<'PYEOF'
import sys
import xml.etree.ElementTree as ET

path, rc, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    suite = ET.parse(path).getroot()
    suite = suite.find("testsuite") if suite.tag == "testsuites" else suite
    n = {k: int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped")}
except (OSError, ET.ParseError) as e:
    sys.exit(f"gpu_gate: error: pytest wrote no result ({e}); pytest exit {rc}")
passed = n["tests"] - n["failures"] - n["errors"] - n["skipped"]
ok = rc == 0 and n["skipped"] == 0 and passed > 0
print(f"GPU gate: {'PASS' if ok else 'FAIL'}: {passed} passed, {n['failures']} failed, {n['errors']} errors, "
      f"{n['skipped']} skipped in {float(suite.get('time', 0)):.1f} s (pytest exit {rc}; reports in {out})")
sys.exit(0 if ok else 1)
PYEOF
