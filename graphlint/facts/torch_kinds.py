"""Hand-written classifications of torch names (what a call or method returns), shared by the
phase-1 index (stdlib `ast`, return-kind guesses for unannotated functions) and the phase-2 inference."""

from __future__ import annotations

from graphlint.facts.library_facts import GENERATED
from graphlint.facts.library_waits import COPY, D2H, H2D, SCALER, TRACKER, WRITER, rows as waits_of  # noqa: F401
from graphlint.facts.torch_api import FUNCTIONAL_NAMES, TORCH_FUNCTION_NAMES
from graphlint.facts.kinds import Base

# A package attribute that is the package itself: `from torch import torch` binds the torch module (torch's
# `__init__` imports its own name), so `torch.from_numpy` there is `torch.from_numpy`, not `torch.torch.from_numpy`.
SELF_EXPORTS = {"torch.torch": "torch"}

# nn.Module's public API: an object of unknown class calling one may well be a module; a tensor shares a dozen of
# them (`cpu`, `to`, `float`), so a chain of those shows no tensor (`EmptyCache` drains)
MODULE_METHOD_NAMES = frozenset({
    "add_module", "apply", "bfloat16", "buffers", "children", "compile", "cpu", "cuda", "double", "eval",
    "extra_repr", "float", "get_buffer", "get_extra_state", "get_parameter", "get_submodule", "half", "ipu",
    "load_state_dict", "modules", "mtia", "named_buffers", "named_children", "named_modules", "named_parameters",
    "parameters", "register_backward_hook", "register_buffer", "register_forward_hook", "register_forward_pre_hook",
    "register_full_backward_hook", "register_full_backward_pre_hook", "register_load_state_dict_post_hook",
    "register_module", "register_parameter", "register_state_dict_pre_hook", "requires_grad_", "set_extra_state",
    "share_memory", "state_dict", "to", "to_empty", "train", "type", "xpu", "zero_grad",
})

HOST_TORCH = frozenset({
    "torch.is_tensor", "torch.numel", "torch.is_floating_point", "torch.is_complex",
    "torch.get_default_dtype", "torch.device", "torch.Size", "torch.finfo", "torch.iinfo",
    "torch.is_grad_enabled", "torch.is_inference_mode_enabled", "torch.equal", "torch.allclose",
    "torch.is_nonzero", "torch.are_deterministic_algorithms_enabled", "torch.result_type",
    "torch.promote_types", "torch.can_cast", "torch.get_num_threads", "torch.is_storage",
    "torch.is_autocast_enabled", "torch.get_autocast_gpu_dtype", "torch.broadcast_shapes",
    "torch.typename", "torch.initial_seed", "torch.seed",
    # settings, predicates and symbolic ints: host values that `torch.*` of a tensor function's spelling would read as
    # tensors (a join of paths reads a tensor and a number as an optional tensor, so a misread host value counts)
    "torch.get_default_device", "torch.get_device", "torch.get_autocast_dtype", "torch.get_autocast_cpu_dtype",
    "torch.get_autocast_ipu_dtype", "torch.get_autocast_xla_dtype", "torch.get_deterministic_debug_mode",
    "torch.get_float32_matmul_precision", "torch.get_num_interop_threads", "torch.compiled_with_cxx11_abi",
    "torch.is_anomaly_enabled", "torch.is_anomaly_check_nan_enabled", "torch.is_autocast_cache_enabled",
    "torch.is_autocast_cpu_enabled", "torch.is_autocast_ipu_enabled", "torch.is_autocast_xla_enabled",
    "torch.is_conj", "torch.is_neg", "torch.is_inference", "torch.is_same_size", "torch.is_signed",
    "torch.is_distributed", "torch.is_vulkan_available", "torch.is_warn_always_enabled",
    "torch.is_deterministic_algorithms_warn_only_enabled", "torch.sym_int", "torch.sym_float", "torch.sym_max",
    "torch.sym_min", "torch.sym_not", "torch.sym_sqrt", "torch.sym_sum", "torch.sym_ite",
    # context managers: `with torch.autocast(..) and torch.set_grad_enabled(g):` holds no tensor, though their names
    # are in torch's namespace of tensor functions (`torch.cuda.amp.autocast` sits in a non-tensor submodule)
    "torch.autocast", "torch.amp.autocast", "torch.no_grad", "torch.enable_grad", "torch.set_grad_enabled",
    "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.enable_grad",
    "torch.autograd.set_grad_enabled", "torch.autograd.inference_mode",
    # the process group's sizes: Python ints (`x / dist.get_world_size()` lives where `x` does)
    "torch.distributed.get_world_size", "torch.distributed.get_rank",
})
# Libraries that compute on the host and answer with arrays: NumPy, pandas, whose frames and columns (`pd.read_csv(p)`,
# `df["Prompt"]`, `.tolist()` of one) are host data as an array's are (a frame is read as one array), and OpenCV, whose
# Python functions take and return NumPy arrays (`cv2.perspectiveTransform(pts, m)`, `cv2.resize(img, size)`; a tuple
# of them, `ok, buf = cv2.imencode(..)`, unpacks to arrays) and never a tensor; the audio readers soundfile
# (`data, sr = sf.read(path)`: "a two-dimensional NumPy array" and the rate), librosa (`y, sr = librosa.load(p)`; its
# features are NumPy arrays) and SciPy's WAV reader (`sr, data = wavfile.read(p)`)
HOST_ARRAY_LIBRARIES = ("numpy.", "pandas.", "cv2.", "soundfile.", "librosa.", "scipy.io.wavfile.",
                        "scipy.optimize.linear_sum_assignment")
