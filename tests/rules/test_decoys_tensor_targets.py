"""Hits and decoys for moves to, and builds on, another tensor's device: `.to(t)`, `.to(other=t)`, `.type_as(t)`,
`t.new_tensor(data)` go where `t` is, exactly as `.to(t.device)` / `torch.tensor(data, device=t.device)` do, so
whatever the code shows about `t` (device, host, annotated, untyped) gives the same answer for both spellings.
"""

from __future__ import annotations

from snippets import check

MOVES = """
    from typing import Dict
    import torch
    from torch import Tensor
    class Gen(torch.nn.Module):
        def forward(self, sample{ann}, x: Tensor):
            src = sample["net_input"]["src_tokens"]
            bsz = src.size(0)
            a = torch.zeros(bsz, 8).to(src)  # <- GL131
            b = torch.arange(bsz).to(src.device)  # <- GL131
            c = torch.ones(3).type_as(src)  # <- GL131
            d = torch.ones(3).to(other=src)  # <- GL131
            e = torch.ones(3).to(x)  # <- GL131
            cpu = x.cpu()
            f = torch.ones(3).to(cpu)
            g = torch.ones(3).to(cpu.device)
            h = torch.ones(3).to(torch.ones(4))
            i = torch.ones(3).to(src.dtype)
            j = torch.ones(3).to(torch.float16)
            k = torch.ones(3).to(torch.device("cpu"))
            return a, b, c, d, e, f, g, h, i, j, k
"""


def test_to_a_tensor_of_an_annotated_dict_moves_to_its_device():
    """fairseq's generator: `src_tokens = sample["net_input"]["src_tokens"]` of `sample: Dict[str, Dict[str, Tensor]]`,
    then `torch.zeros(..).to(src_tokens)`. The host-sequence pattern reads the key type `str` only, so `src_tokens`
    is typed a Python value, and `.to(src_tokens)` was no move while `.to(src_tokens.device)` was one; the unit's
    `src_tokens.size(0)` says it is a tensor, as for the unannotated parameter. Decoys: a target known on the host
    (`.cpu()`, a factory without `device=`, `torch.device("cpu")`), a dtype."""
    check(MOVES.format(ann=": Dict[str, Dict[str, Tensor]]"))
    check(MOVES.format(ann=""))


def test_an_annotated_dict_of_host_values_stays_host():
    """`Dict[str, int]` holds Python numbers: `.to(cfg["n"])` names no tensor (a CUDA ordinal is `.to(0)`, a literal),
    and an element in a condition is no device read."""
    check("""
        from typing import Dict
        import torch
        class Gen(torch.nn.Module):
            def forward(self, x: torch.Tensor, cfg: Dict[str, int], names: Dict[str, str]):
                if cfg["n"] > 0:
                    x = x + 1
                y = torch.ones(3).to(names["dtype"])
                return x, y
    """)


def test_new_tensor_builds_on_the_receivers_device():
    """`t.new_tensor(ids)` is `torch.tensor(ids, device=t.device)`: a pageable upload wherever `t` is not known to
    live on the host, also for a receiver nothing types (an untyped batch's element). Decoys: a receiver on
    the host (`.cpu()`, a factory without `device=`, a `*_cpu` tensor), tensor data, `device="cpu"`."""
    check("""
        from typing import Dict, List
        import torch
        from torch import Tensor
        class Gen(torch.nn.Module):
            def forward(self, sample, ids: List[int], x: Tensor, seq_cpu: Tensor):
                src = sample["src_tokens"]
                a = src.new_tensor(ids)  # <- GL130
                b = torch.tensor(ids, device=src.device)  # <- GL130
                c = x.new_tensor([0.5, 2.0])  # <- GL130
                h = x.cpu()
                d = h.new_tensor(ids)
                e = torch.ones(3).new_tensor(ids)
                f = seq_cpu.new_tensor(ids)
                g = x.new_tensor(x)
                k = x.new_tensor(ids, device="cpu")
                return a, b, c, d, e, f, g, k
    """)
