"""The per-file index (phase 1a): what it records of each function's calls."""

from __future__ import annotations

from graphlint.facts.kinds import HOST
from graphlint.index.summary import index_source


def test_each_call_is_recorded_once_however_deeply_nested():
    """An enclosing call's walk once re-walked its arguments: 2**depth records (and as much work)."""
    fn = index_source("def f(x):\n    return a(b(c(d(x)), 1))\n", "m.py", "m").functions["f"]
    assert fn.calls == [("m.a", 2), ("m.b", 2), ("m.c", 2), ("m.d", 2)]
    assert [(callee, line) for callee, line, _pos, _kw in fn.call_args] == fn.calls


def test_two_calls_of_one_callee_on_one_line_stay_two():
    """The decoy: separate calls of the same function on one line are separate call sites."""
    fn = index_source("def f(x, y):\n    return a(x) + a(b(y))\n", "m.py", "m").functions["f"]
    assert fn.calls == [("m.a", 2), ("m.a", 2), ("m.b", 2)]


def test_a_name_rebound_many_times_is_read_once_per_binding(monkeypatch):
    """`h = h + r` rebound n times: each name read follows every binding, so without the memo one argument
    costs n**MAX_DEPTH reads (transformers' forward passes spent a third of the index there)."""
    from graphlint.facts import callsite

    reads = []
    inner = callsite._expr_kind
    monkeypatch.setattr(callsite, "_expr_kind", lambda *a: reads.append(a[0]) or inner(*a))
    body = "".join(f"    h = h + {i}\n" for i in range(12))
    fn = index_source(f"def f(h: int):\n{body}    return g(h)\n", "m.py", "m").functions["f"]
    assert fn.call_args == [("m.g", 14, (HOST,), ())]  # each `h + i` read with `h` as the caller passed it
    assert len(reads) <= 3 * 12 * (callsite.MAX_DEPTH + 2)  # each node (`h`, `h + i`, `i`) once per depth


def test_names_rebound_from_each_other_are_read_in_linear_work(monkeypatch):
    """`a = a + b; b = b + c; c = c + a` n times: each self-reading binding is read in a scope without it
    (`_rebound_views`), where the other names are self-reading too. With a scope and memo per binding read, the
    work grew as n**3 (n = 32: 600,000 reads); each name is now read once per depth of each such scope. The
    call's arguments, read below the names' last top-level bindings, read those bindings first (`_seen_binding`):
    twice the reads, still linear (1,198 at n = 64, 2,350 at n = 128). A read inside its own binding (`a = a + b`,
    the one reaching the call) joins only the bindings above it, in a scope of its own (`callsite._own_binding`):
    a third more, still linear (1,721 at n = 64, 3,385 at n = 128)."""
    from graphlint.facts import callsite

    reads = []
    inner = callsite._expr_kind
    monkeypatch.setattr(callsite, "_expr_kind", lambda *a: reads.append(a[0]) or inner(*a))
    n = 32
    body = "    a = a + b\n    b = b + c\n    c = c + a\n" * n
    fn = index_source(f"def f(a: int, b, c):\n{body}    return g(a, b, c)\n", "m.py", "m").functions["f"]
    assert [len(pos) for _callee, _line, pos, _kw in fn.call_args] == [3]
    assert len(reads) <= 30 * n  # 889 today


def test_a_module_records_whether_it_leaves_the_default_device_moved():
    """`torch.set_default_device(device)` / a `torch.cuda` default tensor type is process-wide (Llama's `build()`);
    the decoys leave nothing moved: a later same-level restore (nano-vllm), a restore in `finally`, a CPU tensor
    type, a script's `__main__` block (DeepSeek-V3's `model.py`), a `with torch.device(...)` block."""
    def moved(src: str) -> bool:
        return index_source("import torch\n" + src, "m.py", "m").moves_default_device

    assert moved("def build(device):\n    if device:\n        torch.set_default_device(device)\n")
    assert moved("def load(cpu):\n    if cpu:\n        torch.set_default_tensor_type(torch.BFloat16Tensor)\n"
                 "    else:\n        torch.set_default_tensor_type(torch.cuda.BFloat16Tensor)\n")
    assert moved("torch.set_default_device('cuda')\n")
    assert not moved("def init():\n    torch.set_default_device('cuda')\n    build()\n"
                     "    torch.set_default_device('cpu')\n")
    assert not moved("def init():\n    try:\n        torch.set_default_device('cuda')\n        build()\n"
                     "    finally:\n        torch.set_default_device(None)\n")
    assert not moved("def quant():\n    torch.set_default_tensor_type(torch.BFloat16Tensor)\n")
    assert not moved("if __name__ == '__main__':\n    torch.set_default_device('cuda')\n")
    assert not moved("def f():\n    with torch.device('cuda'):\n        build()\n")


