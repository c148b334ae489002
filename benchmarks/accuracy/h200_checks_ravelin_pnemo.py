"""pnemo (NVIDIA/physicsnemo @ 94b35510, ravelin set, session 39, labeller lab39a) checks. Plain torch only.
Run from benchmarks/accuracy (imports h200_timing): python3 h200_checks_ravelin_pnemo.py  (one GPU, < 1 minute)

Uncertain labels:
  physicsnemo/physicsnemo/utils/capture.py:174  self.scaler.update()  (fp16 GradScaler, after every train step)
    Labelled host: update() folds found_inf into the scale with _amp_update_scale_ on the device.
  physicsnemo/examples/weather/dlwp/train_dlwp.py:558  scheduler.step(val_loss)  (ReduceLROnPlateau, 0-d CUDA metric)
    Labelled sync: ReduceLROnPlateau.step does float(metrics).
  physicsnemo/physicsnemo/utils/capture.py:173  self.scaler.step(self.optim)
    Labelled sync (configuration): a non-fused Adam reads found_inf with .item(); fcn_afno's fused Adam should not.
Confirmations (labelled without a mark):
  legacy_stochastic_sampler.py:275 / legacy_deterministic_sampler.py:427  S_min <= t_cur <= S_max, 0-d CUDA t_cur (sync)
  legacy_deterministic_sampler.py:368  u[j - 1] = ... with j from a CUDA arange (sync)

Run once in session 39 on an H100 (torch 2.11.0+cu130; the device copies /work/main's tree, so a compact copy of this
script ran with PYTHONPATH=benchmarks/accuracy). host_ms_behind_sleep (~100 ms sleep on the H100), debug:
  173 scaler.step fused=False    102.0  RAISES     173 scaler.step fused=True     0.6  ok
  174 scaler.update fused=False    0.1  ok         174 scaler.update fused=True   0.0  ok
  558 ReduceLROnPlateau.step(0-d CUDA) 101.1 RAISES   control (Python float) 0.0 ok
  275/427 0 <= t_cur <= inf      101.1  RAISES     368 u[j-1] = u[j] + 1 (0-d CUDA j) 101.4 RAISES
Every result agrees with its label: 174 and 558 lost their uncertain mark; 173 keeps it (configuration only).
"""
import torch

from h200_timing import timed

d = "cuda"


def scaler_setup(fused: bool):
    model = torch.nn.Linear(256, 256, device=d)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=fused)
    scaler = torch.amp.GradScaler("cuda", enabled=True)
    x = torch.randn(64, 256, device=d)

    def backward():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = model(x).float().pow(2).mean()
        scaler.scale(loss).backward()

    return opt, scaler, backward


for fused in (False, True):
    opt, scaler, backward = scaler_setup(fused)
    state = {"stepped": False}

    def setup_step():
        # update() must close the previous step before the next step() (GradScaler's per-step state)
        if state["stepped"]:
            scaler.update()
            state["stepped"] = False
        backward()

    def do_step():
        scaler.step(opt)
        state["stepped"] = True

    def setup_update():
        setup_step()
        do_step()

    def do_update():
        scaler.update()
        state["stepped"] = False

    timed(f"173 scaler.step(Adam fused={fused})", do_step, setup=setup_step)
    timed(f"174 scaler.update() after step (fused={fused})", do_update, setup=setup_update)

model = torch.nn.Linear(4, 4, device=d)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.2, patience=20, min_lr=1e-6)
val_loss = torch.tensor(0.5, device=d)
timed("558 ReduceLROnPlateau.step(0-d CUDA loss)", lambda: sched.step(val_loss))
timed("control: ReduceLROnPlateau.step(python float)", lambda: sched.step(0.5))

t_steps = torch.linspace(80.0, 0.002, 19, device=d)
t_cur = t_steps[3]
timed("275/427 S_min <= t_cur <= S_max (0-d CUDA)", lambda: 0.0 <= t_cur <= float("inf"))
u = torch.zeros(1001, dtype=torch.float64, device=d)
j = torch.arange(1000, 0, -1, device=d)[0]
timed("368 u[j - 1] = u[j] (0-d CUDA index)", lambda: u.__setitem__(j - 1, u[j] + 1))
