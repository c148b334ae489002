"""arctic (ArcticInference) labeller, session 28: one uncertain behaviour.
model_runner.py:1216 _start_suffix_copy: on a side stream that waited on the default stream,
  pinned_buf[:n_rows, :n_cols].copy_(sampled_cuda, non_blocking=True)
pinned_buf is int64 [max_num_reqs, 1 + num_spec_tokens]; sampled ids are int32 CUDA [n_rows, n_cols].
Question: when n_cols < buffer width (destination view non-contiguous) does the host wait (pageable temporary)?
Run: python3 h200_arctic.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"
MAX_REQS, K = 1024, 4                      # max_num_reqs, num_spec_tokens -> width 1 + K
pinned = torch.empty((MAX_REQS, 1 + K), dtype=torch.int64, device="cpu", pin_memory=True)
side = torch.cuda.Stream()
ev = torch.cuda.Event()

def start_copy(src):
    n_rows, n_cols = src.shape[0], src.shape[-1]
    default = torch.cuda.current_stream()
    with torch.cuda.stream(side):
        side.wait_stream(default)
        pinned[:n_rows, :n_cols].copy_(src, non_blocking=True)
        ev.record()

full32 = torch.randint(0, 1000, (256, 1 + K), dtype=torch.int32, device=d)
narrow32 = torch.randint(0, 1000, (256, 1), dtype=torch.int32, device=d)
narrow64 = narrow32.long()
mid32 = torch.randint(0, 1000, (256, 3), dtype=torch.int32, device=d)
timed("1216 full-width [256,5] int32 -> pinned[:256,:5] int64 (contiguous view)", lambda: start_copy(full32))
timed("1216 narrow [256,1] int32 -> pinned[:256,:1] int64 (non-contiguous view)", lambda: start_copy(narrow32))
timed("1216 narrow [256,1] int64 -> pinned[:256,:1] int64 (same dtype)", lambda: start_copy(narrow64))
timed("1216 short drafts [256,3] int32 -> pinned[:256,:3] int64", lambda: start_copy(mid32))
timed("control: event.synchronize() after full-width copy (1230)", lambda: (start_copy(full32), ev.synchronize()))
