"""modded (KellerJordan/modded-nanogpt @ f411b3d3) labeller labB, session 41: the uncertain labels rest on two behaviours.
Question 1: train_gpt.py's NorMuonAndAdam.step (:782/:785/:786/:806/:814) and train_gpt_medium.py (:581/:706/:795/:834)
wait on `dist.<collective>(..., async_op=True).get_future()` futures of the NCCL backend
(init_process_group(backend="cuda:nccl,cpu:gloo", device_id=device)). torch documents Future.wait() of an NCCL work as a
stream wait, not a host wait; labelled host. dist.barrier() (:63, medium :1657) is labelled sync (control).
Question 2: distributed_data_generator uploads pageable CPU tensors with .to("cuda", non_blocking=True) (:1863/:1864, one label at the yield statement :1862;
medium :1387/:1388, label at :1386). Training sizes (int32 49,152 / int64 49,152; medium int32/int64 65,536) are labelled host;
validation batches are 262,144 tokens per rank: int32 1 MiB and int64 2 MiB, at the catalogue's ~2 MB threshold.
Expected: Q1 no wait (barrier WAITS), Q2 training sizes no wait; the 2 MiB validation upload is the open case.
Run from benchmarks/accuracy: python3 h200_checks_bartizan_modded.py  (torch only, one GPU, single-rank NCCL)."""
import os
import sys
from pathlib import Path

import torch
import torch.distributed as dist

sys.path.insert(0, str(Path(__file__).resolve().parent))
from h200_timing import timed  # noqa: E402

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29517")
device = torch.device("cuda", 0)
torch.cuda.set_device(device)
dist.init_process_group(backend="cuda:nccl,cpu:gloo", rank=0, world_size=1, device_id=device)

# ---- Question 1: NCCL futures ----
grad = torch.randn(768 * 4, 768, device=device)
chunk = torch.empty_like(grad)
full = torch.empty_like(grad)
timed("Q1 all_reduce(async_op=True).get_future().wait()  (train_gpt:782)",
      lambda: dist.all_reduce(grad, op=dist.ReduceOp.AVG, async_op=True).get_future().wait())
timed("Q1 reduce_scatter_tensor(...).get_future().wait()  (medium:581)",
      lambda: dist.reduce_scatter_tensor(chunk, grad, op=dist.ReduceOp.AVG, async_op=True).get_future().wait())
timed("Q1 all_gather_into_tensor(...).get_future().wait()  (train_gpt:814)",
      lambda: dist.all_gather_into_tensor(full, grad, async_op=True).get_future().wait())
timed("Q1 collect_all([all_gather futures]).wait()  (medium:834)",
      lambda: torch.futures.collect_all([dist.all_gather_into_tensor(full, grad, async_op=True).get_future()]).wait())
cpu_counts = torch.zeros(1, dtype=torch.int64)
recv = torch.empty_like(cpu_counts)
timed("Q1 gloo all_to_all_single(cpu counts).get_future().wait()  (train_gpt:2193)",
      lambda: dist.all_to_all_single(recv, cpu_counts, async_op=True).get_future().wait())
timed("Q1 control: dist.barrier()  (train_gpt:63, labelled sync)", lambda: dist.barrier())

# ---- Question 2: pageable non_blocking uploads of the loader's sizes ----
for label, n, dtype in [
    ("train int32 49,152 (192 KB, train_gpt:1863)", 49_152, torch.int32),
    ("train int64 49,152 (384 KB, train_gpt:1864)", 49_152, torch.int64),
    ("medium train int64 65,536 (512 KB, medium:1388)", 65_536, torch.int64),
    ("val int32 262,144 (1 MiB, :1863 / medium:1387)", 262_144, torch.int32),
    ("val int64 262,144 (2 MiB, :1864 / medium:1388)", 262_144, torch.int64),
]:
    cpu = torch.randint(0, 50_000, (n,), dtype=torch.int32).to(dtype=dtype)  # as the loader: a fresh pageable tensor
    timed(f"Q2 pageable .to(cuda, non_blocking=True) {label}", lambda cpu=cpu: cpu.to(device="cuda", non_blocking=True))

dist.destroy_process_group()
