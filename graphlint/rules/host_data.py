"""GL13x: per-step host data and host<->device copies in the hot path.

Host data that reaches the device every step is a pageable host-to-device copy: the host blocks
until the copy is done, and capture fails (torch refuses unpinned CPU<->CUDA copies during capture).
Indices made on the host (Python lists, CPU index tensors) are copied implicitly, the same way.

Which tensors live on the host is decided by `Context.host` (facts/host_origin.py), from the origin visible in the unit
(a factory without `device=`, `torch.from_numpy`, `.cpu()`, `.pin_memory()`, then views, casts and
host arithmetic), not from the inference's guesses: it also carries what the inference does not
(pinned-ness through slicing, CPU boolean masks, 0-d vs shaped, constant data).
"""

from __future__ import annotations

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.inference import in_config, is_mask_name
from graphlint.facts.values import HOST, MOVED, UNKNOWN, Dev, Dims, Kind, Source, holds_cpu_tensors, is_list
from graphlint.facts.names import dotted_name
from graphlint.facts.host_origin import (
    CUDA_LEGACY_TENSOR_RE, HOST_DATA_FACTORIES, builds_off_host, device_arg_class, factory_device_is_cpu, host_list, is_host_data,
    lazy_init, non_blocking, tensor_elements, to_target,
)
from graphlint.facts.syntax import argument, method_call, names_columns, positional
from graphlint.facts.torch_kinds import H2D
from graphlint.rules._util import library_copy, numpy_argument, stored_value, tensor_method
from graphlint.rules.base import Rule


def _report_per_step(rule: Rule, node: cst.CSTNode, message: str) -> None:
    """Report a host-to-device copy that runs every step; one in lazy initialisation of module state
    runs once, on the first call, which warm-up makes before capture (asked only when reporting)."""
    if not lazy_init(rule.ctx):
        rule.report(node, message)


# -- rules ----------------------------------------------------------------------------------------


# `*`, `&`, `|`, `^` of two bool tensors is a bool tensor (torch keeps the dtype): a mask like its operands
_MASK_JOINS = (cst.Multiply, cst.BitAnd, cst.BitOr, cst.BitXor)


def _mask_syntax(idx: cst.BaseExpression) -> bool:
    """An index the syntax shows is a bool mask: `~m` (the engine's reading of an inverted index), and a join of two
    such (`~a * ~b`, `~a & ~b`: boltz's bound masks)."""
    if isinstance(idx, cst.UnaryOperation) and isinstance(idx.operator, cst.BitInvert):
        return True
    return isinstance(idx, cst.BinaryOperation) and isinstance(idx.operator, _MASK_JOINS) \
        and _mask_syntax(idx.left) and _mask_syntax(idx.right)