# Libraries whose every value lives in host memory and never is a tensor: Pillow's images (`Image.open(path)`,
# `Image.fromarray(a)`, `.convert("RGB")` of one) and what is read from them. A parameter every caller passes one is
# host data (`CallFacts.params`), so a `isinstance(image, torch.Tensor)` arm of it never runs for those callers.
HOST_OBJECT_LIBRARIES = ("PIL.", "pycocotools.")
# Library base classes whose framework calls an override with host objects, by parameter name: ASE passes a
# `Calculator`'s methods (`calculate(atoms, ..)`, `get_potential_energy(atoms)`, `check_state(atoms)`) an `ase.Atoms`,
# whose fields (`positions`, `numbers`, `cell`, `pbc`) and getters (`get_positions()`) are NumPy arrays
HOST_CALLBACK_PARAMS = {f"ase.calculators.calculator.{base}": frozenset({"atoms"})
                        for base in ("Calculator", "BaseCalculator")}
# Fields such a library base class keeps on the instance, holding the same host objects: ASE's
# `Calculator.calculate` stores a copy of the `Atoms` it was handed as `self.atoms` (`super().calculate(atoms, ..)`)
HOST_CALLBACK_FIELDS = {f"ase.calculators.calculator.{base}": frozenset({"atoms"})
                        for base in ("Calculator", "BaseCalculator")}
# functional transforms: they return a callable (`torch.compile(self._decode, mode=...)`, `torch.vmap(f)`), not a
# tensor, though their names are in torch's namespace of tensor functions
TRANSFORM_TORCH = frozenset({"torch.compile", "torch.vmap"})
# torch's random number generator: `torch.Generator()` (no device) and `torch.Generator("cpu")` live on the host,
# `manual_seed(s)` and `set_state(st)` answer the generator itself, and its `.device` is where it lives: a factory
# given `device=g.device` of a host generator builds on the host
GENERATORS = frozenset({"torch.Generator", "torch._C.Generator"})
GENERATOR_SELF_METHODS = frozenset({"manual_seed", "set_state"})
# `torch.manual_seed(s)` seeds every device and answers the default generator, which is the CPU's
DEFAULT_GENERATOR_SEEDERS = frozenset({"torch.manual_seed", "torch.random.manual_seed"})
# RNG states are host ByteTensors, for CUDA / XPU generators too
RNG_STATE_TORCH = frozenset({
    "torch.get_rng_state", "torch.random.get_rng_state", "torch.cuda.get_rng_state", "torch.cuda.random.get_rng_state",
    "torch.xpu.get_rng_state", "torch.mps.get_rng_state",
})
SEQ_TORCH = frozenset({
    "torch.topk", "torch.sort", "torch.chunk", "torch.split", "torch.unbind", "torch.tensor_split",
    "torch.kthvalue", "torch.mode", "torch.aminmax", "torch.meshgrid", "torch.broadcast_tensors",
    "torch.var_mean", "torch.std_mean", "torch.frexp", "torch.histogram", "torch.unique_consecutive",
    "torch.linalg.eigh", "torch.linalg.eig", "torch.linalg.qr", "torch.linalg.svd", "torch.linalg.slogdet",
    "torch.linalg.lu_factor", "torch.linalg.cholesky_ex", "torch.linalg.inv_ex", "torch.linalg.solve_ex",
    "torch.nn.functional.scaled_dot_product_attention_with_lse",
})
DIM_SEQ_TORCH = frozenset({"torch.max", "torch.min", "torch.median", "torch.nanmedian", "torch.cummax", "torch.cummin"})
# torch's two-tensor results (`torch.return_types`: values and indices, `aminmax`'s min and max, `frexp`'s parts),
# as torch functions and tensor methods of these names return them: both computed where the input lives. The
# `max`, `min`, ... (the inference's DIM_SEQ_METHODS) return one only when given a dim (`t.max(dim=-1)`; `t.max()`
# is 0-d, `t.max(other)` elementwise).
PAIR_RESULTS = frozenset({"topk", "sort", "kthvalue", "mode", "aminmax", "frexp"})
BOOL_TORCH = frozenset({
    "torch.isnan", "torch.isinf", "torch.isfinite", "torch.isposinf", "torch.isneginf", "torch.isreal",
    "torch.isin", "torch.logical_and", "torch.logical_or", "torch.logical_not", "torch.logical_xor",
    "torch.eq", "torch.ne", "torch.lt", "torch.le", "torch.gt", "torch.ge", "torch.greater",
    "torch.less", "torch.greater_equal", "torch.less_equal", "torch.not_equal", "torch.signbit",
    "torch.isclose", "torch.any", "torch.all", "torch.ones_like_bool",
})
# The elementwise comparisons of BOOL_TORCH: `torch.less(a, b)` is `a < b`, and lives where its operands do.
COMPARE_TORCH = frozenset({
    "torch.eq", "torch.ne", "torch.lt", "torch.le", "torch.gt", "torch.ge", "torch.greater", "torch.less",
    "torch.greater_equal", "torch.less_equal", "torch.not_equal",
})
# Factories: without device= they build a CPU tensor.
# The spectral windows (`torch.hann_window(n_fft)`): factories of one dimension, on the default device unless `device=`.
# `torch.signal.windows.hann(M)` and its kin are the same factories under their newer names.
WINDOW_TORCH = frozenset({"torch.hann_window", "torch.hamming_window", "torch.blackman_window", "torch.bartlett_window",
                          "torch.kaiser_window",
                          *(f"torch.signal.windows.{name}" for name in (
                              "bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
                              "general_hamming", "hamming", "hann", "kaiser", "nuttall"))})
# The other torch functions that take sizes or counts (no tensor) and a `device=` keyword, so build where it says or on
# the default device (measured under `with torch.device("meta"):`, torch 2.13): the sample frequencies of an FFT
# (`torch.fft.fftfreq(n)`, unlike `torch.fft.fft(x)`, which computes where `x` lives), the (2, N) indices of a
# triangle (`torch.tril_indices(r, c)`), the deprecated `torch.range`.
SIZE_FACTORY_TORCH = {"torch.fft.fftfreq": 1, "torch.fft.rfftfreq": 1, "torch.tril_indices": 2, "torch.triu_indices": 2,
                      "torch.range": 1}
