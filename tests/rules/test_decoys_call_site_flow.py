"""What a call site passes, read where the call's arguments come from a comprehension's loop names, a scalar
annotation the data flow overrules, or the builtin `min` / `max` of tensors (graphlint.facts.callsite,
graphlint.index.callfacts). Hits are device tensors every call site passes; decoys are the host look-alikes."""

from __future__ import annotations

from snippets import findings


def test_hit_comprehension_names_hold_elements_of_device_tensors():
    """`[unrotate(t, s) for t, s in zip(caches, lens)]` (mistral-inference's `CacheView.interleave_kv`): `s` is a row
    of a device tensor, so `unrotate` compares and slices with a 0-d device tensor. A plain name over a device
    tensor (`for s in lens`) and the item of `enumerate` read the same way."""
    src = """
        import torch


        def unrotate(cache, seqlen):
            if seqlen < 4:
                return cache
            return cache[:seqlen]


        def trim(cache, seqlen):
            return cache[:seqlen]


        def step(caches: list, n: int):
            lens = torch.zeros(n, device="cuda", dtype=torch.long)
            a = [unrotate(c, s) for c, s in zip(caches, lens)]
            b = [trim(caches[0], s) for i, s in enumerate(lens)]
            return a, b
    """
    # (the loops over `lens` are GL402: `zip` and `enumerate` iterate the device tensor row by row)
    assert findings(src, scope="all") == {(5, "GL110"), (7, "GL126"), (11, "GL126"), (16, "GL402"), (17, "GL402")}


def test_decoy_comprehension_names_over_host_values():
    """Loop names over host data stay host data: `zip` of a host list, a `range` count, the index of `enumerate`,
    the items of host data (`.tolist()`, a tensor built on the CPU), and a tuple `zip` yields whole. A loop name that
    shadows a device local of the same spelling holds the loop's element, not the local."""
    src = """
        import torch


        def keep(cache, seqlen):
            if seqlen < 4:
                return cache
            return cache[:seqlen]


        def step(caches: list, n: int):
            s = torch.zeros(n, device="cuda", dtype=torch.long)
            host = [1, 2, 3]
            lens_cpu = torch.arange(n)
            a = [keep(c, s) for c, s in zip(caches, host)]
            b = [keep(c, s) for s, c in enumerate(caches)]
            d = [keep(c, s) for c, s in zip(caches, range(n))]
            e = [keep(caches[0], s) for s in s.tolist()]
            f = [keep(caches[0], s) for s in lens_cpu]
            g = [keep(caches[0], pair) for pair in zip(host, host)]
            return a, b, d, e, f, g
    """
    assert findings(src, scope="all") == set()


def test_hit_scalar_annotation_every_site_fills_with_a_device_tensor():
    """`seqlen: int` that every call site fills with a device tensor the data flow makes (a comprehension over a
    device tensor, a reduction of a `device=` factory) holds a 0-d device tensor: its comparison and slice sync."""
    src = """
        import torch


        def unrotate(cache, seqlen: int):
            if seqlen < 4:
                return cache
            return cache[:seqlen]


        def step(caches: list, n: int):
            lens = torch.zeros(n, device="cuda", dtype=torch.long)
            a = [unrotate(c, s) for c, s in zip(caches, lens)]
            b = unrotate(caches[0], lens.max())
            return a, b
    """
    assert findings(src, scope="all") == {(5, "GL110"), (7, "GL126"), (12, "GL402")}  # (GL402: `zip` over `lens`)


def test_decoy_scalar_annotation_kept_where_not_every_site_is_device_data_flow():
    """The annotation stays where some site passes a Python int, where every site passes ints, where the device
    tensor comes only from the caller's own `torch.Tensor` annotation (no device named), and for an argument the
    same statement rebinds after the call (lmdeploy's `weight, bias = self.create_weights(..., bias, ...)`: `bias`
    is the flag the constructor received, not the tensor the call returns)."""
    src = """
        import torch


        def mixed(cache, seqlen: int):
            if seqlen < 4:
                return cache
            return cache[:seqlen]


        def ints(cache, seqlen: int):
            if seqlen < 4:
                return cache
            return cache[:seqlen]


        def typed(cache, seqlen: int):
            if seqlen < 4:
                return cache
            return cache[:seqlen]


        def step(caches: list, n: int, lengths: torch.Tensor):
            lens = torch.zeros(n, device="cuda", dtype=torch.long)
            a = mixed(caches[0], lens.max()), mixed(caches[0], 3)
            b = ints(caches[0], n), ints(caches[0], len(caches))
            d = typed(caches[0], lengths.sum())
            return a, b, d


        class Linear:
            def __init__(self, n: int, bias: bool, device: torch.device):
                weight, bias = self.create_weights(n, bias, device)
                self.weight, self.bias = weight, bias

            def create_weights(self, n: int, bias: bool, device: torch.device):
                weight = torch.empty((n, n), device=device)
                if bias:
                    bias = torch.empty((n,), device=device)
                else:
                    bias = None
                return weight, bias


        def build(device: torch.device):
            return Linear(4, True, device), Linear(8, False, device)
    """
    assert findings(src, scope="all") == set()


def test_hit_builtin_min_of_a_device_tensor_is_a_device_tensor():
    """`min(prompt_lengths)` of a CUDA tensor (Megatron's `generate_all_output_tokens_static_batch`) iterates its
    rows: a 0-d device tensor, passed on to a helper's `int` parameter that slices with it. So is `max` of a device
    tensor and a Python int."""
    src = """
        import torch


        def window(tokens, start: int):
            return tokens[:, start:]


        def clip(tokens, end):
            return tokens[:, :end]


        def generate(tokens, lengths: list):
            prompt_lengths = torch.tensor(lengths, device=torch.cuda.current_device())
            first = min(prompt_lengths)
            return window(tokens, first), clip(tokens, max(prompt_lengths.max(), 1))
    """
    # the caller's own reads (the list copied up, the builtins iterating a device tensor) were found before
    assert findings(src, scope="all") == {(5, "GL126"), (9, "GL126"), (13, "GL130"), (14, "GL160"), (15, "GL160")}


