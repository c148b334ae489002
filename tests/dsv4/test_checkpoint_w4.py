"""4-bit checkpoints loaded as they are (issue 22): synthetic checkpoint directories in the official MXFP4 and
NVIDIA's NVFP4 layouts (safetensors shards + `model.safetensors.index.json`, DeepSeek key names; sources in
docs/dsv4-model.md "Loading checkpoints") load their routed experts into `DSV4MoEW4` bit for bit.

The expected tensors are built here from the format specs, not with the loader's helpers: the kernel byte
order bit by bit from its definition (moe_w4 docstring), the dequant from the E2M1 table, 2^(e-127) and
torch's own E4M3 -> fp32 conversion.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from safetensors.torch import save_file

from dsv4_native import fp4
from dsv4_native.checkpoint import INDEX_FILE, ShardReader
from dsv4_native.loader import dequant_fp8_block, load_checkpoint
from dsv4_native.model import DSV4Config, DSV4Model
from dsv4_native.moe_w4 import quantize_experts

DIM, INTER, N_EXP, LAYERS = 64, 64, 3, 2
PROJ = {"w1": (INTER, DIM), "w3": (INTER, DIM), "w2": (DIM, INTER)}  # [N, K]
GROUP = {"mxfp4": fp4.MX_GROUP, "nvfp4": fp4.NV_GROUP}
# the releases' packed dtypes: I8 (official MXFP4), U8 (ModelOpt NVFP4); F4 is torch's float4_e2m1fn_x2
CASES = [("mxfp4", torch.int8), ("mxfp4", torch.float4_e2m1fn_x2), ("nvfp4", torch.uint8)]


def _model(expert_format: str) -> DSV4Model:
    cfg = DSV4Config(vocab=64, dim=DIM, ratios=[0] * LAYERS, hash_layers=[True] + [False] * (LAYERS - 1),
                     n_heads=2, head_dim=64, rope_dim=16, q_lora=32, o_groups=2, o_lora=32, window=16,
                     index_heads=2, index_dim=32, index_topk=16, n_experts=N_EXP, top_k=2, inter=INTER,
                     max_batch=1, max_len=128, expert_format=expert_format)
    return DSV4Model(cfg, dtype=torch.float32)


def _fp8_block(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """An FP8 E4M3 weight with one power-of-two E8M0 scale per 128x128 tile (the releases' dense weights)."""
    scale = torch.full((-(-w.shape[0] // 128), -(-w.shape[1] // 128)), 2.0 ** -6)
    return (w / 2.0 ** -6).to(torch.float8_e4m3fn), scale.to(torch.float8_e8m0fnu)


def _checkpoint(fmt: str, packed_dtype: torch.dtype, seed: int = 0) -> dict[str, torch.Tensor]:
    """Routed experts with random packed bytes (every code, -0 included) and scales in the releases' dtypes;
    FP8 shared experts; two dense weights, an MTP tensor and one key no model parameter uses."""
    g = torch.Generator().manual_seed(seed)
    sd: dict[str, torch.Tensor] = {}
    for i in range(LAYERS):
        for e in range(N_EXP):
            for w, (n, k) in PROJ.items():
                base = f"layers.{i}.ffn.experts.{e}.{w}"
                packed = torch.randint(0, 256, (n, k // 2), generator=g, dtype=torch.uint8)
                sd[base + ".weight"] = packed.view(packed_dtype)
                if fmt == "mxfp4":
                    codes = torch.randint(112, 136, (n, k // 32), generator=g, dtype=torch.uint8)
                    sd[base + ".scale"] = codes.view(torch.float8_e8m0fnu)
                else:  # positive finite E4M3 bit patterns (0x7F is NaN)
                    bits = torch.randint(0x08, 0x7F, (n, k // 16), generator=g, dtype=torch.uint8)
                    sd[base + ".weight_scale"] = bits.view(torch.float8_e4m3fn)
                    sd[base + ".weight_scale_2"] = torch.rand((), generator=g) * 1e-3 + 1e-4
                    sd[base + ".input_scale"] = torch.rand((), generator=g)
        for w, (n, k) in PROJ.items():
            base = f"layers.{i}.ffn.shared_experts.{w}"
            sd[base + ".weight"], sd[base + ".scale"] = _fp8_block(torch.randn(n, k, generator=g) * 0.05)
    sd["layers.0.attn.wq_a.weight"], sd["layers.0.attn.wq_a.scale"] = _fp8_block(torch.randn(32, DIM, generator=g))
    sd["embed.weight"] = torch.randn(64, DIM, generator=g).to(torch.bfloat16)
    sd["mtp.0.ffn.experts.0.w1.weight"] = torch.zeros(4, 4, dtype=torch.uint8)
    sd["layers.0.extra.weight"] = torch.zeros(2)
    return sd


def _write(root: Path, sd: dict[str, torch.Tensor], n_shards: int = 2) -> Path:
    """Shards `model-0000k-of-0000n.safetensors` (keys dealt round-robin, so one expert spans shards) + index."""
    root.mkdir(parents=True, exist_ok=True)
    names = [f"model-{k + 1:05d}-of-{n_shards:05d}.safetensors" for k in range(n_shards)]
    weight_map = {key: names[j % n_shards] for j, key in enumerate(sorted(sd))}
    for name in names:
        save_file({k: v.contiguous() for k, v in sd.items() if weight_map[k] == name}, str(root / name))
    total = sum(t.numel() * t.element_size() for t in sd.values())
    (root / INDEX_FILE).write_text(json.dumps({"metadata": {"total_size": total}, "weight_map": weight_map}))
    return root


def _kernel_order(q: torch.Tensor) -> torch.Tensor:
    """Checkpoint bytes (low nibble = code of even k, each code s E1 E0 M) -> the kernel byte order, bit by bit
    from its definition: code 2j to bits 7 | 4 3 2 (s | E1 E0 M), code 2j+1 to bits 5 | 6 | 1 0."""
    v = q.view(torch.uint8).to(torch.int32)

    def bit(x: torch.Tensor, i: int) -> torch.Tensor:
        return (x >> i) & 1

    lo, hi = v & 0xF, v >> 4
    out = (bit(lo, 3) << 7) | (bit(lo, 2) << 4) | (bit(lo, 1) << 3) | (bit(lo, 0) << 2)
    out |= (bit(hi, 3) << 5) | (bit(hi, 2) << 6) | (bit(hi, 1) << 1) | bit(hi, 0)
    return out.to(torch.uint8)


def _scale(sd: dict[str, torch.Tensor], base: str, fmt: str) -> torch.Tensor:
    """fp32 block scales of a projection: 2^(e-127) (MXFP4) or the E4M3 values (NVFP4)."""
    if fmt == "mxfp4":
        return torch.exp2(sd[base + ".scale"].view(torch.uint8).float() - 127)
    return sd[base + ".weight_scale"].float()


def _dequant(sd: dict[str, torch.Tensor], base: str, fmt: str) -> torch.Tensor:
    """Reference dequant of a checkpoint projection: E2M1 table value * block scale * per-tensor scale."""
    q = sd[base + ".weight"].view(torch.uint8).long()
    codes = torch.stack([q & 0xF, q >> 4], dim=-1).flatten(-2)  # low nibble = even k
    vals = torch.tensor(fp4.E2M1_VALUES)[codes]
    n, k = vals.shape
    group = GROUP[fmt]
    out = (vals.view(n, k // group, group) * _scale(sd, base, fmt)[..., None]).view(n, k)
    return out * sd[base + ".weight_scale_2"] if fmt == "nvfp4" else out


def _shared_dense(sd: dict[str, torch.Tensor], i: int) -> tuple[torch.Tensor, torch.Tensor]:
    def w(name: str) -> torch.Tensor:
        base = f"layers.{i}.ffn.shared_experts.{name}"
        return dequant_fp8_block(sd[base + ".weight"], sd[base + ".scale"])

    return torch.cat([w("w1"), w("w3")])[None], w("w2")[None]


@pytest.mark.parametrize("fmt,packed_dtype", CASES)
def test_packed_experts_load_bit_for_bit(tmp_path: Path, fmt: str, packed_dtype: torch.dtype) -> None:
    """Every routed expert's bytes land in the kernel byte order and its scale codes unchanged, the global
    scales as stored (gate, up, down); the module's dequant equals the checkpoint's reference dequant exactly;
    the FP8 shared expert is the module's own quantisation of its dequantised values (expert E); the dense
    weights load dequantised, MTP is skipped and the unknown key is reported."""
    sd = _checkpoint(fmt, packed_dtype)
    model = _model(fmt)
    unused = load_checkpoint(model, _write(tmp_path / "ckpt", sd), strict=False)
    assert unused == ["layers.0.extra.weight"]
    sfx = ".scale" if fmt == "mxfp4" else ".weight_scale"
    for i, layer in enumerate(model.layers):
        moe = layer.moe
        ref13, ref2 = moe.dequantized_experts(torch.float32)
        for e in range(N_EXP):
            b = {w: f"layers.{i}.ffn.experts.{e}.{w}" for w in PROJ}
            want_q13 = torch.cat([_kernel_order(sd[b["w1"] + ".weight"]), _kernel_order(sd[b["w3"] + ".weight"])])
            assert torch.equal(moe.w13_q[e], want_q13)
            assert torch.equal(moe.w2_q[e], _kernel_order(sd[b["w2"] + ".weight"]))
            assert torch.equal(moe.w13_s[e], torch.cat([sd[b["w1"] + sfx], sd[b["w3"] + sfx]]).view(torch.uint8))
            assert torch.equal(moe.w2_s[e], sd[b["w2"] + sfx].view(torch.uint8))
            if fmt == "nvfp4":
                gs = [sd[b[w] + ".weight_scale_2"] for w in ("w1", "w3", "w2")]
                assert torch.equal(moe.gs13[e], torch.stack(gs[:2])) and torch.equal(moe.gs2[e], gs[2])
            else:
                assert bool((moe.gs13[e] == 1).all()) and float(moe.gs2[e]) == 1.0
            assert torch.equal(ref13[e], torch.cat([_dequant(sd, b["w1"], fmt), _dequant(sd, b["w3"], fmt)]))
            assert torch.equal(ref2[e], _dequant(sd, b["w2"], fmt))
        shared = quantize_experts(*_shared_dense(sd, i), fmt)
        assert torch.equal(moe.w13_q[N_EXP], _kernel_order(shared["w13_q"][0]))
        assert torch.equal(moe.w2_s[N_EXP], shared["w2_s"][0])
    assert torch.equal(model.embed, sd["embed.weight"].float())
    assert torch.equal(model.layers[0].attn.wq_a,
                       dequant_fp8_block(sd["layers.0.attn.wq_a.weight"], sd["layers.0.attn.wq_a.scale"]))


@pytest.mark.parametrize("fmt", ["mxfp4", "nvfp4"])
def test_bf16_model_dequantises_both_layouts(tmp_path: Path, fmt: str) -> None:
    """A dense-expert model takes either release's experts dequantised (NVFP4 needs no hook any more), here
    from a single `model.safetensors` with no index."""
    sd = _checkpoint(fmt, torch.uint8, seed=1)
    root = tmp_path / "single"
    root.mkdir()
    save_file(sd, str(root / "model.safetensors"))
    model = _model("bf16")
    load_checkpoint(model, root, strict=False)
    for i, layer in enumerate(model.layers):
        for e in range(N_EXP):
            b = f"layers.{i}.ffn.experts.{e}."
            assert torch.equal(layer.moe.w13[e], torch.cat([_dequant(sd, b + "w1", fmt), _dequant(sd, b + "w3", fmt)]))
            assert torch.equal(layer.moe.w2[e], _dequant(sd, b + "w2", fmt))
        w13, w2 = _shared_dense(sd, i)
        assert torch.equal(layer.moe.w13[N_EXP], w13[0]) and torch.equal(layer.moe.w2[N_EXP], w2[0])


def test_other_4bit_format_is_refused(tmp_path: Path) -> None:
    root = _write(tmp_path / "ckpt", _checkpoint("mxfp4", torch.int8))
    with pytest.raises(ValueError, match=r"layers\.0: routed experts stored as \['mxfp4'\].*expert_format='nvfp4'"):
        load_checkpoint(_model("nvfp4"), root, strict=False)


def _drop(key: str):
    return lambda sd: sd.pop(key)


def _retype(key: str, dtype: torch.dtype):
    def edit(sd: dict[str, torch.Tensor]) -> None:
        sd[key] = sd[key].float().to(dtype)
    return edit


def _reshape(key: str):
    def edit(sd: dict[str, torch.Tensor]) -> None:
        sd[key] = sd[key][:, :-1].contiguous()
    return edit


E = "layers.1.ffn.experts.2"
BAD = [  # (format, edit of the checkpoint, error, message naming the key)
    ("mxfp4", _drop(f"{E}.w2.weight"), KeyError, rf"missing {E}\.w2\.weight \(experts of layer 1"),
    ("mxfp4", _drop(f"{E}.w3.scale"), KeyError, rf"missing scale of the packed FP4 weight {E}\.w3\.weight"),
    ("nvfp4", _drop(f"{E}.w1.weight_scale_2"), KeyError, rf"missing {E}\.w1\.weight_scale_2"),
    ("mxfp4", _retype(f"{E}.w1.scale", torch.float32), ValueError,
     rf"{E}\.w1\.scale: dtype torch\.float32, expected torch\.float8_e8m0fnu or torch\.uint8"),
    ("nvfp4", _retype(f"{E}.w2.weight_scale", torch.uint8), ValueError,
     rf"{E}\.w2\.weight_scale: dtype torch\.uint8, expected torch\.float8_e4m3fn"),
    ("nvfp4", _retype(f"{E}.w2.weight_scale_2", torch.float16), ValueError, rf"{E}\.w2\.weight_scale_2: dtype"),
    ("mxfp4", _reshape(f"{E}.w1.scale"), ValueError, rf"{E}\.w1\.scale: shape \(64, 1\), expected \(64, 2\)"),
    ("mxfp4", _reshape(f"{E}.w2.weight"), ValueError, rf"{E}\.w2\.weight: shape \(64, 31\), expected \(64, 32\)"),
]


@pytest.mark.parametrize("fmt,edit,exc,match", BAD)
def test_bad_checkpoint_names_the_key(tmp_path: Path, fmt: str, edit, exc: type, match: str) -> None:
    """A missing tensor, a wrong dtype or shape is an error naming the key, also when not strict."""
    sd = _checkpoint(fmt, torch.uint8)
    edit(sd)
    with pytest.raises(exc, match=match):
        load_checkpoint(_model(fmt), _write(tmp_path / "ckpt", sd), strict=False)


def test_index_and_shard_errors(tmp_path: Path) -> None:
    """The index names a shard that is not there; the index puts a key in a shard that lacks it; the index is
    not JSON; no checkpoint at all; strict loading wants every dense parameter."""
    sd = _checkpoint("mxfp4", torch.int8)
    root = _write(tmp_path / "ckpt", sd)
    (root / "model-00002-of-00002.safetensors").unlink()
    with pytest.raises(FileNotFoundError, match=r"shard 'model-00002-of-00002\.safetensors' \(holding '.*'"):
        ShardReader(root)
    root = _write(tmp_path / "moved", sd)
    index = json.loads((root / INDEX_FILE).read_text())
    index["weight_map"]["embed.weight"] = "model-00002-of-00002.safetensors"
    assert sorted(sd).index("embed.weight") % 2 == 0  # it really lives in shard 1
    (root / INDEX_FILE).write_text(json.dumps(index))
    with pytest.raises(KeyError, match=r"embed\.weight: .* puts it in 'model-00002-of-00002\.safetensors', which"):
        load_checkpoint(_model("mxfp4"), root, strict=False)
    (root / INDEX_FILE).write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        ShardReader(root)
    with pytest.raises(FileNotFoundError, match="neither"):
        ShardReader(tmp_path)
    with pytest.raises(KeyError, match=r"missing the checkpoint tensor of \w+"):
        load_checkpoint(_model("mxfp4"), _write(tmp_path / "partial", sd))
