"""What every call site passes for a parameter (`CallFacts.params`), where the call leaves out a default that names
the host device (`FunctionInfo.cpu_defaults`), or passes the items of a local object's call (`collate = make(...)`,
then `ids, lens = collate(texts)`: the `__call__` of what `make` builds)."""

from __future__ import annotations

from graphlint.facts.kinds import BOOL_TENSOR, CPU_DEVICE, CPU_TENSOR, CUDA_DEVICE, HOST, TENSOR
from index_projects import project_index


def _params(files: dict[str, str], name: str) -> dict:
    index = project_index(files)
    fn = next(f for f in index.functions.values() if f.qualname == name)
    return index.call_facts.params(fn)


SIGMAS = """
    import torch


    def sigmas(n, device="cpu", other=torch.device("cpu")):
        return torch.linspace(0, 1, n).to(device)


    def run(n, dev):
        sigmas(n)
        sigmas(n, {second})
"""


def test_a_host_device_default_left_out_everywhere_is_the_cpu_device():
    """`device="cpu"` (or `torch.device("cpu")`) that no site fills, or a site fills with "cpu": the host device."""
    found = _params({"m": SIGMAS.format(second='device="cpu"')}, "sigmas")
    assert found.get("device") == CPU_DEVICE and found.get("other") == CPU_DEVICE


def test_a_host_device_default_some_site_overrides_is_not_the_cpu_device():
    """One site passing its own device: the join is no longer the host device (the name decides, as before)."""
    found = _params({"m": SIGMAS.format(second="device=dev")}, "sigmas")
    assert found.get("device") != CPU_DEVICE and found.get("other") == CPU_DEVICE


EPOCH = """
    import torch


    def epoch(batches, device):
        return [b.to(device) for b in batches]


    def run(batches, args):
        {bind}
        epoch(batches, {passed})
        {other}
"""
FALLBACK = """if not torch.cuda.is_available():
            dev = torch.device("cpu")
        else:
            dev = torch.device("cuda:0")"""


def test_a_device_every_site_fills_with_an_accelerator_is_the_cuda_device():
    """`"cuda"`, `torch.device("cuda", 0)`, a local bound so, or bound in the two arms of `if not
    torch.cuda.is_available():` (the host in the fallback arm only): the accelerator device."""
    for bind, passed in (("pass", '"cuda:1"'), ("pass", 'torch.device("cuda", 0)'), ('dev = "cuda"', "dev"),
                         (FALLBACK, "dev"), ('dev = "cuda" if torch.cuda.is_available() else "cpu"', "dev")):
        found = _params({"m": EPOCH.format(bind=bind, passed=passed, other="")}, "epoch")
        assert found.get("device") == CUDA_DEVICE, (bind, passed)


def test_a_device_some_site_fills_otherwise_is_no_cuda_device():
    """A second site passing "cpu", a site passing `args.device`, a local an `if` on anything else binds to "cpu"
    and "cuda": no accelerator device (host data, or unknown, as before)."""
    for bind, passed, other in (("pass", '"cuda"', 'epoch(batches, "cpu")'), ("pass", "args.device", ""),
                                ('dev = "cpu" if args.cpu else "cuda"', "dev", ""),
                                ('if args.cpu:\n            dev = "cpu"\n        else:\n            dev = "cuda"',
                                 "dev", "")):
        found = _params({"m": EPOCH.format(bind=bind, passed=passed, other=other)}, "epoch")
        assert found.get("device") != CUDA_DEVICE, (bind, passed, other)


COLLATE = """
    import numpy as np
    import torch


    class Collater:
        def __call__(self, texts):
            ids = torch.from_numpy(np.array([[len(t)] for t in texts]))
            return ids, torch.IntTensor([len(t) for t in texts])


    def make_collater():
        return Collater()


    def infer(x, lens):
        return lens.max().item()


    def run(texts, device):
        collate = make_collater()
        {rebind}
        ids, lens = collate(texts)
        return infer(ids.to(device), lens)
"""


def test_the_item_of_a_local_objects_call_is_what_its_call_returns():
    """`collate = make_collater()`, then `collate(texts)`: `Collater.__call__`'s host lengths reach `infer`."""
    assert _params({"m": COLLATE.format(rebind="")}, "infer").get("lens") == CPU_TENSOR


def test_a_local_bound_twice_is_no_evidence():
    """A name bound by two statements may hold either value when called: no claim."""
    found = _params({"m": COLLATE.format(rebind="collate = collate if texts else Collater()")}, "infer")
    assert "lens" not in found


