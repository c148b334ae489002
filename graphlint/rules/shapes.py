"""GL12x: data-dependent shapes. The output size needs a device value, so the host must wait for it."""

from __future__ import annotations

import libcst as cst

from graphlint.diagnostics import Family
from graphlint.facts.inference import is_mask_name
from graphlint.facts.values import Kind
from graphlint.facts.syntax import code_of, kwarg, method_call, positional, signed_literal
from graphlint.facts.torch_kinds import HOST_ARRAY_LIBRARIES
from graphlint.rules._util import on_host, tensor_method
from graphlint.rules.base import Rule


def _first_arg(node: cst.Call) -> cst.BaseExpression | None:
    args = positional(node)
    return args[0] if args else None


class Nonzero(Rule):
    """`torch.nonzero` / `.nonzero()` / `torch.argwhere` return as many rows as there are non-zeros.

    The host must read the count before it can allocate the output: a blocking sync, and capture
    fails. `torch.nonzero_static(x, size=N)` has a static shape (measured: no sync, captures). Like the
    other GL12x size rules, an operand known to live on the host (`m.cpu()`, `torch.tensor(...)` without
    a device) is not reported: its count is host work.
    """

    code = "GL120"
    name = "nonzero"
    family = Family.HOST_SYNC
    message = "`{fn}` has a data-dependent output size: the host waits for the count"
    fix_hint = "Use `torch.nonzero_static(x, size=N, fill_value=-1)` or fixed-shape masking"
    why = (
        "The host must read the number of non-zeros before it can allocate the output: it waits for the GPU, and "
        "capture is invalidated because the shape follows the data."
    )
    hazard = "nonzero"
    use_instead = "def step(m: torch.Tensor):\n    return torch.nonzero_static(m, size=16, fill_value=-1)\n"
    VALID = (
        "def step(m: torch.Tensor):\n    return torch.nonzero_static(m, size=8)\n",
        "def step(m: torch.Tensor):\n    return torch.count_nonzero(m)\n",
        "def step(lens: list):\n    return torch.nonzero(torch.tensor(lens) > 0)\n",
    )
    INVALID = (
        "def step(m: torch.Tensor):\n    return torch.nonzero(m)  # <- GL120\n"
        "    #      ^^^^^^^^^^^^^^^^\n",
        "def step(m: torch.Tensor):\n    return (m > 0).nonzero(as_tuple=True)  # <- GL120\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "from torch import nonzero as nz\ndef step(m: torch.Tensor):\n    return nz(m)  # <- GL120\n"
        "    #      ^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node)
        if qual in ("torch.nonzero", "torch.argwhere"):
            if not on_host(self.ctx, _first_arg(node)):
                self.report(node, self.message.format(fn=qual))
        elif tensor_method(self.ctx, node, ("nonzero", "argwhere"), require_tensor=True, on_device=True):
            self.report(node, self.message.format(fn=".nonzero()"))


class WhereOneArg(Rule):
    """One-argument `torch.where(cond)` is `nonzero(cond, as_tuple=True)`: data-dependent size.

    The three-argument form `torch.where(cond, a, b)` is elementwise, fixed-shape and graph-safe.
    """

    code = "GL121"
    name = "where-one-arg"
    family = Family.HOST_SYNC
    message = "One-argument `torch.where(cond)` returns data-dependent indices: the host waits for the count"
    fix_hint = "Use the three-argument `torch.where(cond, a, b)` or `nonzero_static`"
    why = (
        "It is `nonzero(cond, as_tuple=True)`: the output size follows the data, so the host waits for the count, "
        "and capture is invalidated."
    )
    hazard = "where-one-arg"
    use_instead = "def step(c: torch.Tensor, a: torch.Tensor, b: torch.Tensor):\n    return torch.where(c, a, b)\n"
    VALID = (
        "def step(c: torch.Tensor, a: torch.Tensor):\n    return torch.where(c, a, 0.0)\n",
        "def step(c: torch.Tensor):\n    return torch.where(c.cpu())[0]  # the copy is GL103's\n",
    )
    INVALID = ("def step(c: torch.Tensor):\n    idx = torch.where(c > 0)  # <- GL121\n"
               "    #     ^^^^^^^^^^^^^^^^^^\n"
               "    return idx\n",)

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.call_name(node) == "torch.where" and len(node.args) == 1 \
                and not on_host(self.ctx, node.args[0].value):
            self.report(node)


class Unique(Rule):
    """`torch.unique` / `.unique()` / `unique_consecutive` return a data-dependent number of values.

    The host reads the count (blocking) and capture fails.
    """

    code = "GL122"
    name = "unique"
    family = Family.HOST_SYNC
    message = "`{fn}` has a data-dependent output size: the host waits for the count"
    fix_hint = "Precompute on the host, or use a fixed-size device histogram (`scatter_add_` into `num_classes` bins)"
    why = (
        "The number of distinct values is known only on the device: the host waits for it to size the output, and "
        "capture is invalidated."
    )
    hazard = "unique"
    use_instead = (
        "def step(ids: torch.Tensor, num_classes: int):\n"
        "    counts = torch.zeros(num_classes, dtype=torch.long, device=ids.device)\n"
        "    return counts.scatter_add_(0, ids, torch.ones_like(ids))  # a fixed-size histogram\n"
    )
    VALID = ("def step(x: torch.Tensor, names: list):\n    return sorted(set(names))\n",)
    INVALID = (
        "def step(ids: torch.Tensor):\n    return torch.unique(ids)  # <- GL122\n"
        "    #      ^^^^^^^^^^^^^^^^^\n",
        "def step(ids: torch.Tensor):\n    return ids.unique_consecutive()  # <- GL122\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node)
        if qual in ("torch.unique", "torch.unique_consecutive"):
            if not on_host(self.ctx, _first_arg(node)):
                self.report(node, self.message.format(fn=qual))
        else:
            m = tensor_method(self.ctx, node, ("unique", "unique_consecutive"), require_tensor=True, on_device=True)
            if m:
                self.report(node, self.message.format(fn=f".{m[1]}()"))


def _bool_index(ctx, expr: cst.BaseExpression) -> bool:
    """A device boolean tensor, or (weaker) an untyped value named like a mask."""
    val = ctx.val(expr)
    if val.kind is Kind.BOOL_TENSOR:
        return True
    if isinstance(expr, cst.Name) and is_mask_name(expr.value) and val.kind in (Kind.UNKNOWN, Kind.TENSOR):
        return True
    return False


class BooleanMaskIndex(Rule):
    """Boolean-mask indexing `x[mask]` / `x[x > 0]` selects a data-dependent number of elements.

    It runs an implicit `nonzero`: the host waits for the count, and capture fails. Measured: a
    masked *store of a Python scalar* (`x[mask] = 0.0`) allocates nothing and does not sync, so it is
    not reported, nor is a store of one CPU element the code builds (`x[~m] = torch.tensor(v)`: torch
    wraps the scalar as such a tensor, and `index_put_` turns both into a `masked_fill_`); storing a
    device or shaped tensor (`x[mask] = y`) does sync. A scalar store needs evidence of a scalar (a
    literal, `float(..)`, a config read, a counter, anything the engine knows is no tensor): a local bound to
    a value nothing types, stored through a mask the data flow makes on the device, is read as a tensor.
    Index tensors of integer type
    (`x[idx]`) are graph-safe. Untyped values named like masks (`mask`, `*_mask`, `keep`, `valid`,
    `is_*`) are taken for boolean tensors (lower confidence; see docs/inference.md).
    """

    code = "GL123"
    name = "boolean-mask-index"
    family = Family.HOST_SYNC
    message = "Boolean-mask indexing has a data-dependent size: the host waits for the mask count"
    fix_hint = "Use `torch.where(mask, x, 0)`, `masked_fill`, or `nonzero_static` with a fixed size"
    why = (
        "The result has as many elements as the mask has `True`s, so the host waits for an implicit `nonzero`; "
        "capture is invalidated."
    )
    hazard = "boolean-mask"
    use_instead = "def step(x: torch.Tensor):\n    return torch.where(x > 0, x, 0.0)  # full shape\n"
    VALID = (
        "def step(x: torch.Tensor, mask: torch.Tensor):\n    x[mask] = 0.0\n    return x\n",
        "def step(x: torch.Tensor, idx: torch.Tensor):\n    return x[idx]\n",
        "def step(x: torch.Tensor, mask: torch.Tensor):\n    return x.masked_fill(mask, 0.0)\n",
        "def step(x: torch.Tensor):\n    return x[:, 0], x[..., None]\n",
    )
    INVALID = (
        "def step(x: torch.Tensor):\n    return x[x > 0]  # <- GL123\n"
        "    #      ^^^^^^^^\n",
        "def step(x: torch.Tensor, y: torch.Tensor):\n    keep = ~torch.isnan(y)\n    return x[keep]  # <- GL123\n"
        "    #      ^^^^^^^\n",
        "def step(x: torch.Tensor, y: torch.Tensor, mask: torch.Tensor):\n    x[mask] = y  # <- GL123\n"
        "   #^^^^^^^\n"
        "    return x\n",
        "def step(x: torch.Tensor, valid_mask):\n    return x[:, valid_mask].sum()  # <- GL123\n"
        "    #      ^^^^^^^^^^^^^^^^\n",
    )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        recv = self.ctx.val(node.value)
        if recv.kind in (Kind.HOST, Kind.HOST_SEQ, Kind.TENSOR_SEQ, Kind.MODULE_SEQ, Kind.NDARRAY, Kind.CPU_TENSOR):
            return
        indices = [el.slice.value for el in node.slice if isinstance(el.slice, cst.Index)]
        if not any(_bool_index(self.ctx, i) and self.ctx.val(i).kind is not Kind.CPU_TENSOR for i in indices):
            return
        if not recv.is_tensor and not any(self.ctx.val(i).kind is Kind.BOOL_TENSOR for i in indices):
            return  # unknown receiver and only a mask-like name: too weak
        if self._scalar_store(node, indices):
            return
        self.report(node)

    def _scalar_store(self, node: cst.Subscript, indices: list[cst.BaseExpression]) -> bool:
        parent = self.ctx.parent(node)
        target_parent = self.ctx.parent(node, 2)
        assign = target_parent if isinstance(parent, cst.AssignTarget) else None
        if isinstance(assign, cst.Assign):
            # a Python scalar is stored as a CPU 0-d tensor, and so is one the code builds (`x[~m] =
            # torch.tensor(finfo.min)`): one CPU element through one mask is `index_put_`'s `masked_fill_` path
            # (`canDispatchToMaskedFill`), no count read; a device value or a shaped one is indexed
            val = self.ctx.val(assign.value)
            if val.kind is Kind.CPU_TENSOR:
                return val.is_0d and not val.weak
            if val.is_tensor:
                return False
            # a scalar store needs evidence of a scalar (a literal, `float(..)`, a host-typed value, anything the
            # engine knows is no tensor); a local the unit binds to a value nothing types (a model's output unpacked
            # from a tuple, a call's result), stored through a mask the data flow makes on the device, is as likely
            # a tensor, whose store is indexed. An object's field (`params.num_tokens`) or a parameter is left to
            # what reads them (a config's number, as often as not); arithmetic with a Python number (a counter
            # `step + 1`, `torch.pi - params["buffer"]`) is evidence of a scalar (`Context.number_arithmetic`)
            return val.kind is not Kind.UNKNOWN or val.items is not None or not self._unit_local(assign.value) \
                or not any((iv := self.ctx.val(i)).kind is Kind.BOOL_TENSOR and not iv.weak for i in indices) \
                or self.ctx.number_arithmetic(assign.value)
        return False

    def _unit_local(self, value: cst.BaseExpression) -> bool:
        """A plain name that is none of the unit's parameters and that the unit binds: a local, not a module
        constant (`FLOAT_PAD = -float("inf")`) or an import."""
        fn = self.ctx.unit.function
        return isinstance(value, cst.Name) and (fn is None or value.value not in (*fn.params, *fn.kwonly)) \
            and self.ctx.binds_name(value.value)


class MaskedSelect(Rule):
    """`masked_select` returns as many elements as the mask has: data-dependent size, host waits."""

    code = "GL124"
    name = "masked-select"
    family = Family.HOST_SYNC
    message = "`masked_select` has a data-dependent output size: the host waits for the mask count"
    fix_hint = "Use `torch.where(mask, x, fill)` or `masked_fill` and keep the full shape"
    why = "The output has as many elements as the mask selects: the host waits for the count, and capture fails."
    hazard = "dynamic-output"
    use_instead = "def step(x: torch.Tensor, mask: torch.Tensor):\n    return x.masked_fill(~mask, 0.0)  # full shape\n"
    VALID = ("def step(x: torch.Tensor, m: torch.Tensor):\n    return x.masked_fill(~m, 0)\n",)
    INVALID = ("def step(x: torch.Tensor, m: torch.Tensor):\n    return torch.masked_select(x, m)  # <- GL124\n"
               "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^\n",
               "def step(x: torch.Tensor, m: torch.Tensor):\n    return x.masked_select(m)  # <- GL124\n"
               "    #      ^^^^^^^^^^^^^^^^^^\n")

    def visit_Call(self, node: cst.Call) -> None:
        # as for the other size rules, an operand known to live on the host selects on the host
        if self.ctx.call_name(node) == "torch.masked_select" and not on_host(self.ctx, _first_arg(node)) \
                or tensor_method(self.ctx, node, ("masked_select",), require_tensor=True, on_device=True):
            self.report(node)


class DynamicOutputOp(Rule):
    """Ops whose output size depends on values unless a static size is passed.

    `bincount` (even with `minlength`: the length is `max(minlength, x.max() + 1)`),
    `repeat_interleave` with tensor repeats and no `output_size=`, `F.one_hot` without
    `num_classes=`, `histc` without explicit `min`/`max`: each reads a device value on the host to
    size its output (measured: syncs, capture fails). `torch.combinations` selects its pairs with `masked_select`
    (measured on an H200: waits, debug mode raises; `torch.cartesian_prod` does not).
    """

    code = "GL125"
    name = "dynamic-output-size"
    family = Family.HOST_SYNC
    message = "`{fn}` sizes its output from device data: {why}"
    fix_hint = "Pass the static size (`output_size=`, `num_classes=`, `min=`/`max=`) or use fixed-size device work"
    why = (
        "Without a static size the op reads a device value on the host to size its output: the host waits, and "
        "capture fails."
    )
    hazard = "dynamic-output"
    use_instead = (
        "import torch.nn.functional as F\n\ndef step(labels: torch.Tensor, n: int):\n"
        "    return F.one_hot(labels, num_classes=n)\n"
    )
    VALID = (
        "def step(x: torch.Tensor, r: torch.Tensor, n: int):\n    return x.repeat_interleave(r, dim=0, output_size=n)\n",
        "def step(counts: list):\n    c = torch.tensor(counts, device='cpu')\n    return torch.arange(4, device='cpu').repeat_interleave(c)\n",
        "def step(x: torch.Tensor):\n    return x.repeat_interleave(2, dim=0)\n",
        "import torch.nn.functional as F\ndef step(ids: torch.Tensor):\n    return F.one_hot(ids, num_classes=8)\n",
        "def step(x: torch.Tensor):\n    return torch.histc(x, bins=10, min=0.0, max=1.0)\n",
        "def step(x, n_rep, model):\n    m = model.to(torch.float16)\n    return x.repeat_interleave(n_rep, dim=1), m\n",
        "def step(a: torch.Tensor, b: torch.Tensor):\n    return torch.cartesian_prod(a, b)\n",
    )
    INVALID = (
        "def step(ids: torch.Tensor):\n    return torch.bincount(ids, minlength=8)  # <- GL125\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, r: torch.Tensor):\n    return x.repeat_interleave(r, dim=0)  # <- GL125\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, r: torch.Tensor):\n    return x.repeat_interleave(repeats=r)  # <- GL125\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "import torch.nn.functional as F\ndef step(ids: torch.Tensor):\n    return F.one_hot(ids)  # <- GL125\n"
        "    #      ^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return torch.histc(x, bins=10)  # <- GL125\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return torch.combinations(x, 2)  # <- GL125\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(z, cu_seqlens):\n    lens = (cu_seqlens[1:] - cu_seqlens[:-1]).to(torch.long)\n"
        "    return z.squeeze(1).repeat_interleave(lens, dim=0)  # <- GL125\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    TORCH_FNS = frozenset({"torch.bincount", "torch.repeat_interleave", "torch.nn.functional.one_hot", "torch.histc",
                           "torch.combinations"})
    METHODS = frozenset({"bincount", "repeat_interleave", "histc"})

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node) or ""
        m = method_call(node)
        # names first: the inference below runs only for the few calls this rule is about (every call of
        # every hot function passes here)
        if qual not in self.TORCH_FNS and not (m and m[1] in self.METHODS and not qual.startswith("torch.")) \
                or qual.startswith(HOST_ARRAY_LIBRARIES):
            return  # (`np.bincount(a)`: NumPy's function, on the host)
        # every method here is a tensor's only (NumPy has functions): a receiver of unknown type is a tensor
        meth = m[1] if m and qual not in self.TORCH_FNS and (
            self.ctx.is_tensor(m[0]) or self.ctx.val(m[0]).kind is Kind.UNKNOWN) else None
        if on_host(self.ctx, m[0] if meth else _first_arg(node)):
            return  # sized from host memory (`torch.arange(n, device="cpu").repeat_interleave(counts_cpu)`)
        if qual == "torch.combinations":
            self.report(node, self.message.format(fn="combinations", why="it picks the pairs with a mask "
                                                  "(`masked_select`), measured to wait"))
        elif qual == "torch.bincount" or meth == "bincount":
            self.report(node, self.message.format(fn="bincount", why="its length is the max value + 1"))
        elif qual == "torch.repeat_interleave" or meth == "repeat_interleave":
            args = positional(node)
            if meth:
                repeats = args[0] if args else None
            else:
                repeats = args[1] if len(args) > 1 else (args[0] if args else None)
            if kwarg(node, "repeats"):
                repeats = kwarg(node, "repeats").value
            if repeats is not None and self.ctx.is_device_tensor(repeats) and kwarg(node, "output_size") is None:
                self.report(node, self.message.format(fn="repeat_interleave", why="the total of the repeats"))
        elif qual == "torch.nn.functional.one_hot":
            n = kwarg(node, "num_classes")
            given = n.value if n else (positional(node)[1] if len(positional(node)) > 1 else None)
            if given is None or (isinstance(given, cst.UnaryOperation) and isinstance(given.operator, cst.Minus)):
                self.report(node, self.message.format(fn="one_hot", why="num_classes defaults to the max value + 1"))
        elif qual == "torch.histc" or meth == "histc":
            args = positional(node)
            has_range = (kwarg(node, "min") and kwarg(node, "max")) or len(args) >= (3 if meth else 4)
            if not has_range:
                self.report(node, self.message.format(fn="histc", why="the range defaults to the data's min/max"))