def test_a_module_records_whether_every_path_leaves_the_default_device_moved():
    """`surely_moves_default_device`: the move holds on every path through the function (Llama's `build()` moves it
    in both arms). Decoys, moved on some paths only: an `if` without `else` (Chitu's quantized branch), one arm of
    an `if`/`else` whose other arm sets a host tensor type, a loop body, an `except` handler, a later restore in one
    arm."""
    def surely(src: str) -> bool:
        return index_source("import torch\n" + src, "m.py", "m").surely_moves_default_device

    assert surely("torch.set_default_device('cuda')\n")
    assert surely("def build(d):\n    torch.set_default_device(d)\n    load()\n")
    assert surely("def load(bf16):\n    if bf16:\n        torch.set_default_tensor_type(torch.cuda.BFloat16Tensor)\n"
                  "    else:\n        torch.set_default_tensor_type(torch.cuda.HalfTensor)\n")
    assert surely("def build(d):\n    with ctx():\n        torch.set_default_device(d)\n")
    assert not surely("def build(q, d):\n    if q:\n        torch.set_default_device(d)\n")
    assert not surely("def load(cpu):\n    if cpu:\n        torch.set_default_tensor_type(torch.BFloat16Tensor)\n"
                      "    else:\n        torch.set_default_tensor_type(torch.cuda.BFloat16Tensor)\n")
    assert not surely("def build(ds):\n    for d in ds:\n        torch.set_default_device(d)\n")
    assert not surely("def build(d):\n    try:\n        load()\n    except OSError:\n"
                      "        torch.set_default_device(d)\n")
    assert not surely("def build(d, q):\n    torch.set_default_device(d)\n    if q:\n"
                      "        torch.set_default_device('cpu')\n")


def test_a_return_that_lives_with_its_parameters_records_them():
    """`FunctionInfo.follows`: views, methods, torch ops and factories on `p.device` follow `p`, host reads and
    Python numbers agree with any parameter; arithmetic of two parameters follows both (F5-TTS's
    `get_pos_embed_indices(start, length, max_pos, scale=1.0)`, whose defaulted number is recorded); a device move or a
    factory on another device follows nothing."""
    s = index_source("""
import numpy as np
import torch


def mask(lengths: torch.Tensor, n: int):
    r = torch.arange(n, device=lengths.device)
    return r[None] >= lengths.unsqueeze(-1) + 1


def trim(x, k: int):
    if isinstance(x, np.ndarray):
        return np.pad(x, k)
    x = x[..., :k]
    return x.float()


def two(a, b, scale=1.0):
    return torch.where(a < b, a, b - 1) * scale


def moved(x, device):
    return x.to(device)


def elsewhere(x, device):
    return torch.zeros(3, device=device) + x
""", "m.py", "m")
    got = {name: fn.follows for name, fn in s.functions.items()}
    assert got == {"mask": ("lengths",), "trim": ("x",), "two": ("a", "b", "scale"), "moved": (), "elsewhere": ()}
    assert s.functions["two"].number_defaults == ("scale",)