def test_decoy_builtin_min_of_host_values_stays_host():
    """`min` / `max` of ints, of a host list, of a CPU tensor's `.tolist()`, or with `key=`: host data."""
    src = """
        import torch


        def window(tokens, start: int):
            return tokens[:, start:]


        def clip(tokens, end):
            return tokens[:, :end]


        def generate(tokens, lengths: list, n: int):
            host = torch.tensor(lengths)
            a = window(tokens, min(lengths)), window(tokens, min(n, 4)), window(tokens, max(host.tolist()))
            b = clip(tokens, min(lengths)), clip(tokens, max(n, len(lengths))), clip(tokens, max(lengths, key=abs))
            return a, b
    """
    assert findings(src, scope="all") == set()


def test_decoy_a_binding_below_the_call_never_reaches_it():
    """`crop_boxes, n = generate(image, n)` then `n = torch.tensor(n, device=device)` (transformers' SAM image
    processor): the body's top level runs once, in order, so the callee's `int` parameter gets the `int` the caller
    received, not the tensor built below the call (line 5 stays silent; line 10's upload of the host int is a real
    copy). A loop around both still brings the later binding back (hit, line 15)."""
    src = """
        import torch


        def generate(image, n: int = 32):
            return image, int(n / 2)


        def crops(image, n: int = 32, device=None):
            boxes, n = generate(image, n)
            n = torch.tensor(n, device="cuda")
            return boxes, n


        def grow(image, n: int = 32):
            return image[: int(n)]


        def looped(image, n: int = 32):
            for _ in range(3):
                image = grow(image, n)
                n = torch.tensor(n, device="cuda")
            return image
    """
    assert findings(src, scope="all") == {(10, "GL130"), (15, "GL105")}


def test_hit_keywords_passed_through_kwargs_reach_kwargs_get():
    """`mat = kwargs.get("mat", None)` in a function with `**kwargs` holds what the call sites pass as `mat=`, also
    through callers that hand their own `**kwargs` on (two hops: GPT-SoVITS's `infer_panel(..., **kwargs)` ->
    `infer_panel_naive(..., **kwargs)`), and so do `kwargs["k"]` and `kwargs.pop("k")`: a device tensor there makes
    the comparisons on it device reads (lines 13, 18, 24). `thr`, which the same call fills with a Python float, stays
    host data (line 11 silent: the session-20 `chunk_split_thershold` look-alike)."""
    src = """
        import torch


        class Model:
            def panel(self, x, **kwargs):
                return self.naive(x, **kwargs)

            def naive(self, x, **kwargs):
                mat = kwargs.get("mat", None)
                thr = kwargs.get("thr", 0.3)
                if thr > 0.5 and mat is not None:
                    idx = (mat[0] - thr).argmax()
                    if idx > 3:
                        return x
                return x

            def other(self, x, **kw):
                if kw["mat"].sum() > 0:
                    return x
                return x

            def popped(self, x, **kw):
                m = kw.pop("mat")
                if m.max() > 0:
                    return x
                return x

            def run(self, x, dev):
                m = torch.zeros(4, 4, device=dev)
                self.other(x, mat=m)
                self.popped(x, mat=m)
                return self.panel(x, mat=m, thr=0.3)
    """
    assert findings(src, scope="all") == {(13, "GL110"), (18, "GL110"), (24, "GL110")}


def test_decoy_kwargs_keys_with_unknown_or_missing_callers_make_no_claim():
    """No claim on `kwargs.get("mat")` where a call site passes a mapping of unknown keys (`**opts`, a parameter),
    where a caller hands on `**kwargs` it received from nowhere the index sees, or where nothing calls the function.
    A named parameter of a call with `**opts` is no longer left out either: the mapping may fill it (`mat=None`
    default, the other site a device tensor: still no claim)."""
    src = """
        import torch


        def near(x, **kwargs):
            mat = kwargs.get("mat")
            if mat.sum() > 0:
                return x
            return x


        def named(x, mat=None):
            if mat.sum() > 0:
                return x
            return x


        def uncalled(x, **kwargs):
            if kwargs["mat"].sum() > 0:
                return x
            return x


        def orphan(x, **kwargs):
            return near(x, **kwargs)


        def run(x, opts: dict, dev):
            m = torch.zeros(4, device=dev)
            near(x, mat=m)
            near(x, **opts)
            named(x, mat=m)
            named(x, **opts)
            return x
    """
    assert findings(src, scope="all") == set()


def test_hit_spelled_out_mappings_splatted_into_a_call_pass_their_keys():
    """`f(**{"k": v})`, `f(**dict(k=v))` and `d = {"k": v}; f(**d)` pass `k=v` (LTX-Video's
    `LTXVideoPipeline(**submodel_dict)`): the callee's unannotated parameter is a device tensor every site fills."""
    src = """
        import torch


        def gate(x, w):
            if w.sum() > 0:
                return x
            return x


        def run(x, dev):
            m = torch.ones(4, device=dev)
            gate(x, **{"w": m})
            gate(x, **dict(w=m))
            kw = {"w": m, "x": x}
            return gate(**kw)
    """
    assert findings(src, scope="all") == {(5, "GL110")}


def test_decoy_mappings_filled_later_or_by_a_loop_pass_nothing_known():
    """A dict literal whose items are stored after it is built (`d.update(...)`, `d[k] = v` in a loop), or a mapping
    nothing spells out, passes keys the index cannot read: with the device site next to them, no claim."""
    src = """
        import torch


        def gate(x, w=None):
            if w.sum() > 0:
                return x
            return x


        def run(x, dev, names: list, extra: dict):
            m = torch.ones(4, device=dev)
            gate(x, w=m)
            upd = {"w": m}
            upd.update(extra)
            gate(x, **upd)
            looped = {"w": m}
            for name in names:
                looped[name] = None
            gate(x, **looped)
            return x
    """
    assert findings(src, scope="all") == set()