SHAPE_METHODS = frozenset({"view", "reshape", "expand", "repeat", "new_zeros", "new_ones", "new_empty", "new_full",
                           "narrow", "unflatten", "tile", "resize_"})
# Splits whose sizes torch reads as Python ints (a tensor of sizes included); `tensor_split` takes its indices as a
# CPU tensor only (a device one raises), so it is none of them
TORCH_SPLITS = frozenset({"torch.split", "torch.split_with_sizes"})
SPLIT_METHODS = frozenset({"split", "split_with_sizes"})
SPLIT_KEYWORDS = frozenset({"split_size", "split_size_or_sections", "split_sizes"})
SHAPE_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.arange", "torch.randn",
                             "torch.rand", "torch.randint", "torch.linspace", "torch.eye", "torch.randperm"})


# Number parameters (ATen `Scalar`, `float`, `int`) that a tensor reaches through an implicit `.item()`: the op name
# (a `torch.`/`F.` function or a tensor method) -> (positions counted from the input tensor, keywords). The input is
# position 0 of the function form, the receiver of the method form. Measured on an H200
# (benchmarks/accuracy/h200_checks_ops45.py): with a CUDA 0-d tensor there, each waited behind queued work and debug
# mode raised; the ops that take a Tensor overload instead (`fill_(t)`, `torch.where(m, x, t)`, `clamp(min=t)`,
# `lerp(a, b, t)`, `x * t`, `pow(x, t)`) did not, and are not listed.
NUMBER_PARAMS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "nan_to_num": ((1, 2, 3), ("nan", "posinf", "neginf")), "nan_to_num_": ((1, 2, 3), ("nan", "posinf", "neginf")),
    "full_like": ((1,), ("fill_value",)), "fill_diagonal_": ((1,), ("fill_value",)),
    "masked_fill": ((2,), ("value",)), "masked_fill_": ((2,), ("value",)),
    "index_fill": ((3,), ("value",)), "index_fill_": ((3,), ("value",)),
    "add": ((), ("alpha",)), "add_": ((), ("alpha",)), "sub": ((), ("alpha",)), "sub_": ((), ("alpha",)),
    "addcmul": ((), ("value",)), "addcmul_": ((), ("value",)),
    "addcdiv": ((), ("value",)), "addcdiv_": ((), ("value",)),
    "histc": ((2, 3), ("min", "max")), "uniform_": ((1, 2), ("to",)), "normal_": ((1, 2), ("mean", "std")),
    "roll": ((1,), ("shifts",)), "triu": ((1,), ("diagonal",)), "tril": ((1,), ("diagonal",)),
    "triu_": ((1,), ("diagonal",)), "tril_": ((1,), ("diagonal",)),
    "leaky_relu": ((1,), ("negative_slope",)), "dropout": ((1,), ("p",)),
    # ATen `int` counts, parsed as `topk`'s `k` is (measured above): `__index__` of a 0-d tensor
    "chunk": ((1,), ("chunks",)), "multinomial": ((1,), ("num_samples",)),
}
# where the table's names are found: torch functions, `torch.nn.functional` ones, tensor methods
NUMBER_FUNCTIONS = frozenset({"nan_to_num", "nan_to_num_", "full_like", "masked_fill", "index_fill", "add", "sub",
                              "addcmul", "addcdiv", "histc", "roll", "triu", "tril", "chunk", "multinomial"})
