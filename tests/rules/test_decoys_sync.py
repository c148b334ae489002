"""Decoys and hits for sync primitives (GL14x-GL15x: `synchronize`, events, streams, error-checking ops),
beyond the rules' embedded examples.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from graphlint.pipeline.config import Config
from graphlint.pipeline.engine import Linter

from snippets import check, findings, marked


def test_synchronize_message_names_the_call():
    """GL140 names the synchronize that was called, resolved through aliases: vLLM 0.33's one-shot
    `torch.accelerator.synchronize()` was reported as `torch.cuda.synchronize()`."""
    text = textwrap.dedent("""
        import torch
        from torch.cuda import synchronize as sync


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                torch.accelerator.synchronize()
                sync()
                return x
    """).lstrip("\n")
    got = [(f.line, f.code, f.message.split("`")[1]) for f in Linter(Config(scope="hot")).lint_text(text, "m.py").findings]
    assert got == [(7, "GL140", "torch.accelerator.synchronize()"), (8, "GL140", "torch.cuda.synchronize()")]


def test_torch_cuda_stream_and_event_aliases():
    check("""
        import torch
        from torch.cuda import Stream, Event

        class M(torch.nn.Module):
            def forward(self, x):
                side = Stream()
                done = Event()
                side.synchronize()  # <- GL141
                done.synchronize()  # <- GL141
                if done.query():  # <- GL201
                    x = x + 1
                torch.cuda.synchronize()
                return x
    """)


def test_synchronize_on_unrelated_receiver_is_silent():
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, x, accelerator, work):
                accelerator.synchronize()
                work.wait()
                self.lock.query()
                return x
    """)


def test_error_checking_ops():
    check("""
        import torch
        from torch.distributions import Normal

        class M(torch.nn.Module):
            def forward(self, a, b, mu, sd):
                L = torch.linalg.cholesky(a)  # <- GL150
                L2, info = torch.linalg.cholesky_ex(a)
                d = Normal(mu, sd)  # <- GL151
                d2 = Normal(mu, sd, validate_args=False)
                ok = torch.allclose(a, b)  # <- GL144
                close = torch.isclose(a, b)
                g = torch.Generator(device=a.device)  # <- GL203
                torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0)
                torch.nn.utils.clip_grad_norm_(self.parameters(), 1.0, error_if_nonfinite=True)  # <- GL152
                return L, L2, d, d2, ok, close, g
    """)


def test_istft_checks_its_window_envelope_on_the_host():
    """`torch.istft` reads its NOLA check (`window_envelop.abs().min() < 1e-11`) with `.item()` on every call
    (renhance's and demucs's decoders, measured in the session-40 census): GL150 for a device or untyped input and for
    the method form on a device tensor. Decoys: `torch.istft` of a host spectrogram, `torch.stft`, the method form on
    a value nothing types."""
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, spec, window, n: int, audio: list, z):
                wav = torch.istft(spec, n, window=window)  # <- GL150
                dev = torch.stft(spec.cuda(), n, return_complex=True).istft(n)  # <- GL150
                host = torch.istft(torch.tensor(audio), n)
                fwd = torch.stft(spec, n, window=window, return_complex=True)
                other = z.istft(n)
                return wav, dev, host, fwd, other
    """)


def test_wrapper_distributions_without_constraints_validate_nothing():
    """robomimic's policy heads wrap a `Normal` in `D.Independent(dist, 1)` and build a GMM with
    `D.MixtureSameFamily(mixture_distribution=.., component_distribution=..)`: those wrappers declare
    `arg_constraints = {}`, so their construction reads no device value (barbican, two GL151 look-alikes). The
    wrapped `Normal` / `Categorical` still validate (hits), also when built inside the wrapper's call, and a
    `TransformedDistribution` subclass that declares constraints (`LogNormal`) stays a hit."""
    check("""
        import torch
        import torch.distributions as D

        class Head(torch.nn.Module):
            def forward(self, mu, sd, logits):
                dist = D.Normal(mu, sd)  # <- GL151
                dist = D.Independent(dist, 1)
                nested = D.Independent(D.Normal(mu, sd), 1)  # <- GL151
                mix = D.Categorical(logits=logits)  # <- GL151
                gmm = D.MixtureSameFamily(mixture_distribution=mix, component_distribution=dist)
                t = D.TransformedDistribution(dist, [D.transforms.TanhTransform()])
                ln = D.LogNormal(mu, sd)  # <- GL151
                return dist, nested, gmm, t, ln
    """)


DIST_POLICY = """
    import torch
    from torch.distributions import Normal


    class Gaussian:
        def __init__(self, std: torch.Tensor):
            self.std = std
            Normal.set_default_validate_args(False)

        def update(self, mean: torch.Tensor):
            self.dist = Normal(mean, self.std)


    class Policy(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.head = Gaussian(torch.ones(3))

        def forward(self, x: torch.Tensor):
            self.head.update(x)
            return self.head.dist.sample()
"""


def _gl151(tmp_path: Path, files: dict[str, str]) -> set[tuple[str, int]]:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text).lstrip("\n"))
    config = Config(root=tmp_path, scope="hot", select=("GL151",))
    found = Linter(config).lint_paths(sorted(tmp_path.rglob("*.py"))).findings
    return {(Path(f.path).name, f.line) for f in found}


def test_default_validation_turned_off_anywhere_in_the_module_silences_gl151(tmp_path: Path):
    """`Distribution.set_default_validate_args(False)` sets a class attribute: validation is off for the whole process,
    so a call in a class's `__init__` silences the distributions another method builds (an RL library's distribution
    modules call it in `__init__` and build `Normal(mean, std)` in `update`: 7 GL151 look-alikes). Decoys that stay
    hits: `(True)`, a commented-out call, the call's text in a string, a value the code computes."""
    assert _gl151(tmp_path, {"m.py": DIST_POLICY}) == set()
    for off in ("Normal.set_default_validate_args(True)", "# Normal.set_default_validate_args(False)",
                "doc = 'Normal.set_default_validate_args(False)'", "Normal.set_default_validate_args(std is None)"):
        text = DIST_POLICY.replace("Normal.set_default_validate_args(False)", off)
        assert _gl151(tmp_path, {"m.py": text}) == {("m.py", 11)}, off


