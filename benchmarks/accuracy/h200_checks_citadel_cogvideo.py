"""cogvideo (THUDM/CogVideo, SAT) labeller, session 31: one uncertain behaviour plus two controls.
wrappers.py:33 OpenAIWrapper.forward (every denoising step):
    x = torch.cat((x, c.get("concat", torch.Tensor([]).type_as(x))), dim=2)
  the .get default is evaluated every step: an EMPTY CPU float tensor .type_as(CUDA bf16 x).
  Question: does a zero-element CPU->CUDA copy wait for queued GPU work (labelled host, uncertain)?
Controls: denoiser.py:63/67 self.sigmas (1000 CPU floats) .to(cuda) blocking (labelled sync),
  sampling.py:764 `if torch.sum(cuda_0d) < 1e-14` (labelled sync).
Run from benchmarks/accuracy: python3 h200_cogvideo.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"
x = torch.randn(2, 13, 16, 60, 90, device=d, dtype=torch.bfloat16)   # CFG-doubled latents b t c h w
sigmas_cpu = torch.rand(1000)                                         # DiscreteDenoiser.sigmas (device='cpu')
sigma = torch.rand(2, 1, 1, 1, 1, device=d)
next_acs = torch.rand(1, device=d) * torch.ones(1, device=d)          # s_in * alpha_cumprod_sqrt[i+1]

timed("wrappers.py:33 torch.Tensor([]).type_as(cuda bf16 x)", lambda: torch.Tensor([]).type_as(x))
timed("wrappers.py:33 full statement torch.cat((x, empty.type_as(x)), dim=2)",
      lambda: torch.cat((x, {}.get("concat", torch.Tensor([]).type_as(x))), dim=2))
timed("control denoiser.py:63 sigmas_cpu.to(cuda)[:, None] (4 KB pageable)",
      lambda: sigma.flatten()[:1] - sigmas_cpu.to(sigma.device)[:, None])
timed("control sampling.py:764 if torch.sum(cuda) < 1e-14", lambda: bool(torch.sum(next_acs) < 1e-14))