# Factories of a fixed rank whatever their arguments (the index's `factory_rank` and the facts' `_factory_rank`)
FIXED_RANK_TORCH = {"torch.arange": 1, "torch.linspace": 1, "torch.logspace": 1, "torch.randperm": 1, "torch.eye": 2,
                    "torch.frombuffer": 1,  # a flat view of the buffer
                    **dict.fromkeys(WINDOW_TORCH, 1), **SIZE_FACTORY_TORCH}
# torch functions and tensor methods of these names whose result has a fixed number of dimensions whatever their
# input's: the distinct values (`torch.unique(x)`, flattened unless given `dim=`), the selected elements
# (`masked_select`), the counts per value (`bincount`), the flattened elements (`ravel`): one; `nonzero(x)` (not
# `as_tuple=True`) one row of indices per nonzero element: two. Iterating a 1-d one yields 0-d tensors.
FIXED_RANK_RESULTS = {"unique": 1, "masked_select": 1, "bincount": 1, "ravel": 1, "nonzero": 2}
# Tensor methods whose result has the receiver's number of dimensions whatever their arguments (dtype and device
# casts, copies, elementwise maths, scans, views that reorder dimensions): a field rebound through one keeps its rank
# (`self.ids = self.ids.index_select(0, order)`). Not `view_as`/`expand_as`/`reshape_as` (the other's rank), `type`
# (a string without an argument), `sort`/`max` (tuples) or reductions.
RANK_KEEPING_METHODS = frozenset({
    "float", "half", "double", "long", "int", "bfloat16", "short", "char", "byte", "bool", "contiguous", "clone",
    "detach", "masked_fill", "masked_fill_", "fill_", "zero_", "copy_", "requires_grad_", "abs", "neg", "exp", "log",
    "sqrt", "rsqrt", "sigmoid", "tanh", "relu", "clamp", "clamp_min", "clamp_max", "round", "floor", "ceil",
    "to", "cuda", "cpu", "pin_memory", "type_as", "cumsum", "cumprod", "softmax", "log_softmax", "nan_to_num", "flip",
    "roll", "index_select", "narrow", "permute", "transpose", "index_fill", "index_fill_", "scatter", "scatter_",
    "index_copy", "index_copy_",
})
# Constructors that wrap host memory without a copy (a NumPy array, a Python buffer): their tensor lives on the host
# whatever the default device is, and they take no `device=`
HOST_WRAPPERS = frozenset({"torch.from_numpy", "torch.frombuffer"})
FACTORY_TORCH = frozenset({
    "torch.tensor", "torch.as_tensor", "torch.zeros", "torch.ones", "torch.empty", "torch.full",
    "torch.arange", "torch.linspace", "torch.logspace", "torch.eye", "torch.rand", "torch.randn",
    "torch.randint", "torch.randperm", "torch.empty_strided", "torch.empty_permuted", "torch.asarray", *WINDOW_TORCH,
    *SIZE_FACTORY_TORCH,
})
# Methods only tensors have (not ndarrays, builtins or modules): calling one on a value of unknown
# type makes it a (weak) tensor. `.sum(dim=...)`-style keywords do the same.
TORCH_ONLY_METHODS = frozenset({
    "softmax", "log_softmax", "unsqueeze", "masked_fill", "masked_fill_", "index_select", "scatter",
    "scatter_add", "scatter_add_", "scatter_", "sigmoid", "relu", "tanh", "float", "half", "bfloat16", "long",
    "contiguous", "detach", "clamp", "clamp_min", "clamp_max", "expand", "expand_as", "permute", "flip",
    "tril", "triu", "topk", "matmul", "bmm", "isnan", "isinf", "isfinite", "logical_and", "logical_or",
    "logical_not", "nan_to_num", "amax", "amin", "logsumexp", "rsqrt", "view_as", "reshape_as", "type_as",
    "new_zeros", "new_ones", "new_full", "new_empty", "repeat_interleave", "narrow", "unbind", "eq", "ne",
    "gt", "ge", "lt", "le", "masked_scatter", "index_add", "index_add_", "index_copy_", "unflatten",
    # comparisons and dtype casts no NumPy array or Python value has as a method (`m.bool()`, `ids.less(n)`)
    "bool", "less", "greater", "less_equal", "greater_equal", "not_equal", "logical_xor",
})
# Integer and bool dtypes: `nn.Module.to(dtype)` accepts only floating point and complex dtypes, and NumPy
# arrays have no `.to`, so `v.to(torch.long)` on a value of unknown type makes it a tensor.
NON_FLOAT_DTYPES = frozenset({
    f"torch.{name}" for name in ("long", "int", "int64", "int32", "int16", "int8", "uint8", "uint16", "uint32",
                                 "uint64", "short", "bool")
})
# Every torch dtype: `t.to(torch.float64)` casts in place of residence, as `.to(torch.long)` does
DTYPES = NON_FLOAT_DTYPES | frozenset({
    f"torch.{name}" for name in ("float", "float16", "float32", "float64", "half", "double", "bfloat16", "complex64",
                                 "complex128", "cfloat", "cdouble", "float8_e4m3fn", "float8_e5m2")
})
# The bool dtype as code spells it: torch reads Python's `bool` as `torch.bool` (`torch.zeros(n, dtype=bool)`).
BOOL_DTYPES = frozenset({"torch.bool", "bool"})
# Methods with a data-dependent output size that only a tensor has: no NumPy array (`np.unique(a)`, `np.argwhere(a)` are
# functions), Python list or number has them, so calling one is the evidence `torch.unique(x)` is that `x` is a tensor
# (`Context.claims_tensor`). Not `nonzero`, `tolist`, `item`, `any`: NumPy arrays have those too.
TENSOR_ONLY_SIZED = frozenset({"unique", "unique_consecutive", "masked_select", "argwhere"})
# Methods in TORCH_ONLY_METHODS whose result is a sequence of tensors, not one.
SEQ_METHODS = frozenset({"topk", "unbind"})
# Library functions documented to return a whole model (an nn.Module) whatever the project defines: torch.hub's
# `load(repo, entry)` (what the hub entry point builds), a TorchScript archive's `torch.jit.load` (a ScriptModule),
# timm's `create_model(name)`. The index reads a local bound to one as a model (`index.summary.is_model_loader`).
MODEL_FACTORIES = frozenset({"torch.hub.load", "torch.jit.load", "timm.create_model", "timm.models.create_model"})
# torch functions whose result stands for the module they are given (their first argument): TorchScript's compiled
# (`torch.jit.script(m)`) and frozen (`torch.jit.freeze(m)`) modules, dynamo's `OptimizedModule` (`torch.compile(m)`).
# A call of the result runs the module's forward, and its attributes are the module's: what the index reads a value of
# `m`'s class (`index.assigned.module_held`). Not `torch.jit.trace(m, x)`: a traced module replays the ops its forward
# ran at trace time, whose host reads (`.item()`, `if t.any():`) ran then and are constants in the replay.
# torch's data-parallel wrappers: a wrapper built of a module holds that module's parameters (`.parameters()` are its)
PARALLEL_WRAPPERS = frozenset({"torch.nn.DataParallel", "torch.nn.parallel.DataParallel",
                               "torch.nn.parallel.DistributedDataParallel",
                               "torch.nn.parallel.distributed.DistributedDataParallel"})
