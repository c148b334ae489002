"""stablefast (chengzeyi/stable-fast @ 2b9b84e9, rampart set, session 33) labeller rL1 checks. Plain torch only.
Run from benchmarks/accuracy (needs h200_timing.py there): python3 h200_checks_rampart_stablefast.py
One GPU, well under a minute.

Uncertain label:
  src/sfast/jit/overrides.py:18  args = (args[0], args[1].item(), *args[2:])
    TracingMode.__torch_function__ (active around torch.jit.trace in better_trace): for
    Tensor.repeat_interleave with a tensor `repeats` on another device than the input and 0-d, it
    calls .item() on repeats. Labelled host on the reading that the tracer hands a CPU 0-d repeats
    next to a CUDA input (pytorch#107591). Question: under torch.jit.trace of a CUDA function whose
    repeats is a Python int taken from a shape, does the mode see a CPU 0-d repeats (host) or a CUDA
    one (would sync)? The check prints the devices the mode sees, and times the .item() it makes.
Confirmations (labelled without a mark; printed so the lead can see they hold):
  src/sfast/jit/overrides.py:20   args[1].to(device=cuda) of a small CPU 1-d repeats  (labelled sync)
  src/sfast/utils/copy.py:8       static_cuda.copy_(cuda_input) before replay         (labelled host)
  src/sfast/cuda/graphs.py:230    cpu_scalar.item() (hash_arg only reads CPU numel==1) (labelled host)
  libs/diffusers/image_processor.py:88  torch.jit.script'ed ...to(uint8).cpu() of CUDA images (labelled sync)
"""
import torch
from torch.overrides import TorchFunctionMode

from h200_timing import timed

d = "cuda"

# ---- overrides.py:18 (uncertain): what devices does the mode see while tracing?
seen = []


class TracingMode(TorchFunctionMode):  # copy of sfast/jit/overrides.py, recording what it sees
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func == torch.Tensor.repeat_interleave:
            if len(args) >= 2 and isinstance(args[0], torch.Tensor) and isinstance(args[1], torch.Tensor):
                seen.append((str(args[0].device), str(args[1].device), args[1].ndim))
                device = args[0].device
                if device != args[1].device:
                    if args[1].ndim == 0:
                        args = (args[0], args[1].item(), *args[2:])
                    else:
                        args = (args[0], args[1].to(device=device), *args[2:])
        return func(*args, **kwargs)


def f(x):
    r = x.shape[1] // 2  # a Python int during eager; the tracer may turn it into a tensor
    return x.repeat_interleave(torch.tensor(r), dim=1)  # explicit 0-d CPU repeats, as the tracer's


x = torch.randn(2, 8, 16, device=d)
with TracingMode():
    torch.jit.trace(f, (x,), check_trace=False)
print("overrides.py:18 devices seen by TracingMode (input, repeats, repeats.ndim):", seen)
rep_cpu = torch.tensor(4)
timed("overrides.py:18 cpu 0-d repeats .item() with CUDA work queued", lambda: rep_cpu.item())
rep_cuda = torch.tensor(4, device=d)
timed("control: cuda 0-d repeats .item()", lambda: rep_cuda.item())

# ---- overrides.py:20: small CPU 1-d repeats to the CUDA input's device
rep1 = torch.full((8,), 2)
timed("overrides.py:20 cpu int64[8] .to(device=cuda)", lambda: rep1.to(device=d))

# ---- utils/copy.py:8: static input refresh before replay (SD 1.5 latents, batch 2 with CFG)
static = torch.empty(2, 4, 64, 64, device=d, dtype=torch.float16)
inp = torch.randn(2, 4, 64, 64, device=d, dtype=torch.float16)
timed("copy.py:8 static_cuda.copy_(cuda_latents)", lambda: static.copy_(inp))
t_static = torch.empty((), device=d)
t_in = torch.tensor(981.0, device=d)
timed("copy.py:8 static_cuda_0d.copy_(cuda_timestep)", lambda: t_static.copy_(t_in))

# ---- graphs.py:230
cpu_scalar = torch.tensor([7.5])
timed("graphs.py:230 cpu numel-1 .item()", lambda: cpu_scalar.item())


# ---- image_processor.py:88 (TorchScript .cpu() of decoded CUDA images, 1x3x512x512 fp16)
@torch.jit.script
def _pt_to_pil_pre(images):
    return images.permute(0, 2, 3, 1).contiguous().float().mul(255).round().to(dtype=torch.uint8).cpu()


img = torch.rand(1, 3, 512, 512, device=d, dtype=torch.float16)
timed("image_processor.py:88 scripted ...to(uint8).cpu()", lambda: _pt_to_pil_pre(img))
