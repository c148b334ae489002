"""Run the dsv4 Triton kernels on CPU through the Triton interpreter when there is no GPU.

Triton decides interpreter-or-compiler when a kernel is *decorated* (at module import), so the variable
must be set before any `dsv4_native` kernel module is imported; a conftest is imported before the test
modules beside it.
"""

from __future__ import annotations

import os
import shutil

import pytest
import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")


@pytest.fixture
def device() -> str:
    """Where the kernel tests run: the GPU when there is one (compiled Triton), else the CPU (interpreter)."""
    return "cuda" if torch.cuda.is_available() else "cpu"


@pytest.fixture
def compile_backend() -> str:
    """torch.compile backend for the fullgraph tests: inductor where it can build (a C++ compiler on CPU,
    or a GPU), else aot_eager, which still proves the custom ops trace without a graph break."""
    if torch.cuda.is_available() or shutil.which(os.environ.get("CXX", "g++")):
        return "inductor"
    return "aot_eager"


@pytest.fixture(scope="module", autouse=True)
def one_intra_op_thread():
    """One torch intra-op thread for these tests. Their tensors are tiny, so a second thread buys nothing on
    an idle 2-core CI box, while on a shared, oversubscribed machine every parallel op waits for a thread
    that is not scheduled: on the shared dev box test_model_hf's HF stream fixture took 17-38 s with one
    thread and 240-620 s with two."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="session")
def tiny_hf_model():
    """transformers' DeepseekV4ForCausalLM at the TINY sizes with 16 indexer heads (test_model_hf.py says why),
    built once per session: building it costs several seconds, and the tests only read it."""
    pytest.importorskip("transformers", minversion="5.8")
    from dsv4_native._model_configs import TINY, build_hf_model

    before = torch.get_num_threads()
    torch.set_num_threads(1)  # set up before the module-scoped one_intra_op_thread: see there
    try:
        return build_hf_model(dict(TINY, index_n_heads=16), seed=0)
    finally:
        torch.set_num_threads(before)


@pytest.fixture(scope="module")
def reference_path():
    """Run the kernels' plain-PyTorch references (the op dispatch reads TRITON_INTERPRET at call time): for
    whole-model tests, where the interpreter would take minutes. Use with `pytest.mark.usefixtures`."""
    mp = pytest.MonkeyPatch()
    mp.setenv("TRITON_INTERPRET", "0")
    yield
    mp.undo()