class HostDataToDevice(Rule):
    """Building a device tensor from host data every step is a pageable host-to-device copy.

    `torch.tensor(data, device="cuda")`, `torch.as_tensor(arr, device=dev)`, `x.new_tensor([..])`
    and the legacy `torch.cuda.LongTensor([..])` copy from pageable host memory: measured on an H200
    the host waits, and capture fails (torch refuses an unpinned copy during capture). vLLM removed
    many of these from its hot paths. `torch.tensor([x[0], x[1]])` with tensor elements is worse: it
    reads every element on the host (an `.item()` each), whatever the target device.

    So does `torch.tensor(data)` without `device=` where the default device is off the host: under `with
    torch.device("cuda"):`, or in a project whose setup moves the process's default device
    (`torch.set_default_device(device)`, `torch.set_default_tensor_type(torch.cuda.HalfTensor)`, as Llama's
    `build()` does), where every such factory builds on the device.

    So do library calls that build such a tensor inside (`facts/torch_kinds.py`, `LIBRARY_COPIES`), reported where
    their first argument is a device tensor the data flow shows: torchvision's `normalize(x, mean, std)` /
    `Normalize(mean, std)(x)` (`torch.as_tensor(mean, device=x.device)`, the same of `std`, from Python lists) and
    torchaudio's Kaldi `fbank` / `mfcc` / `spectrogram` (mel banks and the log floor built on the host, then
    `.to(device)`; measured for `fbank`: the host waits behind queued work).

    Not reported: `torch.tensor(...)` without a device where the default is the host, or with `device="cpu"` (a host
    tensor, used on the host); `torch.as_tensor(t, device=...)` of a value that is not known to be host data (a no-op
    on device tensors); `torch.stack([...])` of CUDA scalars (no sync, measured); lazy initialisation of
    module state (`if self.buf is None: self.buf = torch.tensor(..., device=d)`, the `hasattr` and
    `key not in self.cache` forms, and a local tested for None whose body stores it into module state:
    `m = self.cache.get(k)`, `if m is None: m = ...; self.cache[k] = m`): it runs once per key, on the
    first call, which warm-up makes before capture. A local or parameter tested for None that is not
    stored is per call and stays reported. Nor a Python number (`torch.tensor(1.0, device=d)`, `dt = -1.0 / n`) in a
    function `torch.compile` traces with the defaults (decorated, or passed to a compile built wherever its module
    runs; not one under `if args.compile:`): dynamo folds the number into the graph as a constant, so no copy runs
    (a list of CPU tensors there still breaks the graph and copies).
    """

    code = "GL130"
    name = "host-data-to-device"
    family = Family.HOST_SYNC
    message = "`{call}` copies host data to the device every step (pageable copy: the host blocks, capture fails)"
    fix_hint = ("Preallocate a static device buffer once and `copy_()` into it from a pinned staging buffer, "
                "or build the value on the device; stack CUDA scalars with `torch.stack`")
    why = (
        "The data is copied from pageable host memory every step: the host waits for the copy, and during capture "
        "torch refuses a copy from unpinned memory."
    )
    hazard = "host-data-to-device"
    use_instead = (
        "class Step:\n    def __init__(self, n: int):\n"
        "        self.pos = torch.arange(n, device='cuda')  # built once\n\n"
        "    def __call__(self, x: torch.Tensor):\n        return x + self.pos\n"
    )
    message_elements = ("`{call}` of tensor elements reads every element on the host "
                        "(an implicit `.item()` each) and blocks")
    VALID = (
        "def step(a: torch.Tensor, b: torch.Tensor):\n    return torch.stack([a.sum(), b.sum()])\n",
        "def step(ids: list[int]):\n    host = torch.tensor(ids, device='cpu')\n    return host.numel()\n",
        "def step(x: torch.Tensor):\n    return torch.as_tensor(x, device=x.device)\n",
        "def step(x: torch.Tensor):\n    return torch.tensor([1, 2, 3])\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.cuda.FloatTensor(n, 4)\n",
        "def step(x: torch.Tensor):\n    return x.new_tensor(x)\n",
        "def step(x: torch.Tensor):\n    return torch.full((4,), 2.0, device=x.device)\n",
        "def step(x: torch.Tensor):\n    return torch.tensor([], dtype=torch.long, device=x.device)\n",
        "class M(torch.nn.Module):\n    def forward(self, x: torch.Tensor):\n        if self.table is None:\n"
        "            self.table = torch.tensor([1, 2, 3], device=x.device)\n        return x[self.table]\n",
        "from torchvision.transforms.functional import normalize\n"
        "def step(x: torch.Tensor):\n    img = torch.rand(3, 8, 8)  # a CPU image\n"
        "    return x, normalize(img, [0.5, 0.5, 0.5], [0.2, 0.2, 0.2])\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, ids: list[int]):\n"
        "    t = torch.tensor(ids, device='cuda')  # <- GL130\n"
        "    #   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x[t]\n",
        "def step(x: torch.Tensor, pos=None):\n    if pos is None:\n"
        "        pos = torch.tensor([0, 1], device=x.device)  # <- GL130\n"
        "        #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x[pos]\n",
        "def step(x: torch.Tensor):\n    pos = torch.tensor(0, device=x.device)  # <- GL130\n"
        "    #     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x + pos\n",
        "import numpy as np\ndef step(x: torch.Tensor, arr: np.ndarray):\n"
        "    return torch.as_tensor(np.asarray(arr), device='cuda')  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return x.new_tensor([1.0, 2.0])  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return torch.cuda.BoolTensor([True, False])  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return torch.tensor([x[0], x[1]])  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    parts = x.split(2)\n    return torch.tensor([p.sum() for p in parts])  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "def other(x: torch.Tensor):\n    return torch.tensor(x.unbind(0))  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, dev):\n    toks = []\n    toks.append(1)\n"
        "    return torch.tensor(toks, device=dev, dtype=torch.long)  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, ids: list[int]):\n    with torch.device('cuda'):\n"
        "        t = torch.tensor(ids)  # <- GL130\n"
        "        #   ^^^^^^^^^^^^^^^^^\n"
        "    return x[t]\n",
        "from torchvision.transforms.functional import normalize\n"
        "def step(x: torch.Tensor):\n    return normalize(x, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225])  # <- GL130\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    library_message = ("`{call}()` of a device tensor copies host data to the device inside the library every call "
                       "(pageable copy: the host blocks, capture fails)")

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        qual = ctx.call_name(node) or ""
        if (lib := library_copy(ctx, node)) is not None and lib[0] == H2D:
            _report_per_step(self, node, self.library_message.format(call=lib[1]))
            return
        if qual in HOST_DATA_FACTORIES:
            # the data by position or keyword (`torch.tensor(data=arr, device=d)`; `torch.asarray`'s is `obj`)
            data = argument(node, 0, "obj" if qual == "torch.asarray" else "data")
            if data is None:
                return
            short = qual + "(...)"
            if (tensor_elements(ctx, data) and isinstance(data, (cst.List, cst.Tuple, cst.ListComp))) or (
                    qual == "torch.tensor" and ctx.val(data).kind is Kind.TENSOR_SEQ and not holds_cpu_tensors(ctx.val(data))):
                _report_per_step(self, node, self.message_elements.format(call=short))
                return
            on_cpu = factory_device_is_cpu(ctx, node)
            if on_cpu or on_cpu is None and not builds_off_host(ctx):
                return  # device="cpu", or no device where the default is the host (a CPU tensor)
            if isinstance(data, (cst.List, cst.Tuple)) and not data.elements:
                return  # `torch.tensor([], device=d)`: nothing to copy (measured: no wait, captures)
            if ctx.val(data).kind in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.TENSOR_SEQ) and not holds_cpu_tensors(ctx.val(data)):
                return
            if ctx.dynamo_compiled() and _python_number(ctx, data):
                return  # dynamo folds a Python number into the compiled graph: no copy when it runs
            if qual == "torch.tensor" or is_host_data(ctx, data):
                where = "device=..." if on_cpu is False else "on the default device"
                _report_per_step(self, node, self.message.format(call=f"{qual}(..., {where})"))
            return
        if CUDA_LEGACY_TENSOR_RE.match(qual) or qual == "torch.Tensor" and ctx.legacy_device:
            # (`torch.Tensor(..)` after the entry's `set_default_tensor_type(<cuda type>)` is a CUDA one)
            args = positional(node)
            if args and (isinstance(args[0], (cst.List, cst.Tuple, cst.ListComp))
                         or ctx.val(args[0]).kind in (Kind.HOST_SEQ, Kind.NDARRAY) or ctx.host.is_cpu(args[0])
                         or qual == "torch.Tensor" and _legacy_data(ctx, args[0])):
                _report_per_step(self, node, self.message.format(call=qual.rpartition(".")[2] + "([...])"))
            return
        m = tensor_method(ctx, node, ("new_tensor",))
        if m is None or m[0] is None or not node.args:
            return
        recv = m[0]
        data = node.args[0].value
        if tensor_elements(ctx, data) and isinstance(data, (cst.List, cst.Tuple)):
            _report_per_step(self, node, self.message_elements.format(call=".new_tensor(...)"))
            return
        dev = factory_device_is_cpu(ctx, node)
        on_device = dev is False or dev is None and _on_own_device(ctx, recv)
        if on_device and ctx.val(data).kind not in (Kind.TENSOR, Kind.BOOL_TENSOR, Kind.TENSOR_SEQ):
            _report_per_step(self, node, self.message.format(call=".new_tensor(...)"))