def test_default_validation_turned_off_in_another_project_module(tmp_path: Path):
    """The setting holds for the process: a project module's function that turns validation off (here through a
    module alias, `D.Distribution.set_default_validate_args(value=False)`) silences GL151 everywhere. Decoy: the
    same call only in another script's `if __name__ == "__main__":` block runs in that script's process, not the
    library's."""
    built = DIST_POLICY.replace("            Normal.set_default_validate_args(False)\n", "")
    setup = """
        import torch.distributions as D


        def configure():
            D.Distribution.set_default_validate_args(value=False)
    """
    assert _gl151(tmp_path, {"m.py": built, "setup_run.py": setup}) == set()
    script = """
        import torch

        if __name__ == "__main__":
            torch.distributions.Distribution.set_default_validate_args(False)
    """
    (tmp_path / "setup_run.py").unlink()
    assert _gl151(tmp_path, {"m.py": built, "script.py": script}) == {("m.py", 10)}


HELD_DIST = """
    import torch
    from torch.distributions import Categorical, Normal


    class Diag:
        def __init__(self):
            self.distribution = None

        def proba_distribution(self, mean: torch.Tensor):
            self.distribution = Normal(mean, torch.ones_like(mean))  # GL151 (the construction)
            return self

        def log_prob(self, actions: torch.Tensor):
            return self.distribution.log_prob(actions)  # GL151 (line 14)

        def sample(self):
            return self.distribution.sample()


    class Quiet:
        def proba_distribution(self, logits: torch.Tensor):
            self.distribution = Categorical(logits=logits, validate_args=False)

        def log_prob(self, actions: torch.Tensor):
            return self.distribution.log_prob(actions)


    class Several:
        def proba_distribution(self, logits: torch.Tensor):
            self.distribution = [Categorical(logits=logits, validate_args=False) for _ in range(2)]

        def log_prob(self, actions: torch.Tensor):
            return self.distribution.log_prob(actions)


    class Policy(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.diag = Diag()
            self.quiet = Quiet()
            self.several = Several()

        def forward(self, x: torch.Tensor):
            self.diag.proba_distribution(x)
            a = self.diag.log_prob(x) + self.diag.sample()
            self.quiet.proba_distribution(x)
            self.several.proba_distribution(x)
            b = self.quiet.log_prob(x) + self.several.log_prob(x)
            host = Normal(0.0, 1.0).log_prob(torch.zeros(3))
            inline = Normal(0.0, 1.0).log_prob(x)  # GL151 (line 50)
            return a + b + host + inline
"""


def test_log_prob_of_a_held_distribution_validates_its_value(tmp_path: Path):
    """`self.distribution.log_prob(actions)` where every store of the field builds a `torch.distributions` class
    without `validate_args=False` (SB3's `proba_distribution` / `log_prob` pair) checks the CUDA actions against the
    support (`_validate_sample`: `support.check(value)` then a host read): GL151, as is `Normal(0, 1).log_prob(x)`
    built in place. Decoys: a field built with `validate_args=False`, one holding a list of distributions, `.sample()`
    (no check), a host value, and the process turning validation off (`set_default_validate_args(False)`)."""
    assert _gl151(tmp_path, {"m.py": HELD_DIST}) == {("m.py", 10), ("m.py", 14), ("m.py", 50)}
    off = HELD_DIST.replace("            self.distribution = None\n",
                            "            self.distribution = None\n            Normal.set_default_validate_args(False)\n")
    assert _gl151(tmp_path, {"m.py": off}) == set()


LOCAL_DIST = """
    import torch
    from torch.distributions import Categorical, Normal


    class Policy(torch.nn.Module):
        def forward(self, x: torch.Tensor, given):
            probs = Categorical(logits=x)  # GL151 (the construction, line 7)
            a = probs.log_prob(x)  # GL151 (line 8)
            quiet = Normal(x, torch.ones_like(x), validate_args=False)
            b = quiet.log_prob(x) + quiet.sample()
            twice = Normal(x, x, validate_args=False)
            twice = given
            c = twice.log_prob(x) + given.log_prob(x)
            return a + b + c
"""


def test_log_prob_of_a_local_distribution_validates_its_value(tmp_path: Path):
    """`probs = Categorical(logits=x); probs.log_prob(a)` (rlinf's policies, ctm's RL loop): a local bound once to a
    validating construction checks the value as the construction written in place does. Decoys: a local built with
    `validate_args=False`, a local bound twice (the second binding is unknown), a parameter, and the process turning
    validation off."""
    assert _gl151(tmp_path, {"m.py": LOCAL_DIST}) == {("m.py", 7), ("m.py", 8)}
    off = LOCAL_DIST.replace("    class Policy", "    Categorical.set_default_validate_args(False)\n\n\n    class Policy")
    assert _gl151(tmp_path, {"m.py": off}) == set()


def test_unconstrained_distribution_set_matches_torch():
    """`DIST_UNCONSTRAINED` is exactly the public `torch.distributions` classes whose `arg_constraints` is `{}`."""
    torch_dist = pytest.importorskip("torch.distributions")
    from graphlint.rules.sync import DIST_UNCONSTRAINED

    empty = {
        name for name in torch_dist.__all__
        if isinstance(cls := getattr(torch_dist, name), type) and issubclass(cls, torch_dist.Distribution)
        and cls is not torch_dist.Distribution and "arg_constraints" in vars(cls) and vars(cls)["arg_constraints"] == {}
    }
    assert empty == DIST_UNCONSTRAINED