# The data-parallel wrappers stand for their module too: their `forward` runs the module's on the batch (DDP's on the
# caller's device, DataParallel's on each replica), so `model = DDP(model)` in one arm still runs `model`'s forward
# when called; a method the module defines is reached through `.module` (no wrapper attribute is read as it).
# FSDP's forward runs its module's on the shards it gathers; `SyncBatchNorm.convert_sync_batchnorm(m)` returns `m`
# with its batch norms replaced (a new object only where `m` itself is one).
MODULE_WRAPPERS = frozenset({"torch.jit.script", "torch.jit.freeze", "torch.compile",
                             "torch.distributed.fsdp.FullyShardedDataParallel",
                             "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel",
                             "torch.nn.SyncBatchNorm.convert_sync_batchnorm",
                             "torch.nn.modules.batchnorm.SyncBatchNorm.convert_sync_batchnorm"}) | PARALLEL_WRAPPERS
# (their last names: a call named otherwise is no wrapper unless its name resolves to one, `DDP(model)` of
# `from torch.nn.parallel import DistributedDataParallel as DDP`)
MODULE_WRAPPER_NAMES = frozenset(name.rpartition(".")[2] for name in MODULE_WRAPPERS)
# Those that build the model in host memory unless a keyword places it (`device=`), as `from_pretrained` does: a
# TorchScript archive loads where it was saved (or where `map_location=` says).
HOST_MODEL_FACTORIES = MODEL_FACTORIES - {"torch.jit.load"}


def pipeline_class(name: str) -> bool:
    """A pipeline class (diffusers' `StableDiffusionPipeline`, pyannote's `Pipeline`: the libraries name them so)
    whose `from_pretrained(..).to(device)` moves the models it holds: it is no nn.Module, and its call returns
    images or annotations, on the host by default, not what a model on the device computes."""
    return name.rpartition(".")[2].endswith("Pipeline")


# Checkpoint reads: what they return (a tensor, a dict of them, any pickled object) and where its tensors live
# (`map_location=` / `device=`) is the call's, not the name's: the inference reads the arguments.
CHECKPOINT_LOADS = frozenset({"torch.load", "safetensors.torch.load_file", "safetensors.torch.load"})
# Library calls that build a tensor on the host, whatever the caller's device (none takes a `device=`): xgrammar's
# token bitmask ("an int32 tensor on CPU"; the grammar matcher fills it there), torchvision's image decoders and
# PIL/NumPy converters. Their `.to(device)` is a pageable host-to-device copy. The rows generated from library
# sources (`library_facts.json`: kornia's `image_to_tensor`, diffusers' `mask_pil_to_torch`, ...) join these. The hand
# rows are those the generator leaves out as unsure (a list or a tensor by the argument's type, a factory on the
# default device, a C++ reader) or whose library the file leaves out (torch's own: the generator reproduces
# `to_tensor` and `read_image`).
HOST_LIBRARY_TENSORS = GENERATED.host_tensors | frozenset({
    "xgrammar.allocate_token_bitmask", "torchvision.transforms.functional.to_tensor",
    # BasicSR's `img2tensor(img)`: `torch.from_numpy(img.transpose(2, 0, 1))` of a NumPy image, `.float()` (a list of
    # them for a list: the generator reads the join as unsure)
    "basicsr.utils.img2tensor", "basicsr.utils.img_util.img2tensor",
    # (`torch.as_tensor(np.array(pic))`: on the default device by the letter, on the host in practice)
    "torchvision.transforms.functional.pil_to_tensor",
    # torchvision's file readers and CPU decoders (`decode_jpeg` takes a `device=`: not one of these), and the v2
    # converters of a PIL image
    *(f"torchvision.io.{ns}{name}" for ns in ("", "image.")
      for name in ("read_image", "decode_image", "decode_png", "read_file")),
    "torchvision.transforms.v2.functional.pil_to_tensor", "torchvision.transforms.v2.functional.to_image",
    # CLIP's tokenizers (OpenAI's `clip.tokenize`, open_clip's `tokenize`): a `torch.zeros(n, context_length,
    # dtype=torch.long)` they fill with the token ids, on the host
    "clip.tokenize", "clip.clip.tokenize", "open_clip.tokenize", "open_clip.tokenizer.tokenize",
    # Triton's Python backend hands a model its request inputs in CPU memory unless the model's configuration sets
    # FORCE_CPU_ONLY_INPUT_TENSORS to "no"
    "triton_python_backend_utils.get_input_tensor_by_name",
})
# Methods that hand a library tensor's data over as a NumPy array in host memory: Triton's Python-backend
# `pb_utils.Tensor.as_numpy()` (a request input, or a BLS response's output; a tensor in GPU memory raises there
# instead). No torch tensor has such a method, so the result is an array whatever the receiver reads as.
HOST_ARRAY_METHODS = frozenset({"as_numpy"})
# Methods that export a table library's data to NumPy or pandas, in host memory: pandas' and polars' `to_numpy()`,
# Hugging Face datasets' / pyarrow's / polars' `to_pandas()`. Claimed of a NumPy array or pandas frame, or of what a
# call into one of `HOST_TABLE_LIBRARIES` returned (`load_dataset(..).to_pandas()`), not by the name alone: a
# project class may define its own (LMDeploy's `BatchedOutputs.to_numpy()` answers a record that keeps bf16 tensors).
HOST_EXPORT_METHODS = frozenset({"to_numpy", "to_pandas"})
HOST_TABLE_LIBRARIES = ("datasets.", "pyarrow.", "polars.", "pandas.")
# ONNX Runtime's inference session (a plain object): `run(output_names, feeds)` answers "a list of results, every
# result is a NumPy array" (or a list / dict of them for sequence and map outputs), in host memory whatever the
# execution provider; a session bound to device buffers answers through `run_with_iobinding`, not `run`.
ONNX_SESSIONS = frozenset({"onnxruntime.InferenceSession",
                           "onnxruntime.capi.onnxruntime_inference_collection.InferenceSession"})