def _legacy_data(ctx, data: cst.BaseExpression) -> bool:
    """Data of `torch.Tensor(data)` under a CUDA default tensor type that is host data unless the flow shows a tensor:
    that constructor takes a CUDA tensor as an alias and refuses a CPU one, so what it is handed is a list or an
    array (nerf-pytorch's `torch.Tensor(images)` of a loader's NumPy stack), or a device tensor the flow shows. Not
    a parameter nothing types, which a caller may fill with a tensor, nor a size (`torch.Tensor(n, 3)`)."""
    if ctx.val(data).kind is not Kind.UNKNOWN or isinstance(data, (cst.Integer, cst.Float)):
        return False
    return not (isinstance(data, cst.Name) and data.value in ctx.inference.param_names())


def _on_own_device(ctx, recv: cst.BaseExpression) -> bool:
    """`t.new_tensor(data)` builds where `t` is, as `torch.tensor(data, device=t.device)` does: off the host unless `t`
    is known to live there (`Inference.device_arg` reads `t.device` so). Only a tensor has `new_tensor`, so an
    untyped receiver is one (`tensor_method` has ruled out host values and lists)."""
    val = ctx.val(recv)
    return ctx.is_device_tensor(recv) or val.kind in (Kind.UNKNOWN, Kind.TENSOR, Kind.BOOL_TENSOR) \
        and not ctx.host.is_cpu(recv)


def _python_number(ctx, data: cst.BaseExpression) -> bool:
    """A Python number: a numeric literal (`1.0`, `-1`), a local, parameter or arithmetic the data flow types as a
    host scalar, or one nothing types that arithmetic with a number binds (`dt = -1.0 / num_steps`, `num_steps` a
    parameter filled through `**kwargs`)."""
    if isinstance(data, cst.UnaryOperation):
        data = data.expression
    if isinstance(data, (cst.Integer, cst.Float)):
        return True
    if not isinstance(data, (cst.Name, cst.BinaryOperation)):
        return False
    kind = ctx.val(data).kind
    return kind is Kind.HOST or kind is Kind.UNKNOWN and ctx.number_arithmetic(data)