def test_torch_functions_of_a_host_tensor_stay_on_the_host():
    """Megatron-LM's dynamic inference context keeps per-request bookkeeping in pinned CPU tensors (set up in
    `initialize_all_tensors`, not `__init__`) and reads them with `torch.count_nonzero(...)`, `torch.where(mask)[0]`
    and `.split(...)` before `.item()` / `.tolist()`: the reductions and index/split sequences of a host tensor are
    host tensors (blind set, GL101/GL102 false claims). The same calls on a device tensor (or a host tensor moved
    to the device first) stay hits."""
    src = """
        import torch

        class Ctx:
            def __init__(self, n: int):
                self.n = n
                self.rid = -1
                self.initialize_all_tensors()

            def initialize_all_tensors(self):
                self.counts = torch.empty(self.n, dtype=torch.int32, device="cpu", pin_memory=True)
                self.dev_counts = torch.empty(self.n, dtype=torch.int32, device="cuda")

            def step(self, budget: int, dev: torch.device):
                a = torch.count_nonzero(self.counts[: self.n].cumsum(dim=0) <= budget).item()
                m = torch.where(self.counts == self.rid)[0]
                b = m[0].item()
                first, rest = self.counts.split([1, self.n - 1])
                c = first.tolist()
                d = torch.max(self.counts, dim=0)[0].item()
                e = torch.count_nonzero(self.dev_counts).item()  # <- GL101
                f = torch.where(self.dev_counts == self.rid)[0][0].item()  # <- GL101
                g = torch.count_nonzero(self.counts.to(dev)).item()  # <- GL101
                h = self.dev_counts.split([1, self.n - 1])[0].tolist()  # <- GL102
                return a, b, c, d, e, f, g, h
    """
    got = {hit for hit in findings(src, scope="all") if hit[1] in ("GL101", "GL102")}
    assert got == marked(src.lstrip("\n"))


def test_a_packed_sequence_keeps_its_batch_sizes_on_the_host():
    """torch keeps `PackedSequence.batch_sizes` on the CPU whatever device `data` is on ("always a CPU tensor"):
    reading it is no sync, for what `pack_padded_sequence`, `pack_sequence`, `PackedSequence(..)`, `.to(..)` and an
    LSTM/GRU build, and for a parameter annotated `PackedSequence`; `pad_packed_sequence`'s lengths come from it.
    Decoys: `data`, `sorted_indices` and `unsorted_indices` live where the data does, so reading them of a CUDA
    sequence is still a sync (icefall's `beam_search.py` reads both), and of a host sequence none."""
    src = """
        import torch
        from torch import nn
        from torch.nn.utils.rnn import PackedSequence, pack_padded_sequence, pack_sequence, pad_packed_sequence


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(4, 4)

            def forward(self, x: torch.Tensor, lens: torch.Tensor):
                x = x.cuda()
                packed = pack_padded_sequence(input=x, lengths=lens, batch_first=True, enforce_sorted=False)
                a = packed.batch_sizes.tolist()
                n = int(packed.batch_sizes[0])
                u = packed.unsorted_indices.tolist()  # <- GL102
                s = packed.data.sum().item()  # <- GL101
                out, _ = self.lstm(packed)
                b = out.batch_sizes.tolist()
                o = out.data.sum().item()  # <- GL101
                padded, out_lens = pad_packed_sequence(out, batch_first=True)
                m = out_lens.tolist()
                p = padded.sum().item()  # <- GL101
                moved = packed.to(x.device)
                c = moved.batch_sizes.tolist()
                seqs = pack_sequence([x[0], x[1]], enforce_sorted=False)
                d = seqs.batch_sizes.tolist()
                e = seqs.unsorted_indices.tolist()  # <- GL102
                built = PackedSequence(x.flatten(), packed.batch_sizes)
                f = built.batch_sizes.tolist()
                host = pack_padded_sequence(torch.zeros(2, 3, 4), lens, batch_first=True, enforce_sorted=False)
                g = host.unsorted_indices.tolist()
                return self.sizes(packed), a, n, u, s, b, o, m, p, c, d, e, f, g

            def sizes(self, seq: PackedSequence):
                return seq.batch_sizes.tolist()


        def train(model, loader, opt):
            for x, lens in loader:
                model(x, lens).backward()
                opt.step()
    """
    got = {hit for hit in findings(src) if hit[1] in ("GL101", "GL102", "GL103")}
    assert got == marked(src.lstrip("\n"))


def test_a_method_returning_a_host_field_expression_is_host_data():
    """Megatron's `_get_async_sched_rows_requiring_new_block()` returns
    `self.request_last_kv_block_offset[active_slice] + n >= self.block_size_tokens` of a pinned CPU field set in
    `initialize_all_tensors`; `rows.sum().item()` on it is host work (blind set). The call's deferred return (a
    field's view met with host numbers) settles as the field does; the same expression over a device field, or
    over a field that one method stores on the device, stays a hit."""
    src = """
        import torch

        class Ctx:
            def __init__(self, n: int, cfg):
                self.n = n
                self.bs = cfg.block_size
                self.spec = cfg.num_speculative_tokens
                self.initialize_all_tensors()

            def initialize_all_tensors(self):
                self.offs = torch.empty(self.n, dtype=torch.int32, device="cpu", pin_memory=True)
                self.dev = torch.empty(self.n, dtype=torch.int32, device="cuda")
                self.mixed = torch.empty(self.n, dtype=torch.int32, device="cpu")

            def move(self):
                self.mixed = self.mixed.cuda()

            def rows(self):
                active = slice(0, self.n)
                tokens = self.spec + 1
                return self.offs[active] + tokens >= self.bs

            def dev_rows(self):
                return self.dev[: self.n] + 1 >= self.bs

            def mixed_rows(self):
                return self.mixed[: self.n] + self.spec

            def step(self):
                a = self.rows().sum().item()
                b = self.rows().tolist()
                c = self.dev_rows().sum().item()  # <- GL101
                d = self.mixed_rows().tolist()  # <- GL102
                return a, b, c, d
    """
    got = {hit for hit in findings(src, scope="all") if hit[1] in ("GL101", "GL102")}
    assert got == marked(src.lstrip("\n"))