def test_decoy_a_none_arm_no_caller_takes_next_to_ones_a_caller_may_take():
    """IndexTTS 2's `inference_speech(..., cond_lengths=None, emo_cond_lengths=None)` fills a missing length with
    `torch.tensor([n], device=...)` under `if cond_lengths is None:`, and its only caller always passes
    `cond_lengths=torch.tensor(...)`; Higgs Audio's `merge_input_ids_with_audio_features(..., left_padding=True)` tests
    `if left_padding is None:` and its caller passes a local bound to `True if ... else False`. Those arms never run
    (barn and kiln labels, host). Hits next to them: a parameter one caller forwards from its own Optional parameter
    (`emo_lengths=lengths`, maybe None), one that a second caller leaves out (`other`), a `.tolist()` in the arm a
    filled parameter does take (`is not None`), and a parameter rebound before its test (`extra = pick(extra)`, which
    may return None) stay reported."""
    src = """
        import torch
        from typing import Optional


        def pick(x):
            return x if x is not None and x.numel() else None


        class GPT(torch.nn.Module):
            def infer(self, cond: torch.Tensor, cond_lengths=None, emo_lengths=None, other=None, extra=None, pad=True):
                if cond_lengths is None:
                    cond_lengths = torch.tensor([cond.shape[-1]], device=cond.device)
                if emo_lengths is None:
                    emo_lengths = torch.tensor([cond.shape[-1]], device=cond.device)
                if other is None:
                    other = torch.tensor([cond.shape[-1]], device=cond.device)
                extra = pick(extra)
                if extra is None:
                    extra = torch.tensor([cond.shape[-1]], device=cond.device)
                if pad is None:
                    pad = bool(torch.any(cond[:, 0] == 0))
                if cond_lengths is not None:
                    n = cond_lengths.tolist()
                return cond_lengths, emo_lengths, other, extra, pad, n

            def forward(self, cond: torch.Tensor, lengths: Optional[torch.Tensor] = None, use_cache: bool = True):
                pad = True if use_cache or cond.shape[0] == 1 else False
                a = self.infer(cond, cond_lengths=torch.tensor([3], device=cond.device), emo_lengths=lengths,
                               extra=cond, pad=pad)
                b = self.infer(cond, torch.full((1,), 3, device=cond.device), emo_lengths=lengths, other=1, extra=cond)
                return a, b
    """
    codes = {f for f in findings(src) if f[1].startswith("GL1")}
    assert codes == {(14, "GL130"), (16, "GL130"), (19, "GL130"), (23, "GL102"), (28, "GL130")}


SCHEDULER = """
    import numpy as np
    import torch


    class Sched:
        def __init__(self, n: int):
            self.timesteps = torch.from_numpy(np.linspace(0, n - 1, n)[::-1].copy())

        def set_timesteps(self, steps: int = None, device=None):
            ts = np.linspace(0, 999, steps).astype(np.int64)
            self.timesteps = torch.from_numpy(ts).to(device=device, dtype=torch.int64)

        def index_for_timestep(self, timestep, schedule_timesteps=None):
            if schedule_timesteps is None:
                schedule_timesteps = self.timesteps
            cand = (schedule_timesteps == timestep).nonzero()
            return cand[0].item()

        def step(self, eps, t, x):
            return x + eps * self.index_for_timestep(t)


    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.sched = Sched(1000)

        def forward(self, x):
            self.sched.set_timesteps(10)
            for t in self.sched.timesteps:
                x = self.sched.step(x, t, x)
            return x
"""


def test_decoy_a_none_device_every_caller_leaves_out_moves_nothing():
    """VibeVoice's DPM-Solver (diffusers' `set_timesteps(self, num_inference_steps=None, device=None)`): the only
    caller leaves `device` out, so `torch.from_numpy(ts).to(device=device, dtype=...)` is a dtype cast of a host
    tensor (no upload), the field every store fills on the host stays there, and `index_for_timestep`, whose
    `schedule_timesteps` every caller leaves None (`if ...is None: schedule_timesteps = self.timesteps` runs on every
    call), compares and reads host memory (larder labels, host)."""
    assert {f for f in findings(SCHEDULER) if f[1].startswith("GL1")} == set()


def test_hit_a_device_some_caller_passes_and_device_tensors_a_none_device_keeps():
    """One caller passing `device=x.device` makes the move an upload and the field a device tensor (the nonzero and
    the `.item()` of its index are syncs); a device tensor moved to a None device stays on the device; a root
    (`forward`, called from outside the tree) makes no claim about its own None default."""
    passed = SCHEDULER.replace("self.sched.set_timesteps(10)", "self.sched.set_timesteps(10, device=x.device)")
    assert {f for f in findings(passed) if f[1].startswith("GL1")} == {(11, "GL131"), (16, "GL120"), (17, "GL101")}
    src = """
        import torch


        class Head:
            def pick(self, logits: torch.Tensor, device=None):
                best = logits.argmax(-1).to(device)
                return best.item()


        class Model(torch.nn.Module):
            def forward(self, x: torch.Tensor, device=None):
                ids = torch.arange(4).to(device)
                return Head().pick(x) + ids
    """
    assert {f for f in findings(src) if f[1].startswith("GL1")} == {(7, "GL101"), (12, "GL131")}


def test_decoy_numpy_values_passed_into_tensor_annotated_helpers():
    """VibeVoice's DPM-Solver passes NumPy arrays (`np.flip(log_sigmas.copy())`, an array's `.copy()`, a helper
    annotated `-> torch.Tensor` whose body returns NumPy arithmetic) into helpers annotated `torch.Tensor`, which read
    them with `.item()` (larder labels, host): NumPy computes on the host and never returns a tensor."""
    src = """
        import numpy as np
        import torch


        class Sched:
            def _to_lu(self, in_lambdas: torch.Tensor, n) -> torch.Tensor:
                lo = in_lambdas[-1].item()
                ramp = np.linspace(0, 1, n)
                return lo + ramp * 2.0

            def _first(self, sig: torch.Tensor) -> float:
                return sig[0].item()

            def set_timesteps(self, n: int):
                log_sigmas = np.log(np.linspace(1.0, 2.0, 10))
                lambdas = np.flip(log_sigmas.copy())
                lu = self._to_lu(lambdas, n)
                return self._first(np.flip(lu).copy())


        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.sched = Sched()

            def forward(self, x):
                return x * self.sched.set_timesteps(10)
    """
    assert {f for f in findings(src) if f[1].startswith("GL1")} == set()


