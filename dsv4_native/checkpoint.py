"""Read DeepSeek-V4 checkpoints as they are released, and their 4-bit routed experts as they are stored.

A checkpoint directory holds safetensors shards listed in `model.safetensors.index.json` (`weight_map`: tensor
name -> shard file), or one `model.safetensors`. `ShardReader` is that directory as a read-only mapping which
reads one tensor at a time from its shard (memory-mapped), and answers dtype and shape from the shard header
without reading the data, so the loader (`loader.load_checkpoint`) validates a tensor before it reads it and
never holds more than it is copying.

4-bit routed experts (layouts and sources: docs/dsv4-model.md, "Loading checkpoints"), both under the
DeepSeek names `layers.{i}.ffn.experts.{e}.w{1,2,3}`, w1/w3 [I, D] and w2 [D, I] as [N, K]:
* MXFP4 (the official release): `.weight` int8 [N, K/2] (uint8 and float4_e2m1fn_x2 hold the same bytes),
  two E2M1 codes per byte, low nibble = even k; `.scale` float8_e8m0fnu [N, K/32] (uint8 codes accepted).
* NVFP4 (NVIDIA's ModelOpt release): `.weight` uint8 [N, K/2], same packing; `.weight_scale` float8_e4m3fn
  [N, K/16]; `.weight_scale_2` one fp32 (per-tensor scale, value = e2m1 * scale * scale_2); `.input_scale`
  one fp32 (the activation scale of W4A4; W4A16 keeps activations in bf16 and does not read it).
`read_packed_expert` returns them in `DSV4MoEW4.load_packed`'s layout, bytes and scale codes untouched (a
view as uint8); the module permutes the nibbles into its kernel byte order, which is lossless.
Everything here runs once at load time on the host.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional

import torch

from . import fp4

INDEX_FILE = "model.safetensors.index.json"
SINGLE_FILE = "model.safetensors"
NVFP4_SUFFIXES = (".weight_scale", ".weight_scale_2", ".input_scale")
PACKED_DTYPES = (torch.uint8, torch.int8, torch.float4_e2m1fn_x2)
_SCALE = {  # format -> (block-scale key suffix, accepted dtypes, group)
    "mxfp4": (".scale", (torch.float8_e8m0fnu, torch.uint8), fp4.MX_GROUP),
    "nvfp4": (".weight_scale", (torch.float8_e4m3fn,), fp4.NV_GROUP),
}
# safetensors header dtype names. "F4" is float4_e2m1fn_x2, whose header shape counts 4-bit elements
# (the torch tensor's last dim is half of it).
_ST_DTYPES = {
    "F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
    "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8, "U8": torch.uint8,
    "BOOL": torch.bool, "F8_E4M3": torch.float8_e4m3fn, "F8_E5M2": torch.float8_e5m2,
    "F8_E8M0": torch.float8_e8m0fnu, "F4": torch.float4_e2m1fn_x2,
}


def _read_weight_map(root: Path) -> dict[str, str]:  # graphlint: cold
    """Tensor name -> shard file, from the index file, or from the single shard's header."""
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: not a checkpoint directory")
    index = root / INDEX_FILE
    if index.is_file():
        try:
            data = json.loads(index.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{index}: not valid JSON ({exc})") from None
        wmap = data.get("weight_map") if isinstance(data, dict) else None
        if not isinstance(wmap, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in wmap.items()):
            raise ValueError(f"{index}: expected a 'weight_map' object of tensor name -> shard file")
        return wmap
    if (root / SINGLE_FILE).is_file():
        from safetensors import safe_open

        with safe_open(str(root / SINGLE_FILE), framework="pt") as f:
            return {k: SINGLE_FILE for k in f.keys()}
    raise FileNotFoundError(f"{root}: neither {INDEX_FILE} nor {SINGLE_FILE}")


class ShardReader(Mapping[str, torch.Tensor]):
    """A checkpoint directory as a mapping tensor name -> tensor, read on access from its shard (CPU).

    Iteration follows the index, grouped by shard so each shard is visited once in a full pass. Every shard
    the index names must exist (checked up front). Use as a context manager, or call `close`.
    """

    def __init__(self, path: str | Path) -> None:  # graphlint: cold
        try:
            from safetensors import safe_open
        except ImportError:  # pragma: no cover - the kernels extra installs it
            raise ImportError("reading checkpoints needs the safetensors package (pip install safetensors)") from None
        self._safe_open = safe_open
        self.root = Path(path)
        self.weight_map = _read_weight_map(self.root)
        absent = sorted({s for s in self.weight_map.values() if not (self.root / s).is_file()})
        if absent:
            keys = [k for k, s in self.weight_map.items() if s == absent[0]]
            more = f"; {len(absent) - 1} more shards missing" if len(absent) > 1 else ""
            raise FileNotFoundError(f"{self.root / INDEX_FILE}: shard {absent[0]!r} (holding {keys[0]!r} and "
                                    f"{len(keys) - 1} more tensors) is missing from {self.root}{more}")
        self._order = sorted(self.weight_map, key=lambda k: self.weight_map[k])
        self._handles: dict[str, Any] = {}
        self._keys: dict[str, set[str]] = {}

    def _handle(self, key: str) -> Any:  # graphlint: cold
        if key not in self.weight_map:
            raise KeyError(f"{key}: not in the checkpoint ({self.root})")
        shard = self.weight_map[key]
        if shard not in self._handles:
            f = self._safe_open(str(self.root / shard), framework="pt", device="cpu")
            self._handles[shard], self._keys[shard] = f, set(f.keys())
        if key not in self._keys[shard]:
            raise KeyError(f"{key}: {INDEX_FILE} puts it in {shard!r}, which does not hold it")
        return self._handles[shard]

    def __getitem__(self, key: str) -> torch.Tensor:  # graphlint: cold
        return self._handle(key).get_tensor(key)

    def meta(self, key: str) -> tuple[torch.dtype, tuple[int, ...]]:  # graphlint: cold
        """(dtype, shape) of the tensor as `__getitem__` returns it, from the shard header (no data read)."""
        view = self._handle(key).get_slice(key)
        name, shape = view.get_dtype(), tuple(view.get_shape())
        if name not in _ST_DTYPES:
            raise ValueError(f"{key}: unsupported safetensors dtype {name}")
        if name == "F4":
            if not shape or shape[-1] % 2:
                raise ValueError(f"{key}: F4 tensor of shape {shape} does not pack into bytes")
            shape = (*shape[:-1], shape[-1] // 2)
        return _ST_DTYPES[name], shape

    def __contains__(self, key: object) -> bool:  # graphlint: cold
        return key in self.weight_map  # Mapping's default would read the tensor

    def __iter__(self) -> Iterator[str]:  # graphlint: cold
        return iter(self._order)

    def __len__(self) -> int:  # graphlint: cold
        return len(self.weight_map)

    def close(self) -> None:  # graphlint: cold
        self._handles.clear()
        self._keys.clear()

    def __enter__(self) -> "ShardReader":  # graphlint: cold
        return self

    def __exit__(self, *exc: object) -> None:  # graphlint: cold
        self.close()


def tensor_meta(sd: Mapping[str, torch.Tensor], key: str) -> tuple[torch.dtype, tuple[int, ...]]:  # graphlint: cold
    """(dtype, shape) of sd[key]; a ShardReader answers from the header without reading the data."""
    if key not in sd:
        raise KeyError(f"missing {key}")
    if isinstance(sd, ShardReader):
        return sd.meta(key)
    t = sd[key]
    return t.dtype, tuple(t.shape)


def _expect(key: str, meta: tuple[torch.dtype, tuple[int, ...]], dtypes: tuple[torch.dtype, ...],  # graphlint: cold
            shape: Optional[tuple[int, ...]]) -> None:
    dtype, got = meta
    if dtype not in dtypes:
        raise ValueError(f"{key}: dtype {dtype}, expected {' or '.join(str(d) for d in dtypes)}")
    if shape is not None and got != shape:
        raise ValueError(f"{key}: shape {got}, expected {shape}")


def packed_format(sd: Mapping[str, torch.Tensor], base: str) -> Optional[str]:  # graphlint: cold
    """The format of a packed FP4 weight `<base>.weight` ("mxfp4" / "nvfp4"), told by its scale keys; None
    when the weight is not packed (a dense or FP8 weight)."""
    dtype, _ = tensor_meta(sd, base + ".weight")
    if dtype not in PACKED_DTYPES:
        return None
    if any(base + s in sd for s in NVFP4_SUFFIXES[:2]):
        return "nvfp4"
    if base + ".scale" in sd:
        return "mxfp4"
    raise KeyError(f"missing scale of the packed FP4 weight {base}.weight ({dtype}): expected {base}.scale "
                   f"(MXFP4) or {base}.weight_scale + {base}.weight_scale_2 (NVFP4)")


def read_projection(sd: Mapping[str, torch.Tensor], base: str, fmt: str,  # graphlint: cold
                    packed_shape: Optional[tuple[int, int]] = None) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One packed projection `<base>.*` -> (bytes uint8 [N, K/2], raw scale codes uint8 [N, K/G], fp32 global
    scale [] (1 for MXFP4)), validated (dtype, shape: `packed_shape` when given) before anything is read."""
    suffix, scale_dtypes, group = _SCALE[fmt]
    wkey, skey = base + ".weight", base + suffix
    wmeta = tensor_meta(sd, wkey)
    _expect(wkey, wmeta, PACKED_DTYPES, packed_shape)
    shape = wmeta[1]
    if len(shape) != 2 or (2 * shape[1]) % group:
        raise ValueError(f"{wkey}: shape {shape}, expected [N, K/2] with K a multiple of {group}")
    _expect(skey, tensor_meta(sd, skey), scale_dtypes, (shape[0], 2 * shape[1] // group))
    gs = torch.ones((), dtype=torch.float32)
    if fmt == "nvfp4":
        gkey = base + ".weight_scale_2"
        gdtype, gshape = tensor_meta(sd, gkey)
        if gdtype != torch.float32 or any(d != 1 for d in gshape):
            raise ValueError(f"{gkey}: dtype {gdtype} shape {gshape}, expected one float32 (the per-tensor scale)")
        gs = sd[gkey].reshape(())
    return sd[wkey].view(torch.uint8), sd[skey].view(torch.uint8), gs


def dequantize_projection(q: torch.Tensor, s: torch.Tensor, gs: torch.Tensor,  # graphlint: cold
                          fmt: str) -> torch.Tensor:
    """`read_projection`'s output -> dense fp32 [N, K]."""
    if fmt == "mxfp4":
        return fp4.dequantize_mxfp4(q, s)
    return fp4.dequantize_nvfp4(q, s.view(torch.float8_e4m3fn), gs)


def read_packed_expert(sd: Mapping[str, torch.Tensor], base: str, fmt: str, dim: int,  # graphlint: cold
                       inter: int) -> dict[str, torch.Tensor]:
    """Routed expert `base` (`layers.{i}.ffn.experts.{e}`) as one expert of `DSV4MoEW4.load_packed`'s dict
    (leading dim 1): w13 = w1 rows then w3 rows, gs13 = (w1, w3) global scales, checkpoint nibble order."""
    q1, s1, g1 = read_projection(sd, base + ".w1", fmt, (inter, dim // 2))
    q3, s3, g3 = read_projection(sd, base + ".w3", fmt, (inter, dim // 2))
    q2, s2, g2 = read_projection(sd, base + ".w2", fmt, (dim, inter // 2))
    return dict(w13_q=torch.cat([q1, q3])[None], w13_s=torch.cat([s1, s3])[None], gs13=torch.stack([g1, g3])[None],
                w2_q=q2[None], w2_s=s2[None], gs2=g2.reshape(1))