ONNX_RUN = "run"
# safetensors' lazy reader: `safe_open(path, framework="pt", device="cpu")` (`device` defaults to "cpu") is a handle
# whose `get_tensor(name)` builds the tensor on that device; its `__enter__` returns the handle itself
# (`with safe_open(..) as f:`).
SAFE_OPENS = frozenset({"safetensors.safe_open", "safetensors.torch.safe_open",
                        "safetensors._safetensors_rust.safe_open"})
SAFE_OPEN_READS = frozenset({"get_tensor"})
# `str` methods that cut a string into strings: `Tensor.split` takes sizes (an int or a list of ints), and no tensor
# has the others, so one given a string separator (or, for the splits, none: a tensor's needs its sizes) is the string
# method, whatever the receiver reads as (a model input of unknown type, a value named like a tensor). value: whether
# it returns a fixed 3-tuple (`partition`) rather than a list.
STRING_SPLITS = {"split": False, "rsplit": False, "partition": True, "rpartition": True}
# Library functions whose tensor result lives where their first argument lives, of the same type: einops'
# `rearrange` / `repeat` / `reduce` / `einsum` return the input's backend type (a torch tensor for a torch tensor, an
# array for an array) computed by that backend's own ops. (value: keeps a bool mask's dtype)
DEVICE_KEEPING_LIBRARY = {
    **dict.fromkeys(GENERATED.device_keeping, False),  # (generated from library sources: `library_facts.json`)
    "einops.rearrange": True, "einops.repeat": True, "einops.reduce": False, "einops.einsum": False,
}
# DLPack imports share the producer's memory (no copy): the tensor lives where the exported object did
# (`from_dlpack(t.to_dlpack())`, `from_dlpack(to_dlpack(t))`, `from_dlpack(t)`)
DLPACK_IMPORTS = frozenset({"torch.utils.dlpack.from_dlpack", "torch.from_dlpack"})
DLPACK_EXPORTS = frozenset({"torch.utils.dlpack.to_dlpack"})
# Library namespaces whose functions compute with torch ops on their first argument, so the tensor they return lives
# where that input does: torchaudio's functional API (`resample`, `preemphasis`, `spectrogram`, ...; its
# transforms are modules wrapping these). A function of it that takes no tensor first (`melscale_fbanks(n, ...)`)
# says nothing here.
INPUT_DEVICE_LIBRARIES = ("torchaudio.functional.",)
# sentence-transformers' similarity scores (`util.dot_score(a, b)`, `util.cos_sim`): each argument that is no tensor (a
# list of embeddings, a NumPy array from `SentenceTransformer.encode`) becomes one by `torch.tensor(a)`, on the host;
# the scores are computed where the first argument then lives
SIMILARITY_SCORES = frozenset({
    f"sentence_transformers.util.{name}" for name in (
        "cos_sim", "pytorch_cos_sim", "dot_score", "pairwise_cos_sim", "pairwise_dot_score", "euclidean_sim",
        "manhattan_sim", "pairwise_euclidean_sim", "pairwise_manhattan_sim", "pairwise_angle_sim")
})


# Library namespaces of modules that compute with torch ops on their input: a call of one returns a tensor where
# the input lives (`Resample(sr, 16000)(wav)`, `MelSpectrogram(...)(wav)`, torchvision's `Normalize(m, s)(img)`).
# Their buffers must be on that device too (a device mismatch raises), but a transform without buffers
# (`AmplitudeToDB`) runs anywhere, so the input decides. Not the containers, which run whatever they hold.
INPUT_DEVICE_MODULES = ("torchaudio.transforms.", "torchvision.transforms.")
TRANSFORM_CONTAINERS = frozenset({"Compose", "Lambda", "RandomApply", "RandomChoice", "RandomOrder"})
# torchvision transforms that convert a PIL image or a NumPy array (they take no tensor) into a tensor in host
# memory, whatever the caller's device: `transforms.ToTensor()(image).to(device)` is a pageable upload.
HOST_TENSOR_MODULES = frozenset({
    f"torchvision.transforms.{ns}{name}" for ns in ("", "transforms.", "v2.") for name in ("ToTensor", "PILToTensor")
})