class CpuTensorToDevice(Rule):
    """A CPU tensor copied to the device every step (`.to(device)`, `.cuda()`, `dst.copy_(cpu)`, `dst[i] = cpu`).

    A cast to a CUDA tensor type is the same copy (`.type(torch.cuda.FloatTensor)`, `.type("torch.cuda.HalfTensor")`,
    `.type(x.type())` of a device `x`): `Tensor.type` reads a device and a dtype out of the type and calls `.to`. So is
    a move to another tensor's place, `.to(other)` or `.type_as(other)` (`other`'s device and dtype), of a tensor not
    known to be on the host: `.type_as` takes only a tensor, and `.to(other)` is read as one where the unit uses
    `other` as a tensor (`other.view(..)`, `other.size(1)`), as `.to(other.device)` is.
    `dst.diagonal_scatter(cpu, ...)` and `dst.slice_scatter(cpu, ...)` copy too: they clone `dst` and
    `copy_` the CPU source into a view of the clone. So does a checkpoint read onto the device,
    `torch.load(path, map_location=device)` or `safetensors.torch.load_file(path, device="cuda")`: each
    tensor is read into pageable host memory and copied up (no `map_location`, a lambda or a dict: not
    judged). And so does moving a module whose weights are on the host (`Whisper(dims).to(device)`,
    `from_pretrained(name).cuda()`: a project module built with no device argument outside a device context,
    `**cfg` into a constructor with no device parameter, a project factory's such module, `copy.deepcopy` of one,
    or a model loaded without `device_map`): every weight is copied up, once; built under `init_empty_weights()`
    it holds none. A copy in a step root's set-up, outside its per-step loop (a checkpoint read, a table moved before
    the loop), is reported as running there: once per call of the root, not per step, still blocking. So does
    moving a field in place,
    `self.buf = self.buf.to(device)`, where the class rebuilds `self.buf` on the host after construction (per
    request, per prefill): each rebuild is copied up again. Built on the host only in `__init__`, the field is moved
    once, on the first call: not reported, unless the move runs under a test that finds it elsewhere (`if
    self.freqs.device != device:`), which the hot path takes: a plain attribute (no buffer), which `Module.to()` leaves
    on the host, or a plain class's host field is then uploaded there. So does a store into a device tensor, `dst[i, :n]
    = src`, which is `dst[i, :n].copy_(src)`, of a CPU tensor or a Python list (torch makes it a CPU tensor first):
    TGI's `block_tables[i, :n] = torch.tensor(blocks)`, Janus's `tokens[i, :] = input_ids` of a `LongTensor(ids)`. Not
    reported: a Python scalar, a NumPy value (an array is not told from a NumPy scalar) or a 0-d CPU tensor stored (a
    fill; one element from a Python scalar is GL133), a store into a CPU buffer. So does the move right after an
    input-normalising arm, `if not isinstance(x, torch.Tensor): x = torch.tensor(x)` (or `if isinstance(x,
    np.ndarray): x = torch.from_numpy(x)`) then `x.to(device)`, in a function no project code calls with evidence
    (a public entry: moondream's `input_embeds`): whenever the arm ran, `x` is a host tensor; the message names the
    arm. Not where resolved callers pass values nothing types (they may pass device tensors only), nor after an arm
    that builds on the device or a rebinding of `x`.

    A blocking host-to-device copy: the host waits for it, and during capture torch refuses a copy
    from unpinned memory. Typical sources: `torch.arange(n).cuda()`, a mask built on the host, a
    `.cpu()` round trip. Not reported: the pinned-buffer pattern with `non_blocking=True` (the
    recommended fix); `non_blocking=True` from pageable memory, also through a parameter that defaults to
    `True` (`def plan(..., non_blocking=True)`), is GL206 (it waits only above ~2 MB, measured); lazy
    initialisation of module state (`if not hasattr(self, "idx"): self.idx = torch.arange(n).cuda()`),
    which runs once, before capture (see GL130).
    """

    code = "GL131"
    name = "cpu-tensor-to-device"
    family = Family.HOST_SYNC
    message = "A CPU tensor is copied to the device every step (`{call}`): the host blocks, capture fails"
    fix_hint = ("Create the tensor on the device (`device=`), or stage it in a pinned buffer allocated once "
                "and copy with `non_blocking=True`")
    why = "A copy from pageable host memory blocks the host until it is done, and during capture torch refuses it."
    hazard = "h2d-copy"
    use_instead = (
        "def step(x: torch.Tensor, n: int):\n    idx = torch.arange(n, device=x.device)  # made on the device\n"
        "    return x[idx]\n"
    )
    VALID = (
        "def step(x: torch.Tensor, dev):\n    return x.to(dev)\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.arange(n, device=x.device)\n",
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    return buf[:n].to(x.device, non_blocking=True)\n",
        "def step(x: torch.Tensor, n: int):\n    t = torch.arange(n)\n    return t.to(torch.float16)\n",
        "def step(x: torch.Tensor, n: int):\n    t = torch.arange(n)\n    return t.to('cpu')\n",
        "class M(torch.nn.Module):\n    def forward(self, x: torch.Tensor, n: int):\n"
        "        if not hasattr(self, 'idx'):\n            self.idx = torch.arange(n).cuda()\n"
        "        return x[self.idx]\n",
        "def step(x: torch.Tensor, ids: list[int]):\n    x[0, 1:] = 0\n    x[x < 0] = torch.tensor(-1.0)\n"
        "    buf = torch.zeros(4, 8)\n    buf[0, :len(ids)] = torch.LongTensor(ids)\n    return x\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, n: int):\n    return x + torch.arange(n).cuda()  # <- GL131\n"
        "    #          ^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, ids: list):\n    t = torch.tensor(ids)\n    return t.to(x.device)  # <- GL131\n"
        "    #      ^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, n: int):\n    m = torch.ones(n)\n    x.copy_(m)  # <- GL131\n"
        "   #^^^^^^^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    return buf.to('cuda')  # <- GL131\n"
        "    #      ^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, ids: list[int]):\n    row = torch.LongTensor(ids)\n"
        "    x[0, :len(ids)] = row  # <- GL131\n"
        "   #^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
    )

    OUTSIDE_LOOP = ("A CPU tensor is copied to the device outside the step loop (`{call}`): the host blocks until the "
                    "copy is done")
    MODULE = ("Moving a module whose weights are on the host copies each of them to the device (`{call}`): the host "
              "blocks on every copy")
    STORE = ("Writing a {what} into a device tensor copies it from host memory every step (a blocking `copy_`): "
             "the host blocks, capture fails")

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            what = self._host_store(target.target, node.value)
            if what is not None:
                _report_per_step(self, node, self.STORE.format(what=what))
                break

    def _host_store(self, target: cst.BaseExpression, value: cst.BaseExpression) -> str | None:
        """`dev[i, :n] = src` is `dev[i, :n].copy_(src)`: what `src` is when it lives on the host (a CPU tensor, a
        Python list, which torch turns into a CPU tensor first); a Python scalar is a fill (HostIndex)."""
        ctx = self.ctx
        if target.__class__ is not cst.Subscript or not ctx.is_device_tensor(target.value) or ctx.host.is_cpu(target.value) \
                or ctx.val(target.value).weak:
            return None  # a tensor by its name only may be a list of them (`hidden_states[i] = hidden_states[i].cpu()`)
        origin = ctx.host.origin(value)
        if origin is not None:
            # a 0-d CPU tensor is a scalar to a CUDA op (`x[~m] = torch.tensor(finfo.min)` is a masked fill)
            return "CPU tensor" if origin.dims is not Dims.SCALAR else None
        # (not NumPy values: the inference does not tell an array from a NumPy scalar, `np.log(np.exp(1 - d) - 1)`,
        # which a store fills with)
        return "Python list" if host_list(ctx, value) or ctx.host.is_host_list(value) or is_list(ctx.val(value)) \
            else None

    ARM = ("A tensor the `if` at line {line} builds on the host when it runs is copied to the device (`{call}`): the "
           "host blocks on that path, capture fails")

    def visit_Call(self, node: cst.Call) -> None:
        found = _h2d_copy(self, node) or self._moved_field(node)
        if found is None:
            self._arm_copy(node)
            return
        src, call = found
        if non_blocking(node, self.ctx):
            return  # pinned: fine; pageable: GL134
        held = self.ctx.val(src)
        message = self.MODULE if held.kind is Kind.MODULE and held.host else \
            self.OUTSIDE_LOOP if self._outside_step_loop() else self.message
        _report_per_step(self, node, message.format(call=call))

    def _outside_step_loop(self) -> bool:
        """The copy runs in a step root but outside its per-step loop (set-up before it, a summary after it): once per
        call of the root, not every step (the labels call such set-up copies sync, tier other)."""
        return bool(self.ctx.unit.hot.steps) and self.ctx.context not in ("step", "captured")

    def _arm_copy(self, node: cst.Call) -> None:
        """`x.to(device)` / `x.cuda()` right after an input-normalising arm (`if not isinstance(x, torch.Tensor): x =
        torch.tensor(x)`): whenever that arm ran, `x` is a host tensor and this copies it (`Context.host_arm`)."""
        m = method_call(node)
        if m is None or m[1] not in ("to", "cuda") or (arm := self.ctx.host_arm(m[0])) is None:
            return
        if m[1] == "to" and to_target(self.ctx, node) is not Dev.DEVICE or non_blocking(node, self.ctx):
            return
        pos = self.ctx.position(arm)
        if pos is not None:
            line = pos.start.line + self.ctx.unit.line_offset
            _report_per_step(self, node, self.ARM.format(line=line, call=f".{m[1]}(...)"))

    def _moved_field(self, node: cst.Call) -> tuple[cst.BaseExpression, str] | None:
        """`self.x = self.x.to(device)` of a field the class rebuilds on the host (`Context.moves_host_field`); not
        GL206's: whether those host stores are pinned is not tracked."""
        ctx = self.ctx
        if not ctx.moves_host_field(node):
            return None
        name = node.func.attr.value  # (`moves_host_field`: `node.func` is `self.x.to` / `self.x.cuda`)
        if name == "to" and to_target(ctx, node) is not Dev.DEVICE:
            return None
        return node.func.value, f".{name}(...)"