def test_hit_numpy_arithmetic_with_a_tensor_makes_a_tensor():
    """A tensor operand wins over a NumPy one (torch's `__array_priority__`): what a helper returns from `ramp * t` of
    a device `t` is a device tensor, and a device tensor passed beside NumPy values stays one (so the call of `_lo`,
    which reads its parameter on every path, waits where it is made with it; not the call with the NumPy array)."""
    src = """
        import numpy as np
        import torch


        class Sched:
            def _lo(self, vals: torch.Tensor) -> float:
                return vals[-1].item()

            def _mix(self, t: torch.Tensor, n: int) -> torch.Tensor:
                ramp = np.linspace(0, 1, n)
                return ramp * t

            def run(self, t: torch.Tensor, n: int):
                return self._lo(self._mix(t, n)) + self._lo(np.flip(np.linspace(0, 1, n)).copy())


        class Model(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.sched = Sched()

            def forward(self, x):
                return self.sched.run(x.sum(0), 4)
    """
    assert {f for f in findings(src) if f[1].startswith("GL1")} == {(7, "GL101"), (14, "GL101")}


def test_a_device_every_caller_takes_from_host_tensors_names_the_host():
    """`prefix(n, ids.device)` where `ids` is a host tensor at every call site: the callee's `device` names the host,
    so `torch.tensor([...], device=device)` and `.to(device)` there stay on the host (VoxCPM's `_make_ref_prefix`,
    whose four callers pass CPU tokenizer ids' device). Decoy of the decoy: one caller passing a device tensor's
    `.device` leaves the parameter unknown, and both moves are reported."""
    src = """
        import torch


        def prefix(n: int, device: torch.device):
            start = torch.tensor([1, 2], device=device)
            mask = torch.ones(n).to(device)
            return start, mask


        def other(n: int, device: torch.device):
            start = torch.tensor([1, 2], device=device)
            mask = torch.ones(n).to(device)
            return start, mask


        def step(x: torch.Tensor, text: list, n: int):
            ids = torch.LongTensor(text)
            a = prefix(n, ids.device)
            b = prefix(n + 1, ids.device)
            c = other(n, ids.device)
            d = other(n, x.device)
            return a, b, c, d
    """
    assert findings(src, scope="all") == {(11, "GL130"), (12, "GL131")}


def test_a_host_tensors_device_says_nothing_where_the_default_device_is_moved():
    """Llama's `build()` calls `torch.set_default_device(device)`, so `tokens = torch.full(...)` (typed a host tensor
    by the index, which reads factories without `device=`) lives on the device, and `compute_vision_tokens_masks(
    ..., device=tokens.device)` passes the device: the callee's `device` stays unknown, as before the call-site fact
    (the CPU claim would turn the vision output's `.to(device=device)` into a false device-to-host copy)."""
    src = """
        import torch

        torch.set_default_device("cuda")


        def prefix(n: int, device: torch.device):
            start = torch.tensor([1, 2], device=device)
            mask = torch.ones(n).to(device)
            return start, mask


        def step(x: torch.Tensor, text: list, n: int):
            ids = torch.full((n,), 0)
            a = prefix(n, ids.device)
            b = prefix(n + 1, ids.device)
            return a, b
    """
    assert findings(src, scope="all") == {(7, "GL130")}


PROMPT_LIST = """
    import torch


    def sample(logits: torch.Tensor) -> torch.Tensor:
        return torch.argmax(logits, -1)


    def build(rows):
        ids = []
        for r in rows:
            ids.append(torch.tensor(r).unsqueeze(0))
        return torch.zeros(3), ids


    def generate(model: torch.nn.Module, input_ids: list, steps: int):
        device = input_ids[0].device
        pos = torch.tensor([input_ids[0].size(1)], device=device)
        out = []
        for _ in range(steps):
            tok = sample(model(input_ids, pos))
            input_ids = [tok.to(device)]
            out.append(pos)
        return out


    def wrap(model, input_ids):
        return generate(model, input_ids, 4)


    def main(model, batches):
        for rows in batches:
            feats, input_ids = build(rows)
            wrap(model, input_ids)
"""


def test_decoy_a_prompt_list_every_caller_builds_on_the_host():
    """A list filled with host tensors (`ids.append(torch.tensor(r).unsqueeze(0))`), returned as a tuple item, bound
    in a loop body and passed on through a wrapper: in `generate` its element's `.device` is the host, so the factory
    on it copies nothing (Mini-Omni's `device = input_ids[0].device`), and a sampled device token moved there is a
    device-to-host copy (GL103)."""
    assert findings(PROMPT_LIST, scope="all") == {(21, "GL103")}


def test_hit_a_prompt_list_built_on_the_device_keeps_the_upload():
    src = PROMPT_LIST.replace("torch.tensor(r).unsqueeze(0)", "torch.tensor(r, device='cuda')")
    assert findings(src, scope="all") == {(11, "GL130"), (17, "GL130")}


def test_hit_callers_that_disagree_leave_the_device_unknown():
    """One caller passes a list of device tensors: the parameter is no list of host tensors, and the factory on its
    element's device stays an upload (an unknown device is read as the accelerator)."""
    src = PROMPT_LIST + """

    def other(model, x: torch.Tensor):
        wrap(model, [x.cuda()])
"""
    assert (17, "GL130") in findings(src, scope="all")