MOVED = """
    import torch


    class Net(torch.nn.Module):
        def forward(self, x):
            return x


    def append_zero(x):
        return torch.cat([x, x.new_zeros([1])])


    def build():
        return Net()


    def use(sigmas, net):
        return net(sigmas)


    def run(device):
        use(append_zero(torch.linspace(0, 1, 8)).to(device), build().to(device))
"""


def test_a_move_of_a_project_return_is_a_device_tensor_only_where_it_returns_a_tensor():
    """`f(x).to(device)`: a device tensor where `f` returns a tensor (`append_zero`), nothing where it returns a module
    (`build().to(device)` moves the module itself)."""
    found = _params({"m": MOVED}, "use")
    assert found.get("sigmas") == TENSOR and "net" not in found


DISPATCH = """
    import torch


    def heun(model, x, sigmas, s_tmin=0.0, s_tmax=float("inf")):
        return x


    def euler(model, x, sigmas):
        return x


    def sample(model, x, sampler, device, churn):
        sigmas = torch.linspace(1, 0, 10){move}
        extra = dict(s_tmin=0.0, s_tmax=churn) if sampler == "heun" else {{}}
        sample_fn = {{"heun": heun, "euler": euler}}[sampler]
        return sample_fn(model, x, sigmas, **extra)
"""


def test_an_entry_of_a_dispatch_table_takes_the_call_arguments():
    """`sample_fn = {"heun": heun, ...}[sampler]` then `sample_fn(model, x, sigmas, **extra)`: each entry is called with
    what the call passes explicitly (the mapping, of keys nothing spells out, cannot pass those again)."""
    assert _params({"m": DISPATCH.format(move=".to(device)")}, "heun").get("sigmas") == TENSOR
    assert _params({"m": DISPATCH.format(move="")}, "euler").get("sigmas") == CPU_TENSOR
    assert "s_tmax" not in _params({"m": DISPATCH.format(move="")}, "heun")  # the mapping may fill it


KEPT = """
    import torch


    def append_zero(x):
        return torch.cat([x, x.new_zeros([1])])


    def get_sigmas(n, device="cpu"):
        return append_zero(torch.linspace(0, 1, n)).to(device)


    def use(sigmas):
        return sigmas


    def run(dev):
        use(get_sigmas(8{passed}))
"""


def test_a_move_to_a_device_parameter_every_caller_keeps_on_the_host_stays_there():
    """`get_sigmas(n)` of `device="cpu"`: the schedule stays on the host; `get_sigmas(n, device=dev)` moves it."""
    assert _params({"m": KEPT.format(passed="")}, "use").get("sigmas") == CPU_TENSOR
    assert _params({"m": KEPT.format(passed=", device=dev")}, "use").get("sigmas") == TENSOR


DEVICE_ARMS = """
    import torch


    def decode(x: torch.Tensor):
        return x


    def run(out: torch.Tensor, dev: torch.Tensor, early: torch.Tensor):
        if out.is_cuda:
            pred = torch.empty(out.shape, device=torch.device("cpu"), pin_memory=True)
            pred.copy_(out, non_blocking=True)
        else:
            pred = out
        decode(pred)
        if dev.device.type == "cpu":
            other = dev
        else:
            other = dev.cpu()
        decode(other)
        if early.is_cuda:
            return None
        side = early
        decode(side)
{extra}
"""


def test_a_device_test_narrows_the_name_in_the_arm_where_it_is_on_the_host():
    """`else: pred = out` under `if out.is_cuda:` (NeMo's greedy CTC decoder) binds a host tensor: with the pinned copy
    in the other arm, every site passes a CPU tensor. The false arm of `is_cuda` and `device.type == "cpu"`'s true arm
    narrow alike; so does the code after an arm that returns (`if early.is_cuda: return`)."""
    found = _params({"m": DEVICE_ARMS.format(extra="")}, "decode")
    assert found.get("x") == CPU_TENSOR


def test_the_device_arm_and_a_rebound_name_do_not_narrow():
    """Decoys: the arm where the test holds (`other = dev` under `device.type != "cpu"`), and a name rebound in
    the arm before it is read (`out = out.cuda()` then `x = out`), keep what they hold: a device tensor reaches."""
    extra = """
        if not out.is_cuda:
            out = out.cuda()
            again = out
            decode(again)
    """
    assert _params({"m": DEVICE_ARMS.format(extra=extra)}, "decode").get("x") != CPU_TENSOR
    swapped = DEVICE_ARMS.replace('dev.device.type == "cpu"', 'dev.device.type != "cpu"').format(extra="")
    assert _params({"m": swapped}, "decode").get("x") != CPU_TENSOR