NUMBER_FUNCTIONAL = frozenset({"leaky_relu", "dropout"})
NUMBER_METHODS = frozenset(NUMBER_PARAMS) - {"full_like", "leaky_relu", "dropout"}
CLAMPS = frozenset({"clamp", "clip", "clamp_", "clip_"})


def _number_args(node: cst.Call, op: str, method: bool) -> list[cst.BaseExpression]:
    """The arguments of `op`'s number parameters in this call (positions shift by one in the method form)."""
    positions, keywords = NUMBER_PARAMS[op]
    args = positional(node)
    shift = 1 if method else 0
    given = [args[i - shift] for i in positions if 0 <= i - shift < len(args)]
    return given + [a.value for a in node.args if a.keyword is not None and a.keyword.value in keywords]


def _size_items(args: list[cst.BaseExpression]) -> list[cst.BaseExpression]:
    """The sizes among a call's arguments, a shape written as one tuple or list (`torch.zeros((b, n))`,
    `x.view([b, n])`) read item by item: each item is converted with `__index__` like a bare size. A shape built by
    concatenating a tuple or list display (`torch.empty((n,) + out.shape[2:])`) is read part by part: `+` of a
    sequence joins items, it adds nothing to them."""
    out: list[cst.BaseExpression] = []
    for a in args:
        if a.__class__ in (cst.Tuple, cst.List):
            out.extend(e.value for e in a.elements if e.__class__ is cst.Element)
        elif _joined_shape(a):
            out.extend(_size_items([a.left, a.right]))  # type: ignore[attr-defined]
        else:
            out.append(a)
    return out


