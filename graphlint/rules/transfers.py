"""GL10x: explicit device-to-host transfers. The host blocks until the GPU has caught up."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.host_origin import tensor_elements
from graphlint.facts.inference import converts_to_number
from graphlint.facts.tokenizers import DECODERS
from graphlint.facts.torch_kinds import D2H
from graphlint.facts.values import Dev, Kind, Val, Where
from graphlint.rules._conditions import condition_category
from graphlint.facts.syntax import code_of, column_restricted, is_true, kwarg, method_call, positional
from graphlint.rules._util import (
    LOG_METHODS, helper_wait, library_copy, mapped_over_device, tensor_method, tracker_read, writer_read,
)
from graphlint.rules.base import Rule

if TYPE_CHECKING:
    from graphlint.check.context import Context

LOGGER_NAME_RE = re.compile(r"^_*(log|logger|logging|LOG|LOGGER|log_?[a-z]*|[a-z_]*_logger)$")


class ItemCall(Rule):
    """`.item()` copies a tensor element to the host and waits for every queued kernel.

    It is the most common hidden sync: a blocking device-to-host copy (`cuStreamSynchronize`) that
    also makes the step impossible to capture (capture is invalidated). The receiver type is not
    needed for confidence: only tensors and NumPy arrays have `.item()`. A receiver known to live on
    the host is skipped: `torch.tensor([...])` without a device reads host memory, and `x.cpu().item()`
    syncs in its `.cpu()` (GL103), not twice.

    A project helper that reads its parameter this way on every path (`def as_int(t): return int(t.item())`) waits
    where it is called: a call passing a device tensor the data flow shows is reported there too, once, under the
    code of the helper's first such read (GL101 to GL105); a call with a host value, or a helper that reads only
    under an `isinstance` branch, is not.
    """

    code = "GL101"
    name = "item-call"
    family = Family.HOST_SYNC
    message = "`.item()` copies a device value to the host and blocks until the GPU catches up"
    fix_hint = "Keep the value on the device (use the 0-d tensor), or read it after the step, outside the graph"
    why = (
        "The host stops queuing work until the GPU has finished everything queued before it, so CPU and GPU take "
        "turns instead of overlapping; under CUDA graph capture the read invalidates the capture."
    )
    hazard = "item"
    use_instead = "def step(x: torch.Tensor):\n    return x.sum()  # a 0-d device tensor: read it after the step\n"
    VALID = (
        "def step(x: torch.Tensor):\n    return x.sum()\n",
        "def step(x: torch.Tensor):\n    n = x.size(0)\n    return x.view(n, -1)\n",
        "def step(d: dict):\n    return d.items()\n",
        "def step(x: torch.Tensor):\n    return x[: torch.tensor([2, 3]).max().item()]\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    return x.sum().item()  # <- GL101\n"
        "    #      ^^^^^^^^^^^^^^\n",
        "import torch as th\ndef step(x):\n    return th.Tensor.item(x)  # <- GL101\n"
        "    #      ^^^^^^^^^^^^^^^^^\n",
        "def step(logits: torch.Tensor, out: list):\n    out.append(logits.argmax(-1).item())  # <- GL101\n"
        "    #          ^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if (helper := helper_wait(self.ctx, node, "item")) is not None:
            self.report(node, helper)
            return
        if tensor_method(self.ctx, node, ("item",), on_device=True):
            self.report(node)


class TolistCall(Rule):
    """`.tolist()` copies a whole tensor to the host and waits for the GPU.

    Often hidden in `torch.split(x, counts.tolist())` or in per-expert loops. The copy blocks and
    capture fails. Tensors known to live on the host are skipped, as for GL101.

    A Hugging Face tokenizer's `decode` / `batch_decode` / `convert_ids_to_tokens` of a device tensor does the same
    copy inside the library (`to_py_obj` calls `.tolist()`): reported when the data flow shows both the tokenizer
    (made by a `*Tokenizer*` / `*Processor*` `from_pretrained`, docs/inference.md) and a device tensor argument, or a
    list of device rows (`tok.batch_decode([o[n:] for o in out])`: each row is converted). A list of ids
    (`ids.tolist()` reported once, or a host list, host rows) and a model's `decode` (a VAE, a codec) are not.
    """

    code = "GL102"
    name = "tolist-call"
    family = Family.HOST_SYNC
    message = "`.tolist()` copies a device tensor to the host and blocks until the GPU catches up"
    fix_hint = "Keep sizes on the host from the start, or use fixed-size device work (`output_size=`, masks)"
    why = (
        "The whole tensor crosses to the host and the host waits for the GPU first; sizes read this way change with "
        "the data, so no captured graph can depend on them."
    )
    hazard = "tolist"
    use_instead = (
        "def step(x: torch.Tensor, sizes: list[int]):\n    return torch.split(x, sizes)  # sizes known on the host\n"
    )
    VALID = ("def step(x: torch.Tensor, sizes: list[int]):\n    return torch.split(x, sizes)\n",)
    INVALID = (
        "def step(x: torch.Tensor, counts: torch.Tensor):\n    return torch.split(x, counts.tolist())  # <- GL102\n"
        "    #                     ^^^^^^^^^^^^^^^\n",
        "from transformers import AutoTokenizer\ntok = AutoTokenizer.from_pretrained('m')\n"
        "def step(logits: torch.Tensor):\n    return tok.decode(logits.argmax(-1))  # <- GL102\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )
    decode_message = "`{call}` of a device tensor converts it with `.tolist()`: a copy to the host that blocks"

    def visit_Call(self, node: cst.Call) -> None:
        if (helper := helper_wait(self.ctx, node, "tolist")) is not None:
            self.report(node, helper)
            return
        if tensor_method(self.ctx, node, ("tolist",), on_device=True):
            self.report(node)
            return
        m = method_call(node)
        if m is None or m[1] not in DECODERS or not node.args or node.args[0].keyword or node.args[0].star:
            return
        ids = node.args[0].value
        # a list of device rows (`[o[n:] for o in out]`) is converted row by row: each `.tolist()` waits the same
        rows = isinstance(ids, (cst.List, cst.ListComp, cst.GeneratorExp)) and tensor_elements(self.ctx, ids) \
            or _device_rows(self.ctx.val(ids))
        if (rows or self.ctx.is_device_tensor(ids)) and self.ctx.tokenizers.is_tokenizer(m[0]):
            self.report(node, self.decode_message.format(call=f".{m[1]}()"))


def _device_rows(val: Val) -> bool:
    """A sequence of device tensors the data flow shows (`ids = [o[n:] for o in model.generate(..)]`, then
    `tok.batch_decode(ids)`): each row is converted, as a literal list of them is."""
    elem = val.elem
    return val.kind is Kind.TENSOR_SEQ and elem is not None and elem.kind in (Kind.TENSOR, Kind.BOOL_TENSOR) \
        and not elem.weak


class CpuTransfer(Rule):
    """`.cpu()` / `.to("cpu")` / `host_buf.copy_(device_t)` is a blocking device-to-host copy.

    Every spelling counts: `.cpu()`, `.to("cpu")`, `.to(device="cpu")`, `.to(torch.device("cpu"))`, a cast to a
    CPU tensor type (`.type(torch.LongTensor)`, `.type("torch.FloatTensor")`, `.type(h.type())` of a host `h`), and a `copy_` of a device tensor into a host tensor (a buffer built
    without `device=`, a `.cpu()` copy, a `*_cpu` field). Measured on an H200: `cpu_buf.copy_(cuda_t)` and `pinned_buf.copy_(cuda_t)` both make debug
    mode raise, wait for a queued 200 ms kernel, and fail capture; `pinned_buf.copy_(cuda_t, non_blocking=True)`
    does not wait (it races instead, like `.to("cpu", non_blocking=True)`), and neither is reported here,
    unless the destination is a column-restricted view (`pinned[:n, :m]`): torch fills a non-contiguous host
    view through a contiguous temporary and the host waits for the source (measured: 101 ms behind a 100 ms
    sleep, 0.4 ms for the full-width contiguous view). Modules (`model.cpu()`) are not tensors and are skipped.

    A library call that does the copy inside counts too (the rows of `facts/library_waits.py`): torchvision's
    `to_pil_image(t)` / `ToPILImage()(t)` and wandb's `Image(t)` convert through `t.cpu().numpy()`, reported where `t`
    is a device tensor the data flow shows (not a CPU tensor or a PIL image). So does a TensorBoard writer's
    (`torch.utils.tensorboard` or tensorboardX `SummaryWriter(..)`, a local or a field) `add_scalar(tag, t)`,
    `add_scalars(tag, {name: t})`, `add_histogram(tag, t)` and its media calls (`add_image`, `add_audio`, ...):
    `make_np` converts a tensor value with `.cpu().numpy()`. Not a Python number, `t.item()` (GL101's read), a value of
    unknown kind, or an object the flow does not show built by a writer.

    So does a call of a project helper that copies its parameter on every path (`to_np = lambda x:
    x.detach().cpu().numpy()`, module level, or a `def`): it is reported where it is called with a device tensor the
    data flow shows, naming the helper (the helper's body keeps its own finding); not with a NumPy array, a host
    list or a CPU tensor, nor for a helper that copies only under an `isinstance` / `torch.is_tensor` branch, after
    an early return, or with `non_blocking=True`.
    """

    code = "GL103"
    name = "cpu-transfer"
    family = Family.HOST_SYNC
    message = "`{call}` copies a device tensor to the host and blocks until the GPU catches up"
    fix_hint = "Keep the data on the device; if the host needs it, copy once after the step into a pinned buffer"
    why = (
        "The host waits for all queued GPU work before the copy, and during capture torch refuses a copy between "
        "CPU and CUDA memory unless the CPU side is pinned."
    )
    hazard = "d2h-copy"
    use_instead = (
        "def step(x: torch.Tensor, host_buf: torch.Tensor):\n"
        "    host_buf.copy_(x, non_blocking=True)  # host_buf pinned once, read after an event\n    return host_buf\n"
    )
    VALID = (
        "def step(x: torch.Tensor):\n    return x.to(torch.float16)\n",
        "def step(x: torch.Tensor):\n    return x.type(torch.int64), x.type(torch.cuda.LongTensor)\n",
        "def step(x: torch.Tensor, dev):\n    return x.to(dev)\n",
        "def step(x: torch.Tensor, buf):\n    return x.to('cpu', non_blocking=True)\n",
        "def step(x: torch.Tensor, n: int):\n    buf = torch.empty(n, pin_memory=True)\n"
        "    buf.copy_(x, non_blocking=True)\n    out = torch.empty_like(x)\n    out.copy_(x)\n"
        "    host = torch.zeros(n)\n    host.copy_(torch.ones(n))\n    return buf, out, host\n",
        "class M(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.proj = torch.nn.Linear(2, 2)\n\n    def offload(self):\n        self.proj.cpu()\n",
        "from torchvision.transforms.functional import to_pil_image\n"
        "def step(x: torch.Tensor):\n    return x, to_pil_image(torch.rand(3, 8, 8))  # a CPU tensor\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    return x.cpu()  # <- GL103\n"
        "    #      ^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return x.to('cpu')  # <- GL103\n"
        "    #      ^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return x.to(device=torch.device('cpu'))  # <- GL103\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return x.type(torch.LongTensor)  # <- GL103\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "class Gen:\n    def __init__(self, n: int):\n        self.logits_pinned = torch.empty(n, pin_memory=True)\n\n"
        "    def step(self, logits: torch.Tensor):\n        out = self.logits_pinned[:4]\n"
        "        out.copy_(logits, non_blocking=False)  # <- GL103\n"
        "       #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "        return out\n",
        "from torchvision.transforms.functional import to_pil_image\n"
        "def step(frames: torch.Tensor):\n    return to_pil_image(frames[0])  # <- GL103\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^\n",
        "from torch.utils.tensorboard import SummaryWriter\n"
        "def step(x: torch.Tensor, i: int):\n    writer = SummaryWriter()\n"
        "    writer.add_scalar('loss', x.mean(), i)  # <- GL103\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    library_message = "`{call}()` of a device tensor copies it to the host inside the library (`.cpu()`) and blocks"
    writer_message = ("TensorBoard's `.{call}()` of a device tensor converts it with `.cpu().numpy()`: a copy to the "
                      "host that blocks")

    tracker_message = ("`{call}()` of a device tensor converts it on the host (`.item()` / `.cpu().numpy()`): a copy "
                       "that blocks")

    def visit_Call(self, node: cst.Call) -> None:
        if (helper := helper_wait(self.ctx, node, "cpu")) is not None:
            self.report(node, helper)
            return
        m = tensor_method(self.ctx, node, ("cpu", "to", "copy_", "type"))
        if m is None:
            if (lib := library_copy(self.ctx, node)) is not None and lib[0] == D2H:
                self.report(node, self.library_message.format(call=lib[1]))
            elif (method := writer_read(self.ctx, node)) is not None:
                self.report(node, self.writer_message.format(call=method))
            elif (logger := tracker_read(self.ctx, node)) is not None:
                self.report(node, self.tracker_message.format(call=logger))
            return
        if m[1] == "copy_":
            self._copy_into_host(node, m[0])
            return
        recv, name = m
        val = self.ctx.val(recv) if recv is not None else None
        if val is not None and (val.kind is Kind.CPU_TENSOR or not self.ctx.claims_device(val)):
            return
        if name == "cpu":
            self.report(node, self.message.format(call=".cpu()"))
            return
        if is_true(kwarg(node, "non_blocking").value if kwarg(node, "non_blocking") else None, self.ctx):
            return
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value != "device":
                continue
            if name == "to" and isinstance(arg.value, (cst.SimpleString, cst.Call)) \
                    and self.ctx.inference.device_expr(arg.value) is Dev.CPU:
                self.report(node, self.message.format(call='.to("cpu")'))
                return
            # `y.to(history)` of a host tensor `history`: its device (and dtype), a copy to the host as sure as
            # `.cpu()` is, so the receiver is claimed as `.cpu()`'s is
            if name == "to" and arg.keyword is None and self.ctx.inference.moves_to_host_tensor(arg.value):
                self.report(node, self.message.format(call=f".to({code_of(arg.value)})"))
                return
            # `t.to(device)` after `device = "cpu"`, `t.to(lens_cpu.device)`, `t.type(torch.LongTensor)` (a CPU tensor
            # type): a device tensor moved to the host
            if recv is not None and self.ctx.is_device_tensor(recv) and not self.ctx.val(recv).weak \
                    and (name == "to" and self.ctx.inference.device_arg(arg.value) is Dev.CPU
                         or name == "type" and self.ctx.inference.tensor_type(arg.value) is Dev.CPU):
                self.report(node, self.message.format(call=f".{name}({code_of(arg.value)})"))
                return

    def _copy_into_host(self, node: cst.Call, dst: cst.BaseExpression | None) -> None:
        """`host_buf.copy_(device_t)` without `non_blocking=True`."""
        args = positional(node)
        src = kwarg(node, "src").value if kwarg(node, "src") else args[0] if args else None
        flag = kwarg(node, "non_blocking").value if kwarg(node, "non_blocking") else args[1] if len(args) > 1 else None
        if dst is None or src is None:
            return
        # `pinned[:n, :m].copy_(cuda_t, non_blocking=True)`: torch copies into a non-contiguous host view through
        # a contiguous temporary it must read on the host, so it waits (measured on an H200: 101 ms behind a
        # 100 ms sleep, against 0.4 ms for the full-width contiguous destination).
        strided = column_restricted(dst)
        if is_true(flag, self.ctx) and not strided:
            return
        if self.ctx.device(dst) is Where.HOST and self.ctx.is_device_tensor(src) and not self.ctx.val(src).weak:
            self.report(node, "`.copy_()` of a device tensor into host memory blocks until the GPU catches up"
                        + (" (a non-contiguous host view is filled through a temporary, `non_blocking` or not)"
                           if strided and is_true(flag, self.ctx) else ""))


class NumpyCall(Rule):
    """`.numpy(force=True)` copies a device tensor to the host, a blocking device-to-host copy.

    A plain `.numpy()` is not reported: it raises on a CUDA tensor (`can't convert cuda:0 device type tensor
    to numpy`), so where code calls it the receiver already lives on the host, and the copy that put it
    there, if any, is the `.cpu()`'s (GL103). Only `force=True` makes `.numpy()` move device data itself.
    """

    code = "GL104"
    name = "numpy-call"
    family = Family.HOST_SYNC
    message = "`.numpy(force=True)` copies a device tensor to the host and blocks until the GPU catches up"
    fix_hint = "Stay in torch on the device; convert to NumPy only after the step"
    why = (
        "With `force=True` a device tensor is first copied back to the host through a blocking copy; the NumPy "
        "work that follows runs on the host every step and is not part of a captured graph."
    )
    hazard = "d2h-copy"
    use_instead = "def step(x: torch.Tensor):\n    return x.float().mean()  # stay in torch, on the device\n"
    VALID = (
        "def step(x: torch.Tensor):\n    return x.float()\n",
        "def step(x: torch.Tensor):\n    return x.cpu().numpy()  # the copy is GL103's\n",
        # a CUDA tensor would raise here: what `.numpy()` reads is already on the host
        "def step(x: torch.Tensor):\n    return x.detach().numpy()\n",
        "def step(x: torch.Tensor):\n    return x.numpy(force=False)\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    return x.numpy(force=True)  # <- GL104\n"
        "    #      ^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return x.detach().numpy(force=True)  # <- GL104\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if (helper := helper_wait(self.ctx, node, "numpy")) is not None:
            self.report(node, helper)
            return
        force = kwarg(node, "force")
        if force is not None and is_true(force.value) and tensor_method(self.ctx, node, ("numpy",), on_device=True):
            self.report(node)


# the conversions that call `.item()` (`torch.Size`: once per element) on a tensor argument: called directly, or on each
# item by `map(float, t)`
CONVERSIONS = frozenset({"int", "float", "bool", "complex", "operator.index", "math.floor", "math.ceil", "torch.Size"})


class ScalarConversion(Rule):
    """`int(t)`, `float(t)`, `bool(t)`, `complex(t)` call `.item()` implicitly, and `torch.Size(t)` once per
    element; so do the functions of `math` (`math.exp(t)`, `math.log(t)`, `math.isnan(t)`), which convert their
    arguments with `__float__` / `__index__` (reported for a device tensor the data flow shows, not one only named
    like a tensor; `math.prod` only multiplies, a tensor of tensors).

    The conversion reads the value on the host, so the host blocks and capture fails. Shapes and
    sizes are host values already: `int(x.shape[0])` and `torch.Size(x.shape)` are fine. Measured on an
    H200: `torch.Size` of a CUDA int64 tensor waited behind ~200 ms of queued work, and debug mode warned.
    `map(float, t)` (any of these conversions) calls it on each item: reported where the items are device
    tensors the data flow shows (the rows of a device tensor, a list of device 0-d values).
    """

    code = "GL105"
    name = "scalar-conversion"
    family = Family.HOST_SYNC
    message = "`{fn}()` of a tensor reads its value on the host (implicit `.item()`)"
    SIZE = "`torch.Size()` of a tensor reads its values on the host (one implicit `.item()` per element)"
    fix_hint = "Keep the value as a tensor (`t.to(torch.int64)`), or pass a host int from the caller"
    why = "The conversion is an implicit `.item()`: the host waits for every queued kernel, and capture is invalidated."
    hazard = "scalar-conversion"
    use_instead = "def step(x: torch.Tensor):\n    return x.sum().to(torch.int64)  # stays a device tensor\n"
    VALID = (
        "def step(x: torch.Tensor):\n    return int(x.shape[0])\n",
        "def step(n: int):\n    return float(n)\n",
        "def step(x: torch.Tensor, n: int):\n    return x.view(torch.Size([n, -1]))\n",
        "import math\ndef step(x: torch.Tensor, scale: float):\n"
        "    return x * math.exp(scale) / math.sqrt(x.shape[-1]), math.log(x.sum().item())\n",
        "class M(torch.nn.Module):\n"
        "    def forward(self, x: torch.Tensor, n: torch.Tensor):\n"
        "        torch._check(x.shape[0] > 0, lambda: f\"got {int(n)}\")\n"
        "        return x\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    n = int(x.sum())  # <- GL105\n"
        "    #   ^^^^^^^^^^^^\n"
        "    return n\n",
        "def step(mask: torch.Tensor):\n    return bool(mask.any())  # <- GL105\n"
        "    #      ^^^^^^^^^^^^^^^^\n",
        "import math\ndef step(scores: torch.Tensor):\n    return math.exp(scores.max())  # <- GL105\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, sizes: torch.Tensor):\n"
        "    return torch.empty(torch.Size(sizes), device=x.device)  # <- GL105\n"
        "    #                  ^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if (helper := helper_wait(self.ctx, node, "scalar")) is not None:
            self.report(node, helper)
            return
        fn = self.ctx.call_name(node)
        if fn in CONVERSIONS and node.args:
            if not self.ctx.is_device_tensor(node.args[0].value):
                return
            self.report(node, self.SIZE if fn == "torch.Size" else self.message.format(fn=fn))
        elif converts_to_number(fn) and any(self._device_value(a) for a in positional(node)):
            self.report(node, self.message.format(fn=fn))
        elif (mapped := mapped_over_device(self.ctx, node)) in CONVERSIONS and mapped != "torch.Size" \
                or mapped is not None and converts_to_number(mapped):
            self.report(node, self.message.format(fn=mapped))  # `map(float, t)`: `float(row)` for each row

    def _device_value(self, expr: cst.BaseExpression) -> bool:
        """A device tensor the data flow shows, not one only named like a tensor: `math.*` takes hyperparameters far
        more often than `float()` does (`math.sqrt(head_dim)`, `math.log(scale)`)."""
        return self.ctx.is_device_tensor(expr) and not self.ctx.val(expr).weak


class PrintTensor(Rule):
    """`print(t)` formats the tensor's values on the host, which needs a blocking copy.

    Reported for tensors passed to `print` directly; tensors inside f-strings are GL107.
    """

    code = "GL106"
    name = "print-tensor"
    family = Family.HOST_SYNC
    message = "`print()` of a tensor copies its values to the host and blocks"
    fix_hint = "Print after the step, outside the captured region, or print metadata (`t.shape`)"
    why = (
        "Printing needs the values on the host: a blocking copy every step, and capture is invalidated. In a "
        "captured step it would print once, at capture, and never on replay."
    )
    hazard = "format-tensor"
    use_instead = "def step(x: torch.Tensor):\n    print('x:', x.shape)  # metadata is host data\n    return x\n"
    VALID = ("def step(x: torch.Tensor):\n    print(x.shape, x.dtype)\n",)
    INVALID = ("def step(x: torch.Tensor):\n    print('x =', x)  # <- GL106\n"
               "   #^^^^^^^^^^^^^^^\n",)

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.call_name(node) != "print":
            return
        if any(self.ctx.is_device_tensor(a.value) for a in node.args if a.keyword is None):
            self.report(node)


class FormatTensor(Rule):
    """Formatting a tensor into a string reads its values on the host.

    f-strings (`f"{t}"`), `str(t)`/`repr(t)`, `"%s" % t`, `"{}".format(t)` and `map(str, t)` (each row) all
    copy the data and block. An f-string inside a logging call formats even when the level is disabled. So does a progress
    bar's `set_postfix(loss=t)` (tqdm formats every value; measured on an H200 with a 0-d CUDA `t`: debug mode
    raises, the host waits for a queued 200 ms kernel, capture fails).
    """

    code = "GL107"
    name = "format-tensor"
    family = Family.HOST_SYNC
    message = "Formatting a tensor into a string copies its values to the host and blocks"
    fix_hint = "Format metadata only (`t.shape`), or log after the step; use lazy `%s` logging arguments"
    why = (
        "Formatting reads every formatted value on the host: the host waits for the GPU, and capture is "
        "invalidated. An f-string passed to logging is formatted even when the level is disabled."
    )
    hazard = "format-tensor"
    use_instead = (
        "import logging\nlogger = logging.getLogger(__name__)\n\ndef step(x: torch.Tensor):\n"
        "    logger.debug('x: %s', x.shape)  # metadata, formatted lazily\n    return x\n"
    )
    VALID = (
        "def step(x: torch.Tensor):\n    msg = f'{x.shape} {x.dtype:}'\n    return msg\n",
        "def step(n: int):\n    return '%d tokens' % n\n",
        "def step(x: torch.Tensor, bar):\n    bar.set_postfix(loss=x.mean().item(), step=3)\n    return x\n",
        "class M(torch.nn.Module):\n"
        "    def forward(self, x: torch.Tensor, n: int):\n"
        "        if x.shape[0] != n:\n"
        "            raise ValueError(f\"bad {x.sum()} {x}\")\n"
        "        return x\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    msg = f'x={x}'  # <- GL107\n"
        "    #         ^^^\n"
        "    return msg\n",
        "def step(x: torch.Tensor):\n    return 'sum {}'.format(x.sum())  # <- GL107\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return 'max %s' % x.max()  # <- GL107\n"
        "    #      ^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return str(x)  # <- GL107\n"
        "    #      ^^^^^^\n",
        "def step(x: torch.Tensor, bar):\n    bar.set_postfix(loss=x.mean())  # <- GL107\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "    return x\n",
    )

    def visit_FormattedStringExpression(self, node: cst.FormattedStringExpression) -> None:
        if self.ctx.is_device_tensor(node.expression):
            self.report(node)

    def visit_Call(self, node: cst.Call) -> None:
        fn = self.ctx.call_name(node)
        if fn in ("str", "repr", "format") and node.args and self.ctx.is_device_tensor(node.args[0].value):
            self.report(node)
            return
        if mapped_over_device(self.ctx, node) in ("str", "repr"):  # `map(str, t)`: `str(row)` for each row
            self.report(node)
            return
        m = method_call(node)
        if m and m[1] == "format" and isinstance(m[0], (cst.SimpleString, cst.ConcatenatedString)):
            if any(self.ctx.is_device_tensor(a.value) for a in node.args):
                self.report(node)
        elif m and m[1] == "set_postfix" and any(self._formatted(a.value) for a in node.args):
            self.report(node)

    def _formatted(self, expr: cst.BaseExpression) -> bool:
        """A device tensor, or a dict literal holding one (`set_postfix({"loss": t})`)."""
        if isinstance(expr, cst.Dict):
            return any(isinstance(e, cst.DictElement) and self.ctx.is_device_tensor(e.value) for e in expr.elements)
        return self.ctx.is_device_tensor(expr)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if not isinstance(node.operator, cst.Modulo) or not isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString)):
            return
        right = node.right
        items = [e.value for e in right.elements] if isinstance(right, cst.Tuple) else [right]
        if any(self.ctx.is_device_tensor(i) for i in items):
            self.report(node)


class LoggingTensor(Rule):
    """A tensor passed as a logging argument is formatted on the host when the record is emitted.

    Measured on an H200: `logging.warning("%s", t)` blocks the host and torch's sync debug mode
    reports nothing, because logging swallows the error. With the level disabled, lazy `%s` arguments
    are never formatted; at an enabled level they sync. So `logger.debug("%s", t)` is not reported:
    debug records are off unless the user turns them on (the root logger starts at WARNING), and
    turning them on is asking for the cost. An f-string formats at any level (GL107).
    """

    code = "GL108"
    name = "logging-tensor"
    family = Family.HOST_SYNC
    message = "Logging a tensor formats its values on the host and blocks (silently: debug mode misses it)"
    fix_hint = "Log metadata, or collect metrics on the device and log them after the step"
    why = (
        "When the record is emitted, logging formats the tensor on the host and waits for the GPU; torch's sync "
        "debug mode misses it, because logging swallows the error the debug mode raises."
    )
    hazard = "logging-tensor"
    use_instead = (
        "import logging\nlogger = logging.getLogger(__name__)\n\ndef step(x: torch.Tensor):\n"
        "    logger.info('x: %s', tuple(x.shape))  # metadata only\n    return x\n"
    )
    VALID = (
        "import logging\nlogger = logging.getLogger(__name__)\n"
        "def step(x: torch.Tensor):\n    logger.debug('shape %s', x.shape)\n",
        "import logging\nlogger = logging.getLogger(__name__)\n"
        "def step(x: torch.Tensor):\n    logger.debug('x %s', x)\n    logger.log(logging.DEBUG, 'x %s', x)\n",
    )
    INVALID = (
        "import logging\nlogger = logging.getLogger(__name__)\n"
        "def step(x: torch.Tensor):\n    logger.warning('max %s', x.max())  # <- GL108\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "import logging\ndef step(x: torch.Tensor):\n    logging.info('x: %s', x)  # <- GL108\n"
        "   #^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        if not _is_logging_call(self.ctx, node) or _debug_level(self.ctx, node):
            return
        args = positional(node)
        if any(self.ctx.is_device_tensor(a) for a in args[1:]):
            self.report(node)


def _debug_level(ctx: Context, node: cst.Call) -> bool:
    """`logger.debug(...)`, `logging.debug(...)`, `logger.log(logging.DEBUG, ...)`: a record at the debug level,
    whose lazy arguments are formatted only where the user turned debug logging on."""
    method = (ctx.call_name(node) or "").rpartition(".")[2] or (node.func.attr.value
                                                                if isinstance(node.func, cst.Attribute) else "")
    if method == "debug":
        return True
    args = positional(node)
    return method == "log" and bool(args) and ctx.qualname(args[0]) == "logging.DEBUG"


def _is_logging_call(ctx, node: cst.Call) -> bool:
    qual = ctx.call_name(node) or ""
    if qual.startswith("logging.") and qual.rpartition(".")[2] in LOG_METHODS:
        return True
    m = method_call(node)
    if m is None or m[1] not in LOG_METHODS:
        return False
    recv = m[0]
    name = recv.attr.value if isinstance(recv, cst.Attribute) else recv.value if isinstance(recv, cst.Name) else ""
    return bool(LOGGER_NAME_RE.match(name))


class AssertTensor(Rule):
    """`assert <tensor condition>` calls `bool()` on a device tensor: a blocking read.

    `assert (x > 0).all()` syncs every step, and breaks capture. `torch._assert_async(cond)` checks on
    the device without a sync (it captures).
    """

    code = "GL109"
    name = "assert-tensor"
    family = Family.HOST_SYNC
    message = "`assert` on a tensor condition reads it on the host and blocks"
    fix_hint = "Use `torch._assert_async(cond)`, or guard the check behind a debug flag outside the captured step"
    why = (
        "`assert` calls `bool()` on the device tensor: the host waits for the GPU on every step, and capture is "
        "invalidated."
    )
    hazard = "assert-tensor"
    use_instead = (
        "def step(x: torch.Tensor):\n    torch._assert_async((x > 0).all())  # checked on the device\n    return x\n"
    )
    VALID = (
        "def step(x: torch.Tensor):\n    assert x.dim() == 2\n    torch._assert_async((x > 0).all())\n",
    )
    INVALID = ("def step(x: torch.Tensor):\n    assert (x > 0).all()  # <- GL109\n"
               "    #      ^^^^^^^^^^^^^\n",)

    def visit_Assert(self, node: cst.Assert) -> None:
        # `assert m is None or m.all()` is reported on its operands (GL110/GL111), as an `if` test is
        if not isinstance(node.test, cst.BooleanOperation) and \
                condition_category(self.ctx, node.test) in ("tensor", "any-all"):
            self.report(node.test)
