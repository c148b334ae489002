"""RPC handlers and generic containers: a gRPC servicer's handler that works on the step's state between steps
(TGI's `FilterBatch`) runs per step, and a container method annotated with a bound TypeVar returns an instance of
the bound's classes. Each edge has a decoy that must stay cold."""

from __future__ import annotations

from test_dispatch import hot

BATCHES = """
    from typing import Dict, Optional, TypeVar
    import torch

    class Batch:
        def filter(self, ids):
            raise NotImplementedError

    class FlashBatch(Batch):
        def filter(self, ids):
            return self.input_ids[ids]

    class Other:
        def filter(self, ids):
            return ids

    B = TypeVar("B", bound=Batch)
    T = TypeVar("T")

    class Cache:
        def __init__(self):
            self.cache: Dict[int, B] = {}

        def pop(self, batch_id) -> Optional[B]:
            return self.cache.pop(batch_id, None)

        def pop_any(self, batch_id) -> Optional[T]:
            return self.cache.pop(batch_id, None)

        def set(self, entry: B):
            self.cache[entry.batch_id] = entry

        def clear(self):
            self.cache.clear()
            torch.cuda.empty_cache()

    class Model:
        def generate_token(self, batch):
            self.graph.replay()
            return batch
"""

SERVER = """
    from gen import generate_pb2_grpc
    from batches import Cache, Model

    class Service(generate_pb2_grpc.TextGenerationServiceServicer):
        def __init__(self, model: Model, cache: Cache):
            self.model = model
            self.cache = cache
            self.config = {}

        def Decode(self, request, context):
            batch = self.cache.pop(request.id)
            out = self.model.generate_token(batch)
            self.cache.set(out)

        def FilterBatch(self, request, context):
            batch = self.cache.pop(request.batch_id)
            self.cache.set(batch.filter(request.ids))

        def Unknown(self, request, context):
            batch = self.cache.pop_any(request.batch_id)
            return batch.filter(request.ids)

        def ClearCache(self, request, context):
            self.cache.clear()

        def Warmup(self, request, context):
            batch = self.cache.pop(request.batch_id)
            return batch.filter(request.ids)

        def Config(self, request, context):
            return self.config.get(request.key).filter(request.ids)
"""


def test_a_handler_on_the_step_s_cache_runs_per_step_and_reaches_the_batch_class():
    found = hot({"batches": BATCHES, "server": SERVER})
    assert found["Service.Decode"][0] == "step"
    assert found["Service.FilterBatch"] == ("step", ("Service.FilterBatch (step: RPC handler on the step's self.cache)",))
    # the object popped out of the cache is a Batch (`-> Optional[B]`, B bound to Batch): its override runs
    assert found["FlashBatch.filter"][1][-1] == "FlashBatch.filter"


def test_set_up_handlers_and_unbound_containers_stay_cold():
    found = hot({"batches": BATCHES, "server": SERVER})
    assert "Service.ClearCache" not in found  # uses the cache, takes nothing out of it
    assert "Service.Warmup" not in found  # warm-up is set-up whatever it touches
    assert "Service.Config" not in found  # takes out of an attribute no step handler uses
    assert "Cache.clear" not in found
    assert "Other.filter" not in found  # a method named alike on an unrelated class
    # `-> Optional[T]` with T unbound names no class: `Unknown` is a step-state handler, its `filter` unresolved
    assert "Service.Unknown" in found and "Batch.filter" not in found


def test_a_class_that_is_no_servicer_gets_no_handler_roots():
    plain = SERVER.replace("(generate_pb2_grpc.TextGenerationServiceServicer)", "")
    found = hot({"batches": BATCHES, "server": plain})
    assert "Service.FilterBatch" not in found
    assert "FlashBatch.filter" not in found


def test_a_typevar_bound_to_a_class_types_what_a_container_method_returns():
    src = BATCHES + """
    class Runner:
        def __init__(self, cache: Cache):
            self.cache = cache

        def step(self, i):  # graphlint: hot
            batch = self.cache.pop(i)
            return batch.filter([0])

        def step_any(self, i):  # graphlint: hot
            batch = self.cache.pop_any(i)
            return batch.filter([0])
    """
    found = hot({"batches": src})
    assert found["FlashBatch.filter"][1][0] == "Runner.step"  # not step_any: T names no class
    assert "Other.filter" not in found