def test_decoy_a_list_of_blank_slots_stored_with_host_tensors():
    """`ids = [[] for _ in range(n)]` whose every slot store is a host tensor or a Python list (Mini-Omni's
    `get_input_ids_TA`), and a comprehension of host factories: lists of host tensors at the call site."""
    src = """
        import torch


        def prompt(text: list, n: int):
            ids = [[] for _ in range(n)]
            for i in range(n - 1):
                ids[i] = [0] * 4 + text
                ids[i] = torch.tensor(ids[i]).unsqueeze(0)
            ids[-1] = torch.tensor(text).unsqueeze(0)
            return ids


        def use(ids):
            device = ids[0].device
            return torch.tensor([1], device=device)


        def main(text: list, rows: list):
            use(prompt(text, 8))
            use([torch.tensor(r) for r in rows])
    """
    assert findings(src, scope="all") == set()
    moved = src.replace("ids[-1] = torch.tensor(text).unsqueeze(0)", "ids[-1] = torch.tensor(text).cuda()")
    assert findings(moved, scope="all") == {(9, "GL131"), (15, "GL130")}


def test_decoy_a_binding_below_the_call_in_its_loop_may_reach_it():
    """The binding above a call in one loop body decides the name there, unless another binding below the call
    reaches it through the next turn of a loop that holds the call but not the deciding binding. One below it in
    the same body never does: each turn runs the deciding binding first."""
    src = """
        import torch


        def use(ids):
            device = ids[0].device
            return torch.tensor([1], device=device)


        def main(rows: list, x: torch.Tensor):
            for r in rows:
                ids = [torch.tensor(r)]
                for _ in range(2):
                    use(ids)
                    ids = [x.cuda()]
    """
    assert findings(src, scope="all") == {(6, "GL130")}
    assert findings(src.replace("                ids = [x.cuda()]\n", ""), scope="all") == set()
    same_body = src.replace("                for _ in range(2):\n", "").replace("                    ", "                ")
    assert findings(same_body, scope="all") == set()


def test_hit_a_nested_def_returns_its_bodys_kind():
    """A def nested in the unit and called by its name there returns what its body returns (Mini-Omni's
    `list_to_torch_tensor`: `torch.tensor(xs).unsqueeze(0)`), so moving that to a device uploads host data; the
    nested def that builds on the device is the decoy."""
    src = """
        import torch


        def decode(rows: list, device: torch.device):
            def to_tensor(xs):
                t = torch.tensor(xs).unsqueeze(0)
                return t

            def on_device(xs):
                return torch.arange(len(xs), device="cuda")

            a = to_tensor(rows).to(device)
            b = on_device(rows).to(device)
            return a, b
    """
    assert findings(src, scope="all") == {(12, "GL131")}


def test_decoy_a_nested_defs_name_rebound_to_something_else():
    """The name of a nested def rebound in the body (a callable parameter) is no longer the def."""
    src = """
        import torch


        def decode(rows: list, device: torch.device, fn=None):
            def to_tensor(xs):
                return torch.tensor(xs)

            if fn is not None:
                to_tensor = fn
            return to_tensor(rows).to(device)
    """
    assert findings(src, scope="all") == set()



# FireRedASR's `ASRFeatExtractor`: a loop body rebinds the name it appends, and a helper reads the list's device
APPENDED = """
    import numpy as np
    import torch


    class Feats:
        def __call__(self, paths: list):
            feats = []
            for p in paths:
                fbank = np.load(p)
                fbank = torch.from_numpy(fbank).MOVE
                feats.append(fbank)
            return self.pad(feats)

        def pad(self, xs):
            return torch.ones(len(xs), 4).to(xs[0].device)
"""


def test_decoy_an_appended_name_holds_the_binding_above_the_append():
    """`fbank = wav` then `fbank = torch.from_numpy(fbank).float()` then `feats.append(fbank)` in one loop body
    (FireRedASR's `ASRFeatExtractor.__call__`): the list holds host tensors, so the helper's `.to(xs[0].device)`
    stays on the host. The join of both bindings used to keep the array's unknown."""
    src = APPENDED.replace("MOVE", "float()")
    assert {hit for hit in findings(src, scope="all") if hit[1].startswith("GL1")} == set()


def test_hit_an_appended_name_rebound_on_the_device_or_later_in_the_loop():
    """The binding above the append decides the element unless another binding below the append reaches it through
    the next turn of a loop that holds the append but not that binding: one moved to the device is a device
    element, and one such a later binding may replace leaves the join (unknown). A binding below the append in the
    same body does not reach it: each turn runs the deciding binding first."""
    assert (15, "GL131") in findings(APPENDED.replace("MOVE", "cuda()"), scope="all")
    later = APPENDED.replace("MOVE", "float()").replace(
        "                feats.append(fbank)\n",
        "                for _ in range(2):\n                    feats.append(fbank)\n                    fbank = p.cuda()\n")
    assert (17, "GL131") in findings(later, scope="all")
    same_body = APPENDED.replace("MOVE", "float()").replace(
        "    feats.append(fbank)\n", "    feats.append(fbank)\n                fbank = p.cuda()\n")
    assert {hit for hit in findings(same_body, scope="all") if hit[1].startswith("GL1")} == set()


# OpenVoice's `BaseSpeakerTTS.tts`: a loop fills a list with NumPy arrays and a helper `.tolist()`s each element
ARRAYS = """
    import numpy as np
    import torch


    class TTS:
        @staticmethod
        def concat(segs, sr):
            out = []
            for s in segs:
                out += s.reshape(-1).tolist()
            return np.array(out)

        def tts(self, texts: list, x: torch.Tensor):
            audio_list = []
            for t in texts:
                with torch.no_grad():
                    audio = self.model(x)[0, 0].float().MOVE
                audio_list.append(audio)
            audio = self.concat(audio_list, 16000)
            return audio

        def pair(self, x: torch.Tensor):
            return self.concat([x.cpu().numpy(), x.cpu().numpy()], 16000), self.first([x.cpu().numpy()])

        def first(self, xs):
            return xs[0].tolist()
"""