def _h2d_copy(rule: Rule, node: cst.Call) -> tuple[cst.BaseExpression, str] | None:
    """(CPU source, call text) for `cpu.to(device)`, `cpu.cuda()`, `dev.copy_(cpu)`."""
    ctx = rule.ctx
    if ctx.checkpoint_device(node) is Dev.DEVICE:
        # `torch.load(p, map_location=device)`, `load_file(p, device="cuda")`: each tensor is read into pageable
        # host memory and copied up
        return node, f"{dotted_name(node.func) or 'load'}(...)"
    m = method_call(node)
    if m is None:
        return None
    recv, name = m
    if name in ("to", "cuda", "type"):
        held = ctx.val(recv)
        if not (ctx.host.moves_bytes(recv) or held.kind is Kind.MODULE and held.host):
            # a CPU tensor, or a module whose weights are on the host (`Whisper(dims).to(device)`); not one of no
            # element (`torch.zeros(1, 0, d).to(device)`): nothing is copied, nothing waits
            return None
        if name != "cuda" and to_target(ctx, node) is not Dev.DEVICE:
            return None  # (`.type(torch.cuda.HalfTensor)` moves, `.type(torch.half)` casts)
        return recv, f".{name}(...)"
    if name == "type_as" and len(node.args) == 1 and not node.args[0].star and ctx.host.moves_bytes(recv) \
            and device_arg_class(ctx, node.args[0].value) is not Dev.CPU:
        return recv, ".type_as(...)"  # `torch.ones(n).type_as(x)`: to `x`'s device, as `.to(x.device)` reads it
    if name in COPYING_SCATTERS and node.args:
        src = node.args[0].value
        if ctx.is_device_tensor(recv) and not ctx.host.is_cpu(recv) and ctx.host.moves_bytes(src):
            return src, f".{name}(cpu_src)"
    return None


# `dst.copy_(src)`, and the out-of-place scatters that clone `dst` and `copy_` `src` into a view of the clone
COPYING_SCATTERS = frozenset({"copy_", "diagonal_scatter", "slice_scatter"})


