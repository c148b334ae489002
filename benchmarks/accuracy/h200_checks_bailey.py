"""bailey (session 53, settle53b): the bailey labels marked `uncertain` that rest on a torch behaviour a GPU run can
measure: host waits of NCCL collectives. Each site's few lines are reproduced inline (torch only, no corpus imports)
on a one-rank NCCL process group (HashStore, no network; one GPU is enough: the question is whether the host blocks
behind queued GPU work, not what other ranks do). One labelled line per label key, then controls. Every line prints
the host ms behind ~200 ms of queued GPU work (`torch.cuda._sleep`; near the calibration = waits) and whether
`torch.cuda.set_sync_debug_mode("error")` raised.

  lora LoRA/examples/NLG/src/gpu.py:44       distributed_gather: torch.distributed.all_gather(g_y, tensor,
                                            async_op=False) of the CUDA beam ids / best sequences
  lora LoRA/examples/NLG/src/gpu.py:52       distributed_sync: args.dist.barrier() (args.dist is torch.distributed)
  slowfast slowfast/utils/distributed.py:39  all_gather helper: dist.all_gather(placeholders, tensor, async_op=False)
                                            per tensor of [preds, labels, video_idx]
  slowfast tools/test_net.py:116             du.all_gather([preds, labels, video_idx]) (the helper above, with its
                                            torch.cat; a call site of it: kept only if the helper does not wait)
  slowfast slowfast/utils/distributed.py:296 AllGatherWithGradient.backward: all_reduce(async_op=True) then
                                            reduction.wait()
Run from benchmarks/accuracy: python3 h200_checks_bailey.py  (torch only)."""
import os
import sys

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from h200_timing import Timer, calibrate  # noqa: E402

T = Timer(width=78, catch_prep=True)
timed = T.timed
d = "cuda"
print(f"device: {torch.cuda.get_device_name(0)}  torch {torch.__version__}  cuda {torch.version.cuda}")
try:
    print(f"nccl {torch.cuda.nccl.version()}")
except Exception as e:  # noqa: BLE001
    print(f"nccl version unknown: {e}")
calibrate()

torch.cuda.set_device(0)
dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1, device_id=torch.device(d, 0))
world_size = dist.get_world_size()
print(f"process group: backend {dist.get_backend()}  world_size {world_size}  "
      f"TORCH_NCCL_BLOCKING_WAIT={os.environ.get('TORCH_NCCL_BLOCKING_WAIT')}")

# ---- lora examples/NLG/src/gpu.py:42-45 distributed_gather (gpt2_beam.py:320-321) ---------------------------------
_id = torch.arange(10, device=d, dtype=torch.long)  # data['id'].to(args.device), batch 10
best_sequence = torch.randint(0, 50257, (10, 64), device=d, dtype=torch.long)


def distributed_gather(tensor):
    g_y = [torch.zeros_like(tensor) for _ in range(world_size)]
    torch.distributed.all_gather(g_y, tensor, async_op=False)  # line 44
    return torch.stack(g_y)


timed("lora gpu.py:44 all_gather(g_y, cuda _id[10] i64, async_op=False)", lambda: distributed_gather(_id))
timed("lora gpu.py:44 same, cuda best_sequence[10,64] i64", lambda: distributed_gather(best_sequence))


# ---- lora examples/NLG/src/gpu.py:48-52 distributed_sync (platform k8s/philly/local) -----------------------------
class _Args:
    dist = torch.distributed


args = _Args()
timed("lora gpu.py:52 args.dist.barrier() (NCCL)", lambda: args.dist.barrier())

# ---- slowfast slowfast/utils/distributed.py:26-43 all_gather ------------------------------------------------------
preds = torch.randn(64, 400, device=d)  # test batch of Kinetics-400 scores
labels = torch.randint(0, 400, (64,), device=d)
video_idx = torch.arange(64, device=d)


def sf_all_gather(tensors):
    gather_list = []
    output_tensor = []
    for tensor in tensors:
        tensor_placeholder = [torch.ones_like(tensor) for _ in range(world_size)]
        dist.all_gather(tensor_placeholder, tensor, async_op=False)  # line 39
        gather_list.append(tensor_placeholder)
    for gathered_tensor in gather_list:
        output_tensor.append(torch.cat(gathered_tensor, dim=0))
    return output_tensor


def _one_gather():
    ph = [torch.ones_like(preds) for _ in range(world_size)]
    dist.all_gather(ph, preds, async_op=False)


timed("slowfast distributed.py:39 dist.all_gather(ph, cuda preds[64,400], async_op=False)", _one_gather)
timed("slowfast test_net.py:116 du.all_gather([preds, labels, video_idx]) (helper)",
      lambda: sf_all_gather([preds, labels, video_idx]))

# ---- slowfast slowfast/utils/distributed.py:293-296 AllGatherWithGradient.backward -------------------------------
grad_output = torch.randn(64, 768, device=d)


def sf_backward_reduce():
    reduction = torch.distributed.all_reduce(grad_output, async_op=True)
    reduction.wait()  # line 296


def sf_async_only():
    return torch.distributed.all_reduce(grad_output, async_op=True)


timed("slowfast distributed.py:296 all_reduce(async_op=True) + reduction.wait()", sf_backward_reduce)

# ---- controls ----------------------------------------------------------------------------------------------------
timed("control: all_reduce(async_op=True) alone (no wait)", sf_async_only)
timed("control: dist.all_reduce(cuda, async_op=False) (slowfast distributed.py:57 form)",
      lambda: dist.all_reduce(grad_output, async_op=False))
timed("control: torch.cuda.synchronize()", torch.cuda.synchronize)
dist.destroy_process_group()
print("done")
