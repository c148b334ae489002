#!/bin/bash
# Score every development set on the device host (16 cores: ~2 minutes against ~40 on a busy 2-core VM).
#
#   bash benchmarks/accuracy/device_kit.sh pack REF [REF...]   # here, repo root: build .devkit/ and .whl/
#   run(command="bash benchmarks/accuracy/device_kit.sh score NAME REF", carry=[".whl", ".devkit"])  # on the device
#
# `pack` writes .devkit/corpora.tar.xz (the fetched dev corpora, never a fetch.HELD_BACK set), .devkit/<REF>.tar.gz
# (`git archive REF graphlint`, one per REF) and .whl/ (libcst for the device's Python 3.12; its other needs are
# there). Both folders must be ignored (`.git/info/exclude`). `score` installs libcst, unpacks, runs score_sets.py
# with 16 jobs on graphlint at REF and tars OUTDIR into $OUT/NAME.tgz (the device returns at most 8 files a call).
# Outputs are byte-identical to a run here (checked on dev, fresh and cellar in session 39).
set -euo pipefail
here=benchmarks/accuracy
case "${1:-}" in
pack)
    shift
    mkdir -p .devkit .whl
    sets=$(cd $here && python3 -c "import fetch; print(' '.join('.' + k for k in fetch.GIT_SETS if k not in fetch.HELD_BACK))")
    (cd $here && tar -cJf ../../.devkit/corpora.tar.xz .corpora .fresh $sets)
    for ref in "$@"; do git archive "$ref" graphlint | gzip > ".devkit/$ref.tar.gz"; done
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d .whl "libcst==1.5.1"
    ;;
score)
    name=$2 ref=$3
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
    mkdir -p /tmp/corp "/tmp/ck/$ref" "/tmp/res/$name"
    [ -d /tmp/corp/.corpora ] || tar -xJf .devkit/corpora.tar.xz -C /tmp/corp
    tar -xzf ".devkit/$ref.tar.gz" -C "/tmp/ck/$ref"
    PYTHONPATH="/tmp/ck/$ref:/tmp/site" python3 $here/score_sets.py "/tmp/res/$name" --jobs 16 --fetched /tmp/corp \
        | tail -3
    tar -czf "$OUT/$name.tgz" -C /tmp/res "$name"
    ;;
*)
    echo "usage: $0 pack REF... | score NAME REF" >&2
    exit 2
    ;;
esac
