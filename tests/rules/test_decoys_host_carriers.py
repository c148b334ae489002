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