def test_a_device_bound_from_a_host_tensor_builds_on_the_host():
    """Megatron's `add_request` binds `device = self.request_ids.device` (a pinned CPU field) and builds
    `lengths_tensor = torch.tensor(lengths, device=device)`, then reads `lengths_tensor.max().item()`: all on the
    host (blind set). A device bound from a device tensor still builds on the device."""
    src = """
        import torch

        class Ctx:
            def __init__(self, n: int):
                self.n = n
                self.setup()

            def setup(self):
                self.ids = torch.empty(self.n, dtype=torch.int32, device="cpu", pin_memory=True)
                self.dev = torch.empty(self.n, dtype=torch.int32, device="cuda")

            def add(self, lengths: list):
                device = self.ids.device
                a = int(torch.tensor(lengths, dtype=self.ids.dtype, device=device).max().item())
                ddev = self.dev.device
                b = int(torch.tensor(lengths, device=ddev).max().item())  # <- GL101
                return a, b
    """
    got = {hit for hit in findings(src, scope="all") if hit[1] in ("GL101", "GL102")}
    assert got == marked(src.lstrip("\n"))


def test_an_assert_message_runs_only_when_the_assert_fails():
    """`assert cond, msg` evaluates `msg` only when `cond` is false, as a `raise` runs only on the error path:
    mistral-inference's `assert seq_len == N_txt + N_img, f"... {image_locations.sum().item()}"` costs nothing
    while the shapes agree (a held-back look-alike). Hits: the condition itself, and the same read outside a
    message."""
    assert findings("""
        import torch


        def merge(x: torch.Tensor, locations: torch.Tensor, n: int):
            assert x.shape[0] == n, f"rows {x.shape[0]} != {n} ({locations.sum().item()})"
            assert n > 0, ("empty", x.max().item())
            assert (locations > 0).all(), "positive"
            total = locations.sum().item()
            return x, total
    """, scope="all") == {(7, "GL109"), (8, "GL101")}


def test_empty_cache_in_the_step_waits_and_look_alikes_do_not():
    """`torch.cuda.empty_cache()` in a forward frees what the previous step left cached with `cudaFree`
    (measured on an H200: it waits, and debug mode is silent), under any spelling; other objects'
    `empty_cache` methods, the function passed as a value, and memory queries are not calls of it."""
    src = """
        import atexit
        import torch
        import torch.cuda as tc
        from torch.cuda.memory import empty_cache as release
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor):
                tc.empty_cache()
                release()
                self.kv_pool.empty_cache()
                atexit.register(torch.cuda.empty_cache)
                used = torch.cuda.memory_allocated()
                return x, used
    """
    assert findings(src) == {(7, "GL145"), (8, "GL145")}


def test_empty_cache_after_loading_is_outside_the_hot_path():
    """torchchat's builder frees the loader's temporaries once, after the checkpoint is read: not hot code."""
    src = """
        import torch
        def build_model(model: torch.nn.Module, path: str):
            model.load_state_dict(torch.load(path, map_location="cpu"))
            torch.cuda.empty_cache()
            return model
    """
    assert findings(src) == set()
    assert findings(src, scope="all") == {(4, "GL145")}


def test_object_collectives_read_sizes_on_the_host():
    """DeepSeek-V3's `generate` broadcasts each prompt with `dist.broadcast_object_list(objects, 0)` (NCCL: the
    pickled bytes and their sizes go to the CUDA device and are read back); moshi's k-means init gathers shapes with
    `gather_object`. Look-alikes: a collective staged on the host (`device="cpu"`, transformers' continuous batching
    and LightLLM's custom all-reduce), a project object's method of the same name, and a tensor broadcast (it
    enqueues on the NCCL stream)."""
    check("""
        import torch
        import torch.distributed as dist
        from torch.distributed import gather_object

        class Gen(torch.nn.Module):
            def forward(self, x: torch.Tensor, prompt: str, comm, cpu_group):
                objects = [prompt]
                dist.broadcast_object_list(objects, 0)  # <- GL143
                gather_object(x.shape)  # <- GL143
                torch.distributed.all_gather_object(objects, prompt, group=cpu_group)  # <- GL143
                dist.broadcast_object_list(objects, src=0, group=cpu_group, device=torch.device("cpu"))
                comm.broadcast_object_list(objects, 0)
                dist.broadcast(x, 0)
                return x
    """)


def test_a_helper_that_synchronizes_is_reported_where_the_step_calls_it():
    """torchchat times each sample with `device_sync(device=self.builder_args.device)`, a project helper whose body
    is `torch.cuda.synchronize(device)` for a CUDA device: the wait is at the call, where it can be removed. The
    helper's own body is reported where it runs too. Look-alikes: the helper called with the host as its device,
    a helper that only records an event, and a method of an unrelated object named `device_sync`."""
    text = textwrap.dedent("""
        import torch

        def device_sync(device="cpu"):
            if "cuda" in device:
                torch.cuda.synchronize(device)

        def record(ev):
            ev.record()

        class Gen(torch.nn.Module):
            def forward(self, x: torch.Tensor, ev, pool):
                device_sync(device=self.device)
                device_sync(device="cpu")
                record(ev)
                pool.device_sync()
                return x * 2
    """).lstrip("\n")
    got = {(f.line, f.code) for f in Linter(Config(scope="hot")).lint_text(text, "m.py").findings}
    assert got == {(5, "GL140"), (12, "GL140")}


def test_other_accelerators_synchronize_like_cuda():
    """xDiT imports `synchronize` from `torch.cuda`, then from torch_musa under `try` and from `torch.npu` under a
    condition: the name is bound to the last, and every one of them waits for its device."""
    text = textwrap.dedent('''
        import torch
        from torch.cuda import synchronize
        if torch.npu.is_available():
            from torch.npu import synchronize

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, s):
                synchronize()
                torch.xpu.synchronize()
                torch.cuda.current_stream().wait_stream(s)
                return x
    ''').lstrip("\n")
    got = {(f.line, f.code) for f in Linter(Config(scope="hot")).lint_text(text, "m.py").findings}
    assert got == {(8, "GL140"), (9, "GL140")}


def test_a_function_that_waits_among_other_work_is_reported_in_its_body_only():
    """xDiT's `_communicate_shapes` exchanges shapes and calls `synchronize()` between the exchanges: the wait is
    reported in its body (where it is), not again at each call."""
    text = textwrap.dedent("""
        import torch

        class Group:
            def shapes(self, t: torch.Tensor):
                torch.distributed.all_reduce(t)
                torch.cuda.synchronize()
                return t

        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, g: Group):
                return g.shapes(x)
    """).lstrip("\n")
    got = {(f.line, f.code) for f in Linter(Config(scope="hot")).lint_text(text, "m.py").findings}
    assert got == {(6, "GL140")}


