"""liveportrait (KwaiVGI/LivePortrait) labeller rL4, session 33: the compiled-region question, plus controls.
util.py:43-45 (make_coordinate_grid: torch.arange(n).type(dtype).to(ref.device)) and dense_motion.py:62
(torch.zeros(bs, 1, 16, 64, 64).type(dtype).to(device)) run inside the warping module, which the corpus wraps in
torch.compile(mode='max-autotune') when flag_do_torch_compile is set (default False). Labelled sync/captured:
eagerly each is a blocking pageable H2D copy. Question: under torch.compile(mode='max-autotune') does a call of
the compiled function still make the host wait (does inductor keep the CPU tensor + copy, or build it on the
device)? Eager controls first.
Run from benchmarks/accuracy: python3 h200_checks_rampart_liveportrait.py  (torch only)."""
import torch

from h200_timing import timed

d = "cuda"
ref = torch.randn(1, 21, 3, device=d, dtype=torch.float16)


def make_coordinate_grid(spatial_size, ref):
    dd, h, w = spatial_size
    x = torch.arange(w).type(ref.dtype).to(ref.device)
    y = torch.arange(h).type(ref.dtype).to(ref.device)
    z = torch.arange(dd).type(ref.dtype).to(ref.device)
    x = (2 * (x / (w - 1)) - 1)
    y = (2 * (y / (h - 1)) - 1)
    z = (2 * (z / (dd - 1)) - 1)
    yy = y.view(1, -1, 1).repeat(dd, 1, w)
    xx = x.view(1, 1, -1).repeat(dd, h, 1)
    zz = z.view(-1, 1, 1).repeat(1, h, w)
    return torch.cat([xx.unsqueeze_(3), yy.unsqueeze_(3), zz.unsqueeze_(3)], 3)


def zeros_to(heat):
    return torch.zeros(heat.shape[0], 1, 16, 64, 64).type(heat.dtype).to(heat.device) + 0


heat = torch.randn(1, 21, 16, 64, 64, device=d, dtype=torch.float16)
timed("eager util.py:43-45 make_coordinate_grid((16, 64, 64))", lambda: make_coordinate_grid((16, 64, 64), ref))
timed("eager dense_motion.py:62 torch.zeros(...).to(cuda)", lambda: zeros_to(heat))
cg = torch.compile(make_coordinate_grid, mode="max-autotune")
cz = torch.compile(zeros_to, mode="max-autotune")
for _ in range(3):  # compile and warm the cudagraph trees
    torch.compiler.cudagraph_mark_step_begin(); cg((16, 64, 64), ref)
    torch.compiler.cudagraph_mark_step_begin(); cz(heat)
torch.cuda.synchronize()
timed("compiled max-autotune make_coordinate_grid", lambda: (torch.compiler.cudagraph_mark_step_begin(), cg((16, 64, 64), ref)))
timed("compiled max-autotune zeros(...).to(cuda)", lambda: (torch.compiler.cudagraph_mark_step_begin(), cz(heat)))

# --- auditor rA4 (session 33): labels held sync/captured for the default eager run. Expectation for the compiled rows
# above: no wait, because inductor's post-grad pass move_constructors_to_gpu (torch/_inductor/fx_passes/post_grad.py)
# builds a CPU constructor whose only consumer is a device copy directly on the GPU. If the compiled rows print no wait,
# the reason should say "eager: waits; under the corpus's max-autotune compile: no H2D"; if they wait, drop the mark.
# Extra row: the whole kp2gaussian path as the dense-motion network calls it (two grids per frame).
def kp2gaussian(kp, spatial_size=(16, 64, 64), kp_variance=0.01):
    grid = make_coordinate_grid(spatial_size, kp)
    grid = grid.view((1, 1) + grid.shape).repeat(kp.shape[0], kp.shape[1], 1, 1, 1, 1)
    return torch.exp(-0.5 * ((grid - kp.view(kp.shape[0], kp.shape[1], 1, 1, 1, 3)) ** 2).sum(-1) / kp_variance)

ck = torch.compile(kp2gaussian, mode="max-autotune")
for _ in range(3):
    torch.compiler.cudagraph_mark_step_begin(); ck(ref)
torch.cuda.synchronize()
timed("rA4 eager kp2gaussian (util.py:23 -> 43-45)", lambda: kp2gaussian(ref))
timed("rA4 compiled max-autotune kp2gaussian", lambda: (torch.compiler.cudagraph_mark_step_begin(), ck(ref)))
