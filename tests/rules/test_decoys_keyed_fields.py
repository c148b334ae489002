"""A dict field of a class keyed by a constant (`batch.extra[TAGS_KEY] = tags` in one pipeline stage, `batch.extra.get(
TAGS_KEY)` in another) holds what the project stores under that key there (`kinds.Keyed`, `CallFacts.keyed`): a host
tensor stored by one stage is a host tensor where the next stage hands it to a helper, whose annotated `torch.Tensor`
parameter then reads no device (FastVideo's MiniMax-H3 `text_token_tags`). Decoys: a key stored with a device tensor
anywhere, another key, a field updated with `**kwargs` or rebound to a dict from elsewhere, a receiver of unknown
class: each leaves the helper's parameter a device tensor, as before."""

from __future__ import annotations

from snippets import findings

HEAD = """
import torch

TAGS_KEY = "tags"
OTHER_KEY = "other"


class Batch:
    def __init__(self):
        self.extra = {}


def check_tags(tags: torch.Tensor) -> None:
    if not bool((tags == 1).all()):
        raise ValueError("bad")


class Layout(torch.nn.Module):
    def forward(self, batch: Batch) -> Batch:
        tags = batch.extra.get(TAGS_KEY)
        check_tags(tags)
        return batch
"""

HOST_STORE = """

class Encode(torch.nn.Module):
    def forward(self, batch: Batch, ids: list[int]) -> Batch:
        batch.extra[TAGS_KEY] = torch.tensor(ids, dtype=torch.long)
        return batch
"""

DEVICE_STORE = """

class EncodeOnDevice(torch.nn.Module):
    def forward(self, batch: Batch, ids: list[int]) -> Batch:
        batch.extra[{key}] = torch.ones(4, device="cuda")
        return batch
"""

CHECK = (13, "GL105")  # `bool(...)` in `check_tags`


def test_a_host_tensor_stored_under_a_key_is_read_on_the_host():
    assert CHECK not in findings(HEAD + HOST_STORE)


def test_a_device_tensor_stored_under_the_key_is_read_on_the_device():
    assert CHECK in findings(HEAD + DEVICE_STORE.format(key="TAGS_KEY"))


def test_decoy_a_key_stored_with_host_and_device_tensors_stays_a_device_tensor():
    assert CHECK in findings(HEAD + HOST_STORE + DEVICE_STORE.format(key="TAGS_KEY"))


def test_decoy_a_literal_key_is_the_constant_s_value():
    assert CHECK in findings(HEAD + HOST_STORE + DEVICE_STORE.format(key='"tags"'))


def test_other_keys_do_not_mix():
    assert CHECK not in findings(HEAD + HOST_STORE + DEVICE_STORE.format(key="OTHER_KEY"))


def test_decoy_a_field_updated_by_kwargs_stays_unknown():
    src = HEAD + HOST_STORE + """

def fill(batch: Batch, **kwargs) -> None:
    batch.extra.update(**kwargs)
"""
    assert CHECK in findings(src)


def test_decoy_a_field_rebound_to_another_dict_stays_unknown():
    src = HEAD + HOST_STORE + """

def reset(batch: Batch, given: dict) -> None:
    batch.extra = given
"""
    assert CHECK in findings(src)


def test_decoy_a_store_on_a_receiver_of_unknown_class_may_be_any_batch():
    src = HEAD + HOST_STORE + """

def fill(batch, t) -> None:
    batch.extra[TAGS_KEY] = t
"""
    assert CHECK in findings(src)


TUPLE = """
import torch


def encode(ids: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.ones(4, device="cuda"), {tags}


def encode_prompt(ids: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    return encode(ids)


def check(tags: torch.Tensor) -> None:
    if not bool(tags.all()):
        raise ValueError("bad")


class M(torch.nn.Module):
    def forward(self, ids: list[int]):
        emb, tags = encode_prompt(ids)
        check(tags)
        return emb
"""


def test_a_tuple_item_of_a_call_the_annotation_types_keeps_the_callee_s_host_item():
    assert (13, "GL105") not in findings(TUPLE.format(tags="torch.tensor(ids)"))


def test_decoy_a_device_item_of_the_call_stays_a_device_tensor():
    assert (13, "GL105") in findings(TUPLE.format(tags='torch.tensor(ids, device="cuda")'))


