"""W4A16 MoE (moe_w4.py): in-kernel MXFP4/NVFP4 decode, the GEMV kernels, the module, load-time checks.

On CPU the Triton kernels run in the interpreter (conftest sets TRITON_INTERPRET=1). The interpreter
rounds fp32 -> bf16 toward zero (the GPU rounds to nearest even), so bf16 layer checks use a bf16-level
tolerance; the fp32 op-level checks are tight.
"""

from __future__ import annotations

import copy
import functools

import pytest
import torch

from dsv4_native import moe as M
from dsv4_native import fp4
from dsv4_native import moe_w4 as W

D, INTER, E, K = 128, 64, 8, 3


def _rel(a: torch.Tensor, b: torch.Tensor) -> float:
    return ((a.float() - b.float()).norm() / b.float().norm()).item()


# Expert tiles (BLOCK_N, BLOCK_K, warps, stages): launch tuning only, so the interpreter (every program a
# Python call) takes wide ones: the batch-1 default BN 8 runs 4x the programs of BN 32. BN 32 still splits
# GEMM1 into 2 N-blocks at these dims; GEMM2 (4 x BN wide) runs 4 N-blocks in the MXFP4 batch-1 case of
# test_layer_matches_bf16_moe_on_dequantized_weights (the shipped launch).
WIDE = (32, 64, 4, 2)


@functools.lru_cache(maxsize=None)
def _pristine(fmt: str, seed: int, kw: tuple[tuple[str, object], ...]) -> W.DSV4MoEW4:
    """Built (and quantised) once per argument set; tests get deep copies, so none sees another's state."""
    g = torch.Generator().manual_seed(seed)
    m = W.DSV4MoEW4(D, INTER, E, fmt, top_k=K, vocab=64, max_tokens=24, **dict(kw))
    with torch.no_grad():
        m.wg.copy_(torch.randn(E, D, generator=g) * D ** -0.5)
        m.bias.copy_(torch.randn(E, generator=g) * 0.1)
        m.tid2eid.copy_(torch.rand(64, E, generator=g).argsort(1)[:, :K].to(torch.int32))
    w13 = torch.randn(E + 1, 2 * INTER, D, generator=g) * D ** -0.5
    w2 = torch.randn(E + 1, D, INTER, generator=g) * INTER ** -0.5
    m.load_dense(w13, w2)
    return m


def _module(fmt: str, device: str, seed: int = 0, **kw) -> W.DSV4MoEW4:
    return copy.deepcopy(_pristine(fmt, seed, tuple(sorted(kw.items())))).to(device)


if W.triton is not None:
    import triton
    import triton.language as tl

    @triton.jit
    def _word_dot_kernel(q_ptr, x_ptr, out_ptr, N: tl.constexpr, USE_ASM: tl.constexpr):
        offs = tl.arange(0, N)
        xb = x_ptr + offs * 4
        out = W._w4_word_dot(tl.load(q_ptr + offs), tl.load(xb), tl.load(xb + 1), tl.load(xb + 2), tl.load(xb + 3),
                             USE_ASM)
        tl.store(out_ptr + offs, out)


def test_word_routine_every_code_at_every_nibble(device):
    """Variant 5's word routine (PTX on the GPU, integer fallback in the interpreter) on words in the kernel
    byte order: a word holding one code c at k = i (the others 0) against x = 1 at k = 8w + i gives the exact
    E2M1 value of c times 2^-6; with x = 1 everywhere, a word of 8 random codes gives their sum times 2^-6.
    The planes are (k0, k2), (k4, k6), (k1, k3), (k5, k7), so this pins the e4m3 byte placement and the
    plane order."""
    words, xs, want = [], [], []
    for c in range(16):
        for i in range(8):
            words.append(c << (4 * i))
            x = torch.zeros(8)
            x[i] = 1.0  # x[8w + i]
            xs.append(x)
            want.append(float(fp4.decode_e2m1(torch.tensor([c]))[0]) / 64)
    g = torch.Generator().manual_seed(3)
    for _ in range(128):
        codes = torch.randint(0, 16, (8,), generator=g)
        words.append(int(sum(int(c) << (4 * i) for i, c in enumerate(codes))))
        xs.append(torch.ones(8))
        want.append(float(fp4.decode_e2m1(codes).sum()) / 64)
    n = len(words)
    q = torch.tensor(words, dtype=torch.int64).to(torch.int32)  # wraps to the same 32 bits
    q = W.to_kernel_order(q.view(torch.uint8)).view(torch.int32)  # the module's byte order
    x = torch.stack(xs)  # [n, 8] in k order
    pairs = torch.stack([x[:, p] for p in ([0, 2], [4, 6], [1, 3], [5, 7])], dim=1).to(torch.float16)  # [n, 4, 2]
    out = torch.empty(n, dtype=torch.float32, device=device)
    _word_dot_kernel[(1,)](q.to(device), pairs.reshape(n, 8).view(torch.int32).to(device), out, N=n,
                           USE_ASM=device == "cuda")
    assert torch.equal(out.cpu(), torch.tensor(want))


