"""UMbreLLa (cistern/umbrella) H200 checks. Plain torch (timing: h200_timing.py). One line per check:
name, host ms behind a 200 ms torch.cuda._sleep (queued on `sleep_stream`, default: current stream),
and whether torch.cuda.set_sync_debug_mode("error") raises."""
import torch

from h200_timing import Timer, calibrate

d = "cuda"
_timer = Timer(width=64)
timed, alone = _timer.timed, _timer.alone

# calibrate the sleep
calibrate(show_cycles=True)

# --- LlamaOffload: pageable CPU weights copied per layer into GPU buffers with non_blocking=True on load_stream
load_stream = torch.cuda.Stream()
w_cpu = torch.randn(8192, 8192, dtype=torch.float16)            # q_proj of a 70B layer, 128 MB, pageable
w_gpu = torch.empty_like(w_cpu, device=d)
w_pin = w_cpu.pin_memory()
def copy_on_load(src):
    def f():
        with torch.cuda.stream(load_stream):
            w_gpu.copy_(src, non_blocking=True)
    return f
timed("pageable_128MB_nonblocking copy_ on load_stream, sleep on load_stream", copy_on_load(w_cpu), sleep_stream=load_stream)
timed("pageable_128MB_nonblocking copy_ on load_stream, sleep on default", copy_on_load(w_cpu))
alone("pageable_128MB_nonblocking copy_ on load_stream, idle GPU (real case)", copy_on_load(w_cpu))
timed("pinned_128MB_nonblocking copy_ on load_stream, sleep on load_stream (AWQ)", copy_on_load(w_pin), sleep_stream=load_stream)
ln_cpu = torch.randn(8192, dtype=torch.float16); ln_gpu = torch.empty_like(ln_cpu, device=d)
def ln_copy():
    with torch.cuda.stream(load_stream):
        ln_gpu.copy_(ln_cpu, non_blocking=True)
timed("pageable_16KB_nonblocking layernorm copy_, sleep on load_stream", ln_copy, sleep_stream=load_stream)

# --- list_index_setitem: dynamic engine 130/163 and static engine 76
logits = torch.randn(1, 128256, device=d)
eos = [128001, 128008, 128009]
timed("list_index_setitem logits[-1:, eos_list] = -inf", lambda: logits.__setitem__((slice(-1, None), eos), -torch.inf))
parents = torch.zeros(64, dtype=torch.int32, device=d)
timed("list_index_setitem parents[[1,2,3]] = 0", lambda: parents.__setitem__([1, 2, 3], 0))

# --- verify() pieces
sampled = torch.randint(0, 128256, (64,), device=d)
acc = torch.rand(64, device=d) > 0.5
timed("nonzero on cuda bool (verify 320)", lambda: acc.nonzero())
accept_path = acc.nonzero().squeeze(-1)
timed("sampled[accept_path[-1]] 0-d cuda index (verify 323)", lambda: sampled[accept_path[-1]])
tokens = torch.zeros(1, 2048, dtype=torch.long, device=d)
tt = sampled[5]
timed("tokens[0, k] = 0-d cuda value (verify 327)", lambda: tokens.__setitem__((0, 100), tt))
timed("tokens slice .tolist() (step 226 / find_first 331)", lambda: tokens[0, 0:8].tolist())
pos = torch.zeros(1, 2048, dtype=torch.long, device=d)
timed("position_ids[:, :n] = torch.arange(n) CPU (prefill 155)", lambda: pos.__setitem__((slice(None), slice(None, 300)), torch.arange(300).unsqueeze(0)))
timed("torch.full(shape, torch.tensor(False, device=cuda)) (make_causal_mask 11)",
      lambda: torch.full((256, 256), torch.tensor(False, device=d), device=d))
h = torch.randn(1, 16, 2304, dtype=torch.float16, device=d)
timed("cuda * torch.tensor(48.0, fp16) CPU 0-d (gemma 145)", lambda: h * torch.tensor(2304 ** .5, dtype=h.dtype))
kc = torch.zeros(16, 8, 2048, 64, dtype=torch.float16, device=d)
timed("k_cache[..., idx_cuda, :] gather (cache 138)", lambda: kc[..., accept_path, :])
