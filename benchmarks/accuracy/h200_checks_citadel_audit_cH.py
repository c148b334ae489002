"""citadel audit cH (hart, metavoice, voicecraft), session 31: one-element scalar writes vs slice fills.

The README H200 table measured `t[1] = 1` (0-d destination: waits) and `t[5:] = 0` (multi-element slice:
no wait). The labels below rest on the case in between, a slice/column store whose destination is a
1-D view with ONE element (shape [1], not 0-d). Reading ATen's `copy_to` (sizes [1] != [] and the value is
a CPU 0-d tensor -> `fill_`), it should not wait; these checks confirm it. The rest are controls for
patterns the labels take as measured (0-d element stores, single-element Python-list indices,
a 1-element CUDA tensor as a slice bound).

- hart `hart_transformer_t2i.py:352` `context_mask[b:, 0] = 1` (context_mask bool [2B, 300], B=1 in app.py)
- metavoice `causal.py:17` `sorted_indices_to_remove[:, 0] = 0` (bool [b, vocab], b=1 in sample_utterance)
Run from benchmarks/accuracy: python3 h200_checks_citadel_audit_cH.py  (torch only)."""
import os
import sys

sys.path.insert(0, os.getcwd())
import torch  # noqa: E402

from h200_timing import timed  # noqa: E402

d = "cuda"
# one-element 1-D slice fills (the uncertain look-alikes)
ctx_mask = torch.ones((2, 300), dtype=torch.bool, device=d)            # hart: cat((mask, zeros)) with B=1
timed("hart 352 context_mask[1:, 0] = 1 ([1] 1-D dst, bool)", lambda: ctx_mask.__setitem__((slice(1, None), 0), 1))
remove = torch.zeros((1, 2048), dtype=torch.bool, device=d)             # metavoice top_p mask, b=1
timed("metavoice causal.py:17 remove[:, 0] = 0 ([1] 1-D dst)", lambda: remove.__setitem__((slice(None), 0), 0))
# multi-element slice fill (control: README t[5:] = 0)
lg = torch.randn((3, 4, 2048), device=d)                                # voicecraft batch logits [B, K, card]
timed("voicecraft 1273 logits[:, 1, 2000] = -10000 ([3] dst)", lambda: lg.__setitem__((slice(None), 1, 2000), -10000))
# 0-d destination element stores (controls: README t[1] = 1)
lk = torch.randn((4, 2048), device=d)                                   # voicecraft logits [K, card]
timed("voicecraft 722 logits[1][2000] = -10000 (0-d dst via select)", lambda: lk[1].__setitem__(2000, -10000))
smp = torch.zeros((4, 1), dtype=torch.long, device=d)
timed("voicecraft 748 samples[-1, 0] = 5 (0-d dst)", lambda: smp.__setitem__((-1, 0), 5))
# Python-list indices with ONE element (controls: README xqkv[:, :, [-2]])
v = torch.randn((1, 50), device=d)
timed("metavoice causal.py:119 v[:, [-1]] (1-element list index)", lambda: v[:, [-1]])
x = torch.randn((2, 1, 2048), device=d)
timed("metavoice model.py:308 x[:, [-1], :] (1-element list index)", lambda: x[:, [-1], :])
# a 1-element (not 0-d) CUDA tensor as a slice bound (hart mask_by_order: order[:, : mask_len.long()])
order = torch.arange(4096, device=d).repeat(1, 1)
mask_len = torch.tensor([[4095.0]], device=d)[0]                        # shape [1], like mask_len[0]
timed("hart 43 order[:, : mask_len.long()] (shape [1] bound)", lambda: order[:, : mask_len.long()])