def test_decoy_lists_of_numpy_arrays_passed_to_a_helper():
    """A list filled with `.numpy()` results (the name rebound below the loop by the helper's own result), a list
    display of arrays: each element the helper reads (`for s in segs`, `xs[0]`) is an array, whose `.tolist()` reads
    no device."""
    found = findings(ARRAYS.replace("MOVE", "cpu().numpy()"), scope="all")
    assert {hit for hit in found if hit[1] == "GL102"} == set()


def test_hit_a_list_of_device_tensors_passed_to_the_same_helper():
    """The same helper given tensors that stay on the device: `.tolist()` of an element reads them (and the
    element of a list display of arrays next to it stays an array)."""
    found = findings(ARRAYS.replace("MOVE", "contiguous()"), scope="all")
    assert {hit for hit in found if hit[1] == "GL102"} == {(10, "GL102")}


# FireRedASR's `KaldifeatFbank.__call__(self, wav)`: `sample_rate, wav_np = wav` of the tuple its callers pass
PAIRS = """
    import numpy as np
    import torch


    def fbank(wav):
        sample_rate, samples = wav
        return samples.tolist()


    def second(wav):
        return wav[1].tolist()


    def upload(batch, device):
        ids, n = batch
        return ids.to(device)


    def main(n: int, x: torch.Tensor):
        a = np.zeros(n)
        fbank((16000, a))
        second((16000, a))
        upload((torch.arange(n), n), x.device)
"""


def test_decoy_tuple_items_every_caller_passes_as_host_data():
    """Every call site passes a tuple whose item is a NumPy array: the parameter's item (unpacked, or indexed) is
    that array, and its `.tolist()` reads no device. The tuple's other items are what the sites pass too."""
    assert {hit for hit in findings(PAIRS, scope="all") if hit[1] in ("GL102", "GL131")} == {(16, "GL131")}


def test_hit_tuple_items_a_caller_passes_on_the_device():
    """A site that passes a device tensor in the tuple leaves the item a tensor the `.tolist()` reads; a host tensor
    item every site passes is uploaded by the callee's `.to(device)` (GL131)."""
    src = PAIRS.replace("fbank((16000, a))", "fbank((16000, a))\n        fbank((16000, x))")
    assert {hit for hit in findings(src, scope="all") if hit[1] in ("GL102", "GL131")} == {(7, "GL102"), (16, "GL131")}


def _branching(*names: str) -> str:
    """Methods `name(self, amount, delta)` that branch on `amount` (liveportrait's `update_delta_new_eyebrow`),
    indented as the class bodies of the snippets below."""
    return "".join(f"            def {name}(self, amount, delta):\n                if amount > 0:\n"
                   f"                    delta = delta + 1\n                return delta\n\n" for name in names)


def test_hit_a_parameter_rebound_once_reads_the_value_above_its_own_binding():
    """`ey = torch.tensor(ey).to(device)` then `self.upd(ey, d)` (liveportrait's `execute_image_retargeting`, whose
    `eyebrow: float` is rebound so under an `else:` and handed to `update_delta_new_eyebrow`): the `ey` the binding
    reads is the parameter (a number, or a value nothing types), so the binding is a device tensor and so is what the
    callee compares. At the body's top level, in a branch, and through a helper's return alike."""
    src = """
        import torch


        class P(torch.nn.Module):
{callees}
            def made(self, ez, device):
                ez = torch.tensor(ez).to(device)
                return ez

            def forward(self, ey, ex: float, ez, device, flag):
                d = torch.zeros(3, device="cuda")
                ey = torch.tensor(ey).to(device)
                d = self.upd(ey, d)
                if flag is None:
                    raise ValueError
                else:
                    ex = torch.tensor(ex).to(device)
                    d = self.upd_f(ex, d)
                if self.made(ez, device) > 0:
                    d = d + 1
                return d
    """.format(callees=_branching("upd", "upd_f"))
    found = {hit for hit in findings(src, scope="all") if hit[1] == "GL110"}
    assert found == {(6, "GL110"), (11, "GL110"), (29, "GL110")}


def test_decoy_a_parameter_rebound_to_host_data_stays_host():
    """The same callees where what reaches the call is host data: a rebinding to host data after the device one
    (`ey = ey.cpu()`, `.item()`), a host tensor (`torch.tensor(x)` with no move), and a callee one of whose callers
    passes a number and another a value nothing types."""
    src = """
        import torch


        class P(torch.nn.Module):
{callees}
            def forward(self, ey, eh, em, other, device):
                d = torch.zeros(3, device="cuda")
                ey = torch.tensor(ey).to(device)
                ey = ey.cpu()
                d = self.upd(ey, d)
                eh = torch.tensor(eh)
                d = self.upd_h(eh, d)
                em = float(em)
                d = self.upd_m(em, d)
                return self.upd_m(other, d)

            def step(self, ey, device):
                ey = torch.tensor(ey).to(device)
                ey = ey.item()
                return self.upd(ey, None)
    """.format(callees=_branching("upd", "upd_h", "upd_m"))
    assert {hit for hit in findings(src, scope="all") if hit[1] in ("GL110", "GL126")} == set()

ANNOTATED_FIELD = """
    import numpy as np
    import torch


    class Wrap:
        def __init__(self, cfg):
            self.device = "cuda:" + str(cfg.device_id)

        def calc(self, c):
            a = torch.from_numpy(np.zeros((1, 1))).float().to(self.device)
            b = torch.Tensor([c[0]]).to(self.device).reshape(1, 1)
            return torch.cat([a, b], dim=1)


    class HostWrap(Wrap):
        def calc(self, c):
            return torch.tensor([[c[0], 0.0]])


    def make_wrap(cfg) -> Wrap:
        return Wrap(cfg)


    class Pipe:
        def __init__(self, cfg):
            self.w: {annotation} = {value}

        @torch.no_grad()
        def execute(self, thr):
            r = self.w.calc([0.0])
            if r[0][0] >= thr:
                return r
            return None
"""


