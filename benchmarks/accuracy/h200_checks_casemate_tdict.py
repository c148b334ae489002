"""tdict (casemate, labeller lab40a, session 40): the unmeasured behaviour behind one uncertain label, plus controls.
tensordict/nn/cudagraphs.py:389 (capture call of the tensor path):
    `isinstance(inp, torch.Tensor) and inp in tree_leaves_output` -> labelled host / other, uncertain.
A tuple `in` test tries identity first and falls back to `inp == leaf` and its truth value; for a CUDA input that
is not itself an output, does that read the device (wait), raise (multi-element), or neither?
Session 41 (settle41): the session 40 device run stopped at the second case, because `a in (b,)` of two
multi-element tensors raises "Boolean value of Tensor with more than one value is ambiguous" and timed() does not
catch a raise while preparing. Cases that may raise that error now go through `truth_or_ambiguous`, which returns
instead, so the run completes and each line's note says what the `in` test gave. Also added: the form the code
runs. torch.utils._pytree.tree_leaves returns a list, so lines 385-387 wrap it as `(leaves_list,)` and line 389
compares the tensor with that list (Tensor == list), not with each leaf.
Run from benchmarks/accuracy: python3 h200_checks_casemate_tdict.py  (torch only)."""
import sys
from typing import Callable

import torch

sys.path.insert(0, "/work/main/benchmarks/accuracy")
from h200_timing import timed  # noqa: E402

AMBIGUOUS = "more than one value is ambiguous"


def truth_or_ambiguous(test: Callable[[], bool]) -> object:
    """The test's result, or the string "raises ambiguous" when a multi-element truth value raised.
    Any other error (the sync debug mode's among them) propagates, so timed() still sees it."""
    try:
        return test()
    except RuntimeError as e:
        if AMBIGUOUS not in str(e):
            raise
        return "raises ambiguous"


def check(name: str, test: Callable[[], bool]) -> None:
    """Time `test` behind the queued sleep; the note records what it gave (True, False or the raise)."""
    outcome = truth_or_ambiguous(test)
    torch.cuda.synchronize()
    timed(name, lambda: truth_or_ambiguous(test), note=f"-> {outcome}")


d = "cuda"
a = torch.randn(64, 8, device=d)
b = torch.randn(64, 8, device=d)
a0 = torch.randn((), device=d)
b0 = torch.randn((), device=d)
a1 = torch.randn(1, device=d)
b1 = torch.randn(1, device=d)

check("control 389: inp in (inp,) identity hit", lambda: a in (a,))
# What cudagraphs.py:385-389 runs: tree_leaves gives a list, wrapped in a 1-tuple.
check("389 as coded: inp in (tree_leaves list [other, inp],)", lambda: a in ([b, a],))
check("389 as coded: 0-d inp in (tree_leaves list [other 0-d],)", lambda: a0 in ([b0],))
# Leaf-by-leaf forms (a tuple of leaves), kept from session 40.
check("389: multi-element inp in (other same-shape CUDA,)", lambda: a in (b,))
check("389: multi-element inp in (other, inp) identity second", lambda: a in (b, a))
check("389: 0-d inp in (other 0-d CUDA,)", lambda: a0 in (b0,))
check("389: [1] inp in (other [1] CUDA,)", lambda: a1 in (b1,))
check("389: inp in (non-tensor None, 3)", lambda: a in (None, 3))