def _joined_shape(expr: cst.BaseExpression) -> bool:
    """`(n,) + x.shape[2:]` / `[b] + rest`: a `+` with a tuple or list display on one side, a sequence
    concatenation (a tensor operand would make it elementwise arithmetic, read whole)."""
    return isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Add) \
        and (isinstance(expr.left, (cst.Tuple, cst.List)) or isinstance(expr.right, (cst.Tuple, cst.List)))


class TensorShapeArgument(Rule):
    """A tensor used where a Python int is needed: a shape, a slice bound, a `k`, a size.

    `x.view(n, -1)`, `x[:n]`, `torch.arange(n)`, `torch.zeros(n)` (or `torch.zeros((b, n))`), `x.narrow(0, 0, n)`,
    `torch.topk(x, k)`, `F.pad(x, (0, n))` (and its `value=`), `F.interpolate(x, size=n)` and einops `rearrange(x, ..., b=n)` with a
    tensor `n` call `__index__` (an implicit `.item()`): the host blocks and capture fails. So do the split sizes of
    `x.split(sizes)` / `torch.split(x, sizes)` given as a device tensor (lmdeploy's `position_ids[0].split(q_seqlens)`):
    torch converts the tensor to a list of Python ints, read on the host. Sizes from `.shape`/`.size()` are host
    values and fine.

    A device tensor given to a number parameter (ATen `Scalar`/`float`/`int`) is read the same way:
    `torch.nan_to_num(x, nan=t)`, `torch.full_like(x, t)`, `x.masked_fill(m, t)`, `x.index_fill_(0, i, t)`,
    `x.add_(y, alpha=t)`, `addcmul(..., value=t)`, `histc(min=t, max=t)`, `x.uniform_(lo, hi)`, `x.normal_(mean=t)`,
    `torch.roll(x, t)`, `triu(t)`, `F.leaky_relu(x, t)`, `F.dropout(x, p=t)`, and `clamp(x, min=t, max=1.0)` (a
    Python number beside the tensor bound picks the Scalar overload). Measured on an H200: each waited behind queued
    work and debug mode raised. The counts `x.chunk(t)` and `torch.multinomial(p, t)` are ATen ints, parsed as
    `topk`'s measured `k` is. Ops with a Tensor overload take the tensor as is and are not reported:
    `x.fill_(t)`, `torch.where(m, x, t)`, `clamp(x, min=t)` / `clamp(x, lo_t, hi_t)`, `lerp(a, b, t)`, `x * t`. Nor
    is a function `torch.compile` traces: the measurement is of eager calls.
    """

    code = "GL126"
    name = "tensor-shape-argument"
    family = Family.HOST_SYNC
    message = "A tensor used as a shape, size or slice bound is read on the host (implicit `.item()`)"
    fix_hint = "Use host ints (`x.shape`, config values); keep data-dependent extents as masks over a static maximum"
    why = (
        "Python needs an int, so `__index__` reads the tensor on the host (an implicit `.item()`): the host waits "
        "for the GPU, and capture is invalidated."
    )
    hazard = "tensor-as-int"
    NUMBER = "A device tensor passed as the number `{param}` of `{fn}` is read on the host (implicit `.item()`)"
    use_instead = "def step(x: torch.Tensor, n: int):\n    return x[:n].view(n, -1)  # n is a host int\n"
    VALID = (
        "def step(x: torch.Tensor, m: torch.Tensor):\n    t = x.mean()\n"
        "    return x.masked_fill(m, 0.0), torch.where(m, x, t), x.clamp(min=t), torch.lerp(x, x, t), x.fill_(t)\n",
        "def step(x: torch.Tensor, y: torch.Tensor, lr: float):\n"
        "    return torch.nan_to_num(x, nan=0.0), x.add_(y, alpha=-lr), torch.clamp(x, min=-1.0, max=1.0)\n",
        "def step(x: torch.Tensor, n: int):\n    b = x.shape[0]\n    return x.view(b, -1)[:n], torch.arange(b, device=x.device)\n",
        "def step(x: torch.Tensor, idx: torch.Tensor):\n    return x.index_select(0, idx)\n",
        "import torch.nn.functional as F\ndef step(x: torch.Tensor, lens: list[int], pad_id: int):\n"
        "    n = max(lens)\n    return F.pad(x, (0, n - x.shape[-1]), value=pad_id), F.pad(x, [1, 1], 'constant', 0.0)\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, lens: torch.Tensor):\n    n = lens.max()\n    return x[:n]  # <- GL126\n"
        "    #        ^^\n",
        "def step(x: torch.Tensor, m: torch.Tensor):\n    n = m.sum()\n    return torch.zeros(n, device=x.device)  # <- GL126\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, k: torch.Tensor):\n    return x.view(k, -1)  # <- GL126\n"
        "    #      ^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, k: torch.Tensor):\n    return torch.topk(x, k)  # <- GL126\n"
        "    #      ^^^^^^^^^^^^^^^^\n",
        "import torch.nn.functional as F\ndef step(x: torch.Tensor, lens: torch.Tensor):\n    n = lens.amax()\n"
        "    return F.pad(x, (0, n - x.shape[-1]), value=0.0)  # <- GL126\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "import torch.nn.functional as F\ndef step(x: torch.Tensor):\n    return F.pad(x, (1, 1), value=x.max())  # <- GL126\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return torch.nan_to_num(x, nan=x.mean())  # <- GL126\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor, m: torch.Tensor):\n    return x.masked_fill(m, x.min())  # <- GL126\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^\n",
        "def step(p: torch.Tensor, g: torch.Tensor, lr: torch.Tensor):\n    return p.add_(g, alpha=-lr)  # <- GL126\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^\n",
        "def step(x: torch.Tensor):\n    return torch.clamp(x, min=x.mean(), max=1.0)  # <- GL126\n"
        "    #      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
    )

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.ctx.call_name(node) or ""
        args = positional(node)
        if qual in SHAPE_FACTORIES:
            sizes = args[:2] if qual in ("torch.full", "torch.randint") else args
            if qual == "torch.full" and args:
                sizes = [args[0]] + [a for a in args[1:2]]
            if any(self.ctx.is_device_tensor(a) for a in _size_items(sizes)):
                self.report(node)
            return
        if qual == "torch.nn.functional.pad" and self._device_pad(node, args):
            self.report(node)
            return
        if qual == "torch.nn.functional.interpolate" and self._device_size(node, args[1:2]):
            self.report(node)
            return
        if qual in ("torch.topk", "torch.kthvalue") and self._device_k(node, args[1:2]):
            self.report(node)
            return
        if qual in TORCH_SPLITS and self._device_sizes(node, args[1:2]):
            self.report(node)
            return
        if qual.startswith("einops.") and any(a.keyword and self.ctx.is_device_tensor(a.value) for a in node.args):
            self.report(node)
            return
        if self._device_number(node, qual):
            return
        m = method_call(node)
        if m is None or qual.startswith("torch.") or not self.ctx.is_tensor(m[0]):
            return
        if m[1] in SHAPE_METHODS and any(self.ctx.is_device_tensor(a) for a in _size_items(args)):
            self.report(node)
        elif m[1] in ("topk", "kthvalue") and self._device_k(node, args[:1]):
            self.report(node)
        elif m[1] in SPLIT_METHODS and self._device_sizes(node, args[:1]):
            self.report(node)

    def _device_number(self, node: cst.Call, qual: str) -> bool:
        """Report a device tensor given to a number parameter (NUMBER_PARAMS, or a clamp bound beside a Python
        number); True when this call is one of the table's ops, reported or not."""
        op, method = _number_op(node, qual)
        if op is None:
            return False
        # syntax first, inference last: `x.add(y)` / `x.clamp(0, 1)` (most calls of these names) end here
        if op in CLAMPS:
            bounds = _clamp_bounds(node, method)
            candidates = bounds if any(map(signed_literal, bounds)) else []
        else:
            candidates = _number_args(node, op, method)
        if not candidates or method and not self.ctx.is_tensor(method_call(node)[0]):  # type: ignore[index]
            return True
        if self.ctx.dynamo_compiled():
            # measured eager only: `torch.compile` traces the op with the tensor as a graph input (dion's
            # `@torch.compile` optimizer steps pass `lr` / `beta2` as 0-d tensors precisely to avoid recompiles)
            return True
        given = [a for a in candidates if self.ctx.is_device_tensor(a)]
        if given:
            self.report(node, self.NUMBER.format(param=code_of(given[0]), fn=op))
        return True

    def _device_sizes(self, node: cst.Call, given: list[cst.BaseExpression]) -> bool:
        """The sizes of a split, positional or by keyword, are a device tensor: torch reads it into Python ints
        (`Tensor.split` tries `int(t)`, then `split_with_sizes` converts it to a list of ints)."""
        sizes = [*given, *(a.value for a in node.args if a.keyword is not None and a.keyword.value in SPLIT_KEYWORDS)]
        return any(self.ctx.is_device_tensor(a) for a in sizes)

    def _device_k(self, node: cst.Call, given: list[cst.BaseExpression]) -> bool:
        """`k` of `topk` / `kthvalue`, positional or `k=`, is a device tensor (read with `__index__`)."""
        k = kwarg(node, "k")
        return any(self.ctx.is_device_tensor(a) for a in [*given, *([k.value] if k else [])])

    def _device_size(self, node: cst.Call, given: list[cst.BaseExpression]) -> bool:
        """`size` of `F.interpolate(x, size)`, positional or `size=`, an int or a tuple of them: a device tensor
        there (`size=ylens.max()`) is read with `__index__` when the output is sized."""
        size = kwarg(node, "size")
        return any(self.ctx.is_device_tensor(a) for a in _size_items([size.value] if size else given))

    def _device_pad(self, node: cst.Call, args: list[cst.BaseExpression]) -> bool:
        """`F.pad(x, pad, mode, value)`: each size of `pad` is read with `__index__` and `value` with `__float__`, so
        a device tensor among them (`max_len - n` of `max_len = lens.amax()`, `value=x.max()`) is read on the host."""
        pad, value = kwarg(node, "pad"), kwarg(node, "value")
        given = [*_size_items([pad.value] if pad else args[1:2]), *([value.value] if value else args[3:4])]
        return any(self.ctx.is_device_tensor(a) for a in given)

    def visit_Slice(self, node: cst.Slice) -> None:
        if any(b is not None and self.ctx.is_device_tensor(b) for b in (node.lower, node.upper, node.step)):
            self.report(node)