# torch's vectorising maps: `vmap(f)(x)` runs `f` on `x` (batched), so what `f` does to its input it does there
VMAPS = frozenset({"torch.vmap", "torch.func.vmap", "functorch.vmap"})
# Library calls that copy data between the host and the device inside the library on every call with a device tensor
# first argument (`library_waits.WAITS`, COPY rows: torchvision's `to_pil_image` / `ToPILImage` (D2H), `normalize` /
# `Normalize` (H2D), torchaudio's Kaldi features (H2D), BasicSR's `tensor2img` (D2H)). value: the direction.
LIBRARY_COPIES = {name: row.copy for row in waits_of(COPY) if row.copy is not None for name in row.owners}
# Library functions that read a parameter on the host on every call (`.cpu()`, `.item()`, `.tolist()`, `int()`),
# generated from their source as `FunctionInfo.host_reads` reads a project helper's (`library_facts.json`:
# `lpips.tensor2im(t)`, k-diffusion's `sample_lms(model, x, sigmas)`): function -> (its positional parameters, the
# reads as `HostRead`s, line 0). A call passing a device tensor for one waits there (`Context.helper_read`).
LIBRARY_READS = {name: (params, tuple((param, kind, 0, read) for param, kind, read in reads))
                 for name, (params, reads) in GENERATED.reads.items()}
# Library copies that take tensors only (`tensor2img` raises a TypeError for anything else): an argument nothing types
# is claimed on the device where a root reaches the code, as the receiver of a `.cpu()` is (`Context.claims_device`);
# `to_pil_image` converts NumPy arrays too, so an untyped argument says nothing there
TENSOR_ONLY_COPIES = frozenset(name for row in waits_of(COPY) if row.tensor_only for name in row.owners)


# TensorBoard writers (torch's own and tensorboardX's): `add_scalar(tag, v)`, `add_scalars(tag, {name: v})` and
# `add_histogram(tag, v)` convert each value on the host (`library_waits.WAITS`, with the source read). value: the
# method's value parameter (position, keyword).
SUMMARY_WRITERS = frozenset(name for row in waits_of(WRITER) for name in row.owners)
WRITER_READS = {row.method: row.value for row in waits_of(WRITER) if row.value is not None}
# Experiment trackers' log calls that convert every value of the logged dict in the calling thread, a tensor on the
# host (`library_waits.WAITS`: wandb's `log`). value: the logged dict's parameter (position, keyword).
TRACKER_LOGS = {name: row.value for row in waits_of(TRACKER) if row.value is not None for name in row.owners}

# torchvision's `Compose([...])` runs its transforms in order (`composed_transform`)
TRANSFORM_COMPOSE = frozenset({f"torchvision.transforms.{ns}Compose" for ns in ("", "transforms.", "v2.")})
# diffusers' image processors (plain objects, no modules): `preprocess(image)` returns a tensor where a tensor input
# lives and a host tensor it builds from PIL images, NumPy arrays or lists of them; `postprocess(image, output_type=)`
# returns PIL images (the default, "pil") or a NumPy array ("np"), host data, and the tensor where it is for "pt" /
# "latent".
IMAGE_PROCESSORS = frozenset({
    f"diffusers.{ns}{name}" for ns in ("", "image_processor.")
    for name in ("VaeImageProcessor", "VaeImageProcessorLDM3D", "PixArtImageProcessor", "IPAdapterMaskProcessor")
})
IMAGE_PROCESSOR_METHODS = frozenset({"preprocess", "postprocess"})
# gymnasium's (and gym's) vector environments (plain objects): `step(actions)` answers NumPy arrays (observations,
# rewards, terminations, truncations; gym's older four-tuple has one `dones`) and an `infos` dict of arrays, `reset()`
# the observations and infos. They stack their sub-environments' results into arrays the observation space allocates
# (`create_empty_array`), NumPy whatever a sub-environment answers. `gym.vector.make` builds one of them. Not a
# wrapper of one (gymnasium's `NumpyToTorch` answers tensors), nor `make_vec` unless its `vectorization_mode` is
# sync or async (an environment's own vector entry point may answer tensors on the device).
VECTOR_ENVS = frozenset({
    f"{lib}.vector.{mod}{cls}" for lib in ("gymnasium", "gym")
    for mod, cls in (("", "SyncVectorEnv"), ("", "AsyncVectorEnv"), ("sync_vector_env.", "SyncVectorEnv"),
                     ("async_vector_env.", "AsyncVectorEnv"), ("", "make"))
})
VECTOR_ENV_MAKERS = frozenset({"gymnasium.make_vec", "gymnasium.envs.registration.make_vec"})
VECTORIZE_MODES = frozenset({"sync", "async"})
# the arrays the methods answer, in order (the last item of each is `infos`, a dict of arrays)
VECTOR_ENV_RESULTS = {"step": 5, "reset": 2}
# `postprocess(..., output_type=...)` values that hand the tensor back where it is (others: host images or arrays)
TENSOR_OUTPUT_TYPES = frozenset({"pt", "latent"})


def keeps_input_device(qual: str | None) -> bool:
    """`qual` (a resolved descriptor) returns a tensor where its first argument lives (`INPUT_DEVICE_LIBRARIES`)."""
    return qual is not None and qual.startswith(INPUT_DEVICE_LIBRARIES)


# torch.nn's own layers and losses (`nn.Linear(..)`, `nn.CrossEntropyLoss(reduction="none")`, spelled `torch.nn.X` or
# `torch.nn.modules.<file>.X`): each computes with torch ops on its tensor arguments, so what a call returns lives where
# they live (a parametrised layer raises unless its weights are there too). Not the containers and wrappers, which run
# whatever they hold, nor the parameter classes.
NN_NON_COMPUTING = frozenset({
    "Module", "ModuleList", "ModuleDict", "Sequential", "ParameterList", "ParameterDict", "Parameter", "Buffer",
    "UninitializedParameter", "UninitializedBuffer", "DataParallel", "Container",
})