def test_entering_a_cuda_graph_capture_waits_for_the_device():
    """`torch.cuda.graph.__enter__` calls `torch.cuda.synchronize()` before `capture_begin` (torch/cuda/graphs.py):
    a runner that captures lazily on the first decode step (Zonos, GPT-SoVITS, moshi, Chameleon, Higgs Audio labels)
    waits for the device there, through any import spelling. Look-alikes stay silent: a project context manager named
    `graph`, a side-stream block that replays a captured graph, and `capture_begin` on a graph object."""
    got = findings("""
        import contextlib
        import torch
        from torch import cuda
        from torch.cuda import graph as cuda_graph

        @contextlib.contextmanager
        def graph(g):
            yield g

        class Runner:
            def capture(self, x: torch.Tensor):
                with torch.cuda.graph(self.g):
                    y = x * 2
                with cuda.graph(self.g, pool=None):
                    y = x * 3
                with cuda_graph(self.g):
                    y = x * 4
                return y

            def replay(self, x: torch.Tensor, s):
                with graph(self.g):
                    y = x + 1
                with torch.cuda.stream(s):
                    self.g.replay()
                self.g.capture_begin()
                return y
    """, scope="all")
    assert {(line, code) for line, code in got if code == "GL140"} == {(12, "GL140"), (14, "GL140"), (16, "GL140")}


def test_compile_built_on_every_run_turns_validation_off(tmp_path: Path):
    """`torch.compile(..)` builds dynamo's `OptimizeContext`, whose `__init__` runs `TorchPatcher.patch()` once per
    process, and that calls `Distribution.set_default_validate_args(False)` (torch/_dynamo/eval_frame.py): a compile
    the process builds on every run (a constructor's own statement, a decorator, the module's top level) silences
    GL151. Decoys that stay hits: a compile under an opt-in flag, or in an opt-in method (rlinf's
    `enable_torch_compile`), which leave validation on where compile is off."""
    built = DIST_POLICY.replace("            Normal.set_default_validate_args(False)\n", "")
    compiled = built.replace("            self.head = Gaussian(torch.ones(3))\n",
                             "            self.head = Gaussian(torch.ones(3))\n"
                             "            self.act = torch.compile(self.act)\n")
    assert _gl151(tmp_path, {"m.py": compiled}) == set()
    decorated = built + "\n\n    @torch.compile(fullgraph=True)\n    def pre(x):\n        return x * 2\n"
    assert _gl151(tmp_path, {"m.py": decorated}) == set()
    flagged = built.replace("            self.head = Gaussian(torch.ones(3))\n",
                            "            self.head = Gaussian(torch.ones(3))\n"
                            "            if self.use_compile:\n                self.act = torch.compile(self.act)\n")
    assert _gl151(tmp_path, {"m.py": flagged}) == {("m.py", 10)}
    opt_in = built + ("\n        def enable_torch_compile(self):\n"
                      "            self.act = torch.compile(self.act)\n")
    assert _gl151(tmp_path, {"m.py": opt_in}) == {("m.py", 10)}
    lazy = built + "\n\n    make = lambda f: torch.compile(f)\n"
    assert _gl151(tmp_path, {"m.py": lazy}) == {("m.py", 10)}


def test_empty_cache_right_after_a_device_wait_does_not_wait():
    """`torch.cuda.synchronize()` leaves the device idle: an `empty_cache()` after it, with only reference drops
    between (`del`, a field set to None, `.clear()`, `gc.collect()`, an `if` of those), frees without a wait (rlinf's
    graph manager `destroy`); so does one in an `if` whose test queues nothing, right after the wait (line 24).
    Decoys that stay GL145: device work between the two, an `empty_cache()` with no wait before it (after frees)."""
    src = """
        import gc
        import torch


        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor, name=None):
                torch.cuda.synchronize()
                if name is not None:
                    if name in self.graphs:
                        del self.graphs[name]
                else:
                    self.graphs.clear()
                self.pool = None
                gc.collect()
                torch.cuda.empty_cache()
                y = x * 2
                del x
                torch.cuda.empty_cache()
                torch.cuda.synchronize()
                z = y + 1
                torch.cuda.empty_cache()
                torch.cuda.synchronize()
                if name:
                    torch.cuda.empty_cache()
                return z
    """
    got = {line for line, code in findings(src) if code == "GL145"}
    assert got == {18, 21}


def test_compile_turns_validation_off_only_where_its_module_is_imported(tmp_path: Path):
    """The setting holds in the processes that build the compile: a module with `@torch.compile` at its top level
    silences GL151 in the modules that import it and in what they import, not in a second program of the same tree
    that never imports it (Fast-dLLM's `llada/` compiles its attention, `dream/` samples with validation on)."""
    built = DIST_POLICY.replace("            Normal.set_default_validate_args(False)\n", "")
    attention = """
        import torch


        @torch.compile()
        def attend(q, k):
            return q @ k
    """
    user = "import attention\nimport m\n"
    assert _gl151(tmp_path, {"m.py": built, "attention.py": attention, "run.py": user}) == set()
    (tmp_path / "run.py").unlink()
    assert _gl151(tmp_path, {"m.py": built, "attention.py": attention}) == {("m.py", 10)}