def _number_op(node: cst.Call, qual: str) -> tuple[str | None, bool]:
    """(the NUMBER_PARAMS / CLAMPS op this call names, called as a method): `torch.nan_to_num(x, ...)`,
    `F.dropout(x, p)`, or `recv.masked_fill(...)` (the caller checks the receiver is a tensor)."""
    head, _, name = qual.rpartition(".")
    if head == "torch" and (name in NUMBER_FUNCTIONS or name in CLAMPS):
        return name, False
    if head == "torch.nn.functional" and name in NUMBER_FUNCTIONAL:
        return name, False
    if qual.startswith("torch."):
        return None, False
    m = method_call(node)
    if m and (m[1] in NUMBER_METHODS or m[1] in CLAMPS):
        return m[1], True
    return None, False


def _clamp_bounds(node: cst.Call, method: bool) -> list[cst.BaseExpression]:
    """`min` and `max` of `torch.clamp(x, min, max)` / `x.clamp(min, max)`, positional or by keyword."""
    args = positional(node)[(0 if method else 1):]
    return args[:2] + [a.value for a in node.args if a.keyword is not None and a.keyword.value in ("min", "max")]


class TensorAsIndex(Rule):
    """A device tensor used as a Python index: `lst[t]`, `range(t)`, `[v] * t`, `x[t.argmax()]`, `w[n]`.

    Indexing a Python sequence with a tensor, passing one to `range`, or repeating a list by one
    (`[0] * t`, measured on an H200: debug mode raises, the host waits, capture fails) calls `__index__` (an
    implicit `.item()`). A 0-d integer tensor used as a tensor index is read on the host the same
    way: measured on an H200, `W[i]`, `x[:, i] = v` and `x[x.argmax()]` with a 0-d CUDA `i` all make
    debug mode raise, wait for a queued 200 ms kernel, and fail capture. graphlint knows a tensor is
    0-d when it comes from a full reduction (`argmax()`, `sum()`, `max()` without `dim`), possibly
    through arithmetic with host numbers (`n % W`).
    """

    code = "GL127"
    name = "tensor-as-index"
    family = Family.HOST_SYNC
    message = "A device tensor used as a Python index is read on the host (implicit `.item()`)"
    fix_hint = "Index on the device (`index_select`, `gather`, `take`), or keep host indices as Python ints"
    why = (
        "Indexing a sequence with a tensor, or repeating one by a tensor, calls `__index__`, an implicit `.item()`: "
        "the host waits for the GPU, and capture is invalidated."
    )
    hazard = "tensor-as-int"
    use_instead = (
        "def step(w: torch.Tensor, i: torch.Tensor):\n"
        "    return w.index_select(0, i.view(1))  # index on the device\n"
    )
    VALID = (
        "def step(x: torch.Tensor, layers: list, i: int):\n    return layers[i](x), x[x.argmax(dim=-1, keepdim=True)]\n",
        "def step(x: torch.Tensor, idx: torch.Tensor):\n    return x[idx]\n",
        "def step(x: torch.Tensor, n: int):\n    return [x] * n, x * 2, (x, x) * 2\n",
    )
    INVALID = (
        "def step(x: torch.Tensor, e: torch.Tensor):\n    experts = [x, x * 2]\n    return experts[e]  # <- GL127\n"
        "    #      ^^^^^^^^^^\n",
        "def step(x: torch.Tensor, n: torch.Tensor):\n    for i in range(n):  # <- GL127\n"
        "    #        ^^^^^^^^\n"
        "        x = x * 2\n    return x\n",
        "def step(x: torch.Tensor):\n    return x[x.argmax()]  # <- GL127\n"
        "    #      ^^^^^^^^^^^^^\n",
        "def step(w: torch.Tensor, scores: torch.Tensor, ring: torch.Tensor):\n    best = scores.argmax()\n"
        "    ring[:, best % 8] = 0  # <- GL127\n"
        "   #^^^^^^^^^^^^^^^^^\n"
        "    return w[best]  # <- GL127\n"
        "    #      ^^^^^^^\n",
        "def step(x: torch.Tensor, counts: torch.Tensor):\n    n = counts.sum()\n"
        "    pad = [0] * n  # <- GL127\n"
        "    #     ^^^^^^^\n"
        "    return pad, x\n",
    )

    def visit_Subscript(self, node: cst.Subscript) -> None:
        recv = self.ctx.val(node.value)
        indices = [el.slice.value for el in node.slice if isinstance(el.slice, cst.Index)]
        if recv.kind in (Kind.HOST_SEQ, Kind.MODULE_SEQ, Kind.TENSOR_SEQ) or recv.ref == "list":
            if any(self.ctx.is_device_tensor(i) and not self.ctx.val(i).weak for i in indices):
                self.report(node)
        elif recv.is_tensor and any(self._zero_d(i) for i in indices):
            self.report(node)

    def _zero_d(self, expr: cst.BaseExpression) -> bool:
        if self.ctx.is_0d(expr) and self.ctx.val(expr).kind is Kind.TENSOR:  # a 0-d mask is GL123's
            return True
        if not isinstance(expr, cst.Call) or expr.args:
            return False
        m = method_call(expr)  # (a reduction of a host tensor is a host 0-d index: no read)
        return bool(m and m[1] in ("argmax", "argmin", "max", "min", "sum") and self.ctx.is_tensor(m[0])
                    and not on_host(self.ctx, m[0]))

    def visit_Call(self, node: cst.Call) -> None:
        if self.ctx.call_name(node) == "range" and any(self._device_count(a.value) for a in node.args):
            self.report(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if node.operator.__class__ is not cst.Multiply:
            return
        for seq, count in ((node.left, node.right), (node.right, node.left)):
            if (seq.__class__ in (cst.List, cst.Tuple) or self.ctx.val(seq).kind in (Kind.HOST_SEQ, Kind.TENSOR_SEQ)) \
                    and self._device_count(count):
                self.report(node)
                return

    def _device_count(self, expr: cst.BaseExpression) -> bool:
        return self.ctx.is_device_tensor(expr) and not self.ctx.val(expr).weak