def test_a_dtype_cast_keeps_a_host_tensor_on_the_host():
    src = """
import numpy as np
import torch


def grid(n: int) -> torch.Tensor:
    return torch.from_numpy(np.linspace(0, 1, n)).to(torch.float64)


def first(g: torch.Tensor) -> float:
    return float(g[0])


class M(torch.nn.Module):
    def forward(self, x, n: int):
        return x * first(grid(n))
"""
    assert (10, "GL105") not in findings(src)


def test_decoy_a_device_move_of_a_host_tensor_is_a_device_tensor():
    src = """
import numpy as np
import torch


def grid(n: int, device: torch.device) -> torch.Tensor:
    return torch.from_numpy(np.linspace(0, 1, n)).to(device)


def first(g: torch.Tensor) -> float:
    return float(g[0])


class M(torch.nn.Module):
    def forward(self, x, n: int):
        return x * first(grid(n, x.device))
"""
    assert (10, "GL105") in findings(src)


UNIQUE = """
import torch


def plan(n: int, t: float) -> tuple[torch.Tensor, torch.Tensor]:
    rows = torch.full((n,), t{device})
    return torch.unique(rows, sorted=True, return_inverse=True)


class M(torch.nn.Module):
    def forward(self, x, n: int, t: float):
        unique, inverse = plan(n, t)
        return x[inverse.to(x.device)] + unique.to(x.device)
"""


def test_unique_with_its_inverse_is_a_tuple_where_the_input_lives():
    assert {(12, "GL131")} <= findings(UNIQUE.format(device=""))


def test_decoy_unique_of_a_device_tensor_copies_nothing():
    assert not {code for _line, code in findings(UNIQUE.format(device=", device='cuda'"))} & {"GL131"}


STAGES = """
import torch
from dataclasses import dataclass

from pkg.batch import Batch

LAYOUT_KEY = "layout"


@dataclass
class Layout:
    ids: torch.Tensor


def build(n: int) -> Layout:
    return Layout(ids=torch.arange(n{device}))


class Prepare(torch.nn.Module):
    def forward(self, batch: Batch, n: int):
        batch.extra[LAYOUT_KEY] = build(n)
        return batch


class Denoise(torch.nn.Module):
    def forward(self, batch: Batch, x):
        layout = batch.extra.get(LAYOUT_KEY)
        return x[layout.ids.to(x.device)]
"""


def test_an_object_stored_under_a_key_is_that_object_where_it_is_read():
    assert (27, "GL131") in findings(STAGES.format(device=""))


def test_decoy_an_object_built_on_the_device_copies_nothing():
    assert (27, "GL131") not in findings(STAGES.format(device=", device='cuda'"))


ROWS = """
import torch


class Stage(torch.nn.Module):
    def encode(self, image, device: torch.device) -> torch.Tensor:
        x = torch.ones(3, device=device)
        return self.vae(x){back}

    def forward(self, images, device):
        rows: list[torch.Tensor] = []
        for image in images:
            rows.append(self.encode(image, device))
        return torch.cat(rows).to(device)
"""


def test_an_annotated_empty_list_holds_what_is_appended():
    assert (13, "GL131") in findings(ROWS.format(back=".cpu()"))


def test_decoy_an_annotated_list_of_device_tensors_copies_nothing():
    assert (13, "GL131") not in findings(ROWS.format(back=""))


LIST_RETURN = """
import torch


class Stage(torch.nn.Module):
    def rows(self, posteriors) -> list[torch.Tensor]:
        rows: list[torch.Tensor] = []
        for posterior in posteriors:
            latents = posterior.mode().float(){back}
            rows.append(latents.reshape(-1, 4))
        return rows

    def forward(self, posteriors, device):
        return torch.cat(self.rows(posteriors)).to(device)
"""


def test_a_list_of_host_tensors_returned_as_a_list_of_tensors_stays_on_the_host():
    assert (13, "GL131") in findings(LIST_RETURN.format(back=".cpu()"))


def test_decoy_a_returned_list_of_device_tensors_copies_nothing():
    assert (13, "GL131") not in findings(LIST_RETURN.format(back=""))
