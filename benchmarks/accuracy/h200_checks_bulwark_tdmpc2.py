"""tdmpc2 (bulwark, session 36, labeller C): one uncertain behaviour, rebuilt with plain torch at real sizes.
Run from benchmarks/accuracy (needs h200_timing.py there): python3 h200_checks_bulwark_tdmpc2.py  (torch only; < 1 minute).

tdmpc2/tdmpc2.py:131 (inside _estimate_value, under torch.compile(self._plan, mode="reduce-overhead")):
    discount_update = self.discount[torch.tensor(task)] if self.cfg.multitask else self.discount
  multitask: self.discount is a CUDA float tensor [num_tasks] (line 35), task is the CUDA long tensor [1] built in
  act() (line 113). torch.tensor(cuda_tensor) is assumed to copy on the tensor's own device with no host read, and
  the gather uses a CUDA index. Labelled host (uncertain). Checked eagerly and under the same compile mode.
"""
import torch

from h200_timing import timed

d = "cuda"
NUM_TASKS = 80                                   # mt80
discount = torch.rand(NUM_TASKS, device=d)
task = torch.tensor([17], device=d)              # as act() builds it

timed("131 eager: torch.tensor(cuda_long[1])", lambda: torch.tensor(task))
timed("131 eager: discount[torch.tensor(task)]", lambda: discount[torch.tensor(task)])
timed("control: discount[task] (CUDA index gather)", lambda: discount[task])
timed("control: torch.tensor([17], device=cuda) (catalog 14, waits)", lambda: torch.tensor([17], device=d))


def est(z, task):
    disc = 1.0
    for _ in range(3):                           # horizon loop
        disc = disc * discount[torch.tensor(task)]
    return z * disc


compiled = torch.compile(est, mode="reduce-overhead")
z = torch.randn(512, 1, device=d)
for _ in range(3):                               # warm-up and record the CUDA graph
    torch.compiler.cudagraph_mark_step_begin()
    compiled(z, task)
torch.cuda.synchronize()


def call_compiled():
    torch.compiler.cudagraph_mark_step_begin()
    return compiled(z, task)


timed("131 compiled reduce-overhead: discount[torch.tensor(task)]", call_compiled)

# auditor C: tdmpc2.py:201 (added host/captured, not uncertain: catalog lists index_select as no-sync), confirmed with
# the 0-d index _plan really passes: rand_idx = argmax of the elite scores, a 0-d CUDA long tensor.
elite_actions = torch.randn(3, 64, 6, device=d)    # [horizon, num_elites, action_dim]
rand_idx = torch.rand(64, device=d).argmax(-1)      # 0-d CUDA
timed("201 eager: torch.index_select(elite_actions, 1, rand_idx_0d)", lambda: torch.index_select(elite_actions, 1, rand_idx))
