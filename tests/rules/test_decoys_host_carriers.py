"""Host data that reaches a read through a carrier the analysis used to leave untyped (session 23, issue 19: the
look-alikes of class B1): a `@property` getter returning a host field of `self`. Each decoy (silent) has its real
sync next to it: the same read of a device value stays reported, and so does a value that is unknown or mixed."""

from __future__ import annotations

from snippets import findings


def _codes(src: str) -> set[tuple[int, str]]:
    return {hit for hit in findings(src, scope="all") if hit[1].startswith("GL1")}


PROPERTIES = """
    import torch


    class Bucket:
        def __init__(self, n, device):
            self._lens = torch.zeros((n,), dtype=torch.int32)
            self._tables = torch.full((n, 4), -1, dtype=torch.int32)
            self._logits = torch.zeros(n, device=device)
            self._mixed = torch.zeros(n)
            self._count = 0

        def grow(self, device):
            self._mixed = torch.zeros(8, device=device)

        @property
        def seq_lengths(self):
            return self._lens

        @property
        def first_tables(self):
            return self._tables[:1]

        @property
        def count(self):
            return self._count

        @property
        def logits(self):
            return self._logits

        @property
        def mixed(self):
            return self._mixed

        @property
        def computed(self):
            return self.make()

        def make(self):
            return torch.zeros(3)

        def lengths(self):
            return self._lens


    class Engine:
        def __init__(self, n, device):
            self.bb = Bucket(n, device)

        def step(self, batch: Bucket):
            a = batch.seq_lengths[0].item()
            b = self.bb.seq_lengths[0].item()
            for i in batch.first_tables[0].tolist():
                pass
            if batch.count > 0:
                pass
            c = batch.logits[0].item()
            d = batch.mixed[0].item()
            e = batch.computed[0].item()
            return a, b, c, d, e


    class Counted(Bucket):
        def first(self):
            n = self.seq_lengths[0].item()
            return n, self.logits[0].item()
"""


def test_a_property_reads_the_host_field_it_returns():
    """colossal's `BatchBucket.seq_lengths`/`block_tables` (`@property def seq_lengths(self): return
    self._sequence_lengths`, filled by `torch.zeros(n, dtype=torch.int32)`): reading the property runs the getter,
    which hands out the host field (or a view of it, or a Python number): no `.item()`/`.tolist()`/condition there
    waits, through an annotated receiver, a field holding the instance or `self` in a subclass (decoys). The real
    syncs next to them: a getter returning a device field, a field some method refills on the device (mixed:
    unknown, as before), and a getter whose value comes from a call (not followed: unknown, as before)."""
    assert _codes(PROPERTIES) == {(57, "GL101"), (58, "GL101"), (59, "GL101"), (66, "GL101")}


def test_a_property_overridden_by_a_subclass_is_read_through_every_getter():
    """A value typed as the base may hold the subclass: when its override returns a device field, the read stays
    reported (the join of the getters); typed as a sibling subclass that keeps the base's getter, it is silent."""
    src = """
        import torch


        class Base:
            def __init__(self, n):
                self._lens = torch.zeros(n, dtype=torch.int32)

            @property
            def lens(self):
                return self._lens


        class OnDevice(Base):
            def __init__(self, n, device):
                super().__init__(n)
                self._dev = torch.zeros(n, device=device)

            @property
            def lens(self):
                return self._dev


        class Plain(Base):
            pass


        def step(b: Base, p: Plain):  # graphlint: hot
            return b.lens[0].item(), p.lens[0].item()
    """
    assert _codes(src) == {(28, "GL101")}


NESTED_RESULT = """
    import torch
    from dataclasses import dataclass
    from typing import Optional


    class Synth(torch.nn.Module):
        @dataclass
        class Output:
            audio: torch.Tensor
            pred_dur: Optional[torch.Tensor] = None

        def forward(self, ids: torch.Tensor, ref: torch.Tensor, return_output: bool = False):
            audio, pred_dur = self.net(ids, ref)
            audio = audio.squeeze().cpu()
            pred_dur = pred_dur.cpu() if pred_dur is not None else None
            return self.Output(audio=audio, pred_dur=pred_dur) if return_output else audio


    class Draft(torch.nn.Module):
        @dataclass
        class Output:
            tokens: torch.Tensor

        def forward(self, x: torch.Tensor):
            return self.Output(tokens=x.argmax(-1))


    class Mixed(torch.nn.Module):
        @dataclass
        class Output:
            lengths: torch.Tensor

        def forward(self, x: torch.Tensor, cached: bool):
            if cached:
                return self.Output(lengths=x.sum(-1).cpu())
            return self.Output(lengths=x.sum(-1))


    def join_timestamps(tokens: list, pred_dur: torch.Tensor):
        return pred_dur[0].item()


    def first_token(tokens: torch.Tensor):
        return tokens[0].item()


    def first_length(lengths: torch.Tensor):
        return lengths[0].item()


    class Pipeline(torch.nn.Module):
        def forward(self, ids: torch.Tensor, ref: torch.Tensor, x: torch.Tensor):
            output = self.synth(ids, ref, return_output=True)
            if output is not None and output.pred_dur is not None:
                join_timestamps([], output.pred_dur)
            first_token(self.draft(x).tokens)
            first_length(self.mixed(x, True).lengths)
            return output
"""