def test_hit_a_field_annotated_and_constructed_holds_the_constructed_class():
    """`self.live_portrait_wrapper: LivePortraitWrapper = LivePortraitWrapper(cfg)` (liveportrait's pipeline): the
    construction names the class as it does unannotated, so `calc_combined_lip_ratio`'s `torch.cat` of two
    `.to(self.device)` tensors is read through the field, and its element compared on the host is a sync."""
    src = ANNOTATED_FIELD.format(annotation="Wrap", value="Wrap(cfg)")
    assert (31, "GL110") in findings(src, scope="all")


def test_decoy_a_field_annotated_over_a_factory_or_a_host_subclass():
    """The annotation still types a field a factory fills (`self.w: Wrap = make_wrap(cfg)`: a product the checker
    does not read device tensors from), and a construction of a subclass whose method returns a host tensor holds
    that subclass, not the annotated base."""
    for annotation, value in (("Wrap", "make_wrap(cfg)"), ("Wrap", "HostWrap()")):
        src = ANNOTATED_FIELD.format(annotation=annotation, value=value)
        assert (31, "GL110") not in findings(src, scope="all"), value


ROPE = """
    import torch


    def scaled(freqs: torch.Tensor, factor):
        out = []
        for freq in freqs:
            if freq < factor:
                out.append(freq)
        return out


    def precompute(n: int, scaling=None):
        freqs = 1.0 / (10000 ** (torch.arange(0, n, 2).float() / n))
        if scaling is not None:
            freqs = scaled(freqs, scaling)
        return freqs


    def setup(n: int):
        {block}
            return precompute(n, 2.0)
"""


def test_hit_a_factory_under_a_moved_default_device_is_no_host_evidence():
    """gpt-fast's `precompute_freqs_cis`, run under `with torch.device(device):`: its `torch.arange` builds on the
    device, so the `freqs` it hands to `apply_rope_scaling` is no host tensor, and the callee's comparison of a row
    is read as before (the annotation's device tensor here: the `for` over it)."""
    found = findings(ROPE.format(block='with torch.device("cuda"):'), scope="all")
    assert (7, "GL110") in found


def test_decoy_a_factory_with_the_default_device_left_alone_is_host():
    """Without the device block the same `torch.arange` builds on the host: the rows compared are host values."""
    found = findings(ROPE.format(block="if n:"), scope="all")
    assert (7, "GL110") not in found


def test_hit_a_factory_after_a_program_wide_default_device_move_is_no_host_evidence():
    """llama-models' generation sets `torch.set_default_tensor_type(torch.cuda.BFloat16Tensor)` before it builds the
    model, whose `precompute_freqs_cis` hands `torch.arange(..)` rows to `apply_scaling`: with the default device moved
    on some path of the program, that factory's host kind is no evidence, as under a device block (the decoy above:
    no move, host rows, silent)."""
    src = ROPE.format(block="if n:") + """

    def build(device: str):
        if device == "cuda":
            torch.set_default_tensor_type(torch.cuda.BFloat16Tensor)
        return setup(8)
"""
    assert (7, "GL110") in findings(src, scope="all")


def test_compiled_function_takes_its_callers_values():
    """A `@torch.compile`d function is a `captured` root where it runs, but its project callers still call it with
    their values (dynamo traces the body with the arguments it is given): dion's `dion2_pre_orthogonalize(..,
    fraction: Tensor)` is called with a `float`, so `math.ceil(fraction * n)` reads no tensor. Decoys that stay GL105:
    the same compiled function called with a device tensor, and one no project code calls (its annotation is the
    evidence)."""
    src = """
        import math
        import torch
        from torch import Tensor


        @torch.compile(fullgraph=True)
        def pre_c(m, fraction: Tensor):
            return int(math.ceil(fraction * m.size(0)))


        @torch.compile(fullgraph=True)
        def pre_d(m, fraction: Tensor):
            return int(math.ceil(fraction * m.size(0)))


        @torch.compile(fullgraph=True)
        def pre_n(m, fraction: Tensor):
            return int(math.ceil(fraction * m.size(0)))


        def outer(m, fraction: float):
            pre_c(m, fraction=fraction)
            pre_d(m, fraction=torch.full((), fraction, device=m.device))
    """
    assert {(line, code) for line, code in findings(src) if code == "GL105"} == {(13, "GL105"), (18, "GL105")}


def test_false_arm_of_a_tensor_and_device_test_holds_no_device_tensor():
    """`outside = isinstance(wd, Tensor) and wd.device.type != "cpu"` fails where `wd` is no tensor or a host one:
    in `0.0 if outside else float(wd)` the read is of no device tensor whichever caller (dion's
    `adamw_update_foreach`, called with CPU 0-d tensors and with device ones). Decoy that stays GL105: the same read
    with no guard."""
    src = """
        import torch
        from torch import Tensor


        def upd(lr: Tensor, wd: Tensor):
            outside = isinstance(wd, Tensor) and wd.device.type != "cpu"
            b = 0.0 if outside else float(wd)
            if not (isinstance(lr, Tensor) and lr.is_cuda):
                b += float(lr)
            return b + float(wd)


        def step(x: torch.Tensor):
            upd(torch.tensor(0.1, device=x.device), torch.tensor(0.0, device=x.device))
            upd(torch.tensor(0.1), torch.tensor(0.0))
    """
    assert {(line, code) for line, code in findings(src, scope="all") if code == "GL105"} == {(10, "GL105")}


STREAMER = """
    import torch
    from typing import Optional, Union


    class Streamer:
        def __init__(self, n):
            self.n = n

        def put(self, chunks: torch.Tensor, sample_indices: torch.Tensor):
            for i, sample_idx in enumerate(sample_indices):
                idx = sample_idx.item()
                chunks[i].add_(idx)

        def end(self, sample_indices: Optional[torch.Tensor] = None):
            if sample_indices is None:
                return
            for sample_idx in sample_indices:
                idx = sample_idx.item()
                print(idx)


    class AsyncStreamer(Streamer):
        pass


    class Model(torch.nn.Module):
        def generate(self, x, streamer: {ann}):
            for step in range(10):
                x = self.net(x)
                ind = {ind}
                streamer.put(x, ind)
                streamer.end(ind)
            streamer.end()
            return x
"""
HOST_IND = "torch.LongTensor([0])"
DEVICE_IND = "torch.tensor([0], device=x.device)"
STREAMER_ITEMS = {(11, "GL101"), (18, "GL101")}