@pytest.mark.parametrize("fmt", ["mxfp4", "nvfp4"])
def test_experts_op_matches_reference(device, fmt):
    """The GEMVs (fp16 pair planes, per-token power-of-two scale): with x exact in fp16, equal to the dequant
    reference to fp32/fp16 rounding, which pins the nibble order, the plane order and per-token scale, and
    both scale decodes."""
    m = _module(fmt, device, seed=6)
    g = torch.Generator().manual_seed(12)
    n_tok = 2  # per-token planes and scales; the huge / tiny / zero token scales are the next test's
    ids = torch.randint(0, E + 1, (n_tok, K + 1), generator=g).to(torch.int32).to(device)
    w = torch.rand(n_tok, K + 1, generator=g).to(device)
    x = torch.randn(n_tok, D, generator=g).to(torch.float16).float().to(device)
    n = n_tok * (K + 1)
    # h is kept as fp16 planes (GEMM1 writes the order GEMM2 reads)
    h = torch.full((n, INTER), float("nan"), device=device, dtype=torch.float16)
    y = torch.full((n, D), float("nan"), device=device)
    out = torch.full((n_tok, D), float("nan"), device=device)
    x16 = torch.empty(n_tok, D, dtype=torch.float16, device=device)
    xs = torch.full((n_tok,), float("nan"), device=device)
    W.moe_w4_experts(x, ids, w, m.w13_q, m.w13_s, m.gs13, m.w2_q, m.w2_s, m.gs2, x16, xs, h, y, out, m.fmt, *WIDE)
    # planes (k0,k2) (k4,k6) (k1,k3) (k5,k7) of each word, scaled by a power of two per token
    p = torch.arange(D)
    plane, qq = p // (D // 4), p % (D // 4)
    src = 8 * (qq // 2) + plane // 2 + 4 * (plane % 2) + 2 * (qq % 2)
    assert torch.equal(x16.float() * xs[:, None], x[:, src])
    amax = (x16.float().abs().amax(1)).cpu()
    assert ((amax >= 1024) & (amax < 2048)).all()
    # the reference with h in fp32 (x.dtype): the kernel's GEMM2 reads h rounded to fp16
    ref = torch.empty_like(out)
    W.w4_experts_reference(x, ids, w, m.w13_q, m.w13_s, m.gs13, m.w2_q, m.w2_s, m.gs2, ref, m.fmt)
    assert torch.isfinite(out).all() and _rel(out, ref) < 2e-3


# (fmt, n_tok, tiles): a batch-1 case and a 4-token case with a padding row. The MXFP4 batch-1 case runs the
# shipped launch (tiles None: default_config, BN 8, evict-first weights); NVFP4's batch-1 case takes WIDE.
LAYER_CASES = [(fmt, n, tiles) for fmt in ("mxfp4", "nvfp4")
               for n, tiles in ((1, None if fmt == "mxfp4" else WIDE), (4, WIDE))]


@pytest.mark.parametrize("fmt,n_tok,tiles", LAYER_CASES,
                         ids=[f"{n}tok{'-shipped' if t is None else ''}-{f}" for f, n, t in LAYER_CASES])
def test_layer_matches_bf16_moe_on_dequantized_weights(device, fmt, n_tok, tiles):
    """The W4 layer against the bf16 MoE (and the per-expert loop) run on the load-time dequantised weights
    with the same router: equal to bf16 rounding."""
    m = _module(fmt, device, seed=2)
    m.kernel_cfg = tiles
    g = torch.Generator().manual_seed(20 + n_tok)
    x = torch.randn(n_tok, D, generator=g).to(torch.bfloat16).to(device)
    ids = torch.randint(0, 64, (n_tok,), generator=g).to(device)
    active = torch.ones(n_tok, dtype=torch.bool, device=device)
    if n_tok > 1:
        active[1] = False
    out = m(x, ids, active).clone()
    w13, w2 = m.dequantized_experts()
    bf = M.DSV4MoE(D, INTER, E, K, vocab=64, max_tokens=24, device=device)
    bf.gemv_cfg = (64, 128, 8)  # its batch > 1 tile at every n_tok: its batch-1 BLOCK_N 2 is test_moe.py's
    with torch.no_grad():
        bf.wg.copy_(m.wg)
        bf.bias.copy_(m.bias)
        bf.w13.copy_(w13)
        bf.w2.copy_(w2)
    ref = bf(x, ids, active)
    assert torch.equal(bf.slot_ids[:n_tok], m.slot_ids[:n_tok])
    loop = M.moe_naive_loop(x, m.slot_ids[:n_tok], m.slot_w[:n_tok], w13, w2)
    assert _rel(out, ref) < 1.5e-2 and _rel(out, loop) < 1.5e-2
    if n_tok > 1:
        assert out[1].abs().max().item() == 0.0


def test_layer_deterministic_with_poisoned_workspaces(device):
    """A second forward over every workspace poisoned (the x planes, per-token scales, fp16 h and y_slot)
    gives the bitwise same output: nothing is read before this forward wrote it."""
    m = _module("mxfp4", device, seed=3)
    m.kernel_cfg = WIDE
    g = torch.Generator().manual_seed(5)
    x = torch.randn(2, D, generator=g).to(torch.bfloat16).to(device)
    ids = torch.zeros(2, dtype=torch.long, device=device)
    active = torch.ones(2, dtype=torch.bool, device=device)
    first = m(x, ids, active).clone()
    for name in ("h16", "x16", "xs", "y_slot"):
        getattr(m, name).fill_(float("nan"))
    assert torch.equal(m(x, ids, active), first)


def test_hash_layer_and_compile(device, compile_backend):
    m = _module("nvfp4", device, seed=4, use_hash=True)
    m.kernel_cfg = WIDE
    g = torch.Generator().manual_seed(9)
    x = torch.randn(2, D, generator=g).to(torch.bfloat16).to(device)
    ids = torch.tensor([3, 17], device=device)
    active = torch.ones(2, dtype=torch.bool, device=device)
    eager = m(x, ids, active).clone()
    assert torch.equal(m.slot_ids[:2, :K].cpu(), m.tid2eid[ids].cpu())
    compiled = torch.compile(m, fullgraph=True, backend="aot_eager")
    assert torch.equal(compiled(x, ids, active), eager)


def _ptx_decode(word: int) -> tuple[int, int]:
    """Run the integer part of variant 5's PTX routine (everything before its first `mov`) on one word:
    a four-instruction evaluator (and / shr / shl / lop3), so the shipped constants are what is tested."""
    regs = {"q": word & 0xFFFFFFFF}

    def val(a: str) -> int:
        return int(a, 16) if a.startswith("0x") else (int(a) if a.isdigit() else regs[a])

    for stmt in W._ptx_word("q", "a,b,c,d", "out").split(";"):
        op, _, args = stmt.strip().lstrip("{").strip().partition(" ")
        if op.startswith(("mov", "cvt")):
            break
        if not op or op.startswith(".reg"):
            continue
        a = [t.strip() for t in args.split(",")]
        if op == "and.b32":
            regs[a[0]] = val(a[1]) & val(a[2])
        elif op == "shr.u32":
            regs[a[0]] = val(a[1]) >> val(a[2])
        elif op == "shl.b32":
            regs[a[0]] = (val(a[1]) << val(a[2])) & 0xFFFFFFFF
        elif op == "lop3.b32" and a[4] == "0xEA":  # (a & b) | c
            regs[a[0]] = (val(a[1]) & val(a[2])) | val(a[3])
        else:
            raise AssertionError(f"unexpected PTX op {op!r}")
    return regs["e"], regs["o"]


def _e4m3_bytes(v: int) -> torch.Tensor:
    """The 4 bytes of a 32-bit register, little end first, read as E4M3 values (fp32)."""
    return torch.tensor(list(v.to_bytes(4, "little")), dtype=torch.uint8).view(torch.float8_e4m3fn).float()


def test_kernel_byte_order_and_the_five_op_decode():
    """The module stores packed bytes in the kernel byte order (a bijection on bytes, undone exactly), and
    on that order the PTX routine's integer ops turn a word into E4M3 bytes holding its even codes
    (k0, k2, k4, k6) and odd codes (k1, k3, k5, k7), each equal to the E2M1 value * 2^-6."""
    every = torch.arange(256, dtype=torch.int32).to(torch.uint8)
    kern = W.to_kernel_order(every)
    assert sorted(kern.tolist()) == list(range(256))
    assert torch.equal(W.to_checkpoint_order(kern), every)
    # 0x21: even code 1 (+0.5: M) at bit 2, odd code 2 (+1.0: E0) at bit 1; 0x88: both signs of zero
    assert kern[0x21] == 0x06 and kern[0x88] == 0xA0
    with pytest.raises(ValueError, match="to_kernel_order: packed weights must be uint8"):
        W.to_kernel_order(every.to(torch.int32))
    g = torch.Generator().manual_seed(5)
    for _ in range(200):
        codes = torch.randint(0, 16, (8,), generator=g)
        word = int.from_bytes(bytes(W.to_kernel_order(fp4.pack_nibbles(codes)).tolist()), "little")
        e, o = _ptx_decode(word)
        want = fp4.decode_e2m1(codes) / 64
        assert torch.equal(_e4m3_bytes(e), want[0::2]) and torch.equal(_e4m3_bytes(o), want[1::2])


def test_state_dict_round_trip_and_version_1_migration():
    """The packed buffers are saved in the kernel byte order and load back unchanged; a version-1
    state_dict (checkpoint byte order, saved before §11) is converted on load, so its experts dequantise
    to the same values."""
    w13 = torch.randn(E + 1, 2 * INTER, D) * 0.1
    w2 = torch.randn(E + 1, D, INTER) * 0.1
    src = W.make_moe("mxfp4", dim=D, inter=INTER, n_experts=E, top_k=K)
    src.load_dense(w13, w2)
    sd = src.state_dict()
    assert sd._metadata[""]["version"] == 2
    dst = W.make_moe("mxfp4", dim=D, inter=INTER, n_experts=E, top_k=K)
    dst.load_state_dict(sd)
    assert torch.equal(dst.w13_q, src.w13_q) and torch.equal(dst.w2_q, src.w2_q)
    old = {k: (W.to_checkpoint_order(v) if k in ("w13_q", "w2_q") else v) for k, v in sd.items()}
    old = type(sd)(old)
    old._metadata = {k: dict(v) for k, v in sd._metadata.items()}
    old._metadata[""]["version"] = 1
    dst2 = W.make_moe("mxfp4", dim=D, inter=INTER, n_experts=E, top_k=K)
    dst2.load_state_dict(old)
    assert torch.equal(dst2.w13_q, src.w13_q) and torch.equal(dst2.w2_q, src.w2_q)
    assert torch.equal(dst2.dequantized_experts(torch.float32)[0], src.dequantized_experts(torch.float32)[0])


def test_make_moe_and_load_validation():
    assert isinstance(W.make_moe("bf16", dim=D, inter=INTER, n_experts=E, top_k=K), M.DSV4MoE)
    m = W.make_moe("mxfp4", dim=D, inter=INTER, n_experts=E, top_k=K)
    assert isinstance(m, W.DSV4MoEW4) and m.w13_q.shape == (E + 1, 2 * INTER, D // 2)
    assert W.make_moe("nvfp4", dim=D, inter=INTER, n_experts=E, top_k=K).w13_s.shape == (E + 1, 2 * INTER, D // 16)
    with pytest.raises(ValueError, match="weight_format"):
        W.make_moe("int4", dim=D, inter=INTER, n_experts=E)
    w13 = torch.randn(E + 1, 2 * INTER, D) * 0.1
    w2 = torch.randn(E + 1, D, INTER) * 0.1
    packed = W.quantize_experts(w13, w2, "mxfp4")
    bad = dict(packed, w13_s=packed["w13_s"].clone())
    bad["w13_s"][0, 0, 0] = 255
    with pytest.raises(ValueError, match="E8M0 codes"):
        m.load_packed(bad)
    bad = dict(packed, w2_s=packed["w2_s"][..., :-1])
    with pytest.raises(ValueError, match="w2_s"):
        m.load_packed(bad)
    bad = dict(packed, w13_q=packed["w13_q"].view(torch.int8))
    with pytest.raises(ValueError, match="w13_q: packed weights must be uint8"):
        m.load_packed(bad)
    nv = W.make_moe("nvfp4", dim=D, inter=INTER, n_experts=E, top_k=K)
    packed = W.quantize_experts(w13, w2, "nvfp4")
    bad = dict(packed, w2_s=packed["w2_s"].clone())
    bad["w2_s"][1, 2, 0] = 0x7F
    with pytest.raises(ValueError, match="NaN"):
        nv.load_packed(bad)
    nv.load_packed(packed)
    assert torch.equal(W.to_checkpoint_order(nv.w13_q), packed["w13_q"])  # stored in the kernel byte order
    assert not torch.equal(nv.w13_q, packed["w13_q"])
    d13, d2 = nv.dequantized_experts(torch.float32)
    # gate and up halves carry their own global scales
    assert not torch.equal(packed["gs13"][:, 0], packed["gs13"][:, 1])
    assert _rel(d13, w13) < 0.15 and _rel(d2, w2) < 0.15


@pytest.mark.parametrize("fmt", ["mxfp4", "nvfp4"])
def test_per_token_scale_keeps_huge_and_tiny_activations(device, fmt):
    """The GEMV scales x per token by a power of two before its fp16 products: a token at |x| ~ 3e4 (past
    where fixed fp16 sums of products would overflow) and one at |x| ~ 1e-2 (fp16 subnormal products
    otherwise) both match the dequant reference; an all-zero token gives exactly 0. The limit is h, stored
    as fp16 * 2^6 with a fixed scale: at |x| ~ 1e-3 (h <= 2e-6 at these dims) an fp16 emulation of the GPU
    arithmetic gives 1.2e-2 (docs/notes/kernels-fp4-log.md §7), far below what a normed MoE input produces."""
    m = _module(fmt, device, seed=7)
    g = torch.Generator().manual_seed(13)
    n_tok = 3
    ids = torch.randint(0, E + 1, (n_tok, K + 1), generator=g).to(torch.int32).to(device)
    w = torch.rand(n_tok, K + 1, generator=g).to(device)
    x = torch.randn(n_tok, D, generator=g)
    x[0] *= 1e4
    x[1] *= 1e-2
    x[2] = 0.0
    x = x.to(torch.float16).float().to(device)
    n = n_tok * (K + 1)
    h = torch.full((n, INTER), float("nan"), device=device, dtype=torch.float16)
    y = torch.full((n, D), float("nan"), device=device)
    out = torch.full((n_tok, D), float("nan"), device=device)
    x16 = torch.empty(n_tok, D, dtype=torch.float16, device=device)
    xs = torch.empty(n_tok, device=device)
    W.moe_w4_experts(x, ids, w, m.w13_q, m.w13_s, m.gs13, m.w2_q, m.w2_s, m.gs2, x16, xs, h, y, out, m.fmt, *WIDE)
    ref = torch.empty_like(out)
    W.w4_experts_reference(x, ids, w, m.w13_q, m.w13_s, m.gs13, m.w2_q, m.w2_s, m.gs2, ref, m.fmt)
    assert torch.isfinite(out).all()
    for t in (0, 1):
        assert _rel(out[t], ref[t]) < 2e-3, t
    assert out[2].abs().max().item() == 0.0