def test_a_nested_dataclass_built_through_self_holds_what_its_constructions_pass():
    """Kokoro's `KModel.forward` returns `self.Output(audio=audio, pred_dur=pred_dur)` with `pred_dur = pred_dur.cpu()`
    (a dataclass nested in the model class, built through `self.`), and the pipeline hands `output.pred_dur` to
    `join_timestamps`, whose `pred_dur: torch.LongTensor` annotation names no device: its `.item()`s read host memory
    (silo labels, host). Decoys next to their hits: a nested result every construction fills on the device
    (`Draft.Output(tokens=x.argmax(-1))`) and one filled on the host on one path only (`Mixed.Output`) stay reported."""
    assert _codes(NESTED_RESULT) == {(14, "GL103"), (15, "GL103"), (35, "GL103"), (44, "GL101"), (48, "GL101")}


TUPLE_GENERATE = """
    import torch


    class DraftCache:
        def __init__(self, model):
            self._model = model

        @torch.no_grad()
        def generate(self, prefix: torch.Tensor, gamma: int) -> torch.Tensor:
            output = self._model.lade_generate(inputs=prefix, max_new_tokens=gamma)
            out_len = output.shape[-1]
            tups = []
            return output, out_len, tups


    @torch.no_grad()
    def speculate(prefix: torch.Tensor, model: torch.nn.Module, eos: int):
        cache = DraftCache(model)
        prefix_len = prefix.shape[1]
        x, out_len, guess = cache.generate(prefix, 4)
        key_tok = int(x[:, -1])
        n = prefix_len + out_len - 1
        assert n >= prefix_len - 1
        if out_len > prefix_len:
            prefix = x[:, :n + 1]
        return prefix, key_tok
"""


def test_a_project_generate_returning_a_tuple_keeps_its_host_items():
    """Ouroboros' `KVCacheModelLade.generate(...) -> torch.Tensor` returns `output, out_len, tups` with `out_len =
    output.shape[-1]`. A `generate` of a device prompt was read as transformers' decode loop (device token ids), and
    the annotation as one tensor, so unpacking made `out_len` a tensor row: `assert n >= prefix_len - 1`, `if out_len >
    prefix_len`, `x[:, :n + 1]` were flagged (barn labels, host). The body's tuple now beats the single-tensor
    annotation, and its host items beat the guess from the name; the item the body leaves untyped keeps it, so
    `int(x[:, -1])` of the draft ids stays reported (a barn sync label)."""
    assert _codes(TUPLE_GENERATE) == {(21, "GL105")}


LIST_RETURNED_AS_TENSOR = """
    import torch
    from engine import step


    def generate_batch(model, x: torch.Tensor, steps: int) -> torch.Tensor:
        out = [[] for _ in range(2)]
        for _ in range(steps):
            tok = model(x).argmax(-1)
            out[0].append(tok[0].tolist()[0])
            out[1].append(tok[1].tolist()[0])
        return out


    def generate_text(model, x: torch.Tensor, steps: int) -> torch.Tensor:
        out = []
        for _ in range(steps):
            out.append(model(x).argmax(-1).tolist()[0])
        return out


    def generate_ids(model, x: torch.Tensor) -> torch.Tensor:
        return model(x).argmax(-1)


    def generate_stepped(model, x: torch.Tensor) -> torch.Tensor:
        return step(model, x)


    def generate_maybe(model, x: torch.Tensor, greedy: bool) -> torch.Tensor:
        if greedy:
            return []
        return model(x).argmax(-1)


    @torch.no_grad()
    def run(model, x: torch.Tensor, eos: int):
        tokens = generate_batch(model, x, 8)
        text = tokens[-1]
        if eos in text:
            text = text[: text.index(eos)]
        words = generate_text(model, x, 8)
        if eos in words:
            words = words[: words.index(eos)]
        if eos in generate_ids(model, x):
            print("ids")
        if eos in generate_stepped(model, x):
            print("stepped")
        if eos in generate_maybe(model, x, False):
            print("maybe")
        return text, words
"""


def test_a_tensor_annotated_function_returning_a_list_returns_a_list():
    """Mini-Omni's `generate_TA_BATCH(...) -> torch.Tensor` returns `list_output = [[] for i in range(8)]` filled with
    `.tolist()[0]` ints (and `generate_AA` a `[]` it appends to): the annotation was trusted, so `eos in
    tokenlist[-1]` (GL110) and the slice bound `tokenlist[: tokenlist.index(eos)]` (GL126) were flagged (bunker labels,
    host). The body's list now beats the annotation; the `.tolist()` reads inside stay reported. Decoys: a function
    annotated so that returns a tensor, or an unknown call's result, or a list on one path and a tensor on another,
    still reads as a tensor (`eos in ...`, GL110)."""
    assert _codes(LIST_RETURNED_AS_TENSOR) == {
        (9, "GL102"), (10, "GL102"), (17, "GL102"), (44, "GL110"), (46, "GL110"), (48, "GL110")}


READ_OUT_RETURNED_AS_TENSOR = """
    import torch


    def validate(model, x) -> torch.Tensor:
        out = model(x).sum()
        return out.item()


    def loss_of(model, x) -> torch.Tensor:
        return model(x).sum()


    def train(model, opt, xs):
        model.train()
        for x in xs:
            loss = model(x.cuda()).sum()
            loss.backward()
            opt.step()
            val = validate(model, x.cuda())
            print(f"val {val:.4f}")
            last = loss_of(model, x.cuda())
            print(f"last {last:.4f}")
"""


def test_a_tensor_annotated_function_returning_item_returns_a_number():
    """lit-llama's `validate(..) -> torch.Tensor` returns `out.item()`: `f"{val_loss:.4f}"` of its result formats a
    Python float (moat P-2, label host), not a tensor. The decoy: the same annotation over `model(x).sum()` formats
    a device tensor (GL107)."""
    got = findings(READ_OUT_RETURNED_AS_TENSOR)
    assert (20, "GL107") not in got and (22, "GL107") in got