def test_a_same_device_join_follows_the_parts_that_follow_a_parameter():
    """`torch.cat` / `torch.stack` raise on parts of two devices, so their result lives where any one part does: a
    part nothing types (`torch.ones(n)` on the default device) lives where the parameter does (lerobot's
    `_add_leading_ones(weights, start, total)`, which returns `weights` or `torch.cat([ones, weights])`). Decoys: no
    part follows a parameter (a moved one, a factory on another device), and arithmetic, which takes a 0-d host
    operand: there an untyped part still leaves the result unknown."""
    s = index_source("""
import torch


def lead(w, n):
    if n <= 0:
        return w
    ones = torch.ones(n)
    return torch.cat([ones, w])


def stacked(w, n):
    return torch.stack([w, torch.zeros(n)])


def moved(w, n, device):
    return torch.cat([w.to(device), torch.zeros(n)])


def elsewhere(w, n, device):
    return torch.cat([torch.zeros(n, device=device), torch.ones(n)])


def added(w, n):
    return w + torch.zeros(n)
""", "m.py", "m")
    got = {name: fn.follows for name, fn in s.functions.items()}
    # `elsewhere` lives on its `device` parameter alone: where a call's device names the host, so does the join
    assert got == {"lead": ("w",), "stacked": ("w",), "moved": (), "elsewhere": ("device",), "added": ()}


def test_a_tensor_annotation_yields_to_returns_that_show_no_tensor():
    """Data flow beats annotations (issue 19): `-> torch.Tensor` on a function whose every return shows a list, a
    number or a list the facts know is one returns what the body says (Mini-Omni's `generate_TA_BATCH`). Decoys: a
    tensor return, an unknown call's result (the annotation stays the prior), a list on one path only, and a parameter
    rebound to a list only where the caller passed none."""
    s = index_source("""
import torch
from engine import step


def rows(x) -> torch.Tensor:
    out = [[] for _ in range(8)]
    out[0].append(x.tolist()[0])
    return out


def ints(x) -> torch.Tensor:
    out = []
    for t in x:
        out.append(t.tolist()[0])
    return out


def count(x) -> torch.Tensor:
    return 3


def ids(x) -> torch.Tensor:
    return torch.cat(x)


def stepped(x) -> torch.Tensor:
    return step(x)


def maybe(x, greedy: bool) -> torch.Tensor:
    if greedy:
        return []
    return torch.cat(x)


def passed(x=None) -> torch.Tensor:
    if x is None:
        x = []
    return x
""", "m.py", "m")
    got = {name: str(fn.returns) for name, fn in s.functions.items()}
    assert got["rows"] == "unknown" and got["ints"] == "host_list" and got["count"] == "host"
    assert got["ids"] == "tensor" and got["stepped"].startswith("prior:tensor") and got["maybe"] == "tensor"
    assert got["passed"] == "tensor"


def test_a_loop_counter_rebinding_a_local_is_read_without_a_place():
    """`for i in range(n)` binds a Python int the summary stands in for with a constant of no line: a read of `i`
    below its top-level binding and such a loop (`_kept_since_top`) reads the join, and indexes the file (a
    ktransformers test crashed the index phase with an AttributeError)."""
    src = "def f(n: int, x):\n    i = x.cpu()\n    for i in range(n):\n        pass\n    return g(i)\n"
    fn = index_source(src, "m.py", "m").functions["f"]
    assert any(callee.endswith("g") for callee, _line, _pos, _kw in fn.call_args)


def test_a_container_item_annotation_yields_to_a_tensor_the_body_returns():
    """Data flow beats annotations: Fast-dLLM's `_expand_inputs_for_generation(..) -> Tuple[torch.LongTensor,
    Dict[str, Any]]` returns its tensor parameter `attention_mask` as the second item. Decoys: a dict returned there
    keeps the annotation, and so does an unannotated parameter (only its callers say what it is)."""
    from graphlint.facts.kinds import HOST_SEQ, TENSOR, Items

    s = index_source("""
from typing import Any, Dict, Optional, Tuple
import torch


def expand(ids: torch.Tensor, mask: Optional[torch.LongTensor] = None) -> Tuple[torch.LongTensor, Dict[str, Any]]:
    if mask is not None:
        mask = mask.repeat_interleave(2, dim=0)
    return ids, mask


def kwargs(ids: torch.Tensor) -> Tuple[torch.LongTensor, Dict[str, Any]]:
    return ids, {"a": 1}


def untyped(ids: torch.Tensor, mask) -> Tuple[torch.LongTensor, Dict[str, Any]]:
    return ids, mask
""", "m.py", "m")
    assert s.functions["expand"].returns == Items((TENSOR, TENSOR))
    assert s.functions["kwargs"].returns == Items((TENSOR, HOST_SEQ))
    assert s.functions["untyped"].returns.items[0] == TENSOR
    assert s.functions["untyped"].returns.items[1] != TENSOR