def nn_library_module(qual: str | None) -> bool:
    """`qual` is a class of torch.nn's layers and losses (`NN_NON_COMPUTING` aside): a module built from it returns
    tensors where its tensor inputs live."""
    if qual is None or not qual.startswith("torch.nn."):
        return False
    path, _, name = qual.rpartition(".")
    if path != "torch.nn" and not path.startswith("torch.nn.modules."):
        return False
    return name[:1].isupper() and name not in NN_NON_COMPUTING


# torch.nn layers that keep their settings as Python values: `_ConvNd.__init__` stores `_single/_pair/_triple(..)`
# int tuples (a `padding` string as given) and int channel/group counts; the pooling layers and `Unfold`/`Fold` keep
# the ints or tuples they were given. Reading one (`self.stride[0]` in a `Conv2d` subclass) reads no tensor.
INT_SETTING_MODULES = frozenset({
    *(f"{kind}{n}d" for kind in ("Conv", "ConvTranspose", "LazyConv", "LazyConvTranspose", "MaxPool", "AvgPool",
                                 "LPPool", "MaxUnpool") for n in (1, 2, 3)),
    "_ConvNd", "_ConvTransposeNd", "_ConvTransposeMixin", "_MaxPoolNd", "_AvgPoolNd", "_LPPoolNd", "_MaxUnpoolNd",
    "Unfold", "Fold",
})
INT_SETTINGS = frozenset({"kernel_size", "stride", "padding", "dilation", "output_padding", "groups", "in_channels",
                          "out_channels"})


def int_setting(qual: str | None, attr: str) -> bool:
    """`attr` of a torch.nn layer `qual` (`torch.nn.Conv2d`, `torch.nn.modules.conv._ConvNd`) is one of the Python
    ints or int tuples it keeps its settings in (`INT_SETTING_MODULES`)."""
    if attr not in INT_SETTINGS or qual is None or not qual.startswith("torch.nn."):
        return False
    path, _, name = qual.rpartition(".")
    return (path == "torch.nn" or path.startswith("torch.nn.modules.")) and name in INT_SETTING_MODULES


def library_module_class(qual: str | None) -> bool:
    """`qual` is a library module class an object the inference builds stands for (`Val(Kind.OBJECT, qual)`): a
    torch.nn layer or loss, a torchaudio/torchvision transform. Such an object is no tensor: `.to("cpu")` of one moves
    weights."""
    return nn_library_module(qual) or input_device_module(qual) or qual in HOST_TENSOR_MODULES


def input_device_module(qual: str | None) -> bool:
    """`qual` builds a module whose call returns a tensor where its input lives (`INPUT_DEVICE_MODULES`)."""
    if qual is None or qual in HOST_TENSOR_MODULES or not qual.startswith(INPUT_DEVICE_MODULES):
        return False
    name = qual.rpartition(".")[2]
    return name[:1].isupper() and name not in TRANSFORM_CONTAINERS


# Libraries whose objects compute on the host and answer with NumPy arrays or Python values: a method of an object
# one of them built (`self.index = faiss.IndexFlatIP(d)`, then `self.index.search(q, k)`) returns host data. faiss's
# GPU indexes answer NumPy queries with NumPy arrays too (torch tensors only after `faiss.contrib.torch_utils`).
# ONNX Runtime's session answers `run` with NumPy arrays whatever its execution provider (`ONNX_SESSIONS`; its
# metadata getters answer Python objects): `self.sess = ort.InferenceSession(..)`, then `self.sess.run(None, feeds)`.
HOST_ONLY_LIBRARIES = frozenset({"faiss", "numpy", "sklearn", "scipy", "onnxruntime"})
# Probes true only where the program's accelerator is not CUDA (Apple's MPS: macOS, which has no CUDA): the code
# under `if torch.backends.mps.is_available():` never runs on a CUDA machine
OFF_CUDA_PROBES = frozenset({"torch.backends.mps.is_available", "torch.backends.mps.is_built",
                             "torch.mps.is_available"})
# Library readers that return `(host tensor, Python number)`: torchaudio's `load` ("the waveform ... and the sample
# rate"), decoded on the host, wherever the caller computes.
HOST_TENSOR_AND_NUMBER = frozenset({"torchaudio.load", "torchaudio.load_with_torchcodec"})
# torch's data loaders: iterating one yields what its `collate_fn` returns (the default collate: host tensors).
DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
# Loaders that put each batch on a device themselves (fastai's `DataLoader` moves it to `dls.device`, CUDA by default)
DEVICE_LOADER_ROOTS = ("fastai.",)
DEVICE_LOADER_WORDS = ("Device", "Cuda", "CUDA", "Gpu", "GPU")


def is_library_loader(qual: str | None) -> bool:
    """A data loader of torch's kind from another library (`torch_geometric.loader.DataLoader`,
    `torchdata.stateful_dataloader.StatefulDataLoader`, `litdata.StreamingDataLoader`, a vendored copy of PyG's
    loader): a `*DataLoader` class that subclasses or mirrors torch's, whose workers collate each batch in host
    memory. Not one named for a device (`DeviceDataLoader` wraps a loader to move its batches) or fastai's."""
    if not qual or qual in DATA_LOADERS or "." not in qual or qual.startswith(DEVICE_LOADER_ROOTS):
        return False
    tail = qual.rpartition(".")[2]
    return tail.endswith("DataLoader") and not any(word in tail for word in DEVICE_LOADER_WORDS)


# torch functions whose return shape depends on arguments (one-arg where, as_tuple, return_inverse).
ARG_DEPENDENT_TORCH = frozenset({"torch.where", "torch.nonzero", "torch.unique"})