class HostIndex(Rule):
    """Indexing a device tensor with a Python list or a CPU index tensor copies the index every step.

    `x[[1, 2, 3]]`, `x[idx_cpu]`, `x[np_idx]` and `x[torch.arange(n)]` (no device) send the index from pageable
    host memory: measured on an H200 the host waits and capture fails. A list is known by its data flow, not its
    name: a display, a comprehension of host values, `[i] * n`, `ids + [eos]`, `t.tolist()`, a list filled by
    `append`, a field every method fills with a list of host values, `list(s)` / `sorted(s)` of a container
    annotated with host items (`suppress: Iterable[int]`, a dataclass field `button: Set[int]`). Only a tensor or an array takes a list as an
    index, so a value nothing types (the item of a loop over a cache) that a list indexes is reported too, unless
    the code shows an array (`np.ndarray`); so is a CPU index tensor into such a value (`self.rotary(n)[pos_ids]` of a
    `torch.arange` the unit builds), unless the index is moved to the host right there (`table[ids.cpu()]`: the table
    lives there). Reading through an index
    tensor on the device (`x[idx_gpu]`, `index_select`, `gather`) is graph-safe, but *writing a Python
    scalar* through one (`x[idx_gpu] = 0.0`) is not: the scalar becomes a CPU tensor that `index_put_`
    copies every step (measured: debug mode raises, the host waits 214 ms behind a 200 ms kernel,
    capture fails) — use `x.index_fill_(0, idx_gpu, 0.0)`. A boolean mask store (`x[mask] = 0.0`) is
    `masked_fill` and fine. Writing a Python scalar into *one element* (`t[0] = 0` where the code shows
    `t`'s rank: its construction, an assertion of a local's shape, or a test or `.item()` of `t[i, j]` through as many
    int indices; `t[i][j]` counts as `t[i, j]`) copies it too: torch makes the scalar a CPU tensor and `copy_`s it
    into the equal-sized element (measured: the host waits 202 ms behind a 200 ms kernel); into a slice or a row
    (`t[1:] = 0`) it `fill_`s, which does not wait — use `t[0].fill_(0)` or keep the value on the device. The
    scalar is one the code computes or a config field (`self.args.eos`); another attribute may hold a 0-d device
    tensor its class annotates as a float (a device copy). Lists of tensors and tuples (`x[(0, 1)]`,
    plain multi-dimensional indexing) are not host indices; a tuple value holding a host tensor (`idx = (b, s)` a
    helper returns, then `x[idx]`) is `x[b, s]`, and its host tensor is copied over. A CPU *boolean* mask is GL302 (it is frozen). A parameter
    that only its annotation makes a list (`idx_list: list[int]`) is not one where its resolved call sites pass
    something else (Sequoia passes the CUDA index tensors it built).
    """

    code = "GL133"
    name = "host-index"
    family = Family.HOST_SYNC
    message = "Indexing a device tensor with a {what} copies the index from host memory every step"
    UNTYPED = ("Indexing a tensor with a Python list copies the index from host memory every step when the tensor "
               "is on the device")
    UNTYPED_CPU = ("Indexing a tensor with a CPU index tensor copies the index from host memory every step when the "
                   "tensor is on the device")
    fix_hint = "Keep index tensors on the device (`device=`), or use `index_select`/`gather` with a device index"
    why = (
        "The index (or a scalar written through a device index) is copied from pageable host memory every step: the "
        "host waits, and capture fails."
    )
    hazard = "host-index"
    use_instead = (
        "def step(x: torch.Tensor, idx: torch.Tensor):\n"
        "    return x.index_select(0, idx)  # idx lives on the device\n"
    )
    VALID = (
        "def step(x: torch.Tensor, idx: torch.Tensor, mask: torch.Tensor):\n    x.index_fill_(0, idx, 0.0)\n"
        "    x[mask] = 0.0\n    x[x > 1] = 1.0\n    return x.index_select(0, idx), x[idx]\n",
        "def step(x: torch.Tensor, n: int):\n    return x[torch.arange(n, device=x.device)]\n",
        "def step(x: torch.Tensor, a: torch.Tensor, b: torch.Tensor):\n    return x[[a, b]]\n",
        "def step(x: torch.Tensor):\n    t = (0, 1)\n    return x[t] + x[0, 1] + x[:, 1:3]\n",
        "def step(ids: list[int]):\n    host = torch.tensor(ids)\n    return host[[0, 1]]\n",
        "def step(x: torch.Tensor, mask: torch.Tensor):\n    return torch.where(mask, x, 0.0).cumsum(0)\n",
        "def step(x: torch.Tensor, n: int):\n    t = torch.zeros(n, n, device=x.device)\n"
        "    t[0] = 1.0\n    t[1:, 0] = 0\n    t[0, 0].fill_(2)\n    return t\n",
        "import numpy as np\ndef step(x: torch.Tensor, a: torch.Tensor, n: int):\n"
        "    host = torch.zeros(n)\n    return x[[a] * 2], x[(0,) * 2], host[np.arange(2)], np.zeros(n)[[0, 1]]\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    return x[[1, 2, 3]]  # <- GL133\n"
        "    #      ^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, n: int):\n    return x[:, torch.arange(n)]  # <- GL133\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, ids: list[int]):\n    idx = torch.tensor(ids)\n    return x[idx]  # <- GL133\n"
        "    #      ^^^^^^\n",
        "def step(x: torch.Tensor, n: int):\n    keep = [i for i in range(n) if i % 2]\n    return x[keep]  # <- GL133\n"
        "    #      ^^^^^^^\n",
        "def step(x: torch.Tensor, tok, n: int, eos: int):\n    keep = [n] * 4\n    y = x[keep]  # <- GL133\n"
        "    #   ^^^^^^^\n"
        "    x[:, tok.encode('a') + [eos]] = 0.0  # <- GL133\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return y\n",
        "import numpy as np\ndef step(x: torch.Tensor, n: int):\n    idx = np.arange(n)\n    return x[idx]  # <- GL133\n"
        "    #      ^^^^^^\n",
        "def step(x: torch.Tensor):\n    x[[0, 2]] = 1.0  # <- GL133\n"
        "   #^^^^^^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, idx: torch.Tensor):\n    x[idx] = 0.0  # <- GL133\n"
        "   #^^^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, n: int):\n    indptr = torch.empty(n + 1, device=x.device)\n"
        "    indptr[0] = 0  # <- GL133\n"
        "   #^^^^^^^^^\n"
        "    return indptr\n",
        "def step(x: torch.Tensor, k: int, eos: int):\n    logits = x.softmax(-1)\n    assert logits.shape == (k, 1024)\n"
        "    logits[0][eos] = -1e4  # <- GL133\n"
        "   #^^^^^^^^^^^^^^\n"
        "    return logits\n",
    )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        ctx = self.ctx
        if ctx.host.is_cpu(node.value) or names_columns(node) or numpy_argument(ctx, node):
            # (a list of column names indexes a DataFrame: no tensor takes one; NumPy takes no CUDA tensor)
            return
        if not ctx.is_device_tensor(node.value):
            # (a value moved to the device, `image.cuda()` of an untyped `image`, is at least as likely a tensor)
            if ctx.val(node.value) in (UNKNOWN, MOVED) and not self._not_a_tensor(node):
                if self._list_index(node):
                    self.report(node, self.UNTYPED)
                elif self._cpu_index_tensor(node):
                    self.report(node, self.UNTYPED_CPU)
            return
        for el in node.slice:
            if not isinstance(el.slice, cst.Index):
                continue
            idx = el.slice.value
            what = self._host_index(idx, len(node.slice) > 1)
            if what:
                self.report(node, self.message.format(what=what))
                return
        if self._scalar_store_through_device_index(node):
            self.report(node, "Writing a Python scalar through a device index copies the scalar from host "
                              "memory every step (`index_put_`); use `index_fill_`")
        elif self._scalar_into_element(node):
            self.report(node, "Writing a Python scalar into one element of a device tensor copies it from host "
                              "memory (a blocking `copy_`); use `.fill_(v)` on the element")

    def _scalar_into_element(self, node: cst.Subscript) -> bool:
        """`t[i] = 0` where `t[i]` is one element (the code shows the rank): torch turns the scalar into a CPU
        tensor and, the sizes being equal, `copy_`s it (a blocking H2D); into a slice or row it `fill_`s."""
        ctx = self.ctx
        value = stored_value(ctx, node)
        if value is None:
            return False
        dst = ctx.val(node)
        if not (dst.is_0d and not dst.weak and ctx.is_device_tensor(node)):
            return False
        # An attribute's value is often typed only by its class annotation (`qscale_max: float` later set to a
        # 0-d tensor), and a 0-d device value copies device to device: judge only values the code computes, and
        # fields of a config object (`self.args.eog_token`, `config.pad_token_id`: the run's settings, Python values).
        # A dataclass field annotated as a scalar (`token_ids.bos` with `bos: int`) is one too (`is_scalar_field`).
        return (not isinstance(value, cst.Attribute) or in_config(value) or ctx.is_scalar_field(value)) \
            and ctx.val(value) == HOST

    def _scalar_store_through_device_index(self, node: cst.Subscript) -> bool:
        ctx = self.ctx
        value = stored_value(ctx, node)
        if value is None or ctx.val(value).kind is not Kind.HOST or self._joined_guess(node.value):
            return False
        for el in node.slice:
            idx = el.slice.value if isinstance(el.slice, cst.Index) else None
            if idx is None or ctx.host.is_cpu(idx):
                continue
            if _mask_syntax(idx):
                continue  # `x[~m] = 0.0`, `x[~a * ~b] = 0.0`: a mask (a masked_fill), not integer indices
            val = ctx.val(idx)
            if val.kind is Kind.TENSOR and not val.weak and not is_mask_name(dotted_name(idx) or "") \
                    and not val.is_0d:  # 0-d: GL127
                return True
        return False

    def _joined_guess(self, recv: cst.BaseExpression) -> bool:
        """A weak tensor the unit itself binds (a device tensor on one path, an untyped value on another: ChatTTS's
        `logits` after its processors) is one path's guess; a parameter's weak kind is the name guess this rule reads."""
        return self.ctx.val(recv).weak and isinstance(recv, cst.Name) and self.ctx.host.assigned(recv.value)

    # pandas' indexers (`df.iloc[rows]`): attributes no tensor has
    FRAME_INDEXERS = frozenset({"iloc", "loc", "iat", "at"})

    def _not_a_tensor(self, node: cst.Subscript) -> bool:
        """What the syntax shows a subscript of an untyped value is not: a call of the result (a Triton launch,
        `kernel[grid](...)`) or a pandas indexer."""
        parent = self.ctx.parent(node)
        return isinstance(parent, cst.Call) and parent.func is node or isinstance(
            node.value, cst.Attribute) and node.value.attr.value in self.FRAME_INDEXERS

    def _list_index(self, node: cst.Subscript) -> bool:
        """One index is a Python list of host values the unit builds. Only a tensor or an array takes one (a list or
        dict raises), so a value nothing types (the item of a loop over a cache, a parameter of a helper) that such a
        list indexes is a tensor unless it is an array; the inference calls arrays it sees arrays. A parameter is
        not such a list: its annotation or its callers say so, and with the value's kind guessed from this index
        alone that is two guesses (TriForce's `idx_list: list[int]` is passed a CUDA tensor), unless every caller
        passes a list (Whisper's `rearrange_kv_cache(source_indices)`, filled by `append` in its one caller)."""
        ctx = self.ctx
        idx = [el.slice.value for el in node.slice if isinstance(el.slice, cst.Index)]
        return any(host_list(ctx, i) or ctx.host.is_host_list(i) or is_list(ctx.val(i)) and not (
            isinstance(i, cst.Name) and not ctx.host.assigned(i.value) and not ctx.passed_list(i.value)) for i in idx)

    def _cpu_index_tensor(self, node: cst.Subscript) -> bool:
        """One index is a CPU tensor not known to be 0-d or boolean (`torch.arange(n)`, `torch.cat` of such parts, their
        views and arithmetic, a helper's host return) into a value nothing types (a project module's output,
        `self.rotary(n)[pos_ids]`). A CPU boolean mask the code shows is GL302's; a 0-d index is read through
        `__index__`, no copy; whatever its dtype, a CPU index into a device tensor is copied over (a mask too). As with
        a list index, the value is a tensor or an array; one the code shows to be an array or a CPU tensor is not
        reported (`is_cpu` above, the inference's `NDARRAY`), nor one indexed by an index moved to the host for it
        (`table[ids.to("cpu")]`, `table[ids.cpu()]`: the author keeps the table there, Chameleon's BPE mapping)."""
        ctx = self.ctx
        for el in node.slice:
            if not isinstance(el.slice, cst.Index):
                continue
            idx = el.slice.value
            m = method_call(idx) if isinstance(idx, cst.Call) else None
            if m is not None and m[1] in ("cpu", "to"):
                continue
            origin = ctx.host.origin(idx)
            if origin is not None and not origin.is_bool and origin.dims is not Dims.SCALAR \
                    and origin.source is not Source.CPU:
                return True
            if len(node.slice) == 1 and self._host_tensor_items(idx):
                return True
        return False

    def _host_tensor_items(self, idx: cst.BaseExpression) -> bool:
        """A lone index that is a tuple value (not a display) holding a host tensor: `x[idx]` of `idx = (batch_idx,
        src_idx)` a helper returns is `x[batch_idx, src_idx]`, and each host tensor in it is copied over. A tuple of
        Python ints (`t = (0, 1); x[t]`) or of device tensors is no host index."""
        if isinstance(idx, cst.Tuple):
            return False
        items = self.ctx.val(idx).items
        return bool(items) and any(i.kind is Kind.CPU_TENSOR and not i.weak and not i.is_0d for i in items)

    def _host_index(self, idx: cst.BaseExpression, multi: bool) -> str | None:
        """`multi`: one of several indices (`mask[i, ids]`), where a tuple or any sequence of ints is an advanced
        index too; alone, a tuple is multi-dimensional indexing (`x[(0, 1)]` is `x[0, 1]`)."""
        ctx = self.ctx
        val = ctx.val(idx)
        if host_list(ctx, idx) or ctx.host.is_host_list(idx) or is_list(val) and not self._annotation_contradicted(idx) \
                or (multi and val.kind is Kind.HOST_SEQ and val.ref not in ("set", "dict", "index")):
            return "Python list"
        if val.kind is Kind.NDARRAY and not self._array_element(idx):
            return "NumPy array"
        origin = ctx.host.origin(idx)
        if origin is not None and not origin.is_bool and (
                origin.source is not Source.FLOW or origin.dims is not Dims.SCALAR):
            # (a flow fact's dtype is unknown: a CPU mask it may be is copied over too, as its indices)
            return "CPU index tensor"
        if not multi and self._host_tensor_items(idx):
            return "CPU index tensor"  # `x[idx]` of `idx = (batch_idx, src_idx)` of host tensors
        return None


    def _array_element(self, idx: cst.BaseExpression) -> bool:
        """`lens_np[i]` of host ints `i`: an element of a NumPy array whose rank nothing tracks, a NumPy scalar where
        the array is 1-d (LightLLM's `table[req_idx_np[i], a:b] = ...` over `.cpu().numpy()` copies), which indexes
        like a Python int: nothing is copied. Only a whole array, or a slice of one, is called an index array."""
        return isinstance(idx, cst.Subscript) and all(
            isinstance(el.slice, cst.Index) and self.ctx.val(el.slice.value) == HOST for el in idx.slice)

    def _annotation_contradicted(self, idx: cst.BaseExpression) -> bool:
        """A parameter the unit does not rebind, a list by its annotation only (`idx_list: list[int]`), whose resolved
        call sites pass something else: Sequoia's `collective_grow_static(self.grow_map_roots_gpu[i], ...)` passes the
        CUDA index tensors `__init__` moved up, and TriForce copies it. A device gather, no upload."""
        return isinstance(idx, cst.Name) and not self.ctx.host.assigned(idx.value) \
            and self.ctx.passed_non_list(idx.value)


