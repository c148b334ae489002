"""Where a replayed decode step spends its GPU time: every kernel of CUDA-graph replays (torch.profiler), by
section of the step (embedding, each layer, head) and by kernel.

    PYTHONPATH=$PWD python3 benchmarks/profile_step.py [--configs tiny,mid,flash] [--batches 1] [--replays 20]
        [--top 25] [--detail] [--out FILE]

Model and state as in bench_decode (the config's sizes, bf16, paged KV, max_len = context + 1024, every live
row at the config's context with random caches), but random weights generated on the GPU (`randomize_native_`,
no HF model: the kernels do not depend on the values). `flash`: bench_flash_layers' model (Flash's sizes, one
layer of each type: SWA hash-routed, CSA 4, HCA 128, CSA; bf16 experts) sized for 64k (max_len 65,536 + 1024:
the indexer scores and the HCA lists as a 64k server has them), rows at context 8192.
`count_kernels.count_cuda` lists each section's kernels
in launch order from one eager step; a replay launches the same kernels in the same order, so the i-th kernel
of a replay belongs to the section that holds launch i (checked: each section's kernel names, as a multiset).
Per section: kernels, GPU busy time (the sum of its kernel durations) and span (first start to last end, the
gaps between its kernels included); then the kernels by busy time per step. Busy below span is idle GPU between
dependent kernels, what fewer launches would recover; a kernel far above its bytes / bandwidth is badly tiled.
With step PDL a kernel is launched while its predecessor still runs and waits for it (`griddepcontrol.wait`),
so its duration includes that wait and busy can exceed span. `--detail` lists every section's kernels in launch
order with what each adds to the step: end minus the previous kernel's end (its critical-path share: a section's
shares add up to its last end minus the previous section's, the step's to the replay's span), and how long before
that end it was launched (its overlap with the predecessor).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_decode import CONFIGS, place_rows_at, time_steps  # noqa: E402
from count_kernels import count_cuda  # noqa: E402

from bench_flash_layers import LAYER_RATIOS  # noqa: E402
from dsv4_native._model_configs import FLASH, hf_config, native_config, randomize_native_  # noqa: E402
from dsv4_native.model import DSV4Config, DSV4Model  # noqa: E402
from dsv4_native.runner import DSV4Runner  # noqa: E402


FLASH_CONTEXT, FLASH_MAX_LEN = 8192, 65536 + 1024


def build(config: str, batch: int) -> tuple[DSV4Model, int]:  # graphlint: cold
    if config == "flash":
        cfg = native_config(FLASH, LAYER_RATIOS, 1, max_batch=max(batch, 8), max_len=FLASH_MAX_LEN)
        ctx = FLASH_CONTEXT
    else:
        sizes, ctx = CONFIGS[config]
        cfg = DSV4Config.from_hf(hf_config(sizes), max_batch=max(batch, 8), max_len=ctx + 1024)  # as bench_decode
    model = DSV4Model(cfg, device="cuda", dtype=torch.bfloat16)
    randomize_native_(model)
    return model, ctx


def replay_kernels(runner: DSV4Runner, n: int, replays: int) -> list:  # graphlint: cold
    """Device events (kernels, copies, memsets) of `replays` back-to-back replays, in start order."""
    from torch.autograd import DeviceType
    from torch.profiler import ProfilerActivity, profile

    runner.graphs(n)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(replays):
            runner.graphs(n)
        torch.cuda.synchronize()
    events = [e for e in prof.events() if e.device_type == DeviceType.CUDA]
    return sorted(events, key=lambda e: e.time_range.start)


@torch.no_grad()
def profile_config(config: str, n: int, replays: int, top: int, detail: bool) -> str:  # graphlint: cold
    model, ctx = build(config, n)
    place_rows_at(model, n, ctx)
    sections = count_cuda(model, n)  # one eager step: each section's kernels in launch order
    owner = [s.name for s in sections for _ in range(s.device)]
    expected = {s.name: s.triton for s in sections}  # kernel name -> launches, per section
    runner = DSV4Runner(model, [n]).capture()
    place_rows_at(model, n, ctx)
    wall = time_steps(lambda: runner.graphs(n), 50, 5) * 1e3
    events = replay_kernels(runner, n, replays)
    per = len(owner)
    lines = [f"### {config}, batch {n}, context {ctx}: replay {wall:.1f} us (CUDA events, 5 x 50 replays)", ""]
    if per == 0 or len(events) != per * replays:
        lines.append(f"(kernels per replay {len(events) / replays:.1f} vs {per} in the eager step: no section "
                     "attribution)")
        owner = ["step"] * (len(events) // replays)
        per = len(owner)
    names: dict[str, Counter] = defaultdict(Counter)
    busy: dict[str, float] = defaultdict(float)
    span: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    by_kernel: dict[str, list[float]] = defaultdict(list)
    adds, early, dur = [0.0] * per, [0.0] * per, [0.0] * per  # per launch, summed over replays
    step_busy = step_span = 0.0
    for r in range(replays):
        rep = events[r * per:(r + 1) * per]
        if not rep:
            break
        step_busy += sum(e.time_range.elapsed_us() for e in rep)
        step_span += rep[-1].time_range.end - rep[0].time_range.start
        first: dict[str, int] = {}
        last: dict[str, int] = {}
        for i, e in enumerate(rep):
            sec = owner[i]
            if r == 0:
                names[sec][e.name] += 1
            busy[sec] += e.time_range.elapsed_us()
            count[sec] += 1
            first.setdefault(sec, e.time_range.start)
            last[sec] = e.time_range.end
            by_kernel[_short(e.name)].append(e.time_range.elapsed_us())
            prev_end = rep[i - 1].time_range.end if i else e.time_range.start
            adds[i] += e.time_range.end - prev_end
            early[i] += max(0.0, prev_end - e.time_range.start)
            dur[i] += e.time_range.elapsed_us()
        for sec in first:
            span[sec] += last[sec] - first[sec]
    k = replays
    differ = [sec for sec in names if sec in expected and names[sec] != expected[sec]]
    lines += [f"GPU busy {step_busy / k:.1f} us of a {step_span / k:.1f} us span per replay ({per} kernels); "
              f"sections whose replayed kernels differ from the eager step's: {differ or 'none'}", "",
              "| section | kernels | busy us | span us |", "|---|---|---|---|"]
    for sec in dict.fromkeys(owner):
        lines.append(f"| {sec} | {count[sec] // k} | {busy[sec] / k:.1f} | {span[sec] / k:.1f} |")
    lines += ["", f"Kernels by busy time per step (top {top}):", "", "| kernel | launches per step | us per step | "
              "us per launch |", "|---|---|---|---|"]
    ranked = sorted(by_kernel.items(), key=lambda kv: -sum(kv[1]))
    for name, times in ranked[:top]:
        lines.append(f"| {name} | {len(times) / k:.0f} | {sum(times) / k:.1f} | {sum(times) / len(times):.2f} |")
    if detail:
        names0 = [_short(e.name, 48) for e in events[:per]]
        for sec in dict.fromkeys(owner):
            lines += ["", f"{sec}: kernels in launch order (us per replay)", "",
                      "| # | kernel | duration | adds to the step | launched before the previous end |",
                      "|---|---|---|---|---|"]
            lines += [f"| {i} | {names0[i]} | {dur[i] / k:.1f} | {adds[i] / k:.1f} | {early[i] / k:.1f} |"
                      for i in range(per) if owner[i] == sec]
    return "\n".join(lines) + "\n"


def _short(name: str, width: int = 90) -> str:
    """A kernel name for a table cell: template arguments dropped, at most `width` characters."""
    base = name.split("<", 1)[0] if "<" in name else name
    return (base[:width - 1] + "…") if len(base) > width else base


def main(argv: list[str] | None = None) -> int:  # graphlint: cold
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", default="tiny,mid")
    ap.add_argument("--batches", default="1")
    ap.add_argument("--replays", type=int, default=20)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--detail", action="store_true", help="each section's kernels in launch order")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    if not torch.cuda.is_available():
        ap.error("needs a CUDA GPU (it profiles graph replays)")
    out = [f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}", ""]
    for config in args.configs.split(","):
        for n in (int(b) for b in args.batches.split(",")):
            try:
                out.append(profile_config(config, n, args.replays, args.top, args.detail))
            except Exception as exc:  # one failed config must not cost the others' tables (one device run)
                out.append(f"### {config}, batch {n}: failed: {type(exc).__name__}: {exc}\n")
            torch.cuda.empty_cache()
            print(out[-1], flush=True)
    if args.out:
        args.out.write_text("\n".join(out), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