def test_a_scalar_return_annotation_yields_to_a_tensor_the_body_returns():
    """hertz-dev's `get_cache_len(cache) -> int` returns `0` or `length[0]` of a tensor: the body's tensor wins, as
    for a container item annotation. Decoys: `.item()`, `len(..)` and an untyped parameter keep `int`."""
    from graphlint.facts.kinds import HOST, TENSOR

    s = index_source("""
import torch


def cache_len(cache: torch.Tensor) -> int:
    if cache is None:
        return 0
    return (cache != -1).sum(dim=-1).int()[0]


def item(t: torch.Tensor) -> int:
    return t.sum().item()


def size(t: torch.Tensor) -> int:
    return len(t)


def untyped(t) -> int:
    return t
""", "m.py", "m")
    assert s.functions["cache_len"].returns == TENSOR
    assert [s.functions[f].returns for f in ("item", "size", "untyped")] == [HOST, HOST, HOST]


FIELD_STORES = """
import torch


class Holder:
    def __init__(self, model, other, cfg, dev, flag):
        self.a = model.eval().to(dev)
        self.a = self.a.half()
        self.c = torch.compile(model)
        self.e = cfg.model
        self.g = self.g.half()
        other = other.module
        self.o = other
        if flag:
            self.f = model
        else:
            self.f = other.to(dev)
"""


def test_a_method_records_which_parameter_each_field_is_left_holding():
    """`callsite.field_params`: a parameter through nn.Module's methods that return the module (`model.eval().to(d)`)
    or torch's wrappers (`torch.compile(model)`), also under a later store of the field's own object (`self.a =
    self.a.half()`); KEEPS for such a store after none; "" for another value (a config read, a rebound parameter)."""
    fn = index_source(FIELD_STORES, "m.py", "m", False).functions["Holder.__init__"]
    assert len(fn.field_params) == len(fn.attr_sets)
    assert sorted(fn.field_params) == [("a", "model"), ("c", "model"), ("e", ""), ("f", ""), ("f", "model"),
                                       ("g", "="), ("o", "")]


def test_a_tensor_annotation_yields_to_returns_read_out_to_python():
    """Data flow beats annotations: lit-llama's `validate(..) -> torch.Tensor` ends `return out.item()`, a Python
    float, so `f"{val_loss:.4f}"` of its result was GL107 (moat P-2). A read-out (`.item()`, `.tolist()`, `float()`,
    `int()`, `len()`), returned or held by a local every binding of which is one, is no tensor. Decoys: `round(t)`
    (a tensor: `Tensor.__round__`), a read-out on one path and a tensor on another, a local a tensor is added into
    after a read-out, and an unknown call's result keep the annotation."""
    s = index_source("""
import torch
from engine import step


def validate(model, x) -> torch.Tensor:
    out = model(x).sum()
    return out.item()


def listed(x) -> torch.Tensor:
    return x.tolist()


def number(x) -> torch.Tensor:
    return float(x.sum())


def held(x) -> torch.Tensor:
    if x.numel():
        v = x.max().item()
    else:
        v = 0.0
    return v


def rounded(x) -> torch.Tensor:
    return round(x)


def either(x, fast: bool) -> torch.Tensor:
    if fast:
        return x.item()
    return x


def summed(xs) -> torch.Tensor:
    total = 0.0
    for x in xs:
        total += x.sum()
    return total


def stepped(x) -> torch.Tensor:
    return step(x)
""", "m.py", "m")
    got = {name: str(fn.returns) for name, fn in s.functions.items()}
    assert got["validate"] == "host" and got["number"] == "host" and got["held"] == "host"
    assert got["listed"] != "tensor" and not got["listed"].startswith("prior")
    assert got["rounded"] == "tensor" and got["either"] == "tensor" and got["summed"] == "tensor"
    assert got["stepped"].startswith("prior:tensor")