def test_solvers_that_read_info_on_the_host():
    """The eigen and singular-value solvers and what calls them wait for the GPU (measured on an H200 by
    benchmarks/accuracy/h200_checks_ops45.py: `linalg.eigh`, `svd`, `pinv`, `matrix_rank`, `matrix_exp`, the spectral
    norm, `matrix_power(A, -1)`, `cov`, `torch.normal` with a tensor `std`, each W ~101 ms and debug mode raising).
    Decoys, measured not to wait: `det`, `slogdet`, `qr`, `solve_triangular`, the Frobenius norm, `matrix_power(A, 3)`,
    `inv_ex`, `torch.normal(mu, 1.0)`, the reparameterised `mu + randn_like(mu) * std`; and CPU operands."""
    check("""
        import torch

        class M(torch.nn.Module):
            def forward(self, a: torch.Tensor, b: torch.Tensor, mu: torch.Tensor, std: torch.Tensor):
                w, v = torch.linalg.eigh(a)  # <- GL150
                u, s, vh = torch.linalg.svd(a, full_matrices=False)  # <- GL150
                p = torch.linalg.pinv(a)  # <- GL150
                r = torch.linalg.matrix_rank(a)  # <- GL150
                e = torch.linalg.matrix_exp(a)  # <- GL150
                n2 = torch.linalg.matrix_norm(a, ord=2)  # <- GL150
                ai = torch.linalg.matrix_power(a, -1)  # <- GL150
                c = torch.cov(a)  # <- GL150
                z = torch.normal(mu, std)  # <- GL150
                pi = a.pinverse()  # <- GL150
                d = torch.linalg.det(a)
                sd = torch.linalg.slogdet(a)
                q, rr = torch.linalg.qr(a)
                x = torch.linalg.solve_triangular(rr, b, upper=True)
                nf = torch.linalg.matrix_norm(a)
                a3 = torch.linalg.matrix_power(a, 3)
                inv, info = torch.linalg.inv_ex(a)
                z2 = torch.normal(mu, 1.0)
                z3 = mu + torch.randn_like(mu) * std
                h = torch.linalg.eigh(torch.eye(4))
                return w, v, u, s, vh, p, r, e, n2, ai, c, z, pi, d, sd, q, x, nf, a3, inv, info, z2, z3, h
    """)


def test_empty_cache_after_a_blocking_read_of_a_device_tensor_does_not_wait():
    """A blocking copy of a device tensor to the host (`.cpu()`, `.item()`, `.tolist()`, `.cpu().numpy()`,
    `.to("cpu")`) returns only once the stream has run up to it, as `synchronize()` does on one stream: an
    `empty_cache()` right after it frees without a wait (protenix's confidence head: `pae = pae.cpu()` then
    `empty_cache()`). Decoys that stay GL145: a `non_blocking=True` copy (it returns before the stream drains),
    device work queued after the read, a read of a value the flow shows on the host (a no-op `.cpu()` of a CPU
    tensor), and a read handed to device work (`f(x.item())` in the same statement)."""
    src = """
        import torch


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.head = torch.nn.Linear(4, 4)

            def forward(self, x: torch.Tensor, h):
                pae = self.head(x).float()
                pae = pae.cpu()
                torch.cuda.empty_cache()
                n = x.sum().item()
                torch.cuda.empty_cache()
                rows = x.cpu().numpy()
                torch.cuda.empty_cache()
                y = x.to("cpu", non_blocking=True)
                torch.cuda.empty_cache()
                y = x.to("cpu")
                z = x * 2
                torch.cuda.empty_cache()
                w = torch.zeros(4).cpu()
                torch.cuda.empty_cache()
                v = torch.full((2,), x.max().item(), device=x.device)
                torch.cuda.empty_cache()
                ids = x.tolist()
                del z
                torch.cuda.empty_cache()
                return y, z, w, v, n, rows, ids
    """
    got = {line for line, code in findings(src) if code == "GL145"}
    assert got == {18, 21, 23, 25}


def test_grad_scaler_step_reads_found_inf():
    """An enabled CUDA `GradScaler`'s `step` reads `found_inf` with `.item()` (`_maybe_opt_step`): GL153 where the
    flow sees the scaler built, in a local or in a field a later method fills (owlwms's trainers). Decoys: `unscale_`
    and `update`, `enabled=False` (a literal, and a local bound to one), a `"cpu"` scaler, a parameter nothing types,
    a fused optimizer (its step takes `found_inf` as a tensor), a field also stored a disabled scaler."""
    check("""
        import torch

        class Trainer:
            def __init__(self):
                self.scaler = None
                self.off = torch.amp.GradScaler(enabled=True)

            def setup(self, flag):
                self.scaler = torch.amp.GradScaler()
                self.off = torch.amp.GradScaler(enabled=False)

            def train(self, loader, model, opt, scaler, use_amp_arg):
                use_amp = False
                quiet = torch.amp.GradScaler(enabled=use_amp)
                cpu = torch.amp.GradScaler("cpu")
                legacy = torch.cuda.amp.GradScaler(enabled=use_amp_arg)
                fused = torch.optim.Adam(model.parameters(), fused=True)
                for x in loader:
                    loss = model(x.cuda()).sum()
                    self.scaler.scale(loss).backward()
                    self.scaler.unscale_(opt)
                    self.scaler.step(opt)  # <- GL153
                    self.scaler.update()
                    self.off.step(opt)
                    quiet.step(opt)
                    cpu.step(opt)
                    scaler.step(opt)
                    legacy.step(opt)  # <- GL153
                    self.scaler.step(fused)

        # graphlint: hot
        def run(loader, model, opt):
            t = Trainer()
            t.setup(True)
            t.train(loader, model, opt, None, True)
    """, scope="all")


def test_grad_scaler_step_through_a_parameter():
    """A parameter every call site fills with an enabled scaler (a field, a local bound to a construction) holds one
    (`CallFacts.params`); one a call site also fills with a disabled scaler is unknown: no finding."""
    check("""
        import torch

        def apply(scaler, opt):
            scaler.step(opt)  # <- GL153

        def mixed(scaler, opt):
            scaler.step(opt)

        class Trainer:
            def setup(self):
                self.scaler = torch.amp.GradScaler()

            def train(self, opt):
                apply(self.scaler, opt)
                local = torch.amp.GradScaler()
                apply(local, opt)
                mixed(local, opt)
                mixed(torch.amp.GradScaler(enabled=False), opt)
    """, scope="all")