class PageableNonBlockingCopy(Rule):
    """`non_blocking=True` from pageable (unpinned) host memory cannot be captured.

    `torch.from_numpy(a).to(dev, non_blocking=True)` or `x.copy_(cpu_t, non_blocking=True)` from memory
    that is not pinned fails capture at any size (torch's pinned-memory guard). It is not a host sync:
    eagerly the driver stages small pageable copies and the host waits only above its staging size
    (measured on an H200, see below: about 2 MB, far above per-step metadata), so like the other GL2xx
    rules it is not reported in the eager step code around a graph. Sources known to be pageable:
    `torch.from_numpy`, `torch.tensor(...)`, factories without `pin_memory=True`, `.cpu()` results.
    Sources known pinned (`.pin_memory()`, `pin_memory=True`, views of those, names containing
    "pinned") are fine.
    """

    code = "GL206"
    name = "pageable-non-blocking-copy"
    family = Family.CAPTURE_ILLEGAL
    message = ("`non_blocking=True` copy from pageable host memory: capture refuses it (eagerly the host waits "
               "above ~2 MB; debug mode is silent)")
    fix_hint = ("Copy through a pinned staging buffer allocated once (`pin_memory=True`), e.g. vLLM's "
                "`async_tensor_h2d` pattern")
    why = (
        "Capture refuses a copy from unpinned host memory, whatever its size. Eagerly, `non_blocking=True` from "
        "pageable memory is asynchronous only up to the driver's staging size: larger copies make the host wait, and "
        "torch's sync debug mode reports neither."
    )
    hazard = "pageable-non-blocking"
    use_instead = (
        "class Stager:\n    def __init__(self, n: int):\n"
        "        self.pinned = torch.empty(n, pin_memory=True)  # once\n\n    def step(self, dev: torch.Tensor):\n"
        "        dev.copy_(self.pinned, non_blocking=True)\n        return dev\n"
    )
    VALID = (
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    x.copy_(buf, non_blocking=True)\n    return x\n",
        "def step(x: torch.Tensor, ids: list):\n    t = torch.tensor(ids).pin_memory()\n"
        "    return t.to(x.device, non_blocking=True)\n",
        "def step(x: torch.Tensor, pinned_ids):\n    return pinned_ids.to(x.device, non_blocking=True)\n",
        "def step(x: torch.Tensor):\n    return x.to('cpu', non_blocking=True)\n",
        "def h2d(data: list, dtype, dev, pin_memory: bool):\n"
        "    t = torch.tensor(data, dtype=dtype, pin_memory=pin_memory, device='cpu')\n"
        "    return t.to(device=dev, non_blocking=True)\n",
    )
    INVALID = (
        "import numpy as np\ndef step(x: torch.Tensor, a: np.ndarray):\n"
        "    return torch.from_numpy(a).to(x.device, non_blocking=True)  # <- GL206\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, ids: list):\n    t = torch.tensor(ids)\n"
        "    x.copy_(t, non_blocking=True)  # <- GL206\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, n: int):\n    return torch.zeros(n).cuda(non_blocking=True)  # <- GL206\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if not non_blocking(node, self.ctx):
            return
        found = _h2d_copy(self, node)
        if found is None:
            return
        src, _ = found
        if self.ctx.host.is_pinned(src):
            return
        self.report(node)
