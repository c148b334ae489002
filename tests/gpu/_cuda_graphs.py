"""Capture helper shared by the GPU kernel suites: warm up on a side stream, then capture one call."""

from __future__ import annotations

from typing import Callable

import torch


def capture_graph(fn: Callable[[], object]) -> "torch.cuda.CUDAGraph":
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        fn()
        fn()
    torch.cuda.current_stream().wait_stream(stream)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g