def test_grad_scaler_step_conditional_store_and_nested_def():
    """nnU-Net's `self.grad_scaler = (GradScaler("cuda") if new else GradScaler()) if cuda else None`, with
    `GradScaler` imported from `torch` (torch >= 2.3) or `torch.cuda.amp`: every arm but None builds an enabled CUDA
    scaler, and a None field is tested away before the step. owl-wms's `def optimizer_step(model, scaler, opt)`
    nested in the training method and called with `self.scaler`: the parameter holds what the call site passes.
    Decoys: a conditional with a disabled or a `"cpu"` arm, a nested def also handed a disabled scaler, a parameter
    annotated `torch.amp.GradScaler` that no call site fills."""
    check("""
        import torch
        try:
            from torch import GradScaler
            OLD = False
        except ImportError:
            from torch.cuda.amp import GradScaler
            OLD = True

        def annotated(scaler: torch.amp.GradScaler, opt):
            scaler.step(opt)

        class Trainer:
            def __init__(self, device, amp):
                self.grad_scaler = (GradScaler("cuda") if not OLD else GradScaler()) if device.type == "cuda" else None
                self.half = GradScaler(enabled=False) if amp else None
                self.cpu = torch.amp.GradScaler("cpu") if amp else torch.amp.GradScaler()
                self.scaler = torch.amp.GradScaler()

            def train(self, loader, model, opt, amp):
                def optimizer_step(scaler, optimizer):
                    scaler.unscale_(optimizer)
                    scaler.step(optimizer)  # <- GL153

                def mixed_step(scaler, optimizer):
                    scaler.step(optimizer)

                local = torch.amp.GradScaler() if amp else None
                off = torch.amp.GradScaler(enabled=False) if amp else None
                for x in loader:
                    loss = model(x.cuda()).sum()
                    if self.grad_scaler is not None:
                        self.grad_scaler.scale(loss).backward()
                        self.grad_scaler.step(opt)  # <- GL153
                    self.half.step(opt)
                    self.cpu.step(opt)
                    local.step(opt)  # <- GL153
                    off.step(opt)
                    optimizer_step(self.scaler, opt)
                    mixed_step(self.scaler, opt)
                    mixed_step(torch.amp.GradScaler(enabled=False), opt)
    """, scope="all")


def test_grad_scaler_filled_in_for_a_none_parameter():
    """detectron2's `AMPTrainer.__init__(.., grad_scaler=None)`: `if grad_scaler is None:` imports `GradScaler`
    lazily and builds one, and `self.grad_scaler = grad_scaler` holds it by default (`_default_objects`: a lazy import
    in the `if` is no other statement). Decoys: the default built disabled or for `"cpu"`, and an `if` that does more
    than build it (the store then is not that construction alone)."""
    check("""
        import torch

        class Trainer:
            def __init__(self, model, grad_scaler=None):
                self.model = model
                if grad_scaler is None:
                    from torch.cuda.amp import GradScaler

                    grad_scaler = GradScaler()
                self.grad_scaler = grad_scaler

            def step(self, loss, opt):
                self.grad_scaler.scale(loss).backward()
                self.grad_scaler.step(opt)  # <- GL153

        class Off:
            def __init__(self, grad_scaler=None, cpu_scaler=None, logged=None):
                if grad_scaler is None:
                    from torch.cuda.amp import GradScaler

                    grad_scaler = GradScaler(enabled=False)
                if cpu_scaler is None:
                    import torch.amp

                    cpu_scaler = torch.amp.GradScaler("cpu")
                if logged is None:
                    logged = torch.amp.GradScaler()
                    print("built", logged)
                self.grad_scaler = grad_scaler
                self.cpu_scaler = cpu_scaler
                self.logged = logged

            def step(self, opt):
                self.grad_scaler.step(opt)
                self.cpu_scaler.step(opt)
                self.logged.step(opt)
    """, scope="all")

def test_sharded_grad_scaler_field_read_through_the_handed_model():
    """FSDP's `ShardedGradScaler` is a `torch.amp.GradScaler` whose `step` it inherits (`GRAD_SCALERS`). dinov2's
    model holds one in a field (`self.fp16_scaler = ShardedGradScaler() if amp else None`) and the training function
    it is handed reads it through a local alias (`fp16_scaler = model.fp16_scaler`): every call passes the (moved)
    model, so the field is the class's. Decoys: a class whose field also stores a disabled scaler, a parameter one
    call passes another object for, a public function no call reaches, a parameter the function rebinds."""
    check("""
        import torch
        from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler

        class Arch(torch.nn.Module):
            def __init__(self, amp):
                super().__init__()
                self.fp16_scaler = ShardedGradScaler() if amp else None
                self.off = ShardedGradScaler(enabled=False)

        def do_train(model, opt):
            fp16_scaler = model.fp16_scaler
            for _ in range(10):
                fp16_scaler.unscale_(opt)
                fp16_scaler.step(opt)  # <- GL153
                fp16_scaler.update()
                model.off.step(opt)

        def mixed(model, opt):
            model.fp16_scaler.step(opt)

        def public(model, opt):
            model.fp16_scaler.step(opt)

        def rebound(model, opt):
            model = make()
            model.fp16_scaler.step(opt)

        def main(amp, other, opt):
            model = Arch(amp).to(torch.device("cuda"))  # <- GL131
            do_train(model, opt)
            mixed(model, opt)
            mixed(other, opt)
            rebound(model, opt)
    """, scope="all")


def test_grad_scaler_field_of_a_handed_object_is_the_passed_classes():
    """A plain project object handed to a function: its field holds an enabled CUDA scaler in every class a call
    passes (GL153); where one of the passed classes stores a `"cpu"` scaler there, no finding."""
    check("""
        import torch

        class Amp:
            def __init__(self):
                self.scaler = torch.amp.GradScaler("cuda")

        class Cpu:
            def __init__(self):
                self.scaler = torch.amp.GradScaler("cpu")

        def step(state, opt):
            state.scaler.step(opt)  # <- GL153

        def either(state, opt):
            state.scaler.step(opt)

        def main(opt, cpu):
            step(Amp(), opt)
            either(Amp(), opt)
            either(Cpu(), opt)
    """, scope="all")