def test_decoy_a_call_on_a_union_receiver_passes_host_data_to_each_members_method():
    """VibeVoice's `audio_streamer: Optional[Union[AudioStreamer, AsyncAudioStreamer]]`: `audio_streamer.put(chunk,
    diffusion_indices)` hands the CPU `torch.LongTensor([0])` to the method of each member the value may be, so the
    `.item()` of its elements reads host memory (larder labels, host). The call's arguments count for every member's
    method, as they do for the one member the parameter is bound to; `Optional[Union[...]]` is the same union.
    The argument-less `streamer.end()` leaves the None default: no evidence about what `sample_indices` holds."""
    for ann in ("Optional[Union[Streamer, AsyncStreamer]] = None", "Union[Streamer, AsyncStreamer]",
                "Streamer | AsyncStreamer", "Streamer"):
        found = {f for f in findings(STREAMER.format(ann=ann, ind=HOST_IND), scope="all") if f[1].startswith("GL1")}
        assert found & STREAMER_ITEMS == set(), ann


def test_hit_a_call_on_a_union_receiver_passes_device_data_to_each_members_method():
    """The device twin: the same calls with a CUDA index tensor make both `.item()`s syncs, whatever the receiver's
    annotation, and the argument-less call does not hide them."""
    for ann in ("Optional[Union[Streamer, AsyncStreamer]] = None", "Union[Streamer, AsyncStreamer]",
                "Streamer | AsyncStreamer", "Streamer"):
        found = {f for f in findings(STREAMER.format(ann=ann, ind=DEVICE_IND), scope="all") if f[1].startswith("GL1")}
        assert STREAMER_ITEMS <= found, ann


SPLIT_PIECES = """
    import torch
    import torch.nn as nn


    def pick(example: torch.Tensor, n: int):
        pts = example.cpu().squeeze(0).numpy()
        return torch.from_numpy(pts[:n])


    def pick2(example: torch.Tensor, n: int):
        return example.cpu()[:n]


    def pick3(example: torch.Tensor, n: int):
        return example.cpu()[:n]


    def pick4(example: torch.Tensor, n: int):
        return example.cpu()[:n]


    class Enc(nn.Module):
        def __init__(self):
            super().__init__()
            self.l = nn.Linear(3, 3)

        def forward(self, points):
            whole = points.HERE()
            for piece in whole.chunk(2):
                pick(piece, 4)
            first = torch.split(whole, 1)[0]
            pick2(first, 2)
            a, b = whole.unbind(0)
            pick3(a, 2)
            c = [pick4(x, 2) for x in torch.unbind(whole)]
            return self.l(points)
"""


def test_hit_pieces_of_a_device_tensor_reach_the_callee_on_the_device():
    """`.chunk()` / `torch.split()` / `.unbind()` / `torch.unbind()` pieces of a device tensor, iterated, indexed,
    unpacked or named by a comprehension, are device tensors: the callee's `.cpu()` is a read (at the call where
    the unit sees the piece, in the callee where the call-site facts carry it)."""
    assert findings(SPLIT_PIECES.replace("HERE", "cuda")) == {
        (6, "GL103"), (11, "GL103"), (15, "GL103"), (19, "GL103"), (30, "GL103"), (32, "GL103"), (34, "GL103"),
        (35, "GL103")}  # (30: `.chunk()` of the moved `points.cuda()` is a device tensor too, `MOVED_TENSOR_METHODS`)


def test_decoy_pieces_of_a_host_tensor_reach_the_callee_on_the_host():
    """`[sample_fps(x) for x in points.cpu().split(1, dim=0)]`: a host tensor's pieces are views of it, so
    each is a host tensor in the callee (`example.cpu()` copies nothing), in every form the pieces are taken."""
    assert findings(SPLIT_PIECES.replace("HERE", "cpu")) == {(28, "GL103")}


def test_decoy_a_method_an_if_arm_binds_to_a_local_takes_the_calls_host_arguments():
    """NeMo's CTC decoding: `greedy = self._labels` in one arm of an `if`, `self._logprobs` in the other, then
    `greedy(preds_cpu[i], lengths[i])` with rows of tensors it copied to the host. The call runs either method, so
    each takes the call's arguments: both receive CPU rows, whatever their `torch.Tensor` annotation says."""
    src = """
        import torch


        class Decoder:
            def decode(self, out: torch.Tensor, lengths: torch.Tensor):
                out_cpu = out.cpu()
                lengths = lengths.cpu()
                if out_cpu.ndim == 2:
                    greedy = self._labels
                else:
                    greedy = self._logprobs
                return [greedy(out_cpu[i], lengths[i]) for i in range(out_cpu.shape[0])]

            def _labels(self, x: torch.Tensor, n: torch.Tensor):
                p = x.cpu()
                return p[:n].tolist()

            def _logprobs(self, x: torch.Tensor, n: torch.Tensor):
                p = x.cpu()
                return p[:n].max(dim=-1)[1].tolist()
    """
    assert findings(src, scope="all") == {(6, "GL103"), (7, "GL103")}


def test_hit_a_method_an_if_arm_binds_to_a_local_takes_the_calls_device_arguments():
    """The same dispatch with device arguments: each method the arms bind reads a 0-d device tensor as a slice
    bound (its parameters unannotated, so only the call says what they hold)."""
    src = """
        import torch


        class Decoder:
            def decode(self, out: torch.Tensor, fast: bool):
                lengths = out.sum(dim=-1).long()
                if fast:
                    head = self._fast
                else:
                    head = self._slow
                return [head(out[i], lengths[i]) for i in range(out.shape[0])]

            def _fast(self, x, n):
                return x[:n]

            def _slow(self, x, n):
                return x[:n] * 2
    """
    assert findings(src, scope="all") == {(14, "GL126"), (17, "GL126")}
