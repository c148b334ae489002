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


@pytest.fixture(scope="session")
def native_fp32(tiny_hf_model):
    """Build a fresh fp32 native model from `tiny_hf_model` (batch 2 unless told, max_len 512), as the HF comparisons
    load it: each call is a new model, so a test's steps leave no state in another's."""
    from dsv4_native.loader import from_hf_model

    def build(max_batch: int = 2):
        return from_hf_model(tiny_hf_model, max_batch=max_batch, max_len=512, dtype=torch.float32)
    return build


@pytest.fixture(scope="module")
def reference_path():
    """Run the kernels' plain-PyTorch references (the op dispatch reads TRITON_INTERPRET at call time): for
    whole-model tests, where the interpreter would take minutes. Use with `pytest.mark.usefixtures`."""
    mp = pytest.MonkeyPatch()
    mp.setenv("TRITON_INTERPRET", "0")
    yield
    mp.undo()


def _round_to_tf32(a):
    """fp32 numpy array rounded to TF32 (10 mantissa bits, nearest): what an MMA reads of an fp32 operand."""
    import numpy as np

    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    return ((bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)


@pytest.fixture
def gpu_dot_precision():
    """The Triton interpreter's `tl.dot` with the GPU's operand precision: on CUDA a dot of fp32 operands at the
    default `input_precision` ("tf32") rounds them to 10 mantissa bits, where the interpreter multiplies them
    in full fp32, so an fp32 kernel test on CPU cannot see a dot that forgot `input_precision="ieee"`. With
    this fixture it can (the fp32 MoE grouped kernels did: the prefill went 5e-2 off token decode on the H200)."""
    if torch.cuda.is_available():
        yield  # compiled kernels: the real precision
        return
    from triton._C.libtriton import ir
    from triton.runtime import interpreter

    plain = interpreter.InterpreterBuilder.create_dot

    def create_dot(self, a, b, d, input_precision, max_num_imprecise_acc):
        if input_precision == ir.INPUT_PRECISION.TF32 and a.data.dtype.name == "float32":
            a = interpreter.TensorHandle(_round_to_tf32(a.data), a.dtype)
            b = interpreter.TensorHandle(_round_to_tf32(b.data), b.dtype)
        return plain(self, a, b, d, input_precision, max_num_imprecise_acc)

    mp = pytest.MonkeyPatch()
    mp.setattr(interpreter.InterpreterBuilder, "create_dot", create_dot)
    yield
    mp.undo()
