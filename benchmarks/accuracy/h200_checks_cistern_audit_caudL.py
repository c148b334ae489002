"""cistern lightx2v audit (caudL, session 28): checks behind the uncertain / added labels.
Run: python3 h200_audit_caudL.py   (only torch; < 1 min). One line per check:
name, host ms behind a 200 ms torch.cuda._sleep, and whether sync debug mode "error" raises."""
import os
import subprocess
import sys

import torch

from h200_timing import Timer

d = "cuda"
timed = Timer(width=72, err_chars=120, catch_prep=True).timed


def main(tag):
    holder = {}

    def freed_blocks():
        holder["a"] = torch.empty(32760, 5120, dtype=torch.bfloat16, device=d)
        holder["b"] = torch.empty(32760, 13824, dtype=torch.bfloat16, device=d)
        holder.clear()

    # model.py 262 / offload transformer_infer.py 87: empty_cache right after del of activations
    timed(f"[{tag}] empty_cache() with freed cached blocks (model 262, offload 87)", torch.cuda.empty_cache, setup=freed_blocks)
    # default_runner.py 279
    timed(f"[{tag}] torch.cuda.mem_get_info() (default_runner 279)", torch.cuda.mem_get_info)
    if tag != "default":
        return
    # model.py 304/305: pin_weight.to(cuda, non_blocking=False), a pre-weight-sized pinned tensor (~10 MB) and a tiny one
    pw = torch.randn(5120, 1024).to(torch.bfloat16).pin_memory()
    timed("pinned 10MB weight .to(cuda) non_blocking=False (model 304)", lambda: pw.to(d))
    pb = torch.randn(5120).to(torch.bfloat16).pin_memory()
    timed("pinned 10KB bias .to(cuda) non_blocking=False (model 305)", lambda: pb.to(d))
    # model.py 345/346: pin_weight.copy_(cuda weight, non_blocking=False).cpu()
    gw = torch.randn(5120, 1024, device=d).to(torch.bfloat16)
    timed("pinned.copy_(cuda weight) non_blocking=False (model 345)", lambda: pw.copy_(gw).cpu())
    # default_runner.py 235-251 at PROFILING_DEBUG_LEVEL>=1: the profiler's enter/exit
    timed("torch.cuda.synchronize() (profiler enter/exit, default_runner 235-251)", torch.cuda.synchronize)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        main("expandable_segments")
    else:
        main("default")
        env = dict(os.environ, PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True", PYTORCH_ALLOC_CONF="expandable_segments:True")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--child"], env=env, check=False, timeout=90)