# `torch.distributions` names that are no distribution class (`constraints.real`, `transforms.ExpTransform`, `kl`)
DIST_NON_DISTRIBUTIONS = ("constraints", "transforms", "constraint_registry", "kl", "utils", "biject_to",
                          "transform_to")
# Distributions whose own `arg_constraints` is `{}` in torch (`independent.py`, `mixture_same_family.py`,
# `transformed_distribution.py`): `Distribution.__init__`'s validation loop has nothing to check, and their
# constructors read only shapes and `isinstance`, so building one reads no device value. The validating syncs
# are the wrapped distributions' own constructions. Subclasses that declare constraints (`LogNormal`,
# `Gumbel`, ... of `TransformedDistribution`) are not in the set. Checked against torch by a test.
DIST_UNCONSTRAINED = frozenset(("Independent", "MixtureSameFamily", "TransformedDistribution"))
# The methods of a distribution that check their value against the support when validation is on
# (`Distribution._validate_sample`: `if not torch._is_all_true(support.check(value)): raise`, torch 2.13): 32
# `log_prob`s, 9 `cdf`s, one `log_survival_function`; `sample`, `rsample`, `entropy` and `icdf` check nothing.
VALIDATED_SAMPLE_METHODS = frozenset({"log_prob", "cdf", "log_survival_function"})


def distribution_class(qual: str) -> bool:
    """`qual` names a `torch.distributions` class whose construction validates its arguments (`Normal`,
    `torch.distributions.categorical.Categorical`): not a constraint, a transform, a base class or a wrapper with
    no argument constraints (`DIST_UNCONSTRAINED`)."""
    if not qual.startswith("torch.distributions."):
        return False
    *path, tail = qual.split(".")[2:]
    return tail[:1].isupper() and not any(p in DIST_NON_DISTRIBUTIONS for p in path) \
        and not tail.endswith(("Transform", "Constraint")) and tail not in ("Distribution", "ExponentialFamily") \
        and tail not in DIST_UNCONSTRAINED


# Loss scalers whose call reads `found_inf` on the host when enabled (`library_waits.WAITS`: torch's `GradScaler.step`,
# timm's `NativeScaler.__call__`, which steps a torch scaler it builds). value: the constructor's first parameter is
# `device` (`torch.amp`'s, re-exported as `torch.GradScaler` since torch 2.3, FSDP's `ShardedGradScaler`, timm's);
# `torch.cuda.amp`'s (a subclass fixing "cuda") has none.
GRAD_SCALERS = {name: row.device_param for row in waits_of(SCALER) for name in row.owners}
# The calls of such a scaler that wait ("step"; "__call__": the object called) and the keywords whose `False` literal
# skips the wait. A scaler's kind keeps no class: a torch scaler is not callable and timm's has no `step`, so either
# call of any scaler is the one its class has.
SCALER_CALLS = frozenset(row.method for row in waits_of(SCALER))
SCALER_SKIPS = frozenset(word for row in waits_of(SCALER) for word in row.skip)


# torch's gradient-norm clippers: the total norm they return is a 0-d tensor on the gradients' device
# (torch/nn/utils/clip_grad.py, torch 2.13: `_get_total_norm` takes each device's norm `.to(first_device)`, the first
# gradient's), so it lives where the clipped module's weights live.
GRAD_NORM_CLIPPERS = frozenset({"torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_norm",
                                "torch.nn.utils.clip_grad.clip_grad_norm_", "torch.nn.utils.clip_grad.clip_grad_norm"})


def syncing_grad_scaler(qual: str, device: str | None, enabled: bool | None) -> bool:
    """A construction of `qual` with the literal `device` (None: not given or not a string) and `enabled` (None: not
    given, True: a true literal or a value the code computes, False: a false literal) is a scaler whose `step` reads
    `found_inf` on the host: torch's, enabled (`enabled=True` is the default; a flag the code computes counts as
    on, as amp is the reason to build one), on CUDA (torch disables one where CUDA is absent; a "cpu" scaler's
    `.item()` reads host memory)."""
    if qual not in GRAD_SCALERS or enabled is False:
        return False
    return not GRAD_SCALERS[qual] or device is None or device.startswith("cuda")


def torch_return_kind(qual: str) -> Base:
    """What a call of the torch function `qual` returns, by its name alone: TENSOR, BOOL_TENSOR,
    HOST or UNKNOWN. Factories (CPU unless device= says otherwise), sequence returns and returns
    that depend on the arguments are UNKNOWN; the phase-2 inference looks at the call itself."""
    tail = qual.rpartition(".")[2]
    if qual in HOST_TORCH:
        return Base.HOST
    if qual in FACTORY_TORCH or qual in SEQ_TORCH or qual in DIM_SEQ_TORCH or qual in ARG_DEPENDENT_TORCH \
            or qual in CHECKPOINT_LOADS or qual in TRANSFORM_TORCH or tail.endswith("_like"):
        return Base.UNKNOWN
    if qual in BOOL_TORCH:
        return Base.BOOL_TENSOR
    if qual.startswith("torch.nn.functional."):
        return Base.TENSOR if tail in FUNCTIONAL_NAMES else Base.UNKNOWN
    if qual.count(".") == 1 and tail in TORCH_FUNCTION_NAMES:
        return Base.TENSOR
    return Base.UNKNOWN


def composed_transform(members: list[str | None]) -> str | None:
    """The one transform a torchvision `Compose` of the transforms `members` (their resolved classes, in order; None
    for a member that is no construction) stands for: a conversion to a host tensor (`ToTensor`) with transforms
    computing where their input lives around it is that conversion (`Compose([Resize(..), ToTensor(), Normalize(..)])`
    makes a host tensor); transforms that all compute where their input lives are the first of them. None where a
    member is anything else (a `Lambda`, a project transform, a nested container) or there is none."""
    out = None
    for qual in members:
        if qual in HOST_TENSOR_MODULES:
            out = qual
        elif input_device_module(qual):
            out = out or qual
        else:
            return None
    return out
