"""A call on a parameter annotated `A | B` runs A's method or B's, whichever class the value is. With decoys."""

from __future__ import annotations

from test_dispatch import hot

ENCODERS = """
    import torch
    from torch import nn

    class DepthEncoder:
        def __call__(self, img):
            return img.cuda()

    class CannyEncoder:
        def __call__(self, img):
            return torch.tensor(img).to("cuda")

        def encode(self, img):
            return img.cpu()

    class Unrelated:
        def __call__(self, x):
            return x.cpu()

    class Model(nn.Module):
        def forward(self, x):
            return x

    def prepare(model: Model, encoder: DepthEncoder | CannyEncoder, img):
        cond = encoder(img)
        cond = encoder.encode(cond)
        cond = rebound(encoder, cond)
        return model(cond)

    def rebound(encoder: DepthEncoder | CannyEncoder, img):
        encoder = DepthEncoder()
        return encoder.encode(img)

    def unused(encoder: DepthEncoder | CannyEncoder | torch.Tensor | None, img):
        return encoder(img)

    @torch.inference_mode()
    def main(model, enc, img):
        return prepare(model, enc, img)
"""


def test_a_call_on_a_union_annotated_parameter_runs_each_members_method():
    """flux's `prepare_control(..., encoder: DepthImageEncoder | CannyImageEncoder, ...)` calling `encoder(img)`."""
    found = hot({"m": ENCODERS})
    assert found["DepthEncoder.__call__"][0] == found["CannyEncoder.__call__"][0] == "step"
    assert found["CannyEncoder.encode"][1][-1] == "CannyEncoder.encode"
    assert "Unrelated.__call__" not in found  # a class no annotation names


def test_a_rebound_or_uncalled_union_parameter_adds_no_member():
    source = ENCODERS.replace("cond = encoder(img)\n        cond = encoder.encode(cond)", "cond = img")
    found = hot({"m": source})
    # `rebound` binds a DepthEncoder itself (which has no `encode`); `unused` is cold (nothing calls it): Canny's
    # methods stay cold
    assert "rebound" in found
    assert "CannyEncoder.__call__" not in found and "CannyEncoder.encode" not in found