def test_empty_cache_after_a_drain_that_ends_a_block_does_not_wait():
    """The drain before an `empty_cache()` is what every path runs last: the tail of a preceding `with` or `try`
    body, every arm of a preceding `if` that falls through (an arm that returns takes no path there), a project
    helper that reads its device argument on the host, a read graphlint itself claims in a rooted unit on a value
    nothing types when a step shows a tensor (`h[0, 0].data.cpu().numpy()`, RVC's `synthesized[0, 0].data.cpu()`),
    or the statement before the `if`/`with` the call sits in when its test or context queues nothing (`if
    torch.cuda.is_available():`; CodeFormer's and RVC's inference loops). Decoys that stay GL145: an untyped
    `h.cpu()` (a module offload is written so: LTX-Video's `self.transformer.cpu()`), device work after the read at
    the tail of the block, an `if/else` with one arm that reads nothing, an `if` with no `else` (the skipped arm
    drains nothing), a read in a loop body (it may run zero times), a test that hands a tensor to a method, a helper
    handed a CPU tensor, an `except` arm that reads nothing."""
    src = """
        import torch


        def to_img(t):
            return t.squeeze(0).float().detach().cpu().clamp_(0, 1).numpy()


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.net = torch.nn.Linear(4, 4)

            def forward(self, x: torch.Tensor, h, flag: bool):
                with torch.no_grad():
                    out = self.net(x)
                    img = out.cpu()
                del out
                torch.cuda.empty_cache()
                y = self.net(x)
                if flag:
                    a = y.cpu().numpy()
                else:
                    a = y.detach().cpu().numpy()
                del y
                if torch.cuda.is_available():
                    torch.cuda.empty_cache()
                with torch.no_grad():
                    img = to_img(self.net(x))
                torch.cuda.empty_cache()
                w = h[0, 0].data.cpu().numpy()
                torch.cuda.empty_cache()
                offloaded = h.cpu()
                torch.cuda.empty_cache()
                y = self.net(x)
                try:
                    b = y.tolist()
                except ValueError:
                    return None
                torch.cuda.empty_cache()
                y = self.net(x)
                if flag:
                    return a
                c = y.cpu()
                torch.cuda.empty_cache()
                with torch.no_grad():
                    d = y.cpu()
                    z = self.net(x)
                torch.cuda.empty_cache()
                if flag:
                    e = z.cpu()
                else:
                    e = None
                torch.cuda.empty_cache()
                if flag:
                    e = z.cpu()
                torch.cuda.empty_cache()
                for i in range(int(flag)):
                    e = z.cpu()
                torch.cuda.empty_cache()
                f = z.cpu()
                if self.ready(z):
                    torch.cuda.empty_cache()
                img = to_img(torch.zeros(1, 4))
                torch.cuda.empty_cache()
                z = self.net(x)
                try:
                    b = z.tolist()
                except ValueError:
                    b = None
                torch.cuda.empty_cache()
                return img, a, b, c, d, e, f, w, offloaded

            def ready(self, t):
                return self.net(t) is not None
    """
    got = {line for line, code in findings(src) if code == "GL145"}
    assert got == {33, 48, 53, 56, 59, 62, 64, 70}


def test_empty_cache_after_a_library_copy_to_the_host_does_not_wait():
    """A library call that copies its device argument to the host (`LIBRARY_COPIES`: BasicSR's `tensor2img`,
    torchvision's `to_pil_image`) drains the stream as a `.cpu()` does (CodeFormer's `tensor2img(output)` in a
    `with torch.no_grad():` block, then `del output; torch.cuda.empty_cache()`). Decoy that stays GL145: the same
    call of a host tensor (`img2tensor`'s), which waits for nothing."""
    src = """
        import numpy as np
        import torch
        from basicsr.utils import img2tensor, tensor2img


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.net = torch.nn.Linear(4, 4)

            def forward(self, x: torch.Tensor, img: np.ndarray):
                with torch.no_grad():
                    out = self.net(x)
                    a = tensor2img(out, rgb2bgr=True, min_max=(-1, 1))
                del out
                torch.cuda.empty_cache()
                y = self.net(x)
                b = tensor2img(img2tensor(img))
                torch.cuda.empty_cache()
                return a, b, y
    """
    got = {line for line, code in findings(src) if code == "GL145"}
    assert got == {19}


def test_timm_native_scaler_called_steps_its_grad_scaler():
    """timm's `NativeScaler` (`library_waits.WAITS`) builds a torch `GradScaler` on CUDA and its `__call__(loss,
    optimizer, ..)` runs `self._scaler.step(optimizer)`: called, it waits as `scaler.step` does, wherever the flow shows
    it built (deit: `loss_scaler = NativeScaler()` handed to the training function; a local; a field). Decoys: one built
    on "cpu", a call with `need_update=False` (older timm: `step_and_update=False`), a project class of the same name,
    a parameter one call site fills with another callable, a parameter no call reaches, a fused optimizer."""
    check("""
        import torch
        from timm.utils import NativeScaler
        from timm.utils.cuda import NativeScaler as Scaler
        from mylib import NativeScaler as Other

        def train_one_epoch(model, loader, optimizer, loss_scaler, max_norm):
            for x in loader:
                loss = model(x)
                loss_scaler(loss, optimizer, clip_grad=max_norm, parameters=model.parameters())  # <- GL153
                loss_scaler(loss, optimizer, need_update=False)
                loss_scaler(loss, optimizer, step_and_update=False)

        def local(model, loader, optimizer):
            scaler = Scaler()
            cpu = NativeScaler(device="cpu")
            other = Other()
            fused = torch.optim.AdamW(model.parameters(), fused=True)
            for x in loader:
                loss = model(x)
                scaler(loss, optimizer)  # <- GL153
                cpu(loss, optimizer)
                other(loss, optimizer)
                scaler(loss, fused)

        class Trainer:
            def __init__(self, model):
                self.model = model
                self.loss_scaler = NativeScaler()

            def step(self, x, optimizer):
                loss = self.model(x)
                self.loss_scaler(loss, optimizer)  # <- GL153

        def mixed(loss, optimizer, fn):
            fn(loss, optimizer)

        def public(loss, optimizer, loss_scaler):
            loss_scaler(loss, optimizer)

        def main(model, loader, optimizer, loss, crit):
            model = model.cuda()
            train_one_epoch(model, loader, optimizer, NativeScaler(), 1.0)
            local(model, loader, optimizer)
            mixed(loss, optimizer, NativeScaler())
            mixed(loss, optimizer, crit)
    """, scope="all")
