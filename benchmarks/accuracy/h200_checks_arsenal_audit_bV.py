"""arsenal audit bV (session 30): valle + cmodels. One uncertain label, plus confirmations of the
per-step sites the audit held on the catalog's general rows (no label rests on these alone).

Uncertain: cmodels karras_diffusion.py:808 (dead iterative_inpainting)
  mask[::2, :, img_th > 0.5] = 1.0  -- mask CUDA float [N/7, 7, 3, H, W], img_th CUDA uint8 [3, H, W].
  Read: CUDA self -> Python scalar built as a CPU 0-d value; indices [undef, undef, bool mask];
  index_put_'s canDispatchToMaskedFill -> masked_fill_ (no nonzero). Expected: no wait, debug ok (host).
Confirmations (expected WAIT + RAISES unless noted):
  valle.py:1024  F.pad(cpu_bool, (x_len, 0)) with x_len = x_lens.max(), 0-d CUDA (every AR step)
  valle.py:1031  cat of CPU bool masks .to(cuda) blocking (every AR step)
  valle.py:1044  `argmax(logits)[0] == EOS or ...` (every AR step)
  valle.py:1099  xy_dec[:, text_len + prefix_len:] with 0-d CUDA text_len (each NAR stage)
  valle.py:603/1010 icefall make_pad_mask (builtin max with a 0-d CUDA tensor) / zeros((x_len, x_len))
  infer.py:260   cuda_tensor != []  (expected: no wait, ok -> host)
Run from benchmarks/accuracy: python3 /work/notes30/arsenal/h200_audit_bV.py  (torch only; < 1 min)."""
import sys

sys.path.insert(0, ".")
import torch
import torch.nn.functional as F

from h200_timing import timed

d = "cuda"

# --- cmodels 808 (uncertain) ---
H = 64
mask = torch.zeros(14, 3, H, H, device=d).reshape(-1, 7, 3, H, H)
img_th = (torch.rand(3, H, H, device=d) * 255).to(torch.uint8)
timed("cm 808 mask[::2, :, img_th > 0.5] = 1.0 (expect host)",
      lambda: mask.__setitem__((slice(None, None, 2), slice(None), img_th > 0.5), 1.0))
timed("cm 809 mask[1::2, :, img_th < 0.5] = 1.0 (twin, expect host)",
      lambda: mask.__setitem__((slice(1, None, 2), slice(None), img_th < 0.5), 1.0))

# --- valle confirmations ---
x_lens = torch.tensor([57], dtype=torch.int32, device=d)      # text_tokens_lens.to(device)
y_len = 300                                                    # prompt 225 frames + generated
x_attn_mask = torch.zeros((57, 57), dtype=torch.bool)          # CPU, as built at 1010

def pad_1024():
    x_len = x_lens.max()
    return F.pad(torch.triu(torch.ones(y_len, y_len, dtype=torch.bool), diagonal=1), (x_len, 0), value=False)
timed("valle 1024 F.pad(cpu, (x_len_cuda0d, 0)) (expect sync)", pad_1024)

ym = torch.triu(torch.ones(y_len, y_len, dtype=torch.bool), diagonal=1)
ym = F.pad(ym, (57, 0), value=False)
xm = F.pad(x_attn_mask, (0, y_len), value=True)
timed("valle 1031 cat(cpu bool masks).to(cuda) blocking (expect sync)",
      lambda: torch.concat([xm, ym], dim=0).to(d))

logits = torch.randn(1, 1025, device=d)
samples = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
timed("valle 1044 argmax(logits)[0]==EOS or ... (expect sync)",
      lambda: bool(torch.argmax(logits, dim=-1)[0] == 1024 or samples[0, 0] == 1024
                   or (10 > x_lens.max() * 16)))

xy_dec = torch.randn(1, 57 + 600, 1024, device=d)
timed("valle 1099 xy_dec[:, text_len_cuda0d + prefix_len:] (expect sync)",
      lambda: xy_dec[:, x_lens.max() + 225:])

def make_pad_mask(lengths, max_len=0):                         # icefall.utils.make_pad_mask
    max_len = max(max_len, lengths.max())
    n = lengths.size(0)
    seq_range = torch.arange(0, max_len, device=lengths.device)
    return seq_range.unsqueeze(0).expand(n, max_len) >= lengths.unsqueeze(-1)
timed("valle 603 make_pad_mask(cuda x_lens) (expect sync)", lambda: make_pad_mask(x_lens))
timed("valle 1010 torch.zeros((x_len_cuda0d,)*2, bool) (expect sync)",
      lambda: torch.zeros((x_lens.max(), x_lens.max()), dtype=torch.bool))

codes = torch.randint(0, 1024, (1, 225, 8), device=d)
timed("valle infer 260 cuda_tensor != [] (expect host)", lambda: bool(codes != []))