IMAGES = """
    from PIL import Image


    def prepare(image):
        return image


    def run(paths, arr):
        for p in paths:
            prepare({passed})
"""


def test_a_pil_image_every_caller_passes_is_host_data():
    """Pillow values live in host memory: `Image.open(p)`, a method chain of one (`.convert("RGB").resize(s)`) and
    `Image.fromarray(a)` passed at every site make the parameter host data."""
    for passed in ("Image.open(p)", 'Image.open(p).convert("RGB").resize((8, 8))', "Image.fromarray(arr)"):
        assert _params({"m": IMAGES.format(passed=passed)}, "prepare").get("image") == HOST, passed


def test_a_method_of_an_unknown_value_is_no_pil_evidence():
    """`.convert("RGB")` of a value nothing types is no Pillow image (the chain must start at a Pillow call)."""
    assert "image" not in _params({"m": IMAGES.format(passed='arr.convert("RGB")')}, "prepare")


LOOPED = """
    import torch


    def helper(row, scale, count):
        return row, scale, count


    def run(model, x, cfg):
        rows = model(x) + torch.zeros(4, 8, device="cuda")
        rows_cpu, done_cpu = rows.cpu(), (rows > 0).cpu()
        for j, (row, done) in enumerate(zip({rows}, done_cpu)):
            helper(row[0], cfg.scale, j)
"""


def test_a_for_loop_name_is_an_element_of_what_it_iterates():
    """A `for` statement's names read as a comprehension's do (`callsite._loop_binds`): `zip` element-wise under
    `enumerate`, whose index is a Python int; a config object's field is a host value. Before, a loop's names were
    unknown at every call in its body."""
    found = _params({"m": LOOPED.format(rows="rows_cpu")}, "helper")
    assert found == {"row": CPU_TENSOR, "scale": HOST, "count": HOST}
    assert _params({"m": LOOPED.format(rows="rows")}, "helper").get("row") == TENSOR


CAPTURED = """
    import torch


    def install(model, allowed):
        forbidden = torch.tensor(allowed{device})
        scale = 2

        def hook(module, inputs, output, idx=forbidden, k=scale, other=model):
            return output, idx, k, other

        model.register_forward_hook(hook)
"""


def test_a_handed_out_hook_default_is_what_the_enclosing_name_held():
    """`def hook(m, i, o, idx=forbidden)` handed to `register_forward_hook`: the framework leaves `idx` out, so it holds
    what `forbidden` held where the `def` ran (`FunctionInfo.captured_defaults`), host data or a device tensor; a
    name the enclosing function's kinds do not know (`model`, a parameter) says nothing."""
    assert _params({"m": CAPTURED.format(device="")}, "install.hook") == {"idx": CPU_TENSOR, "k": HOST}
    assert _params({"m": CAPTURED.format(device=', device="cuda"')}, "install.hook") == {"idx": TENSOR, "k": HOST}


KWARGS = """
    import torch


    def literal(kw):
        return kw


    def filled(kw):
        return kw


    def returned(kw):
        return kw


    def by_name(kw):
        return kw


    def from_call(kw):
        return kw


    def handed(kw):
        return kw


    def to_device(kw):
        kw["pos"] = kw["pos"].cuda()


    def build(x):
        out = {}
        out["pos"] = torch.arange(x.shape[1], device=x.device)
        out["n"] = 3
        return out


    def run(x: torch.Tensor, names, make):
        pos = x.argmax(-1)
        literal({"pos": pos, "ids": x.cpu()})
        literal({"pos": pos, "ids": pos})
        kw = {}
        kw["pos"] = pos
        kw.update(n=2)
        filled(kw)
        returned(build(x))
        named = {"pos": pos}
        for name in names:
            named[name] = x.cpu()
        by_name(named)
        made = make()
        made["pos"] = pos
        from_call(made)
        moved = {"pos": x.cpu(), "x": x}
        to_device(moved)
        handed(moved)
"""


def test_a_dict_every_site_passes_keeps_the_kinds_stored_under_its_keys():
    """A dict literal, a `{}` filled under spelled keys (`kw["pos"] = t`, `kw.update(n=2)`) and a project function's
    return of one: `kw["pos"]` in the callee is what every call stores there. Decoys: a key the sites fill with a host
    and a device tensor (`ids`), a dict stored under a key the code does not spell (`named[name] = v`), and a dict
    a call returned that the caller then fills (its other keys are the call's), and one another call takes as a
    statement of its own (`to_device(moved)` stores into it in place)."""
    found = {name: str(_params({"m": KWARGS}, name).get("kw"))
             for name in ("literal", "filled", "returned", "by_name", "from_call", "handed")}
    assert found == {"literal": "keys:ids=unknown;pos=tensor", "filled": "keys:n=host;pos=tensor",
                     "returned": "keys:n=host;pos=tensor", "by_name": "None", "from_call": "None",
                     "handed": "None"}


GRAPH = """
    import torch


    class Graph:
        def __init__(self, device="cuda"):
            self.ii = torch.as_tensor([], dtype=torch.long, device=device)
            self.age = torch.as_tensor([], dtype=torch.long, {age_device})
            self.max_age = 25

        def add(self, ii):
            self.ii = torch.cat([self.ii, ii], 0)
            self.age = torch.cat([self.age, torch.zeros_like(ii)], 0)

        def drop(self, mask):
            self.ii = self.ii[~mask]
            self.age = self.age[~mask]

        def older(self, mask):
            return mask

        def step(self, ix):
            self.age += 1
            self.drop(self.age > self.max_age)
            self.drop((self.ii == ix) | (self.age < 0))
            self.older(self.max_age > 3)
"""


def test_a_compare_of_a_device_field_every_site_passes_is_a_device_mask():
    """`self.age` is stored on the device by every store of the class (its own updates aside: `self.age += 1`,
    `self.age[~mask]`), so `self.age > self.max_age` and `(self.ii == ix) | (self.age < 0)` (an untyped `ix`) are
    device masks: `drop`'s `mask` is one. Decoys: the same graph with `age` built on the host (a host mask, and the
    untyped `ix` next to a host field says nothing), and a compare of plain numbers (`self.max_age > 3`)."""
    assert _params({"m": GRAPH.format(age_device="device=device")}, "Graph.drop").get("mask") == BOOL_TENSOR
    assert _params({"m": GRAPH.format(age_device="device=device")}, "Graph.older").get("mask") == HOST
    assert _params({"m": GRAPH.format(age_device="device='cpu'")}, "Graph.drop").get("mask") is None


def test_a_field_some_method_fills_from_a_parameter_is_no_device_mask():
    """A store of a parameter as it came (`self.age = ages`, no call site) names no device: no evidence."""
    src = GRAPH.format(age_device="device=device") + """
        def load(self, ages):
            self.age = ages
    """
    assert _params({"m": src}, "Graph.drop").get("mask") is None


LOADER_BATCHES = """
    import torch
    from torch.utils.data import DataLoader


    def step(data, policy):
        x, y = data
        return policy(x)


    def step2(data, policy):
        return policy(data)


    def train(loader, policy):
        for data in loader:
            step(data, policy)


    def only(loader, policy):
        for x, y in loader:
            step2(x, policy)


    def other(policy):
        {other}


    def main(ds, policy):
        train(DataLoader(ds), policy)
        only(DataLoader(ds), policy)
        {third}
"""


def test_a_loader_batch_handed_on_is_a_host_tensor():
    """A batch of a loader parameter every caller fills with a default-collated `DataLoader` (`Batch`), whole or an
    item of it: a host tensor where it is handed on."""
    src = LOADER_BATCHES.format(other="pass", third="")
    assert _params({"m": src}, "step").get("data") == CPU_TENSOR
    assert _params({"m": src}, "step2").get("data") == CPU_TENSOR


def test_a_loader_batch_some_caller_hands_on_device_has_no_joined_kind():
    """Decoys: another caller hands `step` a device batch (the join is unknown), and a caller hands `only` a loader
    whose collate function is not read (no host loader at every site)."""
    cuda = 'step((torch.zeros(2, device="cuda"), torch.zeros(2, device="cuda")), policy)'
    found = _params({"m": LOADER_BATCHES.format(other=cuda, third="other(policy)")}, "step")
    assert found.get("data") not in (CPU_TENSOR, TENSOR)
    found = _params({"m": LOADER_BATCHES.format(other="pass", third="only(DataLoader(ds, collate_fn=f), policy)")},
                    "step2")
    assert found.get("data") != CPU_TENSOR
