#!/usr/bin/env python3
"""Fetch the accuracy corpora: public inference code graphlint was never tuned on, at pinned versions.

    python benchmarks/accuracy/fetch.py [--dest benchmarks/accuracy/.corpora]
    python benchmarks/accuracy/fetch.py --fresh [--dest benchmarks/accuracy/.fresh]
    python benchmarks/accuracy/fetch.py --unseen [--dest benchmarks/accuracy/.unseen] [--mirror DIR]
    python benchmarks/accuracy/fetch.py --blind [--dest benchmarks/accuracy/.blind] [--mirror DIR]
    python benchmarks/accuracy/fetch.py --sealed [--dest benchmarks/accuracy/.sealed] [--mirror DIR]
    python benchmarks/accuracy/fetch.py --vault [--mirror DIR]   (and --novel, --hidden, --reserve, --frontier, --cellar, --attic,
    --loft, --quarry, --depot alike)

Each corpus is one wheel from PyPI, downloaded with `pip download --no-deps --only-binary :all:`
(for a binary wheel, with the platform and Python pinned so every machine gets the same file),
checked against the sha256 pinned below (a mismatch is an error: labels point at exact lines), and
the `.py` files of the labelled package subtree unpacked into `<dest>/<name>/` (the wheel's own layout,
so `<dest>/litgpt/litgpt/generate/base.py`). A corpus already unpacked from the pinned file is left
alone. `--fresh` fetches the untouched test set (labels_fresh.json) into its own folder, apart from
the dev corpora that graphlint work looks at. The git-pinned test sets (GIT_SETS: `--unseen`, `--blind`, `--sealed`,
labels_<set>_*.json) are public git repositories pinned at a commit; each corpus's sub-folder is
checked out at exactly that commit (the hash verified) into `<dest>/<name>/<its path below the corpus's root>/`
(by default the folder's last part; a root of "" keeps the whole path, `colossalai/inference/`, with the parents'
`__init__.py`s, so the code's imports resolve; a repository root, folder ".", into `<dest>/<name>/<repository name>/`).
With `--mirror DIR` a bare mirror under DIR (`DIR/<owner>+<repo>/repo`, or DIR itself) replaces the
network. Exit 0 when every corpus is in place, 2 when one could
not be fetched or verified.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DEST = HERE / ".corpora"
FRESH_DEST = HERE / ".fresh"  # kept apart: nothing but the final scoring run should lint it
STAMP = ".fetched-sha256"


@dataclass(frozen=True)
class Corpus:
    name: str  # the key labels use (`"corpus"`) and the folder under <dest>
    requirement: str  # what pip downloads
    wheel: str  # the exact file pip must produce
    sha256: str
    package: str  # the top-level import package
    why: str  # what inference code it brings
    include: tuple[str, ...] = ()  # folders of the package to unpack (and lint); empty: all of it
    pip_args: tuple[str, ...] = ()  # extra `pip download` arguments (the platform of a binary wheel)
    also: tuple[str, ...] = ()  # other top-level packages of the wheel unpacked whole (scripts that drive it)

    def prefixes(self) -> tuple[str, ...]:
        own = tuple(f"{self.package}/{sub}" for sub in self.include) or (self.package + "/",)
        return own + tuple(pkg + "/" for pkg in self.also)


CORPORA: tuple[Corpus, ...] = (
    Corpus("litgpt", "litgpt==0.5.13", "litgpt-0.5.13-py3-none-any.whl",
           "da044b76c52cd44fc0564f6177ed6cf186dde24f711ce8e71e1fd9e9da5f02b2", "litgpt",
           "decode loop, KV cache, samplers, speculative decoding; "
           "`torch.compile(next_token, mode=\"reduce-overhead\")` capture sites"),
    Corpus("exllamav2", "exllamav2==0.3.2", "exllamav2-0.3.2-py3-none-any.whl",
           "7cd61ae4bf1d8d12034595ab9731f0f43bac415d6394fbb273d4383293d6079e", "exllamav2",
           "paged dynamic generator, sampler, KV caches, attention backends, quantized linear wrappers"),
    Corpus("mistral_inference", "mistral-inference==1.6.0", "mistral_inference-1.6.0-py3-none-any.whl",
           "ab55f27381836d81e67b323eea21bc0f5f483a9eff8c603d04d9fabde925e836", "mistral_inference",
           "generate loop, buffer cache with per-step metadata, MoE routing"),
    Corpus("fla", "fla-core==0.6.0", "fla_core-0.6.0-py3-none-any.whl",
           "b0708b70e0b119cd58a0a5146ea56cb175cef6ed969d8ac60267e3e077ce3ebd", "fla",
           "Triton kernel wrappers for linear attention with varlen `cu_seqlens` handling, layers, caches"),
    Corpus("diffusers", "diffusers==0.42.1", "diffusers-0.42.1-py3-none-any.whl",
           "9154faa704ce00e0b77f568e0d64786064368528aab5fc14eeea92f87d788014", "diffusers",
           "noise schedulers whose step() runs once per denoising step (the step tier of a diffusion loop)",
           include=("schedulers/",)),
)

# A binary wheel's name (and hash) depends on the platform: pin it rather than take this machine's.
CP311_LINUX = ("--platform", "manylinux_2_28_x86_64", "--python-version", "3.11", "--implementation", "cp",
               "--abi", "cp311")

# The untouched test set: scored only once, at the very end of a piece of work (score.py --fresh).
FRESH_CORPORA: tuple[Corpus, ...] = (
    Corpus("lmdeploy", "lmdeploy==0.18.0", "lmdeploy-0.18.0-cp311-cp311-manylinux_2_28_x86_64.whl",
           "e6790a25dcdb0345c160567fdf2ac604fec319389523a8b806834c9d92c8ffe1", "lmdeploy",
           "PyTorch serving engine: CUDA-graph runner, per-step input preparation, paged KV cache, "
           "sampling, backend attention/MoE ops reached through op builders",
           include=("pytorch/",), pip_args=CP311_LINUX),
    Corpus("torchtune", "torchtune==0.6.1", "torchtune-0.6.1-py3-none-any.whl",
           "bcbc4ee9774b5c5829a5ff13df851e0b0e32416c018af8db53faa3472ac256e7", "torchtune",
           "generation loop with KV caches and masks, attention/MoE/vision modules, RLHF rollouts, "
           "training utilities; its recipes compile generate_next_token with mode=\"max-autotune\" (a capture site)",
           also=("recipes",)),
)


@dataclass(frozen=True)
class GitCorpus:
    name: str  # the key labels use (`"corpus"`) and the folder under <dest>
    url: str  # the public repository
    commit: str  # the full 40-hex commit the labels were made on
    folder: str  # the sub-folder kept ("." the root); labels' `file` starts with its path below `root`
    why: str  # what inference code it brings
    include: tuple[str, ...] = ()  # paths under the folder to keep (prefixes, relative to it); empty: all
    # The repository folder the import path starts in: the kept files land at their path below it, with the
    # `__init__.py` of each package folder in between, so `from colossalai.inference.x import y` resolves in
    # the linted tree. None: the folder's parent (a src/ layout, a project folder: the last part is kept).
    root: str | None = None

    def __post_init__(self) -> None:
        folder = self.folder.strip("/")
        if self.root is not None and (folder in ("", ".") or not (
                self.root.strip("/") == "" or folder.startswith(self.root.strip("/") + "/"))):
            raise ValueError(f"{self.name}: root {self.root!r} is not a folder above {self.folder!r}")

    @property
    def pin(self) -> str:
        """What the fetch stamp records: the commit, the kept paths when only some are kept, and the kept
        folder's place when `root` sets it (so a checkout in the older layout reads as stale)."""
        place = () if self.root is None else (f"as {self.tree_paths()[1]}/",)
        return " ".join((self.commit, *self.include, *place))

    def mirror_name(self) -> str:
        """`owner+repo`, the folder name a local mirror of the repository uses."""
        owner, repo = self.url.rstrip("/").removesuffix(".git").split("/")[-2:]
        return f"{owner}+{repo}"

    def base(self) -> str:
        """The repository folder the kept paths are placed relative to ("" the repository root)."""
        folder = self.folder.strip("/")
        if folder in ("", "."):
            return ""
        return folder.rpartition("/")[0] if self.root is None else self.root.strip("/")

    def tree_paths(self) -> tuple[str, str]:
        """(the kept folder as git names it, "" for the root; the folder its files go to under <dest>/<name>/):
        a sub-folder keeps its path below `base()`, the root takes the repository's name, so a corpus's files
        always sit in one folder that score.py can lint."""
        folder = self.folder.strip("/")
        if folder in ("", "."):
            return "", self.mirror_name().split("+", 1)[1]
        base = self.base()
        return folder, folder[len(base) + 1:] if base else folder

    def parent_inits(self) -> tuple[str, ...]:
        """The `__init__.py` of each folder between `base()` and the kept folder (those the commit has are
        fetched with it): `deepspeed/__init__.py`, `deepspeed/inference/__init__.py` for `deepspeed/inference/v2`."""
        folder, top = self.tree_paths()
        parts = top.split("/") if folder else []
        prefix = self.base() + "/" if self.base() else ""
        return tuple(f"{prefix}{'/'.join(parts[:i])}/__init__.py" for i in range(1, len(parts)))

    def place(self, path: str) -> str | None:
        """Where a file of the commit goes under <dest>/<name>/, None when it is not kept."""
        folder, top = self.tree_paths()
        if not folder:
            return f"{top}/{path}"
        if not (path.startswith(folder + "/") or path in self.parent_inits()):
            return None
        base = self.base()
        return path[len(base) + 1:] if base else path


@dataclass(frozen=True)
class GitSet:
    """A test set of git-pinned corpora: `fetch.py --<key>`, labels in labels_<key>_*.json (split `<key>`)."""
    dest: Path  # its own folder, so a linked dev `.corpora` never exposes it
    corpora: tuple[GitCorpus, ...]
    why: str


# The untouched test sets pinned at git commits, labelled by reading code only and scored once, at the end.
GIT_SETS: dict[str, GitSet] = {
    "unseen": GitSet(HERE / ".unseen", (
        GitCorpus("tgi", "https://github.com/huggingface/text-generation-inference",
                  "db931fcf42da018a3657580c64bf2720f167f9ab", "server/text_generation_server",
                  "Hugging Face text-generation-inference's server: CUDA-graph capture and replay of the decode "
                  "forward (flash_causal_lm.py), batch filtering, next-token choosers, stopping criteria, layers"),
        GitCorpus("lightllm", "https://github.com/ModelTC/lightllm",
                  "fc72ffab9a3455cfb571f22d45ab777cc29de0de", "lightllm",
                  "LightLLM's serving engine: model runners with CUDA graphs, router, post-processing, "
                  "Triton kernels and their wrappers"),
    ), "the second untouched set (TGI, LightLLM)"),
    "blind": GitSet(HERE / ".blind", (
        GitCorpus("megatron", "https://github.com/NVIDIA/Megatron-LM",
                  "d98e8a64ddf34856e74b24714e3bedb2f5a39553", "megatron",
                  "Megatron Core's inference engine: dynamic engine and context (paged KV cache, request "
                  "bookkeeping), CUDA-graphed decode steps, text-generation controller (sampling, speculative "
                  "MTP), inference MoE, and the transformer/GPT model code the graphs record",
                  include=("core/__init__.py", "core/inference/", "core/transformer/", "core/models/gpt/",
                           "core/models/common/", "core/inference_params.py", "core/full_cuda_graph.py",
                           "core/utils.py")),
        GitCorpus("ktransformers", "https://github.com/kvcache-ai/ktransformers",
                  "95009ea6856c0799e517e93cb12be5e8494bc7ce", "archive/ktransformers",
                  "KTransformers: CPU/GPU hybrid MoE inference, balance_serve runner and batch builder, "
                  "CUDA-graph capture, dynamic attention, injected operators, weight loaders"),
        GitCorpus("nanovllm", "https://github.com/GeeeekExplorer/nano-vllm",
                  "bb823b3e06983d71485a8e1f23715ebd87d98ef8", "nanovllm",
                  "nano-vllm: a small vLLM-style engine with a scheduler, block manager, CUDA-graph "
                  "model runner and sampler"),
    ), "the third untouched set, labelled in session 5"),
    "sealed": GitSet(HERE / ".sealed", (
        GitCorpus("lmdeploy_git", "https://github.com/InternLM/lmdeploy",
                  "1263d5cd889b7ad500e85b8eb20401327a4516ab", "lmdeploy",
                  "lmdeploy's PyTorch engine from git (0.16.0 dev line; `lmdeploy` names the 0.18.0 wheel of the "
                  "fresh set): CUDA-graph runner, model agent and inputs maker, sampling and logits processing, "
                  "speculative decoding, attention/MoE backends, nn layers, Triton kernel wrappers and the "
                  "decoder models that matter (Llama, Qwen2/3/3.5, DeepSeek V2/V4 and MTP, Qwen2.5-VL)",
                  include=("__init__.py", "pytorch/__init__.py", "pytorch/engine/", "pytorch/backends/cuda/",
                           "pytorch/backends/default/", "pytorch/backends/graph_runner.py",
                           "pytorch/backends/attention.py", "pytorch/backends/moe.py",
                           "pytorch/backends/token_dispatcher.py", "pytorch/nn/", "pytorch/kernels/cuda/",
                           "pytorch/model_inputs.py", "pytorch/strategies/", "pytorch/spec_decode/",
                           "pytorch/distributed.py", "pytorch/multimodal/", "pytorch/models/utils/",
                           "pytorch/models/patch.py", "pytorch/models/llama.py", "pytorch/models/qwen2.py",
                           "pytorch/models/qwen3.py", "pytorch/models/qwen3_moe.py", "pytorch/models/qwen3_5.py",
                           "pytorch/models/qwen2_5_vl.py", "pytorch/models/deepseek_v2.py",
                           "pytorch/models/deepseek_v4.py", "pytorch/models/deepseek_mtp.py")),
        GitCorpus("gptfast", "https://github.com/pytorch-labs/gpt-fast",
                  "32971d3129541c5bfb4f715abc33d1c5f408d204", ".",
                  "gpt-fast (its repository root, kept as `gpt-fast/`): decode loop with `decode_one_token` "
                  "compiled `mode=\"reduce-overhead\"` (a CUDA-graph capture site), speculative decoding, static "
                  "KV cache, tensor parallelism, the Mixtral MoE variant, int8/int4/GPTQ quantization"),
        GitCorpus("mamba", "https://github.com/state-spaces/mamba",
                  "e9594ce1c732d97440f0332fdc43170a2294dbfa", "mamba_ssm",
                  "Mamba (mamba_ssm): decode loop with `torch.cuda.graph` capture and replay of the decode step, "
                  "the Mamba/Mamba2/Mamba3/MHA mixers whose `step()` the graph records, the selective-scan and "
                  "SSD Triton wrappers (seq_idx/cu_seqlens handling), layer norms, tensor-parallel layers",
                  include=("__init__.py", "utils/", "models/", "modules/", "distributed/",
                           "ops/__init__.py", "ops/selective_scan_interface.py", "ops/triton/")),
        GitCorpus("eagle", "https://github.com/SafeAILab/EAGLE",
                  "cb7e0841fe0c206c6ed74a197ad5e2a1f13f5a2b", "eagle",
                  "EAGLE speculative decoding: the generate loops of EaModel, tree decoding and posterior "
                  "evaluation run every step, the draft model's topK_genrate, the KV cache, and the "
                  "HF-derived base models with KV-cache forwards, and the Gradio demo that streams from them",
                  include=("__init__.py", "model/", "application/")),
    ), "the fourth untouched set, labelled in session 6 (lmdeploy from git, gpt-fast, mamba, EAGLE)"),
    "novel": GitSet(HERE / ".novel", (
        GitCorpus("colossal", "https://github.com/hpcaitech/ColossalAI",
                  "4f9953be335ef371b3848719ddafe596c01ecd37", "colossalai/inference",
                  "ColossalAI's inference engine: request handler and batch bucket, CUDA-graph runner, "
                  "KV cache manager, sampler and logit processors, speculative decoding, modeling policies",
                  root=""),
        GitCorpus("deepspeed", "https://github.com/microsoft/DeepSpeed",
                  "38327e07f6cd39b63418f60cedd1651b0be3e7c3", "deepspeed/inference/v2",
                  "DeepSpeed-FastGen's inference v2: ragged batching (state manager, blocked KV cache, ragged "
                  "wrapper), engine, model implementations and their kernel modules",
                  root=""),
        GitCorpus("triforce", "https://github.com/Infini-AI-Lab/TriForce",
                  "164c8c0131cf49951eefdea89a3fbcccb8ca326b", ".",
                  "TriForce (its repository root, kept as `TriForce/`): hierarchical speculative decoding with "
                  "CUDA-graph captured draft and verify steps, offloaded and retrieval KV caches, tensor "
                  "parallelism, sampling",
                  include=("models/", "utils/", "tree/", "test/")),
        GitCorpus("medusa", "https://github.com/FasterDecoding/Medusa",
                  "e2a5d20c048a9b0a4092e6933c34313687422518", "medusa",
                  "Medusa speculative decoding: the generate loop of MedusaModel, tree candidates and "
                  "posterior evaluation every step, the KV cache, HF-derived Llama/Mistral with KV forwards"),
        GitCorpus("flashinfer", "https://github.com/flashinfer-ai/flashinfer",
                  "fb28d7242b3506a2348265962041acc1fb56cca4", "flashinfer",
                  "FlashInfer's Python wrappers: plan/run of decode, prefill, cascade, sparse, POD and MLA "
                  "attention (CUDA-graph modes), paged KV append, sampling and top-k, logits processors",
                  include=("__init__.py", "decode.py", "prefill.py", "page.py", "sampling.py", "cascade.py",
                           "sparse.py", "pod.py", "topk.py", "utils.py", "mla/", "logits_processor/")),
        GitCorpus("tinychat", "https://github.com/mit-han-lab/llm-awq",
                  "d6e797a42b9ef7778de8ee2352116e0f48a78d61", "tinychat",
                  "TinyChat (llm-awq): streaming generators whose loop runs the decode forward every token, "
                  "AWQ-quantized linear and fused attention modules with their KV caches, model definitions "
                  "(Llama, Falcon, MPT, VILA), and the chat/serve front ends",
                  include=("models/", "modules/", "stream_generators/", "utils/", "demo.py", "benchmark.py")),
        GitCorpus("magicdec", "https://github.com/Infini-AI-Lab/MagicDec",
                  "09cd671c01bc87f7570d3243c46200a96f0fc0b4", "Engine",
                  "MagicDec's engines: self-speculative decoding with StreamingLLM and SnapKV draft caches, "
                  "`torch.compile` model forwards, KV-cache bookkeeping and the backend's decode loop"),
        GitCorpus("lade", "https://github.com/hao-ai-lab/LookaheadDecoding",
                  "eed010da9c7b1867912675d480feec5629e0c2d0", "lade",
                  "Lookahead decoding (lade): a Jacobi/n-gram decoding loop patched into HF generation, "
                  "verification branches and the distributed variant"),
    ), "the fifth untouched set, labelled in session 7 (ColossalAI, DeepSpeed, TriForce, Medusa, flashinfer, TinyChat, MagicDec, lade)"),
    "hidden": GitSet(HERE / ".hidden", (
        GitCorpus("omniserve", "https://github.com/mit-han-lab/omniserve",
                  "02b2925aa6fa3b92b06316a1524b7f38922cd9c8", "omniserve",
                  "OmniServe (QServe + LServe): a serving engine with CUDA-graph decode, paged and block-sparse "
                  "KV caches, a scheduler and sequence groups, sampler, quantized model definitions"),
        GitCorpus("torchchat", "https://github.com/pytorch/torchchat",
                  "a1a7f3702e52fffd798e302fa049b56b608602aa", "torchchat",
                  "torchchat: a generate loop with `torch.compile(decode_one_token, mode=\"reduce-overhead\")`, "
                  "speculative decoding, the model with its KV caches, an OpenAI-style server, distributed "
                  "pipeline-parallel generation"),
        GitCorpus("whisper", "https://github.com/openai/whisper",
                  "c0d2f624c09dc18e709e37c2ad90c039a4eb72a2", "whisper",
                  "Whisper: the decoding loop with KV-cache hooks, logit filters, beam search and timestamp "
                  "rules, transcription over audio windows, Triton DTW for word timestamps"),
        GitCorpus("dsv3", "https://github.com/deepseek-ai/DeepSeek-V3",
                  "9b4e9788e4a3a731f7567338ed15d3ec549ce03b", "inference",
                  "DeepSeek-V3's reference inference: the generate loop, MLA with its caches, MoE gate and "
                  "experts, FP8 Triton kernels, checkpoint conversion"),
        GitCorpus("kvpress", "https://github.com/NVIDIA/kvpress",
                  "8bb29b9c3078452a86d692f29123fa6c793e2b05", "kvpress",
                  "kvpress: KV-cache compression presses applied through forward hooks on attention layers "
                  "during prefill (and decoding presses), the pipeline's generation loop, attention patches"),
        GitCorpus("shadowkv", "https://github.com/bytedance/ShadowKV",
                  "a21f5a9ebd7956fe3510b0f29cf13c4fe07ca3b1", ".",
                  "ShadowKV (its repository root, kept as `ShadowKV/`): long-context decoding with a "
                  "low-rank key cache on the GPU and values offloaded to the CPU, sparse KV selection every "
                  "step, an eager decode with custom kernels (no capture site), model definitions (Llama, GLM, Phi-3, "
                  "Qwen)",
                  include=("models/", "test/")),
    ), "the sixth untouched set, labelled in session 8 (OmniServe, torchchat, Whisper, DeepSeek-V3, kvpress, ShadowKV)"),
    "reserve": GitSet(HERE / ".reserve", (
        GitCorpus("fishspeech", "https://github.com/fishaudio/fish-speech",
                  "3dd1f85c402ee6f0a17c2971d3b0dd8d881ca139", "fish_speech",
                  "Fish Speech: a dual autoregressive text-to-speech LLM whose token loop runs a compiled decode "
                  "step, its KV caches, the codec, and the inference engine's request loop"),
        GitCorpus("parlertts", "https://github.com/huggingface/parler-tts",
                  "d108732cd57788ec86bc857d99a6cabd66663d68", "parler_tts",
                  "Parler-TTS: a generation mixin's own sampling loop over delay-pattern audio codes, a streamer, "
                  "static caches, the DAC codec wrapper"),
        GitCorpus("flexllmgen", "https://github.com/FMInference/FlexLLMGen",
                  "004ffef82b46e8dc8685c55d0cdda650bdaf1269", "flexllmgen",
                  "FlexLLMGen: offloaded throughput generation (weights, KV cache and activations over GPU, CPU and "
                  "disk), its per-step load/store schedule with streams, compression, OPT model code"),
        GitCorpus("audiocraft", "https://github.com/facebookresearch/audiocraft",
                  "896ec7c47f5e5d1e5aa1e4b260c4405328bf009d", "audiocraft",
                  "AudioCraft: the language model's generate loop over codebook patterns, transformer streaming "
                  "state, conditioners, the EnCodec compression model",
                  include=("__init__.py", "models/", "modules/", "quantization/", "utils/")),
    ), "the seventh untouched set, labelled in session 8 for the next session (Fish Speech, Parler-TTS, FlexLLMGen, AudioCraft)"),
    "frontier": GitSet(HERE / ".frontier", (
        GitCorpus("petals", "https://github.com/bigscience-workshop/petals",
                  "22afba627a7eb4fcfe9418c49472c6a51334b8ac", "src/petals",
                  "Petals: distributed inference over remote transformer blocks, the client's inference sessions and "
                  "generation loop, the server's block backends, memory cache and task pools"),
        GitCorpus("bark", "https://github.com/suno-ai/bark",
                  "f4f32d4cd480dfec1c245d258174bc9bde3c2148", "bark",
                  "Bark: text-to-audio GPT models with their own token loops (semantic, coarse, fine), KV caching, "
                  "sampling on device and on the host"),
        GitCorpus("llamamodels", "https://github.com/meta-llama/llama-models",
                  "a9c89c471f793423afd4cc3ca8671d6e56fe64cb", "models",
                  "Meta's Llama 3 and Llama 4 reference inference: generation loops, KV caches, MoE, vision encoders, "
                  "quantisation helpers"),
        GitCorpus("chattts", "https://github.com/2noise/ChatTTS",
                  "1092c1ffcaa82f4bdef104c35aa5541227c3e1d7", "ChatTTS",
                  "ChatTTS: a GPT text-to-speech model's generation loop with logits processors, the DVAE and vocos "
                  "decoders, the speaker embedding, the inference entry points"),
    ), "the eighth untouched set, labelled in session 9 for the next session (Petals, Bark, llama-models, ChatTTS)"),
    "vault": GitSet(HERE / ".vault", (
        GitCorpus("quest", "https://github.com/mit-han-lab/Quest",
                  "01c1623bf9395009520874e989e29f683203b357", ".",
                  "Quest (its repository root, kept as `Quest/`): query-aware sparse KV selection every decode step, "
                  "its Llama model with a paged KV cache and flashinfer kernels, the controller that builds per-step "
                  "metadata, the evaluation's attention patch, the demo's own decode loop and the text-generation example",
                  include=("quest/__init__.py", "quest/models/", "quest/utils/", "evaluation/quest_attention.py",
                           "scripts/example_demo.py", "scripts/example_textgen.py")),
        GitCorpus("duoattn", "https://github.com/mit-han-lab/duo-attention",
                  "fe93c314ae87306ef6629dc16713250b4718ffe7", ".",
                  "DuoAttention (its repository root, kept as `duo-attention/`): retrieval and streaming heads patched "
                  "into Llama and Mistral attention, static and tuple KV caches, flashinfer helpers, head-pattern "
                  "loading, and the W8A8KV4 demo's model and decode loop",
                  include=("duo_attn/__init__.py", "duo_attn/patch/", "duo_attn/utils.py", "demo/")),
        GitCorpus("kivi", "https://github.com/jy-yuan/KIVI",
                  "876b4d2d08e3b1d5f70d0969c299d8c7c42ddfb6", ".",
                  "KIVI (its repository root, kept as `KIVI/`): 2-bit asymmetric KV-cache quantisation in Llama and "
                  "Mistral attention, residual full-precision windows, Triton pack/quant kernels and their wrappers, the "
                  "two generation examples",
                  include=("models/", "quant/__init__.py", "quant/gemv.py", "quant/matmul.py", "quant/new_pack.py",
                           "quant/qmodule.py", "example.py", "long_context_example.py")),
        GitCorpus("minference", "https://github.com/microsoft/MInference",
                  "fb56c917f618e8645f1cfc37535afd7424d78f0d", "minference",
                  "MInference: dynamic sparse prefill attention (index building per head), KV-cache compression "
                  "methods, model patches for Hugging Face and vLLM, Triton and CUDA kernel wrappers"),
        GitCorpus("xdit", "https://github.com/xdit-project/xDiT",
                  "175e0bfec974d0b44a0be9fa511df2f9f5ead080", "xfuser",
                  "xDiT: parallel diffusion-transformer inference (PipeFusion, sequence and CFG parallelism): the "
                  "denoising-loop pipelines, patched transformer models and attention processors, the runtime state "
                  "and communication groups, caching of activations",
                  include=("__init__.py", "config/", "core/", "model_executor/", "parallel.py", "envs.py",
                           "compile/")),
    ), "the ninth untouched set, labelled in session 10 for the next session (Quest, DuoAttention, KIVI, "
       "MInference, xDiT)"),
    "cellar": GitSet(HERE / ".cellar", (
        GitCorpus("moshi", "https://github.com/kyutai-labs/moshi",
                  "e6a55d2722a65870ef52a6c9f6ecfc0e90f38362", "moshi/moshi",
                  "Moshi's PyTorch package: a streaming speech-text LM whose per-frame step runs under its own CUDA "
                  "graph helper, the depformer's per-codebook loop, the Mimi codec's streaming convolutions and "
                  "quantiser, the TTS model's state machine, the sampler and the inference script's frame loop",
                  include=("models/lm.py", "models/lm_utils.py", "models/tts.py", "models/compression.py",
                           "modules/transformer.py", "modules/streaming.py", "modules/rope.py", "modules/gating.py",
                           "modules/conv.py", "modules/seanet.py", "modules/resample.py", "quantization/",
                           "conditioners/", "utils/sampling.py", "utils/compile.py", "run_inference.py")),
        GitCorpus("janus", "https://github.com/deepseek-ai/Janus",
                  "1daa72fa409002d40931bd7b36a9280362469ead", ".",
                  "Janus (its repository root, kept as `Janus/`): a multimodal LM that generates images token by token "
                  "with classifier-free guidance, its SigLIP vision encoder, VQ image tokenizer and processors, the "
                  "generation and chat scripts' host loops and the Janus-Pro demo",
                  include=("janus/models/", "generation_inference.py", "interactivechat.py",
                           "demo/app_januspro.py")),
        GitCorpus("cosyvoice", "https://github.com/FunAudioLLM/CosyVoice",
                  "ace7c47f41bbd303aa6bf1ea80e6f9fbd595cd40", ".",
                  "CosyVoice (its repository root, kept as `CosyVoice/`): a streaming TTS engine: the speech-token "
                  "LM's decode loop and sampling, the flow-matching decoder with its ODE solver and DiT, the HiFi-GAN "
                  "vocoder, the threaded streaming model wrapper and its front end",
                  include=("cosyvoice/llm/llm.py", "cosyvoice/cli/", "cosyvoice/flow/", "cosyvoice/utils/common.py",
                           "cosyvoice/utils/mask.py", "cosyvoice/transformer/upsample_encoder.py",
                           "cosyvoice/transformer/attention.py", "cosyvoice/hifigan/generator.py")),
        GitCorpus("kvfactory", "https://github.com/Zefan-Cai/KVCache-Factory",
                  "c97f9d706d63d1b56e980f8b81b2a924c21162b3", ".",
                  "KVCache-Factory (its repository root, kept as `KVCache-Factory/`): PyramidKV, SnapKV, H2O, "
                  "StreamingLLM, Quest, NaCl, Scissorhands and MiniCache cache compressors run at prefill and decode, "
                  "the Llama attention patches that call them, the quantised cache and the latency benchmark",
                  include=("pyramidkv/pyramidkv_utils.py", "pyramidkv/quest.py", "pyramidkv/nacl.py",
                           "pyramidkv/scissorhands.py", "pyramidkv/minicache.py", "pyramidkv/quantcache.py",
                           "pyramidkv/monkeypatch.py", "pyramidkv/llama_model_think.py",
                           "scripts/benchmark_latency_memory.py")),
    ), "the tenth untouched set, labelled in session 11 for a later session (Moshi, Janus, CosyVoice, "
       "KVCache-Factory)"),
    "attic": GitSet(HERE / ".attic", (
        GitCorpus("f5tts", "https://github.com/SWivid/F5-TTS",
                  "2ae2c9bd9b64dab2cb069c4b97e5e7673c521e01", "src/f5_tts",
                  "F5-TTS: flow-matching text-to-speech whose ODE sampler runs the DiT/MMDiT/UNetT backbone with "
                  "classifier-free guidance every solver step (with a cached text embedding), the inference "
                  "utilities that chunk text, call the vocoder and cross-fade waves, the socket streaming server and "
                  "Gradio app, the batch evaluation loop and its helpers, the trainer's sample logging and dataset, and "
                  "the TensorRT-LLM Triton backend's per-step loop with its benchmark and vocoder export",
                  include=("api.py", "infer/utils_infer.py", "infer/infer_cli.py", "infer/speech_edit.py",
                           "infer/infer_gradio.py", "model/__init__.py", "model/cfm.py", "model/modules.py",
                           "model/utils.py", "model/backbones/", "model/trainer.py", "socket_server.py",
                           "model/dataset.py", "eval/eval_infer_batch.py", "eval/utils_eval.py",
                           "runtime/triton_trtllm/benchmark.py", "runtime/triton_trtllm/model_repo_f5_tts/f5_tts/1/",
                           "runtime/triton_trtllm/scripts/export_vocoder_to_onnx.py",
                           "runtime/triton_trtllm/scripts/conv_stft.py")),
        GitCorpus("snapkv", "https://github.com/FasterDecoding/SnapKV",
                  "e216ddc84c5bd210378cbdbbba12ba02102aa640", ".",
                  "SnapKV (its repository root, kept as `SnapKV/`): prefill-time KV-cache compression patched into "
                  "the Llama, Mistral and Mixtral attention and `prepare_inputs_for_generation` of transformers "
                  "4.37, the cluster that picks the kept positions, and the LongBench prediction driver",
                  include=("snapkv/", "experiments/LongBench/pred_snap.py")),
        GitCorpus("gemma", "https://github.com/google/gemma_pytorch",
                  "014acb7ac4563a5f77c76d7ff98f31b568c16508", ".",
                  "gemma_pytorch (its repository root, kept as `gemma_pytorch/`): Gemma 1/2/3 reference inference "
                  "with its own decode loop over a static KV cache (index_copy_ at CUDA positions), the sampler, "
                  "local/global attention masks, the Gemma 3 multimodal model with its SigLIP encoder and "
                  "preprocessors, the tensor-parallel variant (model_xla.py, whose run_xla.py decode loop runs on CUDA "
                  "with USE_CUDA set), and the run scripts",
                  include=("gemma/__init__.py", "gemma/config.py", "gemma/model.py", "gemma/gemma3_model.py",
                           "gemma/gemma3_preprocessor.py", "gemma/tokenizer.py", "gemma/siglip_vision/",
                           "gemma/model_xla.py", "gemma/xla_model_parallel.py", "scripts/run.py",
                           "scripts/run_multimodal.py", "scripts/run_xla.py")),
    ), "the eleventh untouched set, labelled in session 12 for a later session (F5-TTS, SnapKV, gemma_pytorch)"),
    "loft": GitSet(HERE / ".loft", (
        GitCorpus("chameleon", "https://github.com/facebookresearch/chameleon",
                  "dbbe47fdbc7a3cc4982ae931fea75e227262e70a", "chameleon",
                  "Chameleon's inference engine: the mixed-modal decode loop whose transformer step runs under its "
                  "own CUDA-graph capture (cudagraph.py), the token selectors, logits processors and stopping "
                  "criteria applied every token, the model with its KV cache, the VQGAN image tokenizer, the "
                  "loaders, the examples, the streaming decoders of the local and distributed viewer backends and "
                  "the miniviewer's generation thread",
                  include=("__init__.py", "inference/", "miniviewer/miniviewer.py",
                           "viewer/backend/models/chameleon_local.py",
                           "viewer/backend/models/chameleon_distributed.py")),
        GitCorpus("llava", "https://github.com/haotian-liu/LLaVA",
                  "c121f0432da27facab705978f83c4ada465e46fd", "llava",
                  "LLaVA's inference code: the multimodal arch that encodes images with the CLIP vision tower and "
                  "projector and splices them into the token embeddings (padding, AnyRes patches), the Llama, Mistral "
                  "and MPT wrappers whose generate() runs the Hugging Face decode loop, the model loader, the mm "
                  "utilities (image processing, tokenisation, keyword stopping criteria), the CLI chat, the model "
                  "worker's threaded streaming generate, run_llava, the VQA evaluation drivers, and the trainer's "
                  "sampler and adapter saving with the two attention patches used in training",
                  include=("__init__.py", "constants.py", "utils.py", "mm_utils.py", "model/", "serve/cli.py",
                           "serve/model_worker.py", "eval/run_llava.py", "eval/model_vqa.py",
                           "eval/model_vqa_loader.py", "eval/model_vqa_science.py", "eval/model_vqa_mmbench.py",
                           "train/llava_trainer.py", "train/llama_flash_attn_monkey_patch.py",
                           "train/llama_xformers_attn_monkey_patch.py")),
        GitCorpus("fastchat", "https://github.com/lm-sys/FastChat",
                  "0e6d3e4beaab66f4d3f93db72541a4abab8af28d", "fastchat",
                  "FastChat's in-process serving: the hand-written `generate_stream` decode loop (logits processors, "
                  "sampling, stop checks, streaming), the per-model decode loops (ChatGLM, CodeT5+, Falcon, Yuan2, "
                  "CLLM Jacobi decoding, ExLlama, xFasterTransformer, RWKV), the model worker and CLI that drive them, "
                  "the model adapters and 8-bit group compression that load and place the weights, the GPTQ/AWQ/ExLlama "
                  "loaders, the MT-bench answer generator, the monitor's embedding clustering, and the training-time "
                  "attention patches and data preprocessing",
                  include=("__init__.py", "constants.py", "utils.py", "serve/__init__.py", "serve/inference.py",
                           "serve/model_worker.py", "serve/base_model_worker.py", "serve/cli.py",
                           "serve/huggingface_api.py", "model/__init__.py", "model/model_adapter.py",
                           "model/compression.py", "model/model_chatglm.py", "model/model_codet5p.py",
                           "model/model_falcon.py", "model/model_exllama.py", "model/model_xfastertransformer.py",
                           "model/model_yuan2.py", "model/model_cllm.py", "model/rwkv_model.py",
                           "model/monkey_patch_non_inplace.py", "model/llama_condense_monkey_patch.py", "modules/",
                           "llm_judge/gen_model_answer.py", "serve/monitor/topic_clustering.py",
                           "train/llama2_flash_attn_monkey_patch.py", "train/llama_flash_attn_monkey_patch.py",
                           "train/llama_xformers_attn_monkey_patch.py", "train/train.py", "train/train_lora.py")),
        GitCorpus("sam2", "https://github.com/facebookresearch/sam2",
                  "2b90b9f5ceec907a1c18123530e92e794ad901a4", ".",
                  "SAM 2 (its repository root, kept as `sam2/`): the video predictor whose propagation runs the image "
                  "encoder, memory attention, mask decoder and memory encoder once per frame (all four compiled in "
                  "the `vos_optimized` predictor), the per-click prompt path, the image predictor, the automatic mask "
                  "generator with its box/RLE utilities, the model with its memory bank, frame loading, transforms, "
                  "the VOS inference driver and the demo server's per-request predictor",
                  include=("sam2/__init__.py", "sam2/build_sam.py", "sam2/benchmark.py",
                           "sam2/automatic_mask_generator.py", "sam2/sam2_image_predictor.py",
                           "sam2/sam2_video_predictor.py", "sam2/modeling/", "sam2/utils/",
                           "tools/vos_inference.py", "demo/backend/server/inference/predictor.py")),
    ), "the twelfth untouched set, labelled in session 16 and scored once at its end (Chameleon, LLaVA, FastChat, SAM 2)"),
    "quarry": GitSet(HERE / ".quarry", (
        GitCorpus("nanochat", "https://github.com/karpathy/nanochat",
                  "92d63d4e8bb4df75c3b71618f31ddde2378b2bcd", ".",
                  "nanochat (its repository root, kept as `nanochat/`): the inference engine with its KV cache, "
                  "batched sampling and tool-use state machine, the GPT model, the chat CLI, web server and "
                  "evaluation drivers that run it",
                  include=("nanochat/", "scripts/chat_cli.py", "scripts/chat_eval.py",
                           "scripts/infer_bench.py", "tasks/")),
        GitCorpus("flux", "https://github.com/black-forest-labs/flux",
                  "802fb4713906133fcbd0d8dc5351620ca4773036", "src/flux",
                  "FLUX's rectified-flow sampling loop, the transformer and autoencoder it runs every step, the "
                  "conditioners, the CLIs that drive text-to-image, control, fill, Kontext and Redux, and the "
                  "TensorRT engine wrappers"),
        GitCorpus("sequoia", "https://github.com/Infini-AI-Lab/Sequoia",
                  "0ff3ff71475ca148f2dfb7545e0de5caf5c67b39", ".",
                  "Sequoia (its repository root, kept as `Sequoia/`): tree-based speculative decoding with a "
                  "CUDA-graphed draft and target engine, the tree builders and verifiers, the offloading engine "
                  "and the drivers that run them",
                  include=("__init__.py", "Engine/", "Tree/", "tests/", "utils.py", "tree_search.py",
                           "data_converter.py")),
        GitCorpus("xtts", "https://github.com/coqui-ai/TTS",
                  "dbf1a08a0d4e47fdad6172e433eeb34bc6b13b4e", "TTS",
                  "Coqui's XTTS: the GPT that decodes audio tokens through a Hugging Face generate loop and its "
                  "streaming generator, the conditioning encoders, the HiFi-GAN decoder, the tokenizer and the "
                  "model's inference and streaming entry points",
                  include=("tts/layers/xtts/", "tts/models/xtts.py"), root=""),
    ), "the thirteenth untouched set, labelled in session 17 (nanochat, FLUX, Sequoia, XTTS)"),
    "depot": GitSet(HERE / ".depot", (
        GitCorpus("flashattn", "https://github.com/Dao-AILab/flash-attention",
                  "0251105a2fb19d2957484b7f023cd8c115286ced", "flash_attn",
                  "flash-attention's inference side: the CUDA-graphed decode loop (`utils/generation.py`), the GPT / "
                  "Llama / BERT / ViT models and the attention, MLP and block modules it runs every step, rotary "
                  "embeddings, padding helpers, the kernel interface and its Triton rotary and layer-norm wrappers",
                  include=("__init__.py", "bert_padding.py", "flash_attn_interface.py", "layers/", "models/",
                           "modules/", "utils/__init__.py", "utils/generation.py", "utils/distributed.py",
                           "utils/pretrained.py", "ops/__init__.py", "ops/triton/__init__.py",
                           "ops/triton/rotary.py", "ops/triton/layer_norm.py")),
        GitCorpus("specbench", "https://github.com/hemingkx/Spec-Bench",
                  "fd2c1cd7d2201ef71db4c5f4e455008f017967bf", ".",
                  "Spec-Bench (its repository root, kept as `Spec-Bench/`): the speculative-decoding methods graphlint "
                  "has not seen (Hydra, prompt lookup, token recycling, REST, SAM-Decoding, SPACE, SpS) with their "
                  "tree and cache helpers, and the evaluation drivers that run each method's decode loop",
                  include=("evaluation/__init__.py", "evaluation/eval.py", "evaluation/inference_hydra.py",
                           "evaluation/inference_pld.py", "evaluation/inference_recycling.py",
                           "evaluation/inference_rest.py", "evaluation/inference_samd.py",
                           "evaluation/inference_space.py", "evaluation/inference_sps.py",
                           "model/hydra/__init__.py", "model/hydra/hydra_choices.py", "model/hydra/hydra_heads/",
                           "model/hydra/hydra_model.py", "model/hydra/kv_cache.py", "model/hydra/utils.py",
                           "model/pld/", "model/recycling/", "model/rest/rest/", "model/samd/", "model/space/",
                           "model/sps/")),
        GitCorpus("awq", "https://github.com/casper-hansen/AutoAWQ",
                  "88e4c76b20755db275574e6a03c83c84ba3bece5", "awq",
                  "AutoAWQ: the fused inference modules (attention with its rolling KV cache, blocks, MoE, the fused "
                  "model's forward), the quantized linear layers and their kernel wrappers, the base model's "
                  "generate entry, and the quantizer's calibration passes"),
        GitCorpus("bitnet", "https://github.com/microsoft/BitNet",
                  "16da220ae2b510caff437d403288882687f44ae5", "gpu",
                  "BitNet's GPU inference: a gpt-fast-style model with CUDA-graphed prefill and decode, the generate "
                  "driver, the sampler, the checkpoint converters and weight packing"),
        GitCorpus("lmcache", "https://github.com/LMCache/LMCache",
                  "54641cad896b0bacde6b119a9f349cbd56af49b5", "lmcache",
                  "LMCache (2024): the KV cache engine that stores and retrieves an engine's KV tensors per chunk, "
                  "its local, remote and hybrid storage backends, the serializers (CacheGen's GPU encoder/decoder) "
                  "and the cache server"),
    ), "the fourteenth untouched set, labelled in session 18 (flash-attention, Spec-Bench, AutoAWQ, BitNet, "
       "LMCache)"),
    "shelf": GitSet(HERE / ".shelf", (
        GitCorpus("aqlm", "https://github.com/Vahe1994/AQLM",
                  "e79a896ed6656fe4ed06193d42d004e7d0bbdbb2", ".",
                  "AQLM's inference library (additive-quantized linear layers, kernel selection, the CUDA / Triton / "
                  "numba kernel wrappers) and the generation and matmul benchmarks that run it",
                  include=("inference_lib/src/aqlm/", "benchmark/")),
        GitCorpus("quip", "https://github.com/Cornell-RelaxML/quip-sharp",
                  "1d8f873e9a2a8b86b12bb1064c312c5689b77d98", ".",
                  "QuIP#: the lattice-codebook quantized linear layers and their decode kernels, the quantized Llama / "
                  "Mistral models with their KV caches, the interactive generation loop and the quantizer's algorithms",
                  include=("lib/algo/", "lib/codebook/", "lib/linear/", "lib/utils/__init__.py",
                           "lib/utils/data_utils.py", "lib/utils/graph_wrapper.py", "lib/utils/math_utils.py",
                           "lib/utils/matmul_kron.py", "lib/utils/misc.py", "lib/utils/model_version.py",
                           "lib/utils/shard_model.py", "lib/utils/unsafe_import.py", "lib/__init__.py",
                           "model/llama.py", "model/mistral.py", "eval/")),
        GitCorpus("layerskip", "https://github.com/facebookresearch/LayerSkip",
                  "f42c66965545747d42e27d4beab86b5c17956566", ".",
                  "LayerSkip: self-speculative decoding (early-exit draft, full-model verify) and the autoregressive "
                  "generator, the Llama forward helpers they call per token, the streamer, the benchmark drivers",
                  include=("self_speculation/", "benchmark.py", "generate.py", "eval.py", "correctness.py",
                           "utils.py", "arguments.py", "data.py")),
        GitCorpus("zonos", "https://github.com/Zyphra/Zonos",
                  "bc40d98e1e1ab54fc65c483be127a90e3c7c0645", "zonos",
                  "Zonos TTS: the CUDA-graphed autoregressive decode of a transformer / Mamba backbone, the sampler, "
                  "the codebook delay pattern, the conditioners and the speaker embedding"),
        GitCorpus("rwkv", "https://github.com/BlinkDL/ChatRWKV",
                  "965e40b85288a91c94c02bfa56adc3ce0fa20a82", ".",
                  "RWKV's pip package (the RNN-mode model with its strategy-placed layers and the sampling "
                  "pipeline), the chat loop and the benchmarks that run it, the bf16 CUDA demo",
                  include=("rwkv_pip_package/src/rwkv/", "v2/chat.py", "v2/benchmark.py", "v2/benchmark_more.py",
                           "RWKV_v6_demo_cuda_bf16.py", "API_DEMO_CHAT.py")),
    ), "the fifteenth untouched set, labelled in session 19 (AQLM, QuIP#, LayerSkip, Zonos, ChatRWKV)"),
    "crate": GitSet(HERE / ".crate", (
        GitCorpus("hqq", "https://github.com/mobiusml/hqq",
                  "e0b1d00e095653359da9de1d7dbb35a994aa6b96", "hqq",
                  "HQQ: half-quadratic quantized linear layers, their backends (torchao, Marlin, BitBLAS, GemLite), "
                  "the HF model patching and the CUDA-graphed / compiled generation loop"),
        GitCorpus("mixoff", "https://github.com/dvmazur/mixtral-offloading",
                  "ce545188b804238f0b23a59fc45e6a8f8b390c40", "src",
                  "Mixtral offloading: an LRU expert cache that swaps quantized experts between pinned host memory "
                  "and the GPU per token, the HQQ-quantized layers and their Triton kernels"),
        GitCorpus("specsamp", "https://github.com/feifeibear/LLMSpeculativeSampling",
                  "59a209d37b2e463459057a784f8bd31c1136a58b", ".",
                  "Speculative sampling (DeepMind and Google variants) with KV-cached draft and target models, the "
                  "autoregressive baseline, the benchmark and the Flask server"),
        GitCorpus("var", "https://github.com/FoundationVision/VAR",
                  "78b95394fc5896192e3a003e4b295f8ea743c48f", "models",
                  "VAR: next-scale autoregressive image generation (the KV-cached transformer, classifier-free guided "
                  "sampling over scales, the multi-scale VQ-VAE quantizer)"),
        GitCorpus("sovits", "https://github.com/RVC-Boss/GPT-SoVITS",
                  "48b1a0169a28582a8984402f82cf438d3bfa6aca", "GPT_SoVITS",
                  "GPT-SoVITS: the autoregressive text-to-semantic decoder (eager, KV-cached and CUDA-graphed variants), "
                  "its attention modules, the TTS inference pipeline and the streaming entry",
                  include=("AR/models/", "AR/modules/", "TTS_infer_pack/", "stream_v2pro.py", "inference_cli.py")),
        GitCorpus("ltxv", "https://github.com/Lightricks/LTX-Video",
                  "5260738e171955b66c0827f9af7e84d68fd1d919", "ltx_video",
                  "LTX-Video: the video diffusion pipeline (denoising loop, guidance, conditioning), the rectified-flow "
                  "scheduler, the 3D transformer and its attention, the inference entry",
                  include=("inference.py", "pipelines/", "schedulers/", "models/transformers/", "utils/")),
    ), "the sixteenth untouched set, labelled in session 20 (HQQ, Mixtral offloading, LLMSpeculativeSampling, "
       "VAR, GPT-SoVITS, LTX-Video)"),
    "kiln": GitSet(HERE / ".kiln", (
        GitCorpus("dia", "https://github.com/nari-labs/dia",
                  "876125e461a03b157ec905b0fe8b57a0f8b9e7a0", ".",
                  "Dia: a dialogue text-to-speech decoder (KV-cached, torch.compile'd decode step with CUDA graphs), "
                  "its layers, decoder state, DAC audio codec glue, the CLI and the gradio app",
                  include=("dia/", "app.py", "cli.py")),
        GitCorpus("chatterbox", "https://github.com/resemble-ai/chatterbox",
                  "5de7a54aa4e5e2baadb0182dde554908b48b85c2", "src/chatterbox",
                  "Chatterbox: a Llama-backed text-to-speech-token decoder (T3) with classifier-free guidance, the "
                  "S3Gen flow-matching vocoder and its transformer, the voice encoder and the TTS / VC entry points"),
        GitCorpus("csm", "https://github.com/SesameAILabs/csm",
                  "2d720827843b653c4d67bb4445b1c0a4f59e646f", ".",
                  "CSM: Sesame's conversational speech model (backbone + audio decoder with torchtune KV caches), "
                  "the frame generator and the watermarking",
                  include=("generator.py", "models.py", "run_csm.py", "watermarking.py")),
        GitCorpus("higgs", "https://github.com/boson-ai/higgs-audio",
                  "f04f5df76a6a7b14674e0d6d715b436c422883c6", "boson_multimodal",
                  "Higgs Audio: an audio-text LLM with a CUDA-graph runner for its decode step, the audio tokenizer "
                  "and quantizers, the collator and the serving engine",
                  include=("model/higgs_audio/", "serve/", "audio_processing/higgs_audio_tokenizer.py",
                           "audio_processing/quantization/", "data_collator/")),
        GitCorpus("litgpt_git", "https://github.com/Lightning-AI/litgpt",
                  "26857050fe3ff627cd714fe92f5838f51a3d5efa", "litgpt",
                  "LitGPT: the GPT model with its KV cache, the generation scripts (base, sequential, tensor-parallel, "
                  "speculative, adapters), the Python API, chat and the LitServe deployment. Not untouched: a later "
                  "release of the dev corpus litgpt 0.5.13, so the held-back figure leaves it out",
                  include=("generate/", "model.py", "api.py", "chat/", "deploy/")),
    ), "the seventeenth untouched set, labelled in session 21 (Dia, Chatterbox, CSM, Higgs Audio; LitGPT, a later "
       "release of a dev corpus, is scored apart)"),
    "barn": GitSet(HERE / ".barn", (
        GitCorpus("dsvl2", "https://github.com/deepseek-ai/DeepSeek-VL2",
                  "ef9f91e2b6426536b83294c11742c27be66361b1", ".",
                  "DeepSeek-VL2: a vision-language MoE model (SigLIP tower, the DeepSeek-V2 MoE decoder with its "
                  "cache), the processor, the incremental-prefilling inference entry and the chat serving helper",
                  include=("deepseek_vl2/models/", "deepseek_vl2/serve/inference.py", "inference.py")),
        GitCorpus("redrafter", "https://github.com/apple/ml-recurrent-drafter",
                  "bd8586bb9bbfa761644c36f932a0cd1eb3f1cdf9", "recurrent_drafting",
                  "Recurrent drafting (ReDrafter): an RNN draft head's beam search, tree attention over the beams, "
                  "the static KV cache, the Llama target, the verify-and-accept loop and the generate / chat CLIs",
                  include=("attention.py", "autoregressive.py", "chat.py", "cmd/generate.py", "kv_cache.py",
                           "modeling_drafter.py", "modeling_llama.py", "recurrent_drafting.py", "tree_attention.py",
                           "stats.py")),
        GitCorpus("ouroboros", "https://github.com/thunlp/Ouroboros",
                  "7dac65b7327a9f41acc741d57d1955a774beb34d", "ouroboros",
                  "Ouroboros: phrase-candidate speculative decoding with a cache engine, the KV-cache model wrapper "
                  "and its Llama with custom masks"),
        GitCorpus("wan", "https://github.com/Wan-Video/Wan2.1",
                  "9737cba9c1c3c4d04b33fcad41c111989865d315", "wan",
                  "Wan 2.1: text / image / first-last-frame / VACE video diffusion pipelines (the denoising loops, "
                  "guidance, offloading), the DiT and its attention, the VAE, T5, the flow-matching solvers and the "
                  "xDiT context-parallel forward",
                  include=("text2video.py", "image2video.py", "first_last_frame2video.py", "vace.py",
                           "modules/model.py", "modules/attention.py", "modules/vae.py", "modules/t5.py",
                           "modules/vace_model.py", "utils/fm_solvers.py", "utils/fm_solvers_unipc.py",
                           "distributed/xdit_context_parallel.py")),
        GitCorpus("indextts", "https://github.com/index-tts/index-tts",
                  "ee40fa7d6c6b8a2c7f06105f9f1e65775b74868c", "indextts",
                  "IndexTTS 2: the GPT text-to-semantic decoder, its paged-KV CUDA-graph acceleration engine, the "
                  "v2 inference pipeline and the flow-matching mel generator with its length regulator",
                  include=("accel/", "gpt/model_v2.py", "gpt/perceiver.py", "infer_v2.py",
                           "s2mel/modules/flow_matching.py", "s2mel/modules/length_regulator.py",
                           "s2mel/modules/diffusion_transformer.py")),
    ), "the eighteenth untouched set, labelled in session 22 (DeepSeek-VL2, ReDrafter, Ouroboros, Wan 2.1, "
       "IndexTTS 2)"),
    "silo": GitSet(HERE / ".silo", (
        GitCorpus("tokasaurus", "https://github.com/ScalingIntelligence/tokasaurus",
                  "726890525a97f6ab156224f60f1e75e4f0db1f59", "tokasaurus",
                  "Tokasaurus: a throughput-oriented LLM engine: the manager's scheduler, block allocator and input "
                  "building, the model workers with their CUDA-graph decode, the paged KV cache, Llama / Qwen models",
                  include=("model/", "manager/", "common_types.py", "utils.py")),
        GitCorpus("fairseq2", "https://github.com/facebookresearch/fairseq2",
                  "027bdebca4b9177f1ac1df1cc981b9288465d68e", "src/fairseq2",
                  "fairseq2: the sampling and beam-search sequence generators with their step processors, the "
                  "transformer decoder with incremental state, attention biases and SDPA back-ends, batch layouts "
                  "and padding / mask helpers",
                  include=("generation/", "models/transformer/", "models/transformer_lm/", "nn/batch_layout.py",
                           "nn/incremental_state.py", "nn/position_encoder.py", "nn/utils/mask.py",
                           "nn/utils/padding.py")),
        GitCorpus("hunyuanvideo", "https://github.com/Tencent/HunyuanVideo",
                  "fa14b001c18f37191c938a9ef6baad3b9b472759", "hyvideo",
                  "HunyuanVideo: the text-to-video denoising pipeline and its flow-matching scheduler, the dual-stream "
                  "DiT and its attention, the text encoders, the causal 3D VAE and the sampling entry",
                  include=("inference.py", "diffusion/", "modules/", "text_encoder/", "vae/")),
        GitCorpus("kokoro", "https://github.com/hexgrad/kokoro",
                  "dfb907a02bba8152ca444717ca5d78747ccb4bec", "kokoro",
                  "Kokoro: a StyleTTS2-style text-to-speech model: the pipeline over phoneme chunks, the duration "
                  "predictor and alignment, the iSTFTNet decoder and its custom STFT"),
    ), "the nineteenth untouched set, pinned in session 23 (Tokasaurus, fairseq2, HunyuanVideo, Kokoro)"),
    "larder": GitSet(HERE / ".larder", (
        GitCorpus("exllamav3", "https://github.com/turboderp-org/exllamav3",
                  "4f8ad0121f483ba66a5336244a4c3b6d7210385e", "exllamav3",
                  "ExLlamaV3: the dynamic generator with its jobs, page table and samplers, the KV caches (paged, "
                  "quantised, MLA, DSA, recurrent), the model's forward, attention with its back-end dispatch and a "
                  "DeepSeek-V4 module",
                  include=("generator/", "cache/", "model/model.py", "model/model_ls.py", "model/config.py",
                           "modules/attn.py", "modules/attention_fn/__init__.py", "modules/attention_fn/dispatch.py",
                           "modules/attention_fn/bc_attn.py", "modules/attention_fn/common.py",
                           "modules/attention_fn/torch.py", "modules/attention_fn/flash_attn_2.py",
                           "modules/dsv4.py", "modules/transformer.py", "modules/module.py", "modules/embedding.py",
                           "modules/__init__.py")),
        GitCorpus("distrifuser", "https://github.com/mit-han-lab/distrifuser",
                  "8aebdd6d0db87884ba03dc596c98d28f3f38a1a3", "distrifuser",
                  "DistriFusion: displaced patch-parallel SDXL / SD denoising across GPUs, its CUDA-graph capture of "
                  "the UNet step, the patched convolutions, attention and group norms with async all-gathers"),
        GitCorpus("xformers_llama", "https://github.com/facebookresearch/xformers",
                  "ca6d2aa0d43241fc8a8dcd872debc2406160160d", "examples/llama_inference",
                  "xformers' Llama inference example: a batched generate loop captured in a CUDA graph, the model "
                  "over a paged-style KV cache with block-diagonal attention biases, the sampler and tokenizer"),
        GitCorpus("vibevoice", "https://github.com/microsoft/VibeVoice",
                  "e73d1e17c3754f046352014856a922f8208fb5d3", "vibevoice",
                  "VibeVoice: long-form multi-speaker text-to-speech: an LLM generate loop that calls a diffusion "
                  "head per speech token, the DPM-Solver schedule, the acoustic / semantic tokenizers (streaming "
                  "conv caches), the streaming model and processors"),
    ), "the twentieth untouched set, pinned in session 25 (ExLlamaV3, DistriFusion, xformers' Llama, VibeVoice)"),
    "pantry": GitSet(HERE / ".pantry", (
        GitCorpus("minisgl", "https://github.com/sgl-project/mini-sglang",
                  "20fcd7f3c6a1898a61139fae1c97cc7a40bd8d66", "python/minisgl",
                  "Mini-SGLang: the scheduler's overlap loop with its prefill / decode managers and page table, the "
                  "engine with its per-batch-size CUDA-graph capture and replay and its sampler, the FlashAttention / "
                  "FlashInfer back-ends, the paged and radix KV caches, the layers and the Llama / Qwen3 models",
                  include=("core.py", "engine/", "scheduler/", "kvcache/", "attention/__init__.py",
                           "attention/base.py", "attention/fa.py", "attention/fi.py", "attention/utils.py",
                           "layers/__init__.py", "layers/attention.py", "layers/base.py", "layers/embedding.py",
                           "layers/linear.py", "layers/rotary.py", "layers/moe.py",
                           "models/__init__.py", "models/base.py", "models/config.py", "models/llama.py",
                           "models/qwen3.py", "models/register.py", "models/utils.py",
                           "kernel/__init__.py", "kernel/index.py", "kernel/store.py", "llm/llm.py")),
        GitCorpus("chitu", "https://github.com/thu-pacman/chitu",
                  "6261b7a06d348b865154dab5d018168bd92e75da", "chitu",
                  "Chitu: a serving engine's task pool, scheduler, executor and backend, the paged / skewed KV-cache "
                  "manager, the attention back-ends, the models' prefill / decode forwards with CUDA-graph decode, "
                  "DeepSeek-V3 with MoE routing, the tensor-parallel helpers, ops and the server",
                  include=("__init__.py", "__main__.py", "chitu_main.py", "serve.py", "async_response.py", "task.py",
                           "scheduler.py", "executor.py", "backend.py", "cache_manager.py", "attn_backend.py",
                           "global_vars.py", "tensor_parallel.py", "ops.py", "tokenizer.py", "utils.py",
                           "device_type.py", "models/")),
        GitCorpus("kimiaudio", "https://github.com/MoonshotAI/Kimi-Audio",
                  "2607d515f5b7dffa1dcc7526f9f26feb48e356c4", ".",
                  "Kimi-Audio: the audio-LLM's dual text / audio-token generate loop with its sampler and prompt "
                  "manager, the streaming flow-matching detokenizer (DiT, ODE solver, prefix KV cache) and the "
                  "BigVGAN vocoder, the Whisper feature wrapper and the inference script",
                  include=("infer.py", "kimia_infer/__init__.py", "kimia_infer/api/", "kimia_infer/utils/",
                           "kimia_infer/models/__init__.py", "kimia_infer/models/detokenizer/",
                           "kimia_infer/models/tokenizer/__init__.py", "kimia_infer/models/tokenizer/glm4_tokenizer.py",
                           "kimia_infer/models/tokenizer/whisper_Lv3/whisper.py")),
        GitCorpus("selfforcing", "https://github.com/guandeh17/Self-Forcing",
                  "33593df3e81fa3ec10239271dd2c100facac6de1", ".",
                  "Self-Forcing: autoregressive few-step video diffusion: the causal block-wise denoising pipelines "
                  "with their rolling KV / cross-attention caches, the causal Wan model (flex attention), the Wan "
                  "wrappers and flow-matching scheduler, the streaming demo with its block-cached VAE decoders and "
                  "memory offload, and the inference script",
                  include=("inference.py", "demo.py", "demo_utils/constant.py", "demo_utils/memory.py",
                           "demo_utils/taehv.py", "demo_utils/utils.py", "demo_utils/vae.py", "demo_utils/vae_block3.py",
                           "pipeline/__init__.py", "pipeline/causal_inference.py",
                           "pipeline/causal_diffusion_inference.py", "pipeline/bidirectional_inference.py",
                           "pipeline/bidirectional_diffusion_inference.py", "utils/wan_wrapper.py",
                           "utils/scheduler.py", "utils/misc.py", "wan/modules/causal_model.py")),
    ), "the twenty-first untouched set, pinned in session 26 (Mini-SGLang, Chitu, Kimi-Audio, Self-Forcing)"),
    "granary": GitSet(HERE / ".granary", (
        GitCorpus("gptoss", "https://github.com/openai/gpt-oss",
                  "7b583341fe16729127f6d5b94a7b09ccae97e1a1", "gpt_oss",
                  "gpt-oss reference inference: the PyTorch and Triton models (attention sinks, MoE, the Triton "
                  "model's KV cache and CUDA-graph decode), the token generators, the chat / generate scripts and the "
                  "Responses API's Triton and Transformers back-ends",
                  include=("__init__.py", "generate.py", "chat.py", "tokenizer.py", "torch/", "triton/",
                           "vllm/token_generator.py", "responses_api/__init__.py", "responses_api/inference/__init__.py",
                           "responses_api/inference/triton.py", "responses_api/inference/transformers.py")),
        GitCorpus("nanovlm", "https://github.com/huggingface/nanoVLM",
                  "4e0c0961846135c2217f95e54cb4c2d66eb55e42", ".",
                  "nanoVLM: a small vision-language model's generate loop over its language model's KV cache (prefill "
                  "then one token a step, top-k / top-p sampling), the vision transformer and modality projector, the "
                  "image processors, the generate script and the inference benchmark",
                  include=("generate.py", "models/", "data/processors.py", "data/custom_transforms.py",
                           "eval/benchmark-inference.py")),
        GitCorpus("lerobot", "https://github.com/huggingface/lerobot",
                  "7427f31801f944f5ec9ce53cda02862ce7d1638b", "src/lerobot",
                  "LeRobot policies run every control step: ACT, Diffusion, pi0 and SmolVLA (flow-matching action "
                  "experts over a VLM prefix cache), real-time chunking, the policy helpers and factory, the async "
                  "policy server / robot client, and the evaluation rollout script",
                  include=("policies/__init__.py", "policies/act/", "policies/diffusion/", "policies/pi0/",
                           "policies/smolvla/", "policies/rtc/", "policies/utils.py", "policies/pretrained.py",
                           "policies/factory.py", "async_inference/", "scripts/lerobot_eval.py")),
        GitCorpus("sarathi", "https://github.com/microsoft/sarathi-serve",
                  "96f9911790ecc00af12ee9fae47cb8fa9ba0d199", "sarathi",
                  "Sarathi-Serve: a chunked-prefill serving engine: the engine step loop and pipeline-parallel "
                  "engine, the workers and model runner, the sequence managers, FlashInfer attention wrapper, "
                  "sampler, fused MoE, layers, tensor-parallel helpers and the Llama / Mistral / Mixtral / Qwen / "
                  "Falcon / InternLM / Yi models",
                  include=("__init__.py", "types.py", "logger.py", "engine/__init__.py", "engine/base_llm_engine.py",
                           "engine/llm_engine.py", "engine/pipeline_parallel_llm_engine.py", "worker/",
                           "model_executor/", "core/sequence_manager/", "core/datatypes/")),
        GitCorpus("voxcpm", "https://github.com/OpenBMB/VoxCPM",
                  "616d3d3e630a9c96c2853250eef91b0f39dcd5fa", "src/voxcpm",
                  "VoxCPM: a tokenizer-free TTS: the MiniCPM-4 language models' per-patch generate loop with its static "
                  "KV cache and reduce-overhead compiled step, the local diffusion (CFM) decoder, the local encoder, the "
                  "audio VAE, LoRA layers and the Python API / CLI",
                  include=("__init__.py", "core.py", "cli.py", "zipenhancer.py", "model/", "modules/", "utils/")),
    ), "the twenty-second untouched set, pinned in session 27 (gpt-oss, nanoVLM, LeRobot, Sarathi-Serve, VoxCPM)"),
    "cistern": GitSet(HERE / ".cistern", (
        GitCorpus("arctic", "https://github.com/snowflakedb/ArcticInference",
                  "9d4643881608178f0f58a33d1b61919ca246997f", "arctic_inference",
                  "Arctic Inference: a vLLM plug-in: its GPU model runner with CUDA-graph capture, the Arctic "
                  "speculator / proposer and suffix decoding, SwiftKV's Llama, the forest-cascade attention back-end, "
                  "Ulysses sequence parallelism, the fp32 LM head and the Dynasor certainty probes",
                  include=("__init__.py", "py_custom_ops.py", "utils.py", "envs.py", "vllm/", "suffix_decoding/",
                           "dynasor/cot.py", "dynasor/entropy.py", "dynasor/util.py")),
        GitCorpus("umbrella", "https://github.com/Infini-AI-Lab/UMbreLLa",
                  "ff1ac1751cf3073fd7f3bd42927658d98de61657", ".",
                  "UMbreLLa: offloaded LLM decoding with static and dynamic tree speculation: the CUDA-graph draft and "
                  "verify steps, the offloaded Llama / Qwen / Mistral / Gemma models, the KV cache, the speculation "
                  "engines, the API server and the generate / chat examples",
                  include=("umbrella/", "examples/generate.py", "examples/spec_generate.py", "app/chatbot.py")),
        GitCorpus("fastdllm", "https://github.com/NVlabs/Fast-dLLM",
                  "24cc59e75f20a6384bae8c905965bb090b96388e", ".",
                  "Fast-dLLM: diffusion LLM decoding with block-wise KV caching and confidence-parallel unmasking for "
                  "LLaDA and Dream: the generate loops, the models, the chat demos and the evaluation harness",
                  include=("llada/generate.py", "llada/chat.py", "llada/eval_llada.py", "llada/model/",
                           "dream/model/", "dream/demo_multiturn_chat.py", "dream/eval.py")),
        GitCorpus("nunchaku", "https://github.com/mit-han-lab/nunchaku",
                  "4132b3bffdb7d520ecb30ac6983ee482a39f9362", "nunchaku",
                  "Nunchaku: SVDQuant 4-bit diffusion transformers: the quantized FLUX / FLUX v2 / Qwen-Image / SANA "
                  "transformers, first-block and TeaCache caching across denoising steps, attention processors, the "
                  "quantized linear and text-encoder layers, the fused ops, the PuLID pipeline and LoRA composition",
                  include=("__init__.py", "utils.py", "caching/", "models/__init__.py", "models/attention.py",
                           "models/attention_processors/", "models/embeddings.py", "models/linear.py",
                           "models/normalization.py", "models/transformers/", "models/text_encoders/", "models/utils.py",
                           "models/pulid/pulid_forward.py", "models/pulid/utils.py", "ops/", "pipeline/",
                           "lora/flux/compose.py", "lora/flux/utils.py")),
        GitCorpus("lightx2v", "https://github.com/ModelTC/LightX2V",
                  "f8aee98b5462cca8d7288888146ebd95592bf266", "lightx2v",
                  "LightX2V: a video-generation inference framework: the Wan runner and default runner's denoising "
                  "loop, the Wan scheduler, the Wan network's pre / transformer / post inference with feature caching "
                  "and block offload, the offload manager and the entry script",
                  include=("infer.py", "models/runners/base_runner.py", "models/runners/default_runner.py",
                           "models/runners/wan/wan_runner.py", "models/schedulers/scheduler.py",
                           "models/schedulers/wan/scheduler.py", "models/schedulers/wan/feature_caching/",
                           "models/networks/wan/model.py", "models/networks/wan/infer/pre_infer.py",
                           "models/networks/wan/infer/post_infer.py", "models/networks/wan/infer/transformer_infer.py",
                           "models/networks/wan/infer/utils.py", "models/networks/wan/infer/module_io.py",
                           "models/networks/wan/infer/feature_caching/", "models/networks/wan/infer/offload/",
                           "common/offload/")),
    ), "the twenty-third untouched set, pinned in session 28 (Arctic Inference, UMbreLLa, Fast-dLLM, "
       "Nunchaku, LightX2V)"),
    "bunker": GitSet(HERE / ".bunker", (
        GitCorpus("miniomni", "https://github.com/gpt-omni/mini-omni",
                  "26c31d5b33e7942080d40a1d63e1a024a263e8fb", ".",
                  "Mini-Omni: a speech-in / speech-out LLM on a trimmed litgpt: the parallel text + audio-token "
                  "generate loops with their KV cache, the SNAC audio decoding, the voice-activity detection and "
                  "the server / web demos",
                  include=("__init__.py", "inference.py", "server.py", "litgpt/__init__.py", "litgpt/model.py",
                           "litgpt/generate/", "utils/", "webui/")),
        GitCorpus("paraattn", "https://github.com/chengzeyi/ParaAttention",
                  "4de137c5b96416489f06e43e19f2c14a772e28fd", "src/para_attn",
                  "ParaAttention: context-parallel attention and first-block caching for diffusers pipelines (FLUX, "
                  "HunyuanVideo, Mochi, Wan, CogVideoX): the cache's per-denoising-step residual test, TaylorSeer, "
                  "the ring / Ulysses attention ops, sparse attention, the parallel VAE and the multi-process runner"),
        GitCorpus("mochi", "https://github.com/genmoai/mochi",
                  "0c86aebf386e6622deadfb47ff1996878cefc0ac", ".",
                  "Genmo Mochi 1: a video diffusion pipeline: the sampling loop with its sigma schedule and CFG, "
                  "the asymmetric joint DiT with context parallelism, the causal video VAE with tiled decoding, and "
                  "the CLI / Gradio demos",
                  include=("src/genmo/", "demos/cli.py", "demos/gradio_ui.py", "demos/api_example.py")),
        GitCorpus("blt", "https://github.com/facebookresearch/blt",
                  "9774ed4fcc78313f9f218295f3d7e4decdadf2ae", "bytelatent",
                  "Byte Latent Transformer: byte-level generation with entropy-based patching: the generate loops, "
                  "the entropy model and patcher, the local encoder / decoder and latent transformer, the base "
                  "transformer, the Hugging Face wrapper and the tokenizer",
                  include=("__init__.py", "generate.py", "generate_blt.py", "entropy_model.py", "hf.py", "args.py",
                           "base_transformer.py", "transformer.py", "model/", "data/patcher.py",
                           "data/__init__.py", "tokenizers/blt_tokenizer.py", "tokenizers/__init__.py",
                           "tokenizers/abstract_tokenizer.py", "tokenizers/constants.py")),
        GitCorpus("cachedit", "https://github.com/xlite-dev/cache-dit",
                  "bf80c8784d423da34a5dd066cf86216c4d7ef1d9", "src/cache_dit",
                  "cache-dit: a cache-acceleration framework for diffusers transformers: the DBCache block patterns "
                  "that decide per denoising step whether to recompute or reuse residuals, the cache contexts and "
                  "manager, TaylorSeer / FoCa calibrators, pruning, the block adapters and the cache interface",
                  include=("__init__.py", "caching/__init__.py", "caching/block_adapters/", "caching/cache_adapters/",
                           "caching/cache_blocks/", "caching/cache_contexts/", "caching/cache_interface.py",
                           "caching/cache_types.py", "caching/forward_pattern.py", "caching/load_configs.py",
                           "caching/params_modifier.py")),
        GitCorpus("sparktts", "https://github.com/SparkAudio/Spark-TTS",
                  "2f1ea9082400547242641f5271b6f941c9f439d1", ".",
                  "Spark-TTS: an LLM text-to-speech system: the CLI / web UI generate path, the BiCodec audio "
                  "tokenizer and vocoder (FSQ / VQ quantizers, speaker encoder), and the Triton-server Python "
                  "backends that run the LLM and the vocoder per request",
                  include=("cli/", "sparktts/", "webui.py", "runtime/triton_trtllm/model_repo/")),
        GitCorpus("xtransformers", "https://github.com/lucidrains/x-transformers",
                  "9252ed7838021ee61e6c5be0930b3a9a88efdf06", "x_transformers",
                  "x-transformers: a widely reused transformer library: the decoder / encoder stack with its "
                  "cached intermediates, the attention with its masks and KV cache, and the autoregressive, "
                  "Transformer-XL, non-autoregressive and belief-state wrappers' generate loops with their filters",
                  include=("__init__.py", "x_transformers.py", "attend.py", "autoregressive_wrapper.py",
                           "xl_autoregressive_wrapper.py", "nonautoregressive_wrapper.py", "continuous.py",
                           "entropy_based_tokenizer.py", "belief_state_wrapper.py")),
        GitCorpus("deepep", "https://github.com/deepseek-ai/DeepEP",
                  "dd758caf451848bd150e1046af3d0a73e5fff38d", "deep_ep",
                  "DeepEP: the expert-parallel communication buffers (normal and low-latency dispatch / combine, "
                  "the CUDA-graph-capturable low-latency mode, the elastic buffer) and their event, gate and "
                  "environment utilities"),
        GitCorpus("mossttsd", "https://github.com/OpenMOSS/MOSS-TTSD",
                  "20dbb4fc44819435fee894d644a0402a0fee736a", ".",
                  "MOSS-TTSD: spoken-dialogue generation: the multi-channel delayed-pattern generate loop, "
                  "inference script, Gradio demo and the processing that joins the LM and the audio codec",
                  include=("generation_utils.py", "inference.py", "gradio_demo.py",
                           "scripts/processing_moss_tts_delay_with_codec.py")),
        GitCorpus("nanoflow", "https://github.com/efeslab/Nanoflow",
                  "d6b381e58110a8b5d08cfabd4a55c0d5d0ebef57", "pipeline/utils",
                  "NanoFlow's Python serving layer: the serving loop that drives the C++ pipeline per iteration, "
                  "the scheduler, the paged KV-cache manager, request bookkeeping, the frontend and the weight "
                  "loader",
                  include=("serve.py", "scheduler.py", "kv_cache.py", "request_info.py", "frontend.py",
                           "pybindUtil.py", "weightLoader.py", "gen_req.py")),
    ), "the twenty-fourth untouched set, pinned in session 29 (Mini-Omni, ParaAttention, Mochi, BLT, "
       "cache-dit, Spark-TTS, x-transformers, DeepEP, MOSS-TTSD, NanoFlow)"),
    "armory": GitSet(HERE / ".armory", (
        GitCorpus("llamagen", "https://github.com/FoundationVision/LlamaGen",
                  "ce98ec41803a74a90ce68c40ababa9eaeffeb4ec", ".",
                  "LlamaGen: autoregressive image generation: the GPT with its KV cache and the compiled "
                  "(reduce-overhead) decode step, the class- / text-conditional sampling scripts with CFG, the "
                  "serving model and sampler (the vLLM-derived engine around them is left out: another set holds "
                  "the same fork) and the VQ image tokenizer",
                  include=("app.py", "autoregressive/models/generate.py", "autoregressive/models/gpt.py",
                           "autoregressive/sample/", "autoregressive/serve/gpt_model.py",
                           "autoregressive/serve/sampler.py", "tokenizer/tokenizer_image/vq_model.py",
                           "tokenizer/tokenizer_image/vq_demo.py")),
        GitCorpus("xlstm", "https://github.com/NX-AI/xlstm",
                  "032a6fb8ee19a8c0db80ae6111ff4744a09414a9", "xlstm",
                  "xLSTM: the mLSTM / sLSTM blocks with their recurrent step and chunkwise kernels' Python "
                  "backends, the block stack's per-token step, and xLSTM-7B's model with its greedy generate loop"),
        GitCorpus("whisperspeech", "https://github.com/collabora/WhisperSpeech",
                  "e82850046beab70d775dc6e74aa4ff0633caf7bb", ".",
                  "WhisperSpeech: text -> semantic tokens -> acoustic tokens -> Vocos speech: the two "
                  "autoregressive transformers with their KV caches and compiled decode steps, the pipeline, "
                  "the vocoder and the playback examples",
                  include=("whisperspeech/__init__.py", "whisperspeech/pipeline.py", "whisperspeech/inference.py",
                           "whisperspeech/modules.py", "whisperspeech/s2a_delar_mup_wds_mlang.py",
                           "whisperspeech/s2a_delar_mup_wds_mlang_cond.py", "whisperspeech/t2s_up_wds_mlang_enclm.py",
                           "whisperspeech/a2wav.py", "whisperspeech/vq_stoks.py", "whisperspeech/languages.py",
                           "whisperspeech/utils.py", "whisperspeech/extract_spk_emb.py", "whisperspeech/benchmark.py",
                           "examples/")),
        GitCorpus("cllm", "https://github.com/hao-ai-lab/Consistency_LLM",
                  "22775363f8563c63620e71f7a204e90a51d6a379", ".",
                  "Consistency LLMs: Jacobi decoding: the fixed-point iteration loop over a block of guessed "
                  "tokens with its KV cache, the chat CLI, the GSM8K speed-up driver and the trajectory "
                  "generator (the FastChat-derived MT-bench driver is left out)",
                  include=("applications/", "cllm/cllm_llama_modeling.py", "cllm/utils.py", "eval/gsm8k/speedup.py",
                           "data/generate_trajectory.py")),
        GitCorpus("glm4voice", "https://github.com/THUDM/GLM-4-Voice",
                  "eb00ce9142e8d98b0ed7c57cd47e0d6d5dce9a1a", ".",
                  "GLM-4-Voice: a speech chatbot: the model server's streaming generate thread, the web demo "
                  "that splits interleaved text / audio tokens and decodes audio blocks with the flow-matching "
                  "decoder while generation runs, and the audio tokenizer helpers (the vendored CosyVoice and the "
                  "copied Whisper modelling are left out)",
                  include=("model_server.py", "web_demo.py", "flow_inference.py", "audio_process.py",
                           "speech_tokenizer/utils.py", "speech_tokenizer/__init__.py")),
        GitCorpus("streamingllm", "https://github.com/mit-han-lab/streaming-llm",
                  "2e5042606d69933d88fbf909bd77907456b9b4dd", ".",
                  "StreamingLLM: attention sinks: the start + recent KV cache eviction run every step, the "
                  "position-shifted attention patches for Llama / Falcon / GPT-NeoX and the streaming demo loop",
                  include=("streaming_llm/", "examples/run_streaming_llama.py", "examples/eval_long_ppl.py")),
        GitCorpus("kdiffusion", "https://github.com/crowsonkb/k-diffusion",
                  "4601bf085320592473f681a62808ed873d17fad5", ".",
                  "k-diffusion: the widely copied diffusion samplers (Euler, Heun, DPM-Solver(++), adaptive "
                  "step size), the denoiser wrappers, the image transformer models and the sampling scripts",
                  include=("k_diffusion/__init__.py", "k_diffusion/sampling.py", "k_diffusion/external.py",
                           "k_diffusion/layers.py", "k_diffusion/utils.py", "k_diffusion/models/", "sample.py",
                           "sample_clip_guided.py")),
        GitCorpus("stableaudio", "https://github.com/Stability-AI/stable-audio-tools",
                  "50049e379e2fe8e35bffc99e57f23ade1c3471b7", ".",
                  "stable-audio-tools: conditional audio diffusion and LM generation: the samplers and their "
                  "per-step loops, the generate functions, the DiT / transformer, the autoencoders and "
                  "bottlenecks, the LM's codebook-pattern generate loop and the Gradio interface",
                  include=("run_gradio.py", "stable_audio_tools/__init__.py", "stable_audio_tools/inference/",
                           "stable_audio_tools/interface/", "stable_audio_tools/models/lm.py",
                           "stable_audio_tools/models/lm_backbone.py",
                           "stable_audio_tools/models/diffusion.py", "stable_audio_tools/models/dit.py",
                           "stable_audio_tools/models/transformer.py", "stable_audio_tools/models/autoencoders.py",
                           "stable_audio_tools/models/bottleneck.py", "stable_audio_tools/models/conditioners.py",
                           "stable_audio_tools/models/pretransforms.py", "stable_audio_tools/models/factory.py",
                           "stable_audio_tools/models/pretrained.py",
                           "stable_audio_tools/models/inpainting.py", "stable_audio_tools/models/__init__.py")),
        GitCorpus("pixart", "https://github.com/PixArt-alpha/PixArt-sigma",
                  "1ce521afddcc2fab329b35b7374aa86d654e12f7", ".",
                  "PixArt-Sigma: text-to-image diffusion: the DPM-Solver, SA-Solver, IDDPM and LCM samplers with "
                  "their per-step loops, the PixArt DiT, the inference scripts and the Gradio apps",
                  include=("app/", "scripts/inference.py", "scripts/interface.py", "scripts/run_pixart_dmd.py",
                           "scripts/inference_pipeline.py", "diffusion/__init__.py", "diffusion/dpm_solver.py",
                           "diffusion/iddpm.py", "diffusion/sa_sampler.py", "diffusion/lcm_scheduler.py",
                           "diffusion/model/__init__.py", "diffusion/model/builder.py",
                           "diffusion/model/diffusion_utils.py", "diffusion/model/dpm_solver.py",
                           "diffusion/model/edm_sample.py", "diffusion/model/gaussian_diffusion.py",
                           "diffusion/model/respace.py", "diffusion/model/sa_solver.py", "diffusion/model/t5.py",
                           "diffusion/model/utils.py", "diffusion/model/nets/")),
        GitCorpus("seedvc", "https://github.com/Plachtaa/seed-vc",
                  "d334fb72407ca4abfb929f50f9067ff6ccd13bb0", ".",
                  "Seed-VC: zero-shot voice conversion: the flow-matching diffusion transformer with its Euler "
                  "loop, the V2 autoregressive style model, the streaming real-time GUI that runs a conversion "
                  "per audio block, the inference scripts and apps",
                  include=("inference.py", "inference_v2.py", "seed_vc_wrapper.py", "real-time-gui.py", "app_vc.py",
                           "app_vc_v2.py", "app_svc.py", "hf_utils.py", "modules/v2/", "modules/flow_matching.py",
                           "modules/diffusion_transformer.py", "modules/length_regulator.py", "modules/commons.py",
                           "modules/audio.py", "modules/rmvpe.py", "modules/wavenet.py")),
    ), "the twenty-fifth untouched set, pinned in session 30 (LlamaGen, xLSTM, WhisperSpeech, Consistency "
       "LLM, GLM-4-Voice, StreamingLLM, k-diffusion, stable-audio-tools, PixArt-Sigma, Seed-VC)"),
    "arsenal": GitSet(HERE / ".arsenal", (
        GitCorpus("valle", "https://github.com/lifeiteng/vall-e",
                  "9c69096d603ce13174fb5cb025f185e2e9b36ac7", ".",
                  "VALL-E: neural-codec TTS: the autoregressive stage's token-by-token decode with top-k sampling "
                  "and its non-autoregressive stages, and the inference script (the attention / transformer "
                  "modules GPT-SoVITS copied are left out)",
                  include=("valle/__init__.py", "valle/models/", "valle/modules/__init__.py", "valle/bin/__init__.py", "valle/bin/infer.py", "valle/data/__init__.py",
                           "valle/data/tokenizer.py", "valle/data/collation.py", "valle/utils/")),
        GitCorpus("cmodels", "https://github.com/openai/consistency_models",
                  "e32b69ee436d518377db86fb2127a3972d0d8716", ".",
                  "OpenAI consistency models: the Karras-diffusion samplers (one-step and multistep consistency "
                  "sampling, Heun / Euler, progressive distillation), the UNet and the sampling script",
                  include=("cm/__init__.py", "cm/karras_diffusion.py", "cm/unet.py", "cm/nn.py", "cm/fp16_util.py",
                           "cm/script_util.py", "cm/random_util.py", "cm/dist_util.py", "scripts/image_sample.py")),
        GitCorpus("hunyuan3d", "https://github.com/Tencent/Hunyuan3D-2",
                  "2ee477019f15cabc4a9546b1ed9bb21862136bdf", ".",
                  "Hunyuan3D 2: image-to-3D shape generation: the flow-matching pipeline's per-step loop (its "
                  "diffusers-derived schedulers, which another set copies too, are left out), the DiT denoiser, the shape VAE with its volume decoding and surface extraction, "
                  "the API server and the examples",
                  include=("hy3dgen/__init__.py", "hy3dgen/rembg.py", "hy3dgen/shapegen/__init__.py",
                           "hy3dgen/shapegen/pipelines.py", "hy3dgen/shapegen/models/", "hy3dgen/shapegen/utils.py",
                           "hy3dgen/shapegen/postprocessors.py", "hy3dgen/shapegen/preprocessors.py", "api_server.py",
                           "examples/")),
        GitCorpus("opensora", "https://github.com/hpcaitech/Open-Sora",
                  "7ad6a96a135feb81f755c84fb391818718f6beb2", ".",
                  "Open-Sora 2: text / image-to-video: the rectified-flow sampling loop with its guidance and "
                  "shift schedule, the MMDiT with sequence parallelism, the text conditioner, the inference "
                  "script and the Gradio app (the HunyuanVideo VAE and the FLUX layers / autoencoder it copies "
                  "are left out)",
                  include=("opensora/__init__.py", "opensora/utils/__init__.py", "opensora/utils/sampling.py",
                           "opensora/utils/inference.py", "opensora/utils/misc.py", "opensora/models/__init__.py",
                           "opensora/models/mmdit/__init__.py", "opensora/models/mmdit/model.py",
                           "opensora/models/mmdit/math.py", "opensora/models/mmdit/distributed.py",
                           "opensora/models/text/", "opensora/models/vae/__init__.py", "opensora/models/vae/utils.py",
                           "opensora/acceleration/__init__.py", "opensora/acceleration/parallel_states.py",
                           "opensora/acceleration/communications.py", "scripts/diffusion/inference.py",
                           "gradio/app.py")),
        GitCorpus("stepaudio", "https://github.com/stepfun-ai/Step-Audio",
                  "a52b94d85d418cd5bc736d696d310c990befbc79", ".",
                  "Step-Audio: a speech chat and TTS system: the audio tokenizer, the TTS that generates audio "
                  "tokens and decodes them, the chat pipeline, the apps and offline inference (the vendored "
                  "CosyVoice and FunASR are left out)",
                  include=("__init__.py", "app.py", "stepaudio.py", "tokenizer.py", "tts.py", "tts_app.py",
                           "tts_inference.py", "utils.py", "offline_inference.py")),
        GitCorpus("sensevoice", "https://github.com/FunAudioLLM/SenseVoice",
                  "d478f77b134c50a12e2a77e35a4cea3a6e12901d", ".",
                  "SenseVoice: non-autoregressive speech recognition: the encoder with CTC decoding and its "
                  "per-utterance post-processing, timestamps by CTC alignment, the API server and the web UI",
                  include=("model.py", "utils/__init__.py", "utils/ctc_alignment.py", "utils/frontend.py",
                           "utils/infer_utils.py", "api.py", "webui.py", "demo1.py", "demo2.py")),
        GitCorpus("sageattn", "https://github.com/thu-ml/SageAttention",
                  "d1a57a546c3d395b1ffcbeecc66d81db76f3b4b5", ".",
                  "SageAttention: quantized attention kernels: the dispatch by GPU architecture, the INT8 / FP8 "
                  "quantization wrappers, the Triton kernels' launchers, and the video-model examples that patch "
                  "it into diffusers pipelines",
                  include=("sageattention/", "example/")),
        GitCorpus("mii", "https://github.com/microsoft/DeepSpeed-MII",
                  "d100a8544e7a4a367b5c74a29cc68e35e5147b90", "mii",
                  "DeepSpeed-MII: the serving layer over DeepSpeed-FastGen: the ragged-batching scheduler and its "
                  "per-step generate loop (sampling, logit processors, stop criteria, post-processing), the "
                  "pipeline and server APIs and the OpenAI-compatible entrypoint",
                  include=("__init__.py", "api.py", "batching/", "modeling/", "backend/", "config.py", "constants.py",
                           "errors.py", "logging.py", "utils.py", "entrypoints/", "grpc_related/modelresponse_server.py",
                           "grpc_related/task_methods.py", "grpc_related/__init__.py")),
    ), "the twenty-sixth untouched set, pinned in session 30 for the next release (VALL-E, consistency models, "
       "Hunyuan3D 2, Open-Sora 2, Step-Audio, SenseVoice, SageAttention, DeepSpeed-MII)"),
    "citadel": GitSet(HERE / ".citadel", (
        GitCorpus("metavoice", "https://github.com/metavoiceio/metavoice-src",
                  "de3fa211ac4621e03a5f990651aeecc64da418f5", ".",
                  "MetaVoice-1B: TTS: the first-stage GPT's compiled prefill / per-token decode with the speaker "
                  "encoder, the causal and non-causal generate mixins, the EnCodec decoder and enhancer, the "
                  "FastAPI server and the Gradio app (its gpt-fast model and quantization copies, which another "
                  "set holds, and the fine-tuning code are left out)",
                  include=("app.py", "serving.py", "fam/__init__.py", "fam/llm/__init__.py", "fam/llm/adapters/",
                           "fam/llm/decoders.py", "fam/llm/enhancers.py", "fam/llm/fast_inference.py",
                           "fam/llm/fast_inference_utils.py", "fam/llm/inference.py", "fam/llm/layers/",
                           "fam/llm/mixins/", "fam/llm/model.py", "fam/llm/utils.py", "fam/quantiser/")),
        GitCorpus("voicecraft", "https://github.com/jasonppy/VoiceCraft",
                  "a702dfd2ced6d4fd6b04bdc160c832c6efc8f6c5", ".",
                  "VoiceCraft: token-infilling codec language model for speech editing and zero-shot TTS: the "
                  "model's delayed-codebook decode loops with their sampling, the TTS / editing inference "
                  "scripts, the Gradio app and the Replicate predictor (its icefall / VALL-E modules and text / "
                  "audio tokenizer and AudioCraft's codebook patterns, which other sets hold, and the training "
                  "steps are left out)",
                  include=("models/voicecraft.py", "inference_tts_scale.py", "inference_speech_editing_scale.py",
                           "gradio_app.py", "predict.py", "tts_demo.py", "edit_utils.py")),
        GitCorpus("llmlingua", "https://github.com/microsoft/LLMLingua",
                  "e0e9d99beb94098bbd924aa53c2c112eac41c758", ".",
                  "LLMLingua: prompt compression: the small LM's per-segment perplexity passes with the "
                  "iterative KV-cache compression loop, LongLLMLingua's question-aware ranking and LLMLingua-2's "
                  "token classification, and the compression script (the experiments' data collection, "
                  "training and evaluation are left out)",
                  include=("llmlingua/__init__.py", "llmlingua/prompt_compressor.py", "llmlingua/utils.py",
                           "experiments/llmlingua2/evaluation/compress.py")),
        GitCorpus("showo", "https://github.com/showlab/Show-o",
                  "45a5a2de01d1ebd10cd5864d29310a76476cdf23", ".",
                  "Show-o and Show-o2: unified multimodal models: Show-o's MaskGIT-style parallel image decoding "
                  "and next-token understanding, Show-o2's flow-matching sampler over Qwen2.5 with omni attention "
                  "(flex attention), the MAGVIT-v2 tokenizer and the inference scripts (the copied Phi / Qwen2 / "
                  "SigLIP / LLaVA / Wan VAE / diffusers files, the LlamaGen-derived sampling helpers and the "
                  "training code are left out)",
                  include=("inference_t2i.py", "inference_mmu.py", "models/__init__.py", "models/modeling_showo.py",
                           "models/modeling_magvitv2.py", "models/misc.py", "training/__init__.py",
                           "training/prompting_utils.py", "training/utils.py", "show-o2/inference_t2i.py",
                           "show-o2/inference_mmu.py", "show-o2/inference_mmu_vid.py",
                           "show-o2/inference_mixed_modality.py", "show-o2/models/__init__.py",
                           "show-o2/models/modeling_showo2_qwen2_5.py", "show-o2/models/omni_attention.py",
                           "show-o2/models/modeling_semantic_layers.py", "show-o2/models/misc.py",
                           "show-o2/transport/", "show-o2/utils.py")),
        GitCorpus("hart", "https://github.com/mit-han-lab/hart",
                  "e28a41fe15025baf3d48ab004f5d3727c88d8fc7", ".",
                  "HART: hybrid autoregressive text-to-image: the scale-by-scale decode with its KV cache and "
                  "CFG, the hybrid tokenizer's quantize / decode, the sampling and latency scripts and the Gradio "
                  "app (the guided-diffusion-derived residual diffusion head and the VAR VAE copies, which other "
                  "sets hold, and the discriminator are left out)",
                  include=("app.py", "sample.py", "latency_profile.py", "hart/modules/models/transformer/",
                           "hart/modules/models/autoencoder/__init__.py",
                           "hart/modules/models/autoencoder/configuration.py",
                           "hart/modules/models/autoencoder/hart_autoencoder.py",
                           "hart/modules/models/autoencoder/quantize/", "hart/modules/networks/basic_hart.py",
                           "hart/modules/utils/", "hart/utils/")),
        GitCorpus("whisperx", "https://github.com/m-bain/whisperX",
                  "2cfd7b7c5c7bba144954364db747319b50e8232b", ".",
                  "WhisperX: batched speech recognition: the VAD-segmented batched pipeline, wav2vec2 CTC forced "
                  "alignment per segment, speaker diarization and the transcribe entry point (the audio and "
                  "writer utilities copied from Whisper, which another set holds, are left out)",
                  include=("whisperx/__init__.py", "whisperx/asr.py", "whisperx/alignment.py", "whisperx/diarize.py",
                           "whisperx/transcribe.py", "whisperx/vads/", "whisperx/schema.py", "whisperx/log_utils.py")),
        GitCorpus("cogvideo", "https://github.com/THUDM/CogVideo",
                  "e519eced782c08db81f45e5eb40baa45958087ae", ".",
                  "CogVideoX: text / image-to-video: the SAT implementation's sampling (the video diffusion "
                  "engine, the sgm samplers, guiders and discretizers, the DiT and the context-parallel causal "
                  "3D VAE) with its sampling script, and the diffusers-based CLI demo and Gradio app with frame "
                  "interpolation (the fine-tuning, the SAT training data code and the vendored RIFE networks are "
                  "left out)",
                  include=("inference/cli_demo.py", "inference/gradio_composite_demo/app.py",
                           "inference/gradio_composite_demo/rife_model.py", "inference/gradio_composite_demo/utils.py",
                           "sat/sample_video.py", "sat/diffusion_video.py", "sat/dit_video_concat.py",
                           "sat/sgm/modules/diffusionmodules/sampling.py",
                           "sat/sgm/modules/diffusionmodules/sampling_utils.py",
                           "sat/sgm/modules/diffusionmodules/guiders.py",
                           "sat/sgm/modules/diffusionmodules/discretizer.py",
                           "sat/sgm/modules/diffusionmodules/denoiser.py",
                           "sat/sgm/modules/diffusionmodules/denoiser_scaling.py",
                           "sat/sgm/modules/diffusionmodules/wrappers.py", "sat/vae_modules/autoencoder.py",
                           "sat/vae_modules/cp_enc_dec.py")),
        GitCorpus("seamless", "https://github.com/facebookresearch/seamless_communication",
                  "90e2b57ac4d82fa2bfaa25caeffe39ceb8b2ebec", "src/seamless_communication",
                  "SeamlessM4T / SeamlessStreaming: speech translation: the translator's text beam search, unit "
                  "generation and vocoding, the UnitY model with its length regulator and NAR T2U decoder, the "
                  "streaming agents (online feature extraction, the monotonic text decoder's per-step read / write "
                  "policy, the unit decoder and vocoder agents, the VAD) and the prediction CLI (the model "
                  "builders / loaders, fine-tuning, evaluation and toxicity tooling are left out)",
                  include=("__init__.py", "inference/", "streaming/__init__.py", "streaming/agents/",
                           "models/__init__.py", "models/unity/__init__.py", "models/unity/model.py",
                           "models/unity/length_regulator.py", "models/unity/nar_decoder_frontend.py",
                           "models/unity/fft_decoder.py", "models/unity/fft_decoder_layer.py", "models/unity/film.py",
                           "models/unity/unit_tokenizer.py", "models/unity/char_tokenizer.py",
                           "models/monotonic_decoder/__init__.py", "models/monotonic_decoder/model.py",
                           "models/monotonic_decoder/monotonic_decoder.py",
                           "models/monotonic_decoder/monotonic_decoder_layer.py", "models/monotonic_decoder/p_choose.py",
                           "models/vocoder/__init__.py", "models/vocoder/vocoder.py", "models/vocoder/codehifigan.py",
                           "cli/__init__.py", "cli/m4t/__init__.py", "cli/m4t/predict/")),
        GitCorpus("mdlm", "https://github.com/kuleshov-group/mdlm",
                  "c112c526d193436838c98d81455ee51f90309470", ".",
                  "MDLM: masked diffusion language model: the ancestral sampler's per-step denoising with its "
                  "cache, semi-autoregressive sampling, the noise schedules, the DiT and autoregressive "
                  "backbones and the entry point (the data pipeline and the Mamba-derived backbone are left out)",
                  include=("diffusion.py", "noise_schedule.py", "main.py", "utils.py", "models/__init__.py",
                           "models/dit.py", "models/autoregressive.py", "models/ema.py")),
        GitCorpus("openvoice", "https://github.com/myshell-ai/OpenVoice",
                  "74a1d147b17a8c3092dd5430504bd83ef6c7eb23", ".",
                  "OpenVoice: voice cloning: the tone-color converter's VITS-style synthesis and conversion, "
                  "speaker-embedding extraction over VAD / Whisper segments, and the Gradio app (the VITS commons "
                  "and modules, which another set holds, and the text front end are left out)",
                  include=("openvoice/__init__.py", "openvoice/api.py", "openvoice/models.py", "openvoice/attentions.py",
                           "openvoice/transforms.py", "openvoice/mel_processing.py", "openvoice/se_extractor.py",
                           "openvoice/openvoice_app.py", "openvoice/utils.py")),
    ), "the twenty-seventh untouched set, pinned in session 31 for the next release (MetaVoice, VoiceCraft, "
       "LLMLingua, Show-o, HART, WhisperX, CogVideoX, SeamlessM4T, MDLM, OpenVoice)"),
    "bastion": GitSet(HERE / ".bastion", (
        GitCorpus("nemoasr", "https://github.com/NVIDIA/NeMo",
                  "8cfedd7203462cb251a914e700e5605444277561", "nemo",
                  "NeMo ASR decoding: batched greedy CTC and CTC beam search, the RNN-T / TDT label-looping greedy "
                  "decoders and the frame-looping RNN-T greedy decoder, each with its own CUDA graphs (full-graph "
                  "capture with conditional while nodes through cuda-python, or separate before-loop / inner-loop "
                  "graphs, or no graphs) around a per-frame / per-label loop, the batched beam hypotheses and the "
                  "cuda-python helpers (the ASR models, the encoders, the MALSD / MAES beam computers and the "
                  "rest of NeMo are left out)",
                  include=("__init__.py", "collections/__init__.py", "collections/asr/__init__.py",
                           "core/__init__.py", "core/utils/__init__.py", "core/utils/cuda_python_utils.py",
                           "collections/asr/parts/__init__.py", "collections/asr/parts/submodules/__init__.py",
                           "collections/asr/parts/utils/__init__.py",
                           "collections/asr/parts/submodules/ctc_greedy_decoding.py",
                           "collections/asr/parts/submodules/ctc_batched_beam_decoding.py",
                           "collections/asr/parts/submodules/cuda_graph_rnnt_greedy_decoding.py",
                           "collections/asr/parts/submodules/transducer_decoding/",
                           "collections/asr/parts/utils/batched_beam_decoding_utils.py")),
        GitCorpus("moondream", "https://github.com/vikhyat/moondream",
                  "44146f139242dacdf7c02b799e68097424a31036", ".",
                  "Moondream 2: a small vision-language model: the vision encoder and crops, prefill and the "
                  "per-token decode (compiled with mode=\"reduce-overhead\") with its KV cache and top-p sampling, "
                  "the caption / query / reasoning / point / detect / gaze generators with the region head, and "
                  "the sample, batch and Gradio / webcam demos (the fine-tuning, the evaluations and the recipe "
                  "apps are left out)",
                  include=("moondream/__init__.py", "moondream/torch/", "sample.py", "batch_generate_example.py",
                           "gradio_demo.py", "webcam_gradio_demo.py")),
        GitCorpus("fmsextras", "https://github.com/foundation-model-stack/fms-extras",
                  "16339f7c82255983d20dabf4807d124133be1d1c", ".",
                  "IBM fms-extras: speculative decoding with an MLP speculator over a paged KV cache: the paged "
                  "Llama / GPT-BigCode models and paged attention, the paged cache manager's block allocation per "
                  "step, the speculative and paged generate loops (candidate flattening, acceptance, cache "
                  "freeing) and the inference script that compiles the decode step with mode=\"reduce-overhead\" "
                  "(the Calico model, a variant of foundation-model-stack's Llama that the script never loads, "
                  "the Hugging Face adapters and the tests are left out)",
                  include=("fms_extras/__init__.py", "fms_extras/models/__init__.py",
                           "fms_extras/models/paged_gpt_bigcode.py", "fms_extras/models/paged_llama.py",
                           "fms_extras/models/speculator.py", "fms_extras/modules/", "fms_extras/utils/",
                           "scripts/")),
        GitCorpus("fms", "https://github.com/foundation-model-stack/foundation-model-stack",
                  "062adf6e1111850aa1c2abf7a678cfb95e35f59a", ".",
                  "IBM foundation-model-stack: the generate loop with its padding / KV-cache bookkeeping and "
                  "contiguous-cache handling for compiled decode, the model registry, Llama and Mixtral with the "
                  "multi-head attention and its pluggable attention ops, the MoE feed-forward with its Triton "
                  "kernel ops and the inference script (model.compile with mode \"default\" or "
                  "\"reduce-overhead\") (the other architectures, the Hugging Face adapters, training, datasets "
                  "and tests are left out)",
                  include=("fms/__init__.py", "fms/models/__init__.py", "fms/modules/__init__.py",
                           "fms/utils/__init__.py", "fms/utils/generation.py", "fms/models/llama.py",
                           "fms/models/mixtral.py",
                           "fms/modules/attention.py", "fms/modules/feedforward.py", "fms/triton/",
                           "scripts/inference.py")),
        GitCorpus("infinity", "https://github.com/FoundationVision/Infinity",
                  "4c27bbb54a9918847a2fe56b0fbe31a8523791a1", ".",
                  "Infinity: bitwise autoregressive text-to-image: the scale-by-scale CFG decode with its KV "
                  "cache, bitwise sampling and flex attention, the multi-scale BSQ quantizer and VAE, the compiled "
                  "fused ops and the inference tools / Cog predictor (the T5 and FLUX-VQGAN copies, which other "
                  "sets hold, the training and evaluation code are left out)",
                  include=("infinity/models/__init__.py", "infinity/models/basic.py", "infinity/models/infinity.py",
                           "infinity/models/bitwise_self_correction.py", "infinity/models/flex_attn.py",
                           "infinity/models/fused_op.py", "infinity/models/init_param.py", "infinity/models/ema.py",
                           "infinity/models/bsq_vae/vae.py", "infinity/models/bsq_vae/multiscale_bsq.py",
                           "infinity/models/bsq_vae/dynamic_resolution.py", "infinity/utils/dynamic_resolution.py",
                           "tools/run_infinity.py", "tools/comprehensive_infer.py", "predict.py")),
        GitCorpus("magi1", "https://github.com/SandAI-org/MAGI-1",
                  "6ff822e74ded50611e81e1d0e115146b5c4dd2a5", ".",
                  "MAGI-1: autoregressive chunk-by-chunk video diffusion: the pipeline's per-chunk denoising "
                  "schedule with KV ranges over earlier chunks, the DiT with its context / pipeline parallelism, "
                  "the tiled parallel VAE decode and the entry point (the Megatron-derived parallel state and the "
                  "T5 copy, which other sets hold, and the ComfyUI nodes are left out)",
                  include=("inference/common/", "inference/infra/checkpoint/",
                           "inference/infra/distributed/__init__.py", "inference/infra/distributed/dist_utils.py",
                           "inference/infra/parallelism/",
                           "inference/model/dit/", "inference/model/vae/", "inference/model/t5/__init__.py",
                           "inference/pipeline/")),
        GitCorpus("moeinfinity", "https://github.com/TorchMoE/MoE-Infinity",
                  "cca059cc103fbb7dfacdf423f0705f35669e9af9", ".",
                  "MoE-Infinity: offloaded MoE inference: the runtime that patches model loading to offload "
                  "experts, the expert cache, tracer, predictor and prefetcher driven per decode step, the "
                  "distributed expert executor, the Mixtral / DeepSeek / Arctic / Grok / Switch / NLLB MoE blocks "
                  "that dispatch to it, and the examples (the copied Hugging Face model files are left out)",
                  include=("moe_infinity/__init__.py", "moe_infinity/common/", "moe_infinity/distributed/",
                           "moe_infinity/entrypoints/", "moe_infinity/memory/", "moe_infinity/runtime/",
                           "moe_infinity/utils/", "moe_infinity/models/__init__.py",
                           "moe_infinity/models/mixtral.py",
                           "moe_infinity/models/deepseek.py", "moe_infinity/models/arctic.py",
                           "moe_infinity/models/grok.py", "moe_infinity/models/switch_transformers.py",
                           "moe_infinity/models/nllb_moe.py", "examples/")),
        GitCorpus("fireredasr", "https://github.com/FireRedTeam/FireRedASR",
                  "834635e4cf277ed8ca92049fc375b17c3dc20748", ".",
                  "FireRedASR: speech recognition: the AED model's conformer encoder and batched beam search "
                  "decoder, the LLM variant's adapter and generate, feature extraction, tokenizers, the "
                  "speech2text entry point and the Triton / TensorRT serving model (the WER tool, the Triton "
                  "client and the export scripts are left out)",
                  include=("fireredasr/data/", "fireredasr/models/", "fireredasr/tokenizer/",
                           "fireredasr/utils/param.py", "fireredasr/speech2text.py",
                           "runtime/triton_tensorrt/model_repo_fireredasr_aed/")),
        GitCorpus("megatts3", "https://github.com/bytedance/MegaTTS3",
                  "f506233c9b46f2606bbc36fcb119ed5c3a88a52c", ".",
                  "MegaTTS 3: zero-shot TTS: the autoregressive duration predictor's per-step decode with "
                  "incremental state, the latent diffusion transformer's flow-matching sampling with "
                  "multi-condition CFG, the WavVAE decoder, the front end and the CLI / Gradio inference (the "
                  "copied Whisper aligner, relative-position transformer, SEANet / HiFi-GAN modules and the text "
                  "utilities are left out)",
                  include=("tts/infer_cli.py", "tts/gradio_api.py", "tts/frontend_function.py",
                           "tts/modules/ar_dur/ar_dur_predictor.py", "tts/modules/ar_dur/commons/layers.py",
                           "tts/modules/ar_dur/commons/nar_tts_modules.py",
                           "tts/modules/ar_dur/commons/rot_transformer.py",
                           "tts/modules/ar_dur/commons/seq_utils.py", "tts/modules/ar_dur/commons/transformer.py",
                           "tts/modules/llm_dit/cfm.py", "tts/modules/llm_dit/dit.py",
                           "tts/modules/wavvae/decoder/wavvae_v3.py", "tts/modules/wavvae/decoder/seanet_encoder.py",
                           "tts/utils/commons/ckpt_utils.py")),
    ), "the twenty-eighth untouched set, pinned in session 32 for the release after next (NeMo ASR decoding, "
       "Moondream, fms-extras, foundation-model-stack, Infinity, MAGI-1, MoE-Infinity, FireRedASR, MegaTTS 3)"),
    "rampart": GitSet(HERE / ".rampart", (
        GitCorpus("stablefast", "https://github.com/chengzeyi/stable-fast",
                  "2b9b84e9d94b36cf5484c261b410c177836ebffe", ".",
                  "stable-fast: an inference compiler for diffusers pipelines: its own CUDA-graph capture and "
                  "replay of traced modules keyed on the inputs (torch.cuda.graph, a per-device graph pool), the "
                  "lazy TorchScript tracing and passes, the Triton-backed ops and module patches, the dynamo "
                  "backends and the Stable Diffusion / LCM / SVD / InstantID example scripts that compile a "
                  "pipeline with enable_cuda_graph (the terminal-image utilities, the LoRA training example, the "
                  "Triton layer norm, which another set holds, and the tests are left out)",
                  include=("src/sfast/__init__.py", "src/sfast/compilers/", "src/sfast/cuda/", "src/sfast/dynamo/",
                           "src/sfast/hooks/", "src/sfast/jit/", "src/sfast/libs/", "src/sfast/triton/__init__.py",
                           "src/sfast/triton/modules/", "src/sfast/triton/torch_ops.py",
                           "src/sfast/triton/ops/__init__.py", "src/sfast/triton/ops/activation.py",
                           "src/sfast/triton/ops/conv.py", "src/sfast/triton/ops/copy.py",
                           "src/sfast/triton/ops/group_norm.py", "src/sfast/triton/ops/utils.py",
                           "src/sfast/utils/__init__.py", "src/sfast/utils/compute_precision.py",
                           "src/sfast/utils/copy.py", "src/sfast/utils/copy_func.py",
                           "src/sfast/utils/custom_python_operator.py", "src/sfast/utils/env.py",
                           "src/sfast/utils/flat_tensors.py", "src/sfast/utils/gpu_device.py",
                           "src/sfast/utils/memory_format.py", "src/sfast/utils/patch.py",
                           "src/sfast/utils/torch_dispatch.py", "examples/optimize_stable_diffusion_pipeline.py",
                           "examples/optimize_lcm_pipeline.py", "examples/optimize_stable_video_diffusion_pipeline.py",
                           "examples/optimize_instant_id_pipeline.py")),
        GitCorpus("streamdiffusion", "https://github.com/cumulo-autumn/StreamDiffusion",
                  "b623251dc055e1fd858d53509aa43e09dfc5cdc0", ".",
                  "StreamDiffusion: real-time per-frame img2img / txt2img: the stream-batched denoising pipeline "
                  "with its similar-image filter, the wrapper, the stable-fast acceleration (enable_cuda_graph) "
                  "and TensorRT engines, and the screen / video / webcam / web demos with their frame loops (the "
                  "image viewer and setup.py are left out)",
                  include=("src/streamdiffusion/", "utils/__init__.py", "utils/wrapper.py", "examples/", "demo/")),
        GitCorpus("diffusionfast", "https://github.com/huggingface/diffusion-fast",
                  "95600855237c3acc917f90a9d07bc05d02544df2", ".",
                  "diffusion-fast: the SDXL and PixArt benchmark recipes: pipeline loading with dynamic int8 "
                  "quantization, fused QKV and channels-last, the UNet / transformer and VAE decode compiled "
                  "with fullgraph=True and mode \"reduce-overhead\" or \"max-autotune\", and the timed "
                  "benchmark and profile drivers"),
        GitCorpus("liveportrait", "https://github.com/KwaiVGI/LivePortrait",
                  "1986663be3b6902605d32200c01f4bfd36cda83d", ".",
                  "LivePortrait: portrait animation driven frame by frame: the pipelines' per-frame motion "
                  "template, stitching / retargeting and warp-decode loops, the wrapper that compiles the "
                  "warping module and SPADE generator with mode=\"max-autotune\", the modules, cropping and "
                  "landmark runners, and the CLI, Gradio and speed-test entry points (the vendored XPose and "
                  "insightface copies and the animal Gradio app are left out)",
                  include=("app.py", "inference.py", "speed.py", "src/config/", "src/gradio_pipeline.py",
                           "src/live_portrait_pipeline.py", "src/live_portrait_pipeline_animal.py",
                           "src/live_portrait_wrapper.py", "src/modules/", "src/utils/__init__.py",
                           "src/utils/animal_landmark_runner.py", "src/utils/camera.py", "src/utils/crop.py",
                           "src/utils/cropper.py", "src/utils/face_analysis_diy.py", "src/utils/filter.py",
                           "src/utils/helper.py", "src/utils/human_landmark_runner.py", "src/utils/io.py",
                           "src/utils/retargeting_utils.py", "src/utils/timer.py", "src/utils/video.py")),
        GitCorpus("musetalk", "https://github.com/TMElyralab/MuseTalk",
                  "0a89dec45a0192b824e3cf4daf96c239440c5ed8", ".",
                  "MuseTalk: real-time audio-driven lip sync: Whisper audio features chunked per video frame, "
                  "the batched latent UNet inpainting and VAE decode per frame batch, the real-time avatar "
                  "inference with its frame queue and blending thread, face detection / parsing and the Gradio "
                  "app (the vendored Whisper copy, training, losses and data preparation are left out)",
                  include=("app.py", "scripts/inference.py", "scripts/realtime_inference.py",
                           "musetalk/models/unet.py", "musetalk/models/vae.py", "musetalk/utils/__init__.py",
                           "musetalk/utils/audio_processor.py", "musetalk/utils/blending.py",
                           "musetalk/utils/preprocessing.py", "musetalk/utils/utils.py",
                           "musetalk/utils/face_parsing/", "musetalk/utils/face_detection/",
                           "musetalk/whisper/audio2feature.py")),
        GitCorpus("cutie", "https://github.com/hkchengrex/Cutie",
                  "ec5cdd4cf16f75c73ad785a2f96fb97dbad4125a", ".",
                  "Cutie: video object segmentation frame by frame: the inference core's per-frame step with "
                  "working / long-term / sensory memory, object manager and memory consolidation, the model "
                  "with its object transformer, the VOS evaluation loop, the scripting demos and the interactive "
                  "GUI's controller (training, datasets, losses and the vendored RITM click model are left out)",
                  include=("cutie/inference/", "cutie/model/__init__.py",
                           "cutie/model/aux_modules.py", "cutie/model/big_modules.py", "cutie/model/channel_attn.py",
                           "cutie/model/cutie.py", "cutie/model/group_modules.py", "cutie/model/modules.py",
                           "cutie/model/transformer/", "cutie/model/utils/__init__.py",
                           "cutie/model/utils/memory_utils.py", "cutie/model/utils/resnet.py",
                           "cutie/utils/__init__.py", "cutie/utils/get_default_model.py", "cutie/utils/image_saver.py",
                           "cutie/utils/palette.py", "cutie/utils/pano_utils.py", "cutie/utils/point_features.py",
                           "cutie/utils/tensor_utils.py", "cutie/eval_vos.py", "scripting_demo.py",
                           "scripting_demo_add_del_objects.py", "interactive_demo.py", "gui/__init__.py",
                           "gui/interaction.py", "gui/interactive_utils.py", "gui/main_controller.py",
                           "gui/resource_manager.py", "gui/reader.py", "gui/exporter.py", "gui/click_controller.py")),
        GitCorpus("hertzdev", "https://github.com/Standard-Intelligence/hertz-dev",
                  "076c2751cf1c73534b1cc4330298239d845f5ec3", ".",
                  "hertz-dev: a full-duplex audio language model: the per-step latent generation with KV cache "
                  "and token / categorical / Gaussian sampling, the audio tokenizer and its quantizer, the "
                  "transformer, and the websocket server and microphone clients that stream audio chunk by "
                  "chunk"),
        GitCorpus("gptfasthf", "https://github.com/MDK8888/GPTFast",
                  "926b7553cfbaf1ec2a702a4bfb477132ce98c2e1", ".",
                  "GPTFast: gpt-fast's recipe for Hugging Face models: a static KV cache patched into the "
                  "model's attention by rewriting its source, the model and draft model compiled with "
                  "mode=\"reduce-overhead\", fullgraph=True, speculative decoding with cache rollback, int8 / "
                  "int4 weight-only modules with a Triton matmul, and the GPT-2 / GPT-Neo / OPT examples (the "
                  "GPTQ calibration quantizers and the tests are left out)",
                  include=("GPTFast/__init__.py", "GPTFast/Core/__init__.py", "GPTFast/Core/GPTFast.py",
                           "GPTFast/Core/Compile/", "GPTFast/Core/Decode/", "GPTFast/Core/KVCache/",
                           "GPTFast/Core/Quantize/__init__.py", "GPTFast/Core/Quantize/Quantize.py",
                           "GPTFast/Core/Quantize/Quantizer.py", "GPTFast/Core/Quantize/INT8/",
                           "GPTFast/Core/Quantize/GPTQ/__init__.py", "GPTFast/Core/Quantize/GPTQ/Constants/",
                           "GPTFast/Core/Quantize/GPTQ/Functions/", "GPTFast/Core/Quantize/GPTQ/Modules/",
                           "GPTFast/Helpers/", "GPTFast/Kernels/__init__.py", "GPTFast/Kernels/Triton/__init__.py",
                           "GPTFast/Kernels/Triton/GPTQ/", "Examples/")),
        GitCorpus("specdecoding", "https://github.com/romsto/Speculative-Decoding",
                  "db7db67604359d0380c330c240c276ec1f85ba65", ".",
                  "Speculative-Decoding: plain-PyTorch autoregressive, beam-search, speculative and n-gram "
                  "assisted speculative generation loops over Hugging Face models (drafting, acceptance, "
                  "KV-cache pruning, n-gram storage updated per token), the codec variants and the interactive "
                  "CLI"),
        GitCorpus("silerovad", "https://github.com/snakers4/silero-vad",
                  "806dcba3f0b5d95282d0889a074954a2f8c6397b", ".",
                  "Silero VAD: voice activity detection window by window: the JIT / ONNX model wrappers with "
                  "their state, get_speech_timestamps' per-window loop, the streaming VADIterator, audio I/O "
                  "helpers, the hub entry and the microphone / WebRTC example (the tinygrad model, the ONNX / "
                  "OpenVINO export examples and the tuning scripts are left out)",
                  include=("src/silero_vad/__init__.py", "src/silero_vad/data/__init__.py",
                           "src/silero_vad/model.py", "src/silero_vad/utils_vad.py", "hubconf.py",
                           "examples/microphone_and_webRTC_integration/")),
    ), "the twenty-ninth untouched set, pinned in session 33 for the release after next (stable-fast, "
       "StreamDiffusion, diffusion-fast, LivePortrait, MuseTalk, Cutie, hertz-dev, GPTFast, Speculative-Decoding, "
       "Silero VAD)"),
    "redoubt": GitSet(HERE / ".redoubt", (
        GitCorpus("dia2", "https://github.com/nari-labs/dia2",
                  "8687268f4ed3ed20704638fd353b51491de3b476", ".",
                  "Dia2: a streaming dialogue TTS: the per-frame generation loop over the main transformer and the "
                  "depth transformer's stages, each captured once into its own CUDA graph (torch.cuda.CUDAGraph, "
                  "torch.cuda.graph) and replayed per step, the samplers compiled with mode=\"max-autotune\", "
                  "fullgraph=True, the KV caches, the delay state machine, voice cloning by prefix warm-up, Mimi "
                  "codec decoding and the CLI / Gradio entry points"),
        GitCorpus("fastvideo", "https://github.com/hao-ai-lab/FastVideo",
                  "2f3d4074064e4d86f99dc784ebbaa296e6f5925f", ".",
                  "FastVideo's MiniMax-H3 text / image-to-video path: the DiT with its fused modulation, QK-norm- "
                  "RoPE and SwiGLU kernels, the pipeline's input, conditioning, latent-preparation, denoising and "
                  "decoding stages (the per-step denoise loop), the tiled causal video VAE whose stitching and tile "
                  "projection compile with mode=\"reduce-overhead\" (one CUDA graph per tile geometry), presets, "
                  "packing and the example scripts (the Qwen3-VL encoder, the audio VAE and the scheduler, close to "
                  "diffusers', are left out)",
                  include=("fastvideo/models/dits/minimax_h3.py", "fastvideo/models/dits/minimax_h3_fusions/",
                           "fastvideo/models/vaes/minimax_h3_video.py", "fastvideo/pipelines/basic/minimax_h3/",
                           "fastvideo/configs/models/dits/minimax_h3.py",
                           "fastvideo/configs/models/vaes/minimax_h3_video.py",
                           "fastvideo/configs/pipelines/minimax_h3.py",
                           "examples/inference/basic/basic_minimax_h3_t2v.py",
                           "examples/inference/basic/basic_minimax_h3_fl2va.py",
                           "examples/inference/basic/basic_minimax_h3_ref2va.py")),
        GitCorpus("lorax", "https://github.com/predibase/lorax",
                  "a7394ba386ece427d5a6125b419aa38b46d966dc", ".",
                  "LoRAX's multi-LoRA decode kernels and CUDA graphs: the graph cache keyed on batch size and max "
                  "LoRA rank that traces and replays the decode step (torch.cuda.graph with a shared memory pool), "
                  "the punica / SGMV / BGMV LoRA batching with its Triton shrink / expand ops, the adapter segment "
                  "state and the Medusa-LoRA adapter (the model code and server, which the TGI set holds, are left "
                  "out)",
                  include=("server/lorax_server/utils/graph.py", "server/lorax_server/utils/punica.py",
                           "server/lorax_server/utils/ops/", "server/lorax_server/utils/state.py",
                           "server/lorax_server/adapters/__init__.py", "server/lorax_server/adapters/medusa_lora.py",
                           "server/lorax_server/adapters/utils.py")),
        GitCorpus("speechtospeech", "https://github.com/huggingface/speech-to-speech",
                  "9f59bc72f66ee84b006e2682b9547144e7f74827", ".",
                  "Hugging Face speech-to-speech: the threaded VAD -> STT -> LLM -> TTS pipeline with its queues, "
                  "events and cancel scopes, the Whisper STT handler compiled with mode=compile_mode, "
                  "fullgraph=True (reduce-overhead / max-autotune on a static cache), the Parakeet TDT streaming "
                  "decoder and progressive streaming, the Silero / smart-turn VAD handler, the transformers LLM "
                  "handler with streamed generation and the Kokoro / Pocket TTS handlers (the MLX and OpenAI API "
                  "handlers, the realtime API server and the other TTS backends are left out)",
                  include=("src/speech_to_speech/STT/__init__.py", "src/speech_to_speech/STT/base_stt_handler.py",
                           "src/speech_to_speech/STT/whisper_stt_handler.py",
                           "src/speech_to_speech/STT/parakeet_tdt_handler.py",
                           "src/speech_to_speech/STT/smart_progressive_streaming.py",
                           "src/speech_to_speech/STT/transcription_notifier.py",
                           "src/speech_to_speech/TTS/__init__.py", "src/speech_to_speech/TTS/kokoro_handler.py",
                           "src/speech_to_speech/TTS/pocket_tts_handler.py", "src/speech_to_speech/VAD/__init__.py",
                           "src/speech_to_speech/VAD/vad_handler.py", "src/speech_to_speech/VAD/smart_turn.py",
                           "src/speech_to_speech/LLM/language_model.py",
                           "src/speech_to_speech/LLM/lm_output_processor.py", "src/speech_to_speech/baseHandler.py",
                           "src/speech_to_speech/s2s_pipeline.py", "src/speech_to_speech/pipeline/__init__.py",
                           "src/speech_to_speech/pipeline/cancel_scope.py",
                           "src/speech_to_speech/pipeline/events.py", "src/speech_to_speech/pipeline/messages.py",
                           "src/speech_to_speech/pipeline/queue_types.py",
                           "src/speech_to_speech/pipeline/handler_types.py", "src/speech_to_speech/utils/utils.py",
                           "src/speech_to_speech/arguments_classes/whisper_stt_arguments.py",
                           "src/speech_to_speech/arguments_classes/module_arguments.py",
                           "src/speech_to_speech/arguments_classes/vad_arguments.py",
                           "src/speech_to_speech/arguments_classes/parakeet_tdt_arguments.py",
                           "src/speech_to_speech/arguments_classes/kokoro_tts_arguments.py",
                           "src/speech_to_speech/arguments_classes/language_model_arguments.py")),
        GitCorpus("pyannote", "https://github.com/pyannote/pyannote-audio",
                  "b749285c5cdd4636b2edc7f766f1352c8dde9369", ".",
                  "pyannote.audio's diarization inference: the sliding-window Inference over audio chunks with "
                  "aggregation, the Model wrapper and audio I/O, the PyanNet segmentation and blocks, the speaker "
                  "diarization and VAD pipelines with batched embedding extraction and clustering, powerset and "
                  "permutation utilities (training tasks, metrics, separation, augmentations and the WeSpeaker "
                  "ResNet, which another set holds, are left out)",
                  include=("src/pyannote/audio/core/inference.py", "src/pyannote/audio/core/model.py",
                           "src/pyannote/audio/core/io.py", "src/pyannote/audio/models/segmentation/PyanNet.py",
                           "src/pyannote/audio/models/blocks/",
                           "src/pyannote/audio/models/embedding/wespeaker/__init__.py",
                           "src/pyannote/audio/pipelines/speaker_diarization.py",
                           "src/pyannote/audio/pipelines/clustering.py",
                           "src/pyannote/audio/pipelines/voice_activity_detection.py",
                           "src/pyannote/audio/pipelines/utils/diarization.py",
                           "src/pyannote/audio/pipelines/utils/getter.py", "src/pyannote/audio/utils/powerset.py",
                           "src/pyannote/audio/utils/permutation.py")),
        GitCorpus("wenet", "https://github.com/wenet-e2e/wenet",
                  "015469960db73eb19c49a48c020d5ac9db69bae5", ".",
                  "WeNet's ASR decoding: the ASR model's CTC greedy / prefix beam search, attention decoding and "
                  "rescoring, the search functions with per-step loops and context-graph biasing, the transformer "
                  "decoder, the recognize script and the Python CLI (the conformer encoder, attention, subsampling "
                  "and embedding modules, which the CosyVoice and chatterbox sets hold, are left out)",
                  include=("wenet/models/__init__.py", "wenet/models/transformer/__init__.py",
                           "wenet/models/transformer/asr_model.py", "wenet/models/transformer/decoder.py",
                           "wenet/models/transformer/search.py", "wenet/models/transformer/ctc.py",
                           "wenet/models/transformer/cmvn.py", "wenet/bin/recognize.py", "wenet/cli/",
                           "wenet/utils/ctc_utils.py", "wenet/utils/context_graph.py", "wenet/utils/cmvn.py")),
        GitCorpus("cotracker", "https://github.com/facebookresearch/co-tracker",
                  "82e02e8029753ad4ef13cf06be7f4fc5facdda4d", ".",
                  "CoTracker: point tracking over video: the offline and online CoTracker3 / CoTracker2 models with "
                  "their iterative refinement, the predictors that step the online model window by window, the "
                  "visualizer and the demo, online-demo and Gradio entry points (datasets, training and evaluation "
                  "are left out)",
                  include=("cotracker/__init__.py", "cotracker/models/", "cotracker/predictor.py",
                           "cotracker/utils/", "demo.py", "online_demo.py", "gradio_demo/", "hubconf.py")),
        GitCorpus("videodepth", "https://github.com/DepthAnything/Video-Depth-Anything",
                  "4f5ae23172ba60fd7bc11ef671cca678842c7072", ".",
                  "Video Depth Anything: consistent video depth over clips and the streaming per-frame model with "
                  "its cached temporal features, the DPT temporal head and motion module, the DINOv2 backbone "
                  "wrapper and the run / streaming / Gradio entry points (the vendored DINOv2 layers and the motion "
                  "module's attention, close to other sets' copies, are left out)",
                  include=("app.py", "run.py", "run_streaming.py", "utils/dc_utils.py", "utils/util.py",
                           "video_depth_anything/dinov2.py", "video_depth_anything/dpt.py",
                           "video_depth_anything/dpt_temporal.py",
                           "video_depth_anything/motion_module/motion_module.py",
                           "video_depth_anything/util/blocks.py", "video_depth_anything/util/transform.py",
                           "video_depth_anything/video_depth.py", "video_depth_anything/video_depth_stream.py")),
        GitCorpus("rvm", "https://github.com/PeterL1n/RobustVideoMatting",
                  "53d74c6826735f01f4406b5ca9075eee27bec094", ".",
                  "Robust Video Matting: the recurrent matting network (MobileNetV3 / ResNet-50 encoders, ConvGRU "
                  "decoder, deep guided filter) stepped frame by frame with its recurrent state, the video "
                  "converter and the speed test",
                  include=("model/", "inference.py", "inference_utils.py", "inference_speed_test.py", "hubconf.py")),
        GitCorpus("dfloat11", "https://github.com/LeanModels/DFloat11",
                  "457733886ce6ebc6d8dda1621fad1ffa2661e028", ".",
                  "DFloat11: lossless compressed bf16 weights decoded on the GPU per forward: the model wrapper "
                  "that hooks each block to decompress its weights with a CUDA kernel into a shared buffer, loading "
                  "and the Flux, Wan and LLM examples"),
    ), "the thirtieth untouched set, pinned in session 34 for the release after next (Dia2, FastVideo's "
       "MiniMax-H3, LoRAX's CUDA graphs and LoRA kernels, speech-to-speech, pyannote.audio, WeNet decoding, "
       "CoTracker, Video Depth Anything, Robust Video Matting, DFloat11)"),
    "parapet": GitSet(HERE / ".parapet", (
        GitCorpus("fasterqwen3tts", "https://github.com/andimarafioti/faster-qwen3-tts",
                  "a70afc0f81f7f5f8801c3227968f1102f43f211c", ".",
                  "faster-qwen3-tts: real-time Qwen3-TTS decoding with hand-written CUDA graphs: the talker's "
                  "single-token decode step and the code predictor's 15-codebook step, each captured once "
                  "(torch.cuda.CUDAGraph, torch.cuda.graph) over a static KV cache and replayed per frame, the non- "
                  "streaming and streaming generation loops, sampling, the model wrapper with voice-clone prompt "
                  "caching, the examples (OpenAI-style server, streaming playback) and two benchmarks (the "
                  "Qwen3-TTS model code is an external package; the ggml backend, the CLI and the demo server are "
                  "left out)",
                  include=("faster_qwen3_tts/__init__.py", "faster_qwen3_tts/generate.py",
                           "faster_qwen3_tts/model.py", "faster_qwen3_tts/predictor_graph.py",
                           "faster_qwen3_tts/sampling.py", "faster_qwen3_tts/streaming.py",
                           "faster_qwen3_tts/talker_graph.py", "faster_qwen3_tts/utils.py", "examples/",
                           "benchmarks/streaming.py", "benchmarks/throughput.py")),
        GitCorpus("infer", "https://github.com/paladin8/infer",
                  "40af7e9de91e82c755cef15d0dff4f45d199c6d4", ".",
                  "infer: a from-scratch LLM serving engine: the static and continuous-batching runners, the "
                  "scheduler, the CUDA graph runner that captures the decode step per padded batch size "
                  "(torch.cuda.graph with a shared memory pool) and replays it, the speculative-decoding runner "
                  "(draft, verify, accept), the sampler and the generate loop, the simple / slotted / paged KV "
                  "caches, and the Llama and Qwen3 models (the Triton kernels, loaders, quantized linears, Gemma 3, "
                  "structured output and the HTTP server are left out)",
                  include=("src/infer/__init__.py", "src/infer/engine/", "src/infer/cache/__init__.py",
                           "src/infer/cache/protocol.py", "src/infer/cache/paged.py", "src/infer/cache/slotted.py",
                           "src/infer/cache/simple.py", "src/infer/models/__init__.py", "src/infer/models/common.py",
                           "src/infer/models/llama.py", "src/infer/models/qwen3.py")),
        GitCorpus("worldengine", "https://github.com/Overworldai/world_engine",
                  "208c909824d906bf441122b7c40b9b4e1050d7c3", ".",
                  "Overworld's world_engine: a real-time interactive world model that generates one video frame per "
                  "controller input: the frame loop whose denoise pass over the sigma schedule and KV-cache pass "
                  "compile with mode=\"max-autotune\", fullgraph=True (CUDA graphs), the static KV cache, the world- "
                  "model transformer, the autoencoder (its decode also compiled max-autotune), the inference "
                  "patches and quantization, and the example client, sample, benchmark and profiling scripts",
                  include=("src/", "examples/")),
        GitCorpus("nariqwen3tts", "https://github.com/nari-labs/nari-qwen3-tts",
                  "e8c5b2bf6d65a965037f161d713bfa3e8856feb3", ".",
                  "nari-qwen3-tts's executor: a batched streaming Qwen3-TTS engine core: the talker and the code "
                  "predictor executed per step with CUDA graphs captured per batch size (torch.cuda.graph into a "
                  "shared pool, guarded by pool fences), the paged talker KV cache with its slots, row bookkeeping "
                  "and submission, the incremental codec decode to PCM, the per-row RNG and sampling, and the "
                  "model's layers and components (the engine pipeline, planner, contracts and the HTTP / WebSocket "
                  "API are left out)",
                  include=("src/nari_qwen3_tts/executor/", "src/nari_qwen3_tts/model/layers.py",
                           "src/nari_qwen3_tts/model/components.py")),
        GitCorpus("depthpro", "https://github.com/apple/ml-depth-pro",
                  "9efe5c1def37a26c5367a71df664b18e1306c708", ".",
                  "Apple's Depth Pro: zero-shot metric monocular depth with focal-length estimation: the multi- "
                  "scale ViT encoder over image patches, the decoder, the FOV network, the network factory and the "
                  "CLI that runs it over a folder of images, and the boundary metrics"),
        GitCorpus("demucs", "https://github.com/facebookresearch/demucs",
                  "e976d93ecc3865e5757426930257e200846a520a", ".",
                  "Demucs: music source separation: the HTDemucs hybrid transformer, HDemucs and Demucs v2 models, "
                  "the chunked, shifted and overlap-added apply_model over long audio (a bag of models, with split "
                  "/ segment loops and a thread pool), the separation API and CLI, pretrained-model repositories, "
                  "spectrogram helpers and audio I/O (training, solver, grids, evaluation and augmentation are left "
                  "out)",
                  include=("demucs/__init__.py", "demucs/__main__.py", "demucs/api.py", "demucs/apply.py",
                           "demucs/audio.py", "demucs/demucs.py", "demucs/hdemucs.py", "demucs/htdemucs.py",
                           "demucs/pretrained.py", "demucs/repo.py", "demucs/separate.py", "demucs/spec.py",
                           "demucs/states.py", "demucs/transformer.py", "demucs/utils.py", "hubconf.py")),
        GitCorpus("rife", "https://github.com/hzwer/Practical-RIFE",
                  "17d8c7a1005b37f4c97bfee04e316aaec7fdc536", ".",
                  "Practical-RIFE: video frame interpolation inference: the video script with its reader / writer "
                  "threads, per-frame-pair loop, scene-change SSIM check and padding, the image, video-enhance and "
                  "super-resolution scripts, backward warping and the MS-SSIM helpers (the IFNet model itself ships "
                  "with the downloaded weights in train_log/, not in the repository)"),
        GitCorpus("bytetrack", "https://github.com/ifzhang/ByteTrack",
                  "d1bf0191adff59bc8fcfeaa0b33d3d1642552a99", ".",
                  "ByteTrack: multi-object tracking by associating every detection box: the YOLOX detector (darknet "
                  "backbone, PAFPN, decoupled head and its decode), postprocess / NMS, the BYTE tracker with its "
                  "Kalman filter and matching, the experiment configs, the video / webcam demo with its per-frame "
                  "loop and the MOT evaluator that tracks sequence by sequence (training, datasets and the other "
                  "trackers are left out)",
                  include=("yolox/tracker/", "yolox/models/__init__.py", "yolox/models/darknet.py",
                           "yolox/models/network_blocks.py", "yolox/models/yolo_fpn.py", "yolox/models/yolo_head.py",
                           "yolox/models/yolo_pafpn.py", "yolox/models/yolox.py", "yolox/utils/__init__.py",
                           "yolox/utils/boxes.py", "yolox/utils/demo_utils.py", "yolox/utils/visualize.py",
                           "yolox/utils/model_utils.py", "yolox/exp/", "tools/demo_track.py",
                           "yolox/evaluators/mot_evaluator.py", "yolox/data/data_augment.py")),
        GitCorpus("rfdetr", "https://github.com/roboflow/rf-detr",
                  "35ac6ab64634e188bbb0fa3fc5135132f0df45fc", ".",
                  "RF-DETR: a real-time DETR detector: the RFDETR class whose predict runs preprocessing, the model "
                  "and box postprocessing per batch of images, the LW-DETR model with its deformable-attention "
                  "transformer, the DINOv2 backbone wrapper and multi-scale projector, position encodings, box ops, "
                  "configs and the deployment benchmark (COCO timing loop) (the windowed-attention DINOv2 copy, "
                  "segmentation head, datasets, training engine and ONNX export are left out)",
                  include=("rfdetr/__init__.py", "rfdetr/detr.py", "rfdetr/config.py", "rfdetr/models/__init__.py",
                           "rfdetr/models/lwdetr.py", "rfdetr/models/transformer.py",
                           "rfdetr/models/position_encoding.py", "rfdetr/models/backbone/__init__.py",
                           "rfdetr/models/backbone/backbone.py", "rfdetr/models/backbone/base.py",
                           "rfdetr/models/backbone/dinov2.py", "rfdetr/models/backbone/projector.py",
                           "rfdetr/models/ops/", "rfdetr/util/box_ops.py", "rfdetr/deploy/benchmark.py")),
        GitCorpus("marigold", "https://github.com/prs-eth/Marigold",
                  "b1dffaaa3f7a2fe406b3bb9dd3c358b30da66060", ".",
                  "Marigold: diffusion-based monocular depth, surface-normal and intrinsic-image estimation: the "
                  "depth, normals and IID pipelines with their per-step denoising loops over the latent, test-time "
                  "ensembling, batch-size heuristics, image utilities, and the depth run / infer / eval scripts "
                  "(training, datasets and the normals / IID scripts are left out)",
                  include=("marigold/", "script/depth/run.py", "script/depth/infer.py", "script/depth/eval.py",
                           "src/util/alignment.py", "src/util/image_util.py", "src/util/depth_transform.py",
                           "src/util/seeding.py", "src/util/config_util.py")),
    ), "the thirty-second untouched set, pinned in session 35 for the release after next (faster-qwen3-tts, "
       "infer, world_engine, nari-qwen3-tts's executor, Depth Pro, Demucs, Practical-RIFE, ByteTrack, RF-DETR, "
       "Marigold)"),
    "bulwark": GitSet(HERE / ".bulwark", (
        GitCorpus("leanrl", "https://github.com/pytorch-labs/LeanRL",
                  "8dbb6336b7f6cc65cdbbeb2e86637c38867e2677", ".",
                  "LeanRL: single-file PyTorch RL scripts (PPO, SAC, TD3, DQN, from CleanRL) in eager and tuned "
                  "variants: the tuned ones compile the policy, the GAE and the update and wrap them in "
                  "tensordict's CudaGraphModule (CUDA graphs captured after warmup, replayed every environment step "
                  "/ iteration), with capturable optimizers, per-step env interaction and host-side logging (the "
                  "JAX variants and tests are left out)",
                  include=("leanrl/dqn.py", "leanrl/dqn_torchcompile.py", "leanrl/ppo_atari_envpool.py",
                           "leanrl/ppo_atari_envpool_torchcompile.py", "leanrl/ppo_continuous_action.py",
                           "leanrl/ppo_continuous_action_torchcompile.py", "leanrl/sac_continuous_action.py",
                           "leanrl/sac_continuous_action_torchcompile.py", "leanrl/td3_continuous_action.py",
                           "leanrl/td3_continuous_action_torchcompile.py")),
        GitCorpus("tdmpc2", "https://github.com/nicklashansen/tdmpc2",
                  "e9f59321933cbc8e11a002b842adc7d4ffae8ff1", ".",
                  "TD-MPC2: model-based RL that plans every environment step with MPPI over a learned latent world "
                  "model: the agent whose _plan and _update are compiled with mode=\"reduce-overhead\" (CUDA graphs, "
                  "with cudagraph_mark_step_begin), the world model and its layers, two-hot / math helpers, the "
                  "replay buffer, the online and offline trainers with their episode loops, evaluation and the "
                  "DMControl / wrapper environments (the custom tasks and other simulators are left out)",
                  include=("tdmpc2/tdmpc2.py", "tdmpc2/common/", "tdmpc2/evaluate.py", "tdmpc2/train.py",
                           "tdmpc2/trainer/", "tdmpc2/envs/__init__.py", "tdmpc2/envs/wrappers/",
                           "tdmpc2/envs/dmcontrol.py")),
        GitCorpus("fasttd3", "https://github.com/younggyoseo/FastTD3",
                  "229ed59bbf43ea2f7a2d5d90d1076314839944d7", ".",
                  "FastTD3: fast off-policy TD3 for massively parallel humanoid simulators: the actor and "
                  "distributional critic, the update functions compiled with mode=\"reduce-overhead\" (compile_mode) "
                  "and replayed every training step, observation / reward normalizers, the replay buffer, the "
                  "training loop with its per-step rollout and logging, hyperparameters and the deploy wrapper (the "
                  "SimbaV2 variant, the multi-GPU trainer and the simulator environments are left out)",
                  include=("fast_td3/__init__.py", "fast_td3/fast_td3.py", "fast_td3/fast_td3_utils.py",
                           "fast_td3/fast_td3_deploy.py", "fast_td3/train.py", "fast_td3/hyperparams.py")),
        GitCorpus("lrnnx", "https://github.com/SforAiDl/lrnnx",
                  "b28d4ee86b74234e4d95b002df8d21564fdf393e", ".",
                  "lrnnx: linear RNN / state-space models (S4, S4D, S5, LRU, Centaurus, S7, event-driven S5) with a "
                  "step-by-step inference path: the recurrent step captured once into a CUDA graph "
                  "(torch.cuda.CUDAGraph, torch.cuda.graph with a pool) and replayed per generated step, the plain "
                  "for-loop fallback, inference caches, discretization and convolution kernels, the language-model "
                  "architecture and the inference benchmark (the Mamba / RG-LRU copies, the Triton kernels, the "
                  "selective-scan interface, MHA blocks and tests are left out)",
                  include=("lrnnx/__init__.py", "lrnnx/core/", "lrnnx/models/__init__.py", "lrnnx/models/lti/",
                           "lrnnx/models/ltv/__init__.py", "lrnnx/models/ltv/base.py", "lrnnx/models/ltv/s5.py",
                           "lrnnx/models/ltv/s7.py", "lrnnx/utils/", "lrnnx/architectures/__init__.py",
                           "lrnnx/architectures/language_model.py", "lrnnx/architectures/embedding.py",
                           "lrnnx/layers/mlp.py", "benchmarks/benchmark_inference.py")),
        GitCorpus("surya", "https://github.com/VikParuchuri/surya",
                  "80e9a7e986ae5a2bab1d9837ef5e728a921c8558", ".",
                  "Surya: document OCR, text-line detection and layout: the recognition predictor with its "
                  "continuous-batching decode loop over slots and a static KV cache, per-step token / score copies "
                  "to the host, the detection predictor (heatmaps to polygons, affinity), the layout predictor and "
                  "slicer, input loading and processing, the processor / tokenizer, settings and the OCR / "
                  "detection / layout CLIs (the transformer model code, which follows HF's, the table-recognition "
                  "and LaTeX models, the apps and benchmarks are left out)",
                  include=("surya/recognition/", "surya/detection/__init__.py", "surya/detection/heatmap.py",
                           "surya/detection/affinity.py", "surya/detection/loader.py", "surya/detection/parallel.py",
                           "surya/detection/schema.py", "surya/detection/util.py", "surya/layout/__init__.py",
                           "surya/layout/loader.py", "surya/layout/slicer.py", "surya/layout/schema.py",
                           "surya/layout/util.py", "surya/common/polygon.py", "surya/common/predictor.py",
                           "surya/common/util.py", "surya/common/load.py", "surya/common/surya/processor/",
                           "surya/common/surya/schema.py", "surya/input/", "surya/models.py", "surya/settings.py",
                           "surya/scripts/ocr_text.py", "surya/scripts/detect_text.py",
                           "surya/scripts/detect_layout.py", "surya/scripts/config.py")),
        GitCorpus("diffpolicy", "https://github.com/real-stanford/diffusion_policy",
                  "5ba07ac6661db573af695b419a7947ecb704690f", ".",
                  "Diffusion Policy: visuomotor robot policies that denoise action chunks: the UNet and transformer "
                  "image / low-dim policies with their per-step DDPM / DDIM sampling loops, the conditional UNet, "
                  "transformer and EMA model, the Push-T and robomimic image runners that step simulated "
                  "environments per action chunk, and the real-robot evaluation loop with its environment and "
                  "inference utilities (training workspaces, datasets, the other policies and robot drivers are "
                  "left out)",
                  include=("diffusion_policy/policy/base_image_policy.py",
                           "diffusion_policy/policy/base_lowdim_policy.py",
                           "diffusion_policy/policy/diffusion_unet_image_policy.py",
                           "diffusion_policy/policy/diffusion_unet_hybrid_image_policy.py",
                           "diffusion_policy/policy/diffusion_transformer_hybrid_image_policy.py",
                           "diffusion_policy/policy/diffusion_unet_lowdim_policy.py",
                           "diffusion_policy/policy/diffusion_transformer_lowdim_policy.py",
                           "diffusion_policy/model/diffusion/", "diffusion_policy/env_runner/base_image_runner.py",
                           "diffusion_policy/env_runner/pusht_image_runner.py",
                           "diffusion_policy/env_runner/robomimic_image_runner.py",
                           "diffusion_policy/real_world/real_env.py",
                           "diffusion_policy/real_world/real_inference_util.py", "eval.py", "eval_real_robot.py")),
        GitCorpus("doctr", "https://github.com/mindee/doctr",
                  "8a88feaf7ff5140e5f4c5c860cb9414dda128656", ".",
                  "docTR: document text detection and recognition: the OCR predictor that chains batched detection, "
                  "crop extraction, orientation and recognition per page, the detection predictor with DBNet and "
                  "FAST (PyTorch) and their postprocessing, the recognition predictor with CRNN and PARSeq "
                  "decoding, preprocessing and the model zoo (the TensorFlow-free PyTorch path only; "
                  "classification, KIE, layout, table structure, datasets and training are left out)",
                  include=("doctr/models/__init__.py", "doctr/models/core.py", "doctr/models/zoo.py",
                           "doctr/models/predictor/", "doctr/models/preprocessor/", "doctr/models/utils/pytorch.py",
                           "doctr/models/utils/__init__.py", "doctr/models/detection/__init__.py",
                           "doctr/models/detection/core.py", "doctr/models/detection/zoo.py",
                           "doctr/models/detection/predictor/", "doctr/models/detection/_utils/",
                           "doctr/models/detection/differentiable_binarization/", "doctr/models/detection/fast/",
                           "doctr/models/recognition/__init__.py", "doctr/models/recognition/core.py",
                           "doctr/models/recognition/zoo.py", "doctr/models/recognition/utils.py",
                           "doctr/models/recognition/predictor/", "doctr/models/recognition/crnn/",
                           "doctr/models/recognition/parseq/")),
        GitCorpus("neutts", "https://github.com/neuphonic/neutts-air",
                  "d62412dd20e17a204f17ab8d779569662dde0c76", ".",
                  "NeuTTS Air: on-device voice-cloning TTS over a small LLM backbone and the NeuCodec codec: the "
                  "synthesis class with reference encoding, prompt building, token generation (transformers or "
                  "llama.cpp), streaming chunked decoding and watermarking, and the basic / streaming / ONNX / "
                  "reference-encoding examples (the fine-tuning script and tests are left out)",
                  include=("__init__.py", "examples/__init__.py", "examples/basic_example.py",
                           "examples/basic_streaming_example.py", "examples/encode_reference.py",
                           "examples/onnx_example.py", "neutts/__init__.py", "neutts/neutts.py",
                           "neuttsair/__init__.py", "neuttsair/neutts.py")),
        GitCorpus("openvla", "https://github.com/openvla/openvla",
                  "c8f03f48af692657d3060c19588038c7220e9af9", ".",
                  "OpenVLA: a vision-language-action model for robot control: the Prismatic VLM (vision backbones, "
                  "projector, LLM backbones and prompt builders), the HF port with predict_action, the LIBERO and "
                  "Bridge evaluation loops that query the policy every control step, robot and image utilities, and "
                  "the REST deployment server (training, datasets and the other scripts are left out)",
                  include=("prismatic/models/", "prismatic/extern/hf/", "experiments/robot/",
                           "vla-scripts/deploy.py")),
    ), "the thirty-third untouched set, pinned in session 36 for the release after next (LeanRL, TD-MPC2, "
       "FastTD3, lrnnx, Surya, Diffusion Policy, docTR, NeuTTS Air, OpenVLA)"),
    "palisade": GitSet(HERE / ".palisade", (
        GitCorpus("rlgames", "https://github.com/Denys88/rl_games",
                  "262cf20258360ce50c4b73694210bbdc8b0d58ad", ".",
                  "rl_games: GPU-vectorized RL for Isaac Gym / IsaacLab: the runner that compiles the SAC actor and "
                  "critics in place with mode=\"reduce-overhead\" by default (CUDA graphs replayed every environment "
                  "step and update), the SAC agent with its per-step rollout, replay buffer and update loop, the "
                  "network / model builders, the players that run trained policies step by step, running mean-std "
                  "normalizers and torch helpers (the PPO / A2C trainers, PBT, environments and tests are left out)",
                  include=("rl_games/torch_runner.py", "rl_games/algos_torch/sac_agent.py",
                           "rl_games/algos_torch/sac_helper.py", "rl_games/algos_torch/network_builder.py",
                           "rl_games/algos_torch/models.py", "rl_games/algos_torch/model_builder.py",
                           "rl_games/algos_torch/players.py", "rl_games/algos_torch/torch_ext.py",
                           "rl_games/algos_torch/running_mean_std.py", "rl_games/common/player.py",
                           "rl_games/common/experience.py", "runner.py")),
        GitCorpus("torchmdnet", "https://github.com/torchmd/torchmd-net",
                  "833c07708e7d507fc33bdcd835ed083a321cc651", ".",
                  "TorchMD-Net: neural network potentials for molecular dynamics: the calculators that evaluate "
                  "energy and forces every MD step, one capturing the model into a torch.cuda.CUDAGraph after "
                  "warmup and replaying it per step, one (ASE) compiled with mode=\"reduce-overhead\", the TensorNet "
                  "/ equivariant transformer models, output modules, neighbour-list helpers, the Lightning module, "
                  "the inference benchmark and the AceFF / OpenMM examples (datasets, priors, the custom CUDA / "
                  "Triton extensions, other model variants and tests are left out)",
                  include=("benchmarks/inference.py", "examples/aceff_examples/aceff.py",
                           "examples/aceff_examples/ase_aceff.py", "examples/aceff_examples/ase_aceff_PBC.py",
                           "examples/aceff_examples/batched_minimization_and_md.py",
                           "examples/openmm-integration.py", "torchmdnet/__init__.py", "torchmdnet/calculators.py",
                           "torchmdnet/models/__init__.py", "torchmdnet/models/model.py",
                           "torchmdnet/models/output_modules.py", "torchmdnet/models/tensornet.py",
                           "torchmdnet/models/torchmd_et.py", "torchmdnet/models/utils.py",
                           "torchmdnet/models/wrappers.py", "torchmdnet/module.py", "torchmdnet/optimize.py",
                           "torchmdnet/utils.py")),
        GitCorpus("mace", "https://github.com/ACEsuit/mace",
                  "667eee4e58d23a38ff5a75122109ec2025809649", ".",
                  "MACE: equivariant message-passing interatomic potentials: the ASE calculator that optionally "
                  "compiles each model with torch.compile(fullgraph=True) and evaluates energy / forces / stresses "
                  "per MD or relaxation step with host copies of the results, the foundation-model loaders, the "
                  "LAMMPS wrapper, the MACE model family, radial / symmetric-contraction blocks, utils and the "
                  "cuequivariance wrapper ops (training, data, the CLI tools, LoRA, field blocks and tests are left "
                  "out)",
                  include=("mace/calculators/__init__.py", "mace/calculators/mace.py",
                           "mace/calculators/foundations_models.py", "mace/calculators/lammps_mace.py",
                           "mace/modules/models.py", "mace/modules/utils.py", "mace/modules/radial.py",
                           "mace/modules/symmetric_contraction.py", "mace/modules/irreps_tools.py",
                           "mace/modules/wrapper_ops.py", "mace/modules/embeddings.py", "mace/modules/__init__.py")),
        GitCorpus("sam3", "https://github.com/facebookresearch/sam3",
                  "99d02f28c8d34610ab35559b72642b01f10fdb1e", ".",
                  "SAM 3: promptable concept segmentation and tracking in video: the video inference model that "
                  "compiles the vision backbone, memory encoder and mask decoder with mode=\"max-autotune\" (CUDA "
                  "graphs) and propagates detections and tracks frame by frame with per-frame host copies, the "
                  "detect-and-track base (matching, suppression, re-identification), the request / streaming video "
                  "predictor and the compile wrapper (the image model, the SAM 2-derived tracker, training, eval "
                  "and the agent are left out)",
                  include=("sam3/model/sam3_video_inference.py", "sam3/model/sam3_video_predictor.py",
                           "sam3/model/sam3_video_base.py", "sam3/perflib/compile.py")),
        GitCorpus("e2s", "https://github.com/NVIDIA/earth2studio",
                  "0e67cdae55f76e7ad1213b73895730a5e607e6f0", ".",
                  "Earth2Studio: AI weather and climate inference: the deterministic / diagnostic / ensemble "
                  "workflows that step a prognostic model over forecast lead times and write each step out, the "
                  "StormScope nowcasting model whose staged diffusion experts are compiled with mode=\"reduce- "
                  "overhead\" and sampled per step, the SFNO, DLWP and FourCastNet prognostic wrappers with their "
                  "time-stepping iterators, and batching helpers (data sources, IO backends, diagnostics, the other "
                  "models and the serving layer are left out)",
                  include=("earth2studio/run.py", "earth2studio/models/px/stormscope.py",
                           "earth2studio/models/px/base.py", "earth2studio/models/batch.py",
                           "earth2studio/models/px/utils.py", "earth2studio/models/px/sfno.py",
                           "earth2studio/models/px/dlwp.py", "earth2studio/models/px/fcn.py")),
        GitCorpus("dfnet", "https://github.com/Rikorose/DeepFilterNet",
                  "d375b2d8309e0935d165700c91da9de862a99c31", ".",
                  "DeepFilterNet: real-time speech enhancement over ERB and deep-filter features: the enhance CLI "
                  "and library entry points (model loading, STFT features, per-file enhancement with host round "
                  "trips), the DeepFilterNet2 / 3 models, the shared modules (grouped GRUs / linears, deep-filter "
                  "ops with per-frame loops, ERB masks), multi-frame filters, config, checkpoint, IO and logging "
                  "(training, losses, metrics and the scripts are left out)",
                  include=("DeepFilterNet/df/__init__.py", "DeepFilterNet/df/checkpoint.py",
                           "DeepFilterNet/df/config.py", "DeepFilterNet/df/deepfilternet2.py",
                           "DeepFilterNet/df/deepfilternet3.py", "DeepFilterNet/df/enhance.py",
                           "DeepFilterNet/df/io.py", "DeepFilterNet/df/logger.py", "DeepFilterNet/df/model.py",
                           "DeepFilterNet/df/modules.py", "DeepFilterNet/df/multiframe.py",
                           "DeepFilterNet/df/utils.py", "DeepFilterNet/df/version.py",
                           "DeepFilterNet/df/visualization.py")),
        GitCorpus("genrec", "https://github.com/meta-recsys/generative-recommenders",
                  "db1bf8f2e8f6a92a738dafd52a245eafb25a222b", ".",
                  "generative-recommenders: HSTU generative recommenders served through the MLPerf DLRMv3 inference "
                  "harness: the runner and loadgen callbacks that batch queries and call the model per request, the "
                  "sparse (TorchRec embedding) / dense model families with multiprocess GPU workers and queues, the "
                  "streaming query sampler and data producers, inference modules, and the STU / HSTU modules, "
                  "preprocessors and postprocessors (training, datasets, the Triton / CUDA ops, the vendored "
                  "loadgen and tests are left out)",
                  include=("generative_recommenders/dlrm_v3/inference/accuracy.py",
                           "generative_recommenders/dlrm_v3/inference/data_producer.py",
                           "generative_recommenders/dlrm_v3/inference/dense_predict_module.py",
                           "generative_recommenders/dlrm_v3/inference/inference_modules.py",
                           "generative_recommenders/dlrm_v3/inference/main.py",
                           "generative_recommenders/dlrm_v3/inference/model_family.py",
                           "generative_recommenders/dlrm_v3/inference/sparse_predict_module.py",
                           "generative_recommenders/dlrm_v3/inference/ts_types.py",
                           "generative_recommenders/modules/__init__.py",
                           "generative_recommenders/modules/action_encoder.py",
                           "generative_recommenders/modules/content_encoder.py",
                           "generative_recommenders/modules/contextual_interleave_preprocessor.py",
                           "generative_recommenders/modules/contextualize_mlps.py",
                           "generative_recommenders/modules/dlrm_hstu.py",
                           "generative_recommenders/modules/dynamic_stu.py",
                           "generative_recommenders/modules/hstu_transducer.py",
                           "generative_recommenders/modules/multitask_module.py",
                           "generative_recommenders/modules/positional_encoder.py",
                           "generative_recommenders/modules/postprocessors.py",
                           "generative_recommenders/modules/preprocessors.py",
                           "generative_recommenders/modules/stu.py")),
        GitCorpus("tapnet", "https://github.com/google-deepmind/tapnet",
                  "c2cbab81cc06092b5f05bfe2da7bfec54e2079c9", ".",
                  "TAPNet (PyTorch): TAPIR point tracking: the model with feature pyramids, cost volumes, iterative "
                  "refinement and causal (online) state, its nets and utilities, and the live webcam demo that "
                  "tracks points frame by frame with host copies of tracks and visibility (the JAX models, TAPVid "
                  "datasets and training are left out)",
                  include=("tapnet/torch/", "tapnet/pytorch_live_demo.py")),
        GitCorpus("latexocr", "https://github.com/lukas-blecher/LaTeX-OCR",
                  "f0269de46ed87c6dde917a3b8b95d9e3ced7cd5f", ".",
                  "LaTeX-OCR (pix2tex): image to LaTeX: the CLI / API predictor that resizes via a learned resizer "
                  "loop and decodes autoregressively token by token with an x-transformers decoder, the ViT / "
                  "hybrid encoders, the GUI, the evaluation loop and utilities (datasets, training, the Qt "
                  "resources and the desktop setup are left out)",
                  include=("pix2tex/__init__.py", "pix2tex/__main__.py", "pix2tex/api/__init__.py",
                           "pix2tex/api/app.py", "pix2tex/api/run.py", "pix2tex/api/streamlit.py", "pix2tex/cli.py",
                           "pix2tex/eval.py", "pix2tex/gui.py", "pix2tex/model/__init__.py",
                           "pix2tex/model/checkpoints/__init__.py",
                           "pix2tex/model/checkpoints/get_latest_checkpoint.py", "pix2tex/models/__init__.py",
                           "pix2tex/models/hybrid.py", "pix2tex/models/transformer.py", "pix2tex/models/utils.py",
                           "pix2tex/models/vit.py", "pix2tex/utils/__init__.py", "pix2tex/utils/utils.py")),
        GitCorpus("renhance", "https://github.com/resemble-ai/resemble-enhance",
                  "8e978149bfe8abab3eb77d965d579a111afdb0ff", ".",
                  "Resemble Enhance: speech denoising and enhancement: the chunked inference with cross-fading and "
                  "timing synchronizes, the denoiser UNet and its entry point, the enhancer with the latent "
                  "conditional flow-matching model and its per-step ODE solvers (Euler / midpoint / RK4), IRMAE, "
                  "the UnivNet vocoder, mel features, hparams and the Gradio app (training, data, discriminators "
                  "and the vendored BigVGAN filters are left out)",
                  include=("app.py", "resemble_enhance/__init__.py", "resemble_enhance/common.py",
                           "resemble_enhance/denoiser/__init__.py", "resemble_enhance/denoiser/__main__.py",
                           "resemble_enhance/denoiser/denoiser.py", "resemble_enhance/denoiser/hparams.py",
                           "resemble_enhance/denoiser/inference.py", "resemble_enhance/denoiser/unet.py",
                           "resemble_enhance/enhancer/__init__.py", "resemble_enhance/enhancer/download.py",
                           "resemble_enhance/enhancer/enhancer.py", "resemble_enhance/enhancer/hparams.py",
                           "resemble_enhance/enhancer/inference.py", "resemble_enhance/enhancer/lcfm/__init__.py",
                           "resemble_enhance/enhancer/lcfm/cfm.py", "resemble_enhance/enhancer/lcfm/irmae.py",
                           "resemble_enhance/enhancer/lcfm/lcfm.py", "resemble_enhance/enhancer/lcfm/wn.py",
                           "resemble_enhance/enhancer/univnet/__init__.py",
                           "resemble_enhance/enhancer/univnet/lvcnet.py",
                           "resemble_enhance/enhancer/univnet/mrstft.py",
                           "resemble_enhance/enhancer/univnet/univnet.py", "resemble_enhance/hparams.py",
                           "resemble_enhance/inference.py", "resemble_enhance/melspec.py",
                           "resemble_enhance/utils/__init__.py", "resemble_enhance/utils/control.py",
                           "resemble_enhance/utils/engine.py", "resemble_enhance/utils/logging.py",
                           "resemble_enhance/utils/utils.py")),
    ), "the thirty-fourth untouched set, pinned in session 37 for the release after next (rl_games, "
       "TorchMD-Net, MACE, SAM 3, Earth2Studio, DeepFilterNet, generative-recommenders, TAPNet, LaTeX-OCR, "
       "Resemble Enhance)"),
    "barbican": GitSet(HERE / ".barbican", (
        GitCorpus("lightglue", "https://github.com/cvg/LightGlue",
                  "1fd587b6f5a7a0befd31188f1e5d2f05740006d7", ".",
                  "LightGlue: local feature matching: the matcher whose transformer layers are compiled with "
                  "mode=\"reduce-overhead\" and fullgraph=True over static keypoint-count buckets (CUDA graphs, with "
                  "cudagraph_mark_step_begin), adaptive depth / width pruning with early-exit checks per layer, the "
                  "SuperPoint / DISK / ALIKED / SIFT / DoGHardNet extractors, utilities and the matching benchmark "
                  "loop (nothing left out but tests)",
                  include=("lightglue/", "benchmark.py")),
        GitCorpus("diamond", "https://github.com/eloialonso/diamond",
                  "5bcd1599755b4f2fae8e5e079e02f0728e174965", ".",
                  "DIAMOND: a diffusion world model for Atari / CS:GO: the world-model environment whose next-frame "
                  "denoiser and reward / termination model are compiled with mode=\"reduce-overhead\" and stepped "
                  "every imagined step, the diffusion sampler, the actor-critic, the env-loop / collector "
                  "coroutines, the interactive play loop rendering frame by frame, environments and the trainer "
                  "that wires it up (the dataset, batch sampler and scripts are left out)",
                  include=("src/__init__.py", "src/agent.py", "src/coroutines/__init__.py",
                           "src/coroutines/collector.py", "src/coroutines/env_loop.py", "src/data/__init__.py",
                           "src/data/batch.py", "src/data/episode.py", "src/envs/__init__.py",
                           "src/envs/atari_preprocessing.py", "src/envs/env.py", "src/envs/world_model_env.py",
                           "src/game/__init__.py", "src/game/dataset_env.py", "src/game/game.py",
                           "src/game/keymap.py", "src/game/play_env.py", "src/main.py", "src/models/__init__.py",
                           "src/models/actor_critic.py", "src/models/blocks.py", "src/models/diffusion/__init__.py",
                           "src/models/diffusion/denoiser.py", "src/models/diffusion/diffusion_sampler.py",
                           "src/models/diffusion/inner_model.py", "src/models/rew_end_model.py", "src/play.py",
                           "src/trainer.py", "src/utils.py")),
        GitCorpus("vortex", "https://github.com/Zymrael/vortex",
                  "cb229ae50581aa072972c33a81e23eb43a1330ab", ".",
                  "Vortex: the inference engine for StripedHyena 2 / Evo 2 DNA language models: the model whose "
                  "projection / MLP norms are compiled with mode=\"reduce-overhead\" and fullgraph=True, the Hyena / "
                  "attention blocks with their recurrent and FFT prefill engine, the token-by-token generation loop "
                  "with per-step sampling and cache updates, the byte tokenizer and the generate script (the flash- "
                  "attention copy, rotary / sampling / cache helpers copied from flash-attn, and the Triton / CUDA "
                  "ops are left out)",
                  include=("generate.py", "vortex/__init__.py", "vortex/logging.py", "vortex/model/__init__.py",
                           "vortex/model/engine.py", "vortex/model/generation.py", "vortex/model/layers.py",
                           "vortex/model/model.py", "vortex/model/tokenizer.py")),
        GitCorpus("puffer", "https://github.com/PufferAI/PufferLib",
                  "91460f7b14edd1b43d6b19150cef5c51b80cbb7f", ".",
                  "PufferLib: vectorized RL: the clean PPO loop whose policy is compiled with "
                  "torch.compile(mode=config.compile_mode), \"reduce-overhead\" by default, and called every "
                  "vectorized environment step during evaluate with host copies of actions, values and rewards, the "
                  "experience buffer, the demo / eval / rollout driver, the recurrent policy wrappers and models, "
                  "the serial / multiprocessing vector backends and emulation layer (the environments, RLlib / SB3 "
                  "demos and tests are left out)",
                  include=("clean_pufferl.py", "demo.py", "pufferlib/__init__.py", "pufferlib/pytorch.py",
                           "pufferlib/models.py", "pufferlib/vector.py", "pufferlib/emulation.py",
                           "pufferlib/frameworks/cleanrl.py", "pufferlib/postprocess.py", "pufferlib/wrappers.py",
                           "pufferlib/utils.py")),
        GitCorpus("infemb", "https://github.com/michaelfeil/infinity",
                  "fcb951cb679d0de185bf254600d9b7d2cd3a263a", ".",
                  "Infinity: a high-throughput embedding / reranking / classification server: the async engine and "
                  "batch handler that queue requests, batch them by length and run the model per batch on a worker "
                  "thread with host post-processing, the caching layer, the sentence-transformer, cross-encoder, "
                  "classifier, CLIP vision and CLAP audio torch backends, the FastAPI server and primitives (the "
                  "CLI, telemetry, schemas, quantization, ONNX / CTranslate2 / Neuron backends are left out)",
                  include=("libs/infinity_emb/infinity_emb/__init__.py", "libs/infinity_emb/infinity_emb/args.py",
                           "libs/infinity_emb/infinity_emb/engine.py",
                           "libs/infinity_emb/infinity_emb/inference/__init__.py",
                           "libs/infinity_emb/infinity_emb/inference/batch_handler.py",
                           "libs/infinity_emb/infinity_emb/inference/caching_layer.py",
                           "libs/infinity_emb/infinity_emb/inference/loading_strategy.py",
                           "libs/infinity_emb/infinity_emb/inference/queue.py",
                           "libs/infinity_emb/infinity_emb/inference/select_model.py",
                           "libs/infinity_emb/infinity_emb/inference/threading_asyncio.py",
                           "libs/infinity_emb/infinity_emb/infinity_server.py",
                           "libs/infinity_emb/infinity_emb/log_handler.py",
                           "libs/infinity_emb/infinity_emb/primitives.py",
                           "libs/infinity_emb/infinity_emb/sync_engine.py",
                           "libs/infinity_emb/infinity_emb/transformer/__init__.py",
                           "libs/infinity_emb/infinity_emb/transformer/abstract.py",
                           "libs/infinity_emb/infinity_emb/transformer/acceleration.py",
                           "libs/infinity_emb/infinity_emb/transformer/audio/__init__.py",
                           "libs/infinity_emb/infinity_emb/transformer/audio/torch.py",
                           "libs/infinity_emb/infinity_emb/transformer/audio/utils.py",
                           "libs/infinity_emb/infinity_emb/transformer/classifier/__init__.py",
                           "libs/infinity_emb/infinity_emb/transformer/classifier/torch.py",
                           "libs/infinity_emb/infinity_emb/transformer/crossencoder/__init__.py",
                           "libs/infinity_emb/infinity_emb/transformer/crossencoder/torch.py",
                           "libs/infinity_emb/infinity_emb/transformer/embedder/__init__.py",
                           "libs/infinity_emb/infinity_emb/transformer/embedder/sentence_transformer.py",
                           "libs/infinity_emb/infinity_emb/transformer/utils.py",
                           "libs/infinity_emb/infinity_emb/transformer/vision/__init__.py",
                           "libs/infinity_emb/infinity_emb/transformer/vision/torch_vision.py",
                           "libs/infinity_emb/infinity_emb/transformer/vision/utils.py")),
        GitCorpus("boltz", "https://github.com/jwohlwend/boltz",
                  "832486dafed7b80e1246a3fed895e9bb03976558", ".",
                  "Boltz-2: biomolecular structure and affinity prediction: the predict entry point, the Boltz-2 "
                  "model with its recycling trunk (pairformer, MSA module), the diffusion module that samples "
                  "coordinates step by step with steering potentials, encoders, conditioning, transformers and "
                  "utils (data processing, Boltz-1, confidence / affinity heads, losses, training and the kernels "
                  "are left out)",
                  include=("src/boltz/main.py", "src/boltz/model/models/boltz2.py",
                           "src/boltz/model/modules/diffusionv2.py", "src/boltz/model/modules/trunkv2.py",
                           "src/boltz/model/modules/diffusion_conditioning.py",
                           "src/boltz/model/modules/encodersv2.py", "src/boltz/model/modules/transformersv2.py",
                           "src/boltz/model/modules/utils.py", "src/boltz/model/potentials/")),
        GitCorpus("opennmt", "https://github.com/OpenNMT/OpenNMT-py",
                  "97111d97551c24857076a4102eabdb468b35cff4", ".",
                  "OpenNMT-py: neural machine translation: the translator that batches source sentences and runs "
                  "beam / greedy search token by token (per-step topk, finished-hypothesis bookkeeping, alignment, "
                  "host-side n-best lists), the decode strategies and penalties, the inference engine, the "
                  "transformer / RNN decoders and ensembles, multi-headed attention with its KV cache, the copy "
                  "generator, the model and the translate / server entry points (training, inputters, transforms, "
                  "the translation server internals and options are left out)",
                  include=("onmt/bin/server.py", "onmt/bin/translate.py", "onmt/decoders/decoder.py",
                           "onmt/decoders/ensemble.py", "onmt/decoders/transformer.py", "onmt/inference_engine.py",
                           "onmt/models/model.py", "onmt/modules/copy_generator.py",
                           "onmt/modules/multi_headed_attn.py", "onmt/modules/position_ffn.py",
                           "onmt/translate/__init__.py", "onmt/translate/beam_search.py",
                           "onmt/translate/decode_strategy.py", "onmt/translate/greedy_search.py",
                           "onmt/translate/penalties.py", "onmt/translate/translation.py",
                           "onmt/translate/translator.py")),
        GitCorpus("robomimic", "https://github.com/ARISE-Initiative/robomimic",
                  "d309eaecc18acf4152a830a895a6984b8ac71b05", ".",
                  "robomimic: learning from demonstrations for robot manipulation: the trained-agent rollout script "
                  "that steps a policy in simulation per control step, the algorithm base with its rollout policy "
                  "wrapper, BC (RNN / transformer / GMM) and diffusion policy algorithms with action queues and "
                  "EMA, policy and observation networks, tensor utilities and env wrappers (training, datasets, "
                  "configs, other algorithms and scripts are left out)",
                  include=("robomimic/scripts/run_trained_agent.py", "robomimic/algo/algo.py",
                           "robomimic/algo/bc.py", "robomimic/algo/diffusion_policy.py",
                           "robomimic/models/policy_nets.py", "robomimic/models/obs_nets.py",
                           "robomimic/utils/tensor_utils.py", "robomimic/envs/wrappers.py")),
        GitCorpus("mmaudio", "https://github.com/hkchengrex/MMAudio",
                  "974010a026c731054592d8f777218bd9d85a6c24", ".",
                  "MMAudio: video-to-audio synthesis with flow matching: the demo / gradio / batch entry points "
                  "(some compiling the conditioning and flow predictor), the multimodal transformer, the flow- "
                  "matching Euler sampler stepping per timestep, feature extraction (CLIP, Synchformer, VAE decode, "
                  "vocoder), sequence config, mel conversion and AV utilities (training, data, the VAE / BigVGAN / "
                  "Synchformer copies and low-level layers are left out)",
                  include=("batch_eval.py", "demo.py", "gradio_demo.py", "mmaudio/data/av_utils.py",
                           "mmaudio/eval_utils.py", "mmaudio/ext/mel_converter.py",
                           "mmaudio/ext/rotary_embeddings.py", "mmaudio/ext/synchformer/synchformer.py",
                           "mmaudio/model/__init__.py", "mmaudio/model/flow_matching.py",
                           "mmaudio/model/networks.py", "mmaudio/model/sequence_config.py",
                           "mmaudio/model/transformer_layers.py", "mmaudio/model/utils/__init__.py",
                           "mmaudio/model/utils/features_utils.py", "mmaudio/model/utils/sample_utils.py")),
        GitCorpus("realesrgan", "https://github.com/xinntao/Real-ESRGAN",
                  "a4abfb2979a7bbff3f69f58f58ae324608821e27", ".",
                  "Real-ESRGAN: image and video super-resolution: the tiled upsampler with pre / post-processing, "
                  "the image and video inference scripts (per-frame reader / writer loops, multi-process GPU "
                  "workers, face enhancement), the compact SRVGG network and the Cog predictor (training, datasets, "
                  "discriminators and scripts are left out)",
                  include=("inference_realesrgan.py", "inference_realesrgan_video.py", "realesrgan/utils.py",
                           "realesrgan/archs/srvgg_arch.py", "realesrgan/__init__.py",
                           "realesrgan/archs/__init__.py", "cog_predict.py")),
    ), "the thirty-fifth untouched set, pinned in session 38 for the release after next (LightGlue, "
       "DIAMOND, Vortex, PufferLib, Infinity, Boltz-2, OpenNMT-py, robomimic, MMAudio, Real-ESRGAN)"),
    "ravelin": GitSet(HERE / ".ravelin", (
        GitCorpus("torchrl", "https://github.com/pytorch/rl",
                  "ae9719f17b1517af5c2523a36c4616f003ee55cf", ".",
                  "TorchRL: PyTorch's reinforcement-learning library: the single-process collector whose policy is "
                  "wrapped by compile_policy (compile_with_warmup) or cudagraph_policy (tensordict CudaGraphModule) "
                  "and called every environment step in rollout() / iterator() after cudagraph_mark_step_begin, the "
                  "collector base (weight sync, iteration, post-processing) and the Atari PPO recipe whose loss "
                  "update and GAE modules are compiled with mode=\"reduce-overhead\" or wrapped in CudaGraphModule and "
                  "run every minibatch (the multiprocess / distributed / LLM collectors, envs, objectives and the "
                  "other recipes are left out)",
                  include=("torchrl/collectors/__init__.py", "torchrl/collectors/_constants.py",
                           "torchrl/collectors/_base.py", "torchrl/collectors/_single.py",
                           "sota-implementations/ppo/ppo_atari.py", "sota-implementations/ppo/utils_atari.py")),
        GitCorpus("curobo", "https://github.com/NVlabs/curobo",
                  "a35a708ecfbb26eb9ab2d7ef22c65919c4fae4a9", ".",
                  "cuRobo: GPU-accelerated robot motion generation: the GraphExecutor that records optimizer and "
                  "rollout functions into a torch.cuda.CUDAGraph on first call and replays it, the gradient and "
                  "particle optimizer cores whose inner-iteration blocks are captured and replayed every outer "
                  "iteration with host convergence checks, the robot rollout computing costs and metrics through "
                  "captured executors, the seed IK solver and the MPC solver that optimizes the next action every "
                  "control cycle (the Warp kernels, configs, cost terms, planners, perception and the other solvers "
                  "are left out)",
                  include=("curobo/_src/util/cuda_graph_util.py",
                           "curobo/_src/optim/components/gradient_opt_core.py",
                           "curobo/_src/optim/components/particle_opt_core.py",
                           "curobo/_src/rollout/rollout_robot.py", "curobo/_src/solver/seed_ik/seed_ik_solver.py",
                           "curobo/_src/solver/solver_mpc.py")),
        GitCorpus("pnemo", "https://github.com/NVIDIA/physicsnemo",
                  "94b355108cfd10e253d3d41cacdc0c0112b078e4", ".",
                  "PhysicsNeMo: NVIDIA's physics-ML framework: the StaticCapture decorators that record a training "
                  "or evaluation step into a torch.cuda.CUDAGraph after warm-up and replay it every iteration (with "
                  "AMP and grad scaler handling), the FourCastNet AFNO, DLWP and unified-recipe weather trainers "
                  "whose step functions they wrap, the CorrDiff generation script and helpers, and the legacy EDM "
                  "deterministic / stochastic samplers looping over noise levels (the models, datapipes, the other "
                  "examples and the rest of the library are left out)",
                  include=("physicsnemo/utils/capture.py", "physicsnemo/diffusion/generate/legacy_generate.py",
                           "physicsnemo/diffusion/samplers/legacy_stochastic_sampler.py",
                           "physicsnemo/diffusion/samplers/legacy_deterministic_sampler.py",
                           "examples/weather/unified_recipe/train.py", "examples/weather/fcn_afno/train_era5.py",
                           "examples/weather/dlwp/train_dlwp.py", "examples/weather/corrdiff/generate.py",
                           "examples/weather/corrdiff/helpers/generate_helpers.py")),
        GitCorpus("cosmos", "https://github.com/nvidia-cosmos/cosmos-predict2",
                  "661da4774b0ca41d082a0ecbeb47550bcf07e03f", ".",
                  "Cosmos-Predict2: NVIDIA's video world foundation model: the video2world pipeline whose sampler "
                  "loops over rectified-flow timesteps calling denoise with use_cuda_graphs, the MiniTrainDIT whose "
                  "transformer blocks are captured per input-shape key by create_cuda_graph (a "
                  "make_graphed_callables variant in imaginaire/utils/graph.py) and replayed every denoising step, "
                  "the video2world / action-conditioned DiTs, the Runge-Kutta and multi-step solvers, the AB2 "
                  "scheduler and the video2world example driver (the tokenizer, text encoders, guardrails, "
                  "conditioner, training, the other pipelines and the flash-attention copy are left out)",
                  include=("imaginaire/utils/graph.py", "cosmos_predict2/models/text2image_dit.py",
                           "cosmos_predict2/models/video2world_dit.py",
                           "cosmos_predict2/models/video2world_action_dit.py",
                           "cosmos_predict2/pipelines/video2world.py", "cosmos_predict2/functional/runge_kutta.py",
                           "cosmos_predict2/functional/multi_step.py", "cosmos_predict2/functional/batch_ops.py",
                           "cosmos_predict2/schedulers/rectified_flow_scheduler.py", "examples/video2world.py")),
        GitCorpus("aurora", "https://github.com/microsoft/aurora",
                  "7fa85ffd97eb5bef15136711a796de4e8b919794", ".",
                  "Aurora: Microsoft's atmosphere foundation model: the autoregressive rollout that feeds each "
                  "prediction back as the next step's history, the tropical-cyclone tracker that copies every "
                  "predicted step to the host and searches it, the batch container (normalisation, cropping, "
                  "regridding, NetCDF I/O) and the model with its Perceiver encoder / decoder and level / Fourier "
                  "encodings (the 3D Swin backbone, LoRA, checkpoint adaptation, normalisation statistics, the "
                  "Foundry client / server and fine-tuning are left out)",
                  include=("aurora/__init__.py", "aurora/batch.py", "aurora/rollout.py", "aurora/tracker.py",
                           "aurora/model/__init__.py", "aurora/model/aurora.py", "aurora/model/decoder.py",
                           "aurora/model/encoder.py", "aurora/model/film.py", "aurora/model/fourier.py",
                           "aurora/model/levelcond.py", "aurora/model/patchembed.py", "aurora/model/perceiver.py",
                           "aurora/model/posencoding.py", "aurora/model/util.py")),
        GitCorpus("torchsim", "https://github.com/Radical-AI/torch-sim",
                  "b251e4c1e99090cb959f43b9d90e169a28404ca5", ".",
                  "TorchSim: batched molecular dynamics and relaxation in PyTorch: the integrate / optimize / static "
                  "runners that advance every batch of systems per MD or optimizer step with trajectory reporting "
                  "and convergence checks, the binning and in-flight autobatchers that measure GPU memory and swap "
                  "converged systems in and out, the velocity-Verlet NVE and Langevin / Nose-Hoover NVT integrators, "
                  "the neighbour-list builders and the model interface (NPT, optimizers, models, trajectory I/O, "
                  "workflows and examples are left out)",
                  include=("torch_sim/__init__.py", "torch_sim/runners.py", "torch_sim/autobatching.py",
                           "torch_sim/integrators/__init__.py", "torch_sim/integrators/md.py",
                           "torch_sim/integrators/nve.py", "torch_sim/integrators/nvt.py", "torch_sim/neighbors.py",
                           "torch_sim/models/__init__.py", "torch_sim/models/interface.py", "torch_sim/quantities.py")),
        GitCorpus("rfdiff", "https://github.com/RosettaCommons/RFdiffusion",
                  "86507b6538f51fce57b5a72477165f03999ed7ae", ".",
                  "RFdiffusion: protein backbone design by denoising diffusion: the inference script that loops over "
                  "designs and reverse-diffusion timesteps, the samplers (base, self-conditioning, scaffolded) whose "
                  "sample_step runs RoseTTAFold and takes a denoising step with host-side bookkeeping, the inference "
                  "utilities (denoiser, structure updates, output), symmetry, the diffusion schedules, the guiding "
                  "potentials and the RoseTTAFold wrapper (the SE(3)-Transformer copy, the network internals, "
                  "chemistry tables, contigs, scoring and helper scripts are left out)",
                  include=("scripts/run_inference.py", "rfdiffusion/__init__.py", "rfdiffusion/inference/",
                           "rfdiffusion/diffusion.py", "rfdiffusion/potentials/", "rfdiffusion/RoseTTAFoldModel.py")),
        GitCorpus("dpvo", "https://github.com/princeton-vl/DPVO",
                  "859bbbfdac6c6185f345003b3c473901fcd13ace", ".",
                  "DPVO: Deep Patch Visual Odometry: the visual-odometry object whose __call__ extracts patches, "
                  "adds edges, runs the update operator and bundle adjustment on every frame with keyframe pruning "
                  "and host-side bookkeeping, the update network and patch extractor, the Python bundle adjustment, "
                  "projective ops, the correlation wrapper, long-term loop closure with image retrieval, frame "
                  "streams and the demo loop (the CUDA / C++ extensions, lietorch, the viewer, data readers, "
                  "training and evaluation scripts are left out)",
                  include=("demo.py", "dpvo/__init__.py", "dpvo/dpvo.py", "dpvo/net.py", "dpvo/ba.py",
                           "dpvo/blocks.py", "dpvo/extractor.py", "dpvo/patchgraph.py", "dpvo/projective_ops.py",
                           "dpvo/altcorr/", "dpvo/stream.py", "dpvo/utils.py", "dpvo/config.py", "dpvo/fastba/",
                           "dpvo/loop_closure/")),
        GitCorpus("sbrain", "https://github.com/speechbrain/speechbrain",
                  "9c826ef3937bac885c8a6ca86c6889a30f256fb5", ".",
                  "SpeechBrain: the speech toolkit's decoding: the sequence-to-sequence greedy and beam searchers "
                  "(RNN, Transformer, Whisper, LLM) that decode token by token with per-step scoring, EOS "
                  "bookkeeping and host-side hypotheses, the transducer greedy / streaming / beam search stepping "
                  "per frame, decoder utilities and the ASR inference interfaces (encoder-decoder, CTC, Whisper with "
                  "segments, chunked streaming ASR) (CTC prefix search, scorers, models, the training core and the "
                  "other inference tasks are left out)",
                  include=("speechbrain/decoders/__init__.py", "speechbrain/decoders/seq2seq.py",
                           "speechbrain/decoders/transducer.py", "speechbrain/decoders/utils.py",
                           "speechbrain/inference/ASR.py")),
        GitCorpus("lzero", "https://github.com/opendilab/LightZero",
                  "9f717c80c86d5c69b39a56d8ade18e684ce6311a", ".",
                  "LightZero: MCTS-based reinforcement learning (the MuZero family): the MuZero training entry "
                  "alternating collection, evaluation and learner updates, the collector stepping vectorised "
                  "environments with a policy forward and an MCTS search per step and host game-segment bookkeeping, "
                  "the C++-tree and Python-tree MCTS searchers that run recurrent inference per simulation and copy "
                  "latents to numpy, MCTS utilities, the MuZero policy (learn / collect / eval forwards) and model "
                  "(the C++ trees, other algorithms, envs, buffers and configs are left out)",
                  include=("lzero/entry/train_muzero.py", "lzero/worker/muzero_collector.py",
                           "lzero/mcts/tree_search/mcts_ctree.py", "lzero/mcts/tree_search/mcts_ptree.py",
                           "lzero/mcts/utils.py", "lzero/policy/muzero.py", "lzero/model/muzero_model.py")),
    ), "the thirty-sixth untouched set, pinned in session 39 for the release after next (TorchRL, "
       "cuRobo, PhysicsNeMo, Cosmos-Predict2, Aurora, TorchSim, RFdiffusion, DPVO, SpeechBrain, LightZero)"),
    "casemate": GitSet(HERE / ".casemate", (
        GitCorpus("orb", "https://github.com/orbital-materials/orb-models",
                  "6857ef61fd977f6135720d76bff7b04816b3f288", ".",
                  "Orb: Orbital Materials' universal interatomic potentials: the graph network simulator (GNS) "
                  "message-passing backbone and conservative regressor that compute energies and autograd forces / "
                  "stress on every MD or relaxation step, the forcefield heads and adapter, the graph regressor, the "
                  "D3 dispersion model compiled with dynamic shapes, and the on-the-fly graph featurisation that "
                  "builds neighbour lists each step (the pretrained registry, reference energies, datasets, training "
                  "and the angular basis are left out)",
                  include=("orb_models/common/models/gns.py",
                           "orb_models/forcefield/models/conservative_regressor.py",
                           "orb_models/forcefield/models/forcefield_heads.py",
                           "orb_models/forcefield/forcefield_adapter.py",
                           "orb_models/forcefield/inference/d3_model.py",
                           "orb_models/common/models/graph_regressor.py", "orb_models/common/models/nn_util.py",
                           "orb_models/common/atoms/graph_featurization.py")),
        GitCorpus("tdict", "https://github.com/pytorch/tensordict",
                  "a1a061e3dd4b4c892925525a726a72c9eef9a0cc", ".",
                  "TensorDict: PyTorch's dictionary-of-tensors library: CudaGraphModule, which warms a module up, "
                  "captures it into a torch.cuda.CUDAGraph on a side stream and on every later call copies the "
                  "inputs into static buffers and replays it (with tensordict and plain-tensor variants), and the "
                  "TensorDictModule / sequential / probabilistic modules that RL policies call every environment "
                  "step (the TensorDict containers, memmap, functorch helpers, distributions and the C++ extension "
                  "are left out)",
                  include=("tensordict/nn/cudagraphs.py", "tensordict/nn/common.py", "tensordict/nn/sequence.py",
                           "tensordict/nn/probabilistic.py", "tensordict/nn/utils.py")),
        GitCorpus("tengine", "https://github.com/NVIDIA/TransformerEngine",
                  "d0067d0da6cb01811b8072a7d304f0e00344ce2b", ".",
                  "Transformer Engine: NVIDIA's FP8 / FP4 training library: make_graphed_callables, which captures "
                  "per-layer forward and backward graphs (with FP8 scaling state, capture-time hooks and warm-up) "
                  "and replays them every training step, the module base that every TE layer's forward passes "
                  "through (FP8 metadata, workspace and weight caches, amax reduction) and the quantization state "
                  "management updated every step (the C++/CUDA extension, attention, the other modules, JAX and the "
                  "distributed helpers are left out)",
                  include=("transformer_engine/pytorch/graph.py", "transformer_engine/pytorch/fp8.py",
                           "transformer_engine/pytorch/module/base.py", "transformer_engine/pytorch/quantization.py")),
        GitCorpus("airbench", "https://github.com/KellerJordan/cifar10-airbench",
                  "f1c599c4af24aca803e3e65a6a7e52a502e09d0e", ".",
                  "airbench: fast CIFAR-10 training scripts: the 94% Muon, 96% faster and legacy compiled 94% "
                  "trainers whose models are compiled with mode=\"max-autotune\" and run every training step with GPU "
                  "data augmentation, lookahead / EMA updates and test-time-augmented evaluation, and the packaged "
                  "loader / evaluation utilities (the uncompiled legacy scripts, the other packaged variants and the "
                  "research scripts are left out)",
                  include=("airbench94_muon.py", "airbench96_faster.py", "legacy/airbench94_compiled.py",
                           "airbench/utils.py")),
        GitCorpus("rslrl", "https://github.com/leggedrobotics/rsl_rl",
                  "c281c32e5746e75570c1a29bfa78bca0200cc5ff", ".",
                  "RSL-RL: ETH's GPU reinforcement-learning library for legged robots: the on-policy and "
                  "distillation runners whose learn() loop steps thousands of vectorised simulator environments per "
                  "iteration, PPO and student-teacher distillation (act, process_env_step, update, with an optional "
                  "torch.compile that refuses CUDA-graph modes), the rollout storage, the MLP / CNN / RNN actor- "
                  "critic models, distributions and normalisers, and the RND and symmetry extensions (the loggers, "
                  "exporters and tests are left out)",
                  include=("rsl_rl/runners/on_policy_runner.py", "rsl_rl/runners/distillation_runner.py",
                           "rsl_rl/algorithms/ppo.py", "rsl_rl/algorithms/distillation.py",
                           "rsl_rl/storage/rollout_storage.py", "rsl_rl/env/vec_env.py",
                           "rsl_rl/models/mlp_model.py", "rsl_rl/models/cnn_model.py", "rsl_rl/models/rnn_model.py",
                           "rsl_rl/modules/cnn.py", "rsl_rl/modules/distribution.py", "rsl_rl/modules/mlp.py",
                           "rsl_rl/modules/normalization.py", "rsl_rl/modules/rnn.py", "rsl_rl/extensions/rnd.py",
                           "rsl_rl/extensions/symmetry.py", "rsl_rl/utils/utils.py")),
        GitCorpus("fairchem", "https://github.com/facebookresearch/fairchem",
                  "a73c95be1db2f5ca60cce19f00fd5bff4c29fd7d", ".",
                  "fairchem UMA: Meta FAIR's universal model for atoms: the ASE calculator whose calculate() runs "
                  "every MD or relaxation step, the MLIP predict unit (batching, merged mixture-of-linear-experts "
                  "fast path, inference settings), the eSCN-MD backbone (edge embedding, Wigner rotations, SO(2) "
                  "convolutions per layer, energy / force heads) with its blocks and SO(2) layers (training, "
                  "datasets, the Triton kernels, graph parallelism and the other models are left out)",
                  include=("src/fairchem/core/calculate/ase_calculator.py",
                           "src/fairchem/core/units/mlip_unit/predict.py", "src/fairchem/core/models/uma/escn_md.py",
                           "src/fairchem/core/models/uma/escn_md_block.py",
                           "src/fairchem/core/models/uma/nn/so2_layers.py")),
        GitCorpus("titan", "https://github.com/pytorch/torchtitan",
                  "b5bcd76c66d0acb1a08b176d9639425bc55e0b2a", ".",
                  "torchtitan: PyTorch's native large-model training platform: the Trainer whose train() loop calls "
                  "train_step every iteration (gradient accumulation over microbatches, forward_backward_step, "
                  "gradient clipping, loss reduction and logging), with the forward-backward function wrapped by "
                  "wrap_with_cuda_graph when CUDA graphs are enabled, the CUDAGraphWrapper that captures it into a "
                  "torch.cuda.CUDAGraph on a shared pool and replays it with static-address checks, the per-block "
                  "compile helper, the distributed utilities, the loss functions, the metrics processor and the "
                  "validator (models, parallelisms, checkpointing, data loading and the experiments are left out)",
                  include=("torchtitan/train.py", "torchtitan/trainer.py", "torchtitan/distributed/cudagraph.py",
                           "torchtitan/distributed/compile.py", "torchtitan/distributed/utils.py",
                           "torchtitan/components/loss.py", "torchtitan/components/metrics.py",
                           "torchtitan/components/validate.py")),
        GitCorpus("anemoi", "https://github.com/ecmwf/anemoi-inference",
                  "29dc717d8c513d22f658fb911123fa6e171af586", ".",
                  "anemoi-inference: ECMWF's runner for data-driven weather models: the Runner whose forecast / "
                  "forecast_stepper loop calls predict_step every lead time and feeds each prediction back into the "
                  "input tensor (with autocast precision, output hooks and profiling), the default / simple / "
                  "parallel / external-graph / temporal-downscaler runners and the checkpoint wrapper (inputs, "
                  "outputs, post-processors, the CLI and GRIB handling are left out)",
                  include=("src/anemoi/inference/runner.py", "src/anemoi/inference/runners/__init__.py",
                           "src/anemoi/inference/runners/default.py", "src/anemoi/inference/runners/simple.py",
                           "src/anemoi/inference/runners/parallel.py",
                           "src/anemoi/inference/runners/external_graph.py",
                           "src/anemoi/inference/runners/temporal_downscaler.py",
                           "src/anemoi/inference/checkpoint.py", "src/anemoi/inference/precisions.py",
                           "src/anemoi/inference/profiler.py", "src/anemoi/inference/lazy.py")),
        GitCorpus("esm3", "https://github.com/evolutionaryscale/esm",
                  "6e89bf7d127b06e95d8243c020936cd67d862229", ".",
                  "ESM3: EvolutionaryScale's multimodal protein language model: the iterative sampling loop that "
                  "unmasks tokens over decoding steps (iterative_sampling_tokens / _raw with annealed temperature "
                  "and per-step masks), the sampling and decoding utilities, the ESM3 model's forward / generate / "
                  "encode / decode, and the SDK API dataclasses (the structure tokenizer, function annotation, ESM "
                  "C, the Forge client and the pretrained loaders are left out)",
                  include=("esm/utils/generation.py", "esm/utils/sampling.py", "esm/utils/decoding.py",
                           "esm/models/esm3.py", "esm/sdk/api.py")),
        GitCorpus("ptts", "https://github.com/kyutai-labs/pocket-tts",
                  "9514983efd6411aa39ddf862391d16c38a062de7", ".",
                  "Pocket TTS: Kyutai's small streaming text-to-speech model: the TTS model whose _generate loop "
                  "runs the flow LM once per audio frame (with the lsd_decode flow-matching steps in flow_lm.py) and "
                  "streams Mimi-decoded audio chunks, the stateful streaming transformer, MLP and rope modules, the "
                  "text conditioner, quantization and the command-line entry point (the Mimi codec, SEANet / "
                  "convolution / resampling modules shared with moshi, docs and tests are left out)",
                  include=("pocket_tts/__init__.py", "pocket_tts/conditioners/__init__.py",
                           "pocket_tts/conditioners/base.py", "pocket_tts/conditioners/text.py",
                           "pocket_tts/data/__init__.py", "pocket_tts/data/audio.py",
                           "pocket_tts/data/audio_utils.py", "pocket_tts/default_parameters.py",
                           "pocket_tts/main.py", "pocket_tts/models/__init__.py", "pocket_tts/models/flow_lm.py",
                           "pocket_tts/models/tts_model.py", "pocket_tts/modules/__init__.py",
                           "pocket_tts/modules/dummy_quantizer.py", "pocket_tts/modules/layer_scale.py",
                           "pocket_tts/modules/mlp.py", "pocket_tts/modules/rope.py",
                           "pocket_tts/modules/stateful_module.py", "pocket_tts/modules/transformer.py",
                           "pocket_tts/quantization.py", "pocket_tts/utils/__init__.py",
                           "pocket_tts/utils/config.py", "pocket_tts/utils/debugging.py",
                           "pocket_tts/utils/logging_utils.py", "pocket_tts/utils/utils.py",
                           "pocket_tts/utils/weights_loading.py")),
    ), "the thirty-seventh untouched set, pinned in session 40 for the release after next (Orb, "
       "TensorDict, Transformer Engine, airbench, RSL-RL, fairchem UMA, torchtitan, anemoi-inference, ESM3, Pocket TTS)"),
    "bartizan": GitSet(HERE / ".bartizan", (
        GitCorpus("thunder", "https://github.com/Lightning-AI/lightning-thunder",
                  "1e22aacb1aef6e79718a5ca2f49ab91b993cb4ef", ".",
                  "Lightning Thunder: a source-to-source compiler for PyTorch programs: the CUDAGraphTransform that "
                  "warms a fusion region up, captures it into a torch.cuda.CUDAGraph with static input buffers and "
                  "replays it on every later call, the jit entry point whose compiled callable looks up its cache and "
                  "runs the computation trace every step, the torch.compile executor, the autograd bridge, the "
                  "ThunderModule wrapper and the dynamo backend / splitter (the trace IR, the other executors, the "
                  "benchmarks and the tests are left out)",
                  include=("thunder/transforms/cudagraph.py", "thunder/__init__.py", "thunder/common.py",
                           "thunder/executors/torch_compile.py", "thunder/executors/torch_autograd.py",
                           "thunder/core/module.py", "thunder/dynamo/compiler.py", "thunder/dynamo/splitter.py")),
        GitCorpus("dinfer", "https://github.com/inclusionAI/dInfer",
                  "fce4e32804103baa5d55230dff0352da0cdd6ceb", ".",
                  "dInfer: Ant Group's inference framework for diffusion language models (LLaDA, LLaDA-MoE): the "
                  "model runner whose CudaGraphRunner captures the denoising forward per batch size into "
                  "torch.cuda.CUDAGraph objects on a shared pool (optionally torch.compile'd) and replays it every "
                  "denoising step, the block-wise uniform and merged iterative decoders that unmask tokens "
                  "block by block, the parallel unmasking strategies, the serving loop and the decoding utilities "
                  "(the Fast-dLLM-derived cached and hierarchical decoders, the model definitions, the benchmarks "
                  "and the evaluations are left out)",
                  include=("python/dinfer/decoding/diffusion_runner.py", "python/dinfer/decoding/generate_uniform.py",
                           "python/dinfer/decoding/parallel_strategy.py", "python/dinfer/decoding/utils.py",
                           "python/dinfer/decoding/serving.py", "python/dinfer/decoding/generate_merge.py")),
        GitCorpus("modded", "https://github.com/KellerJordan/modded-nanogpt",
                  "f411b3d346aa52d3504324ca93c230fd84c6c07f", ".",
                  "modded-nanogpt: the GPT-2 training speedrun: the small- and medium-track trainers whose model is "
                  "compiled with fullgraph=True (plus fullgraph-compiled Muon / NorMuon optimizer kernels) and run "
                  "every training step with sliding-window flex attention, gradient all-reduce, the optimizer step, "
                  "the schedule updates and periodic validation (the Triton kernels, the data scripts, the "
                  "evaluations and the records are left out)",
                  include=("train_gpt.py", "train_gpt_medium.py")),
        GitCorpus("qedf", "https://github.com/KexinFeng/qed_fermion",
                  "f916ee3251b793fccb194d40371f98abe8f4e12c", ".",
                  "qed_fermion: GPU hybrid Monte Carlo for lattice QED with fermions: the batched HMC sampler whose "
                  "leapfrog, conjugate-gradient fermion force, Metropolis and measurement steps run every sweep, "
                  "and the graph runners that capture the force, Metropolis proposal and fermion-observable "
                  "computations into torch.cuda.CUDAGraph objects on a shared pool and replay them per step, with "
                  "the CG-HMC sampler (the playground scripts, plotting, post-processing and the MATLAB "
                  "preconditioner code are left out)",
                  include=("qed_fermion/hmc_sampler_batch.py", "qed_fermion/fermion_obsr_graph_runner.py",
                           "qed_fermion/force_graph_runner.py", "qed_fermion/metropolis_graph_runner.py",
                           "qed_fermion/cg_hmc_sampler.py")),
        GitCorpus("chai", "https://github.com/chaidiscovery/chai-lab",
                  "66c38d1fe5c6756a89ff8596b1dea87d305ec06f", ".",
                  "Chai-1: Chai Discovery's biomolecular structure predictor: run_folding_on_context, which runs "
                  "the trunk recycles and then the diffusion denoising loop (second-order sampler steps over the "
                  "Karras schedule, per diffusion sample) on the TorchScript components, the confidence head and "
                  "the ranking (pTM / ipTM, pLDDT, clashes) computed per sample, and the model and tensor utilities "
                  "(featurisation, data loading, MSA and template search are left out)",
                  include=("chai_lab/chai1.py", "chai_lab/model/diffusion_schedules.py", "chai_lab/model/utils.py",
                           "chai_lab/ranking", "chai_lab/utils/tensor_utils.py")),
        GitCorpus("sb3", "https://github.com/DLR-RM/stable-baselines3",
                  "e05d2dbe6eda0acd0ef2e316e3e4065677add3eb", ".",
                  "Stable-Baselines3: the reference PyTorch RL library: the on- and off-policy algorithms whose "
                  "collect_rollouts loop steps the vectorised environments and calls the policy every step, PPO / "
                  "SAC / DQN / TD3 training updates, the policies, distributions, rollout and replay buffers, the "
                  "feature extractors, observation preprocessing, VecNormalize and evaluation (the other "
                  "algorithms, the environment wrappers, logging, saving and HER are left out)",
                  include=("stable_baselines3/common/on_policy_algorithm.py",
                           "stable_baselines3/common/off_policy_algorithm.py", "stable_baselines3/common/policies.py",
                           "stable_baselines3/common/buffers.py", "stable_baselines3/common/distributions.py",
                           "stable_baselines3/ppo/ppo.py", "stable_baselines3/sac/sac.py",
                           "stable_baselines3/dqn/dqn.py", "stable_baselines3/td3/td3.py",
                           "stable_baselines3/common/utils.py", "stable_baselines3/common/vec_env/vec_normalize.py",
                           "stable_baselines3/common/evaluation.py", "stable_baselines3/common/torch_layers.py",
                           "stable_baselines3/common/preprocessing.py")),
        GitCorpus("icefall", "https://github.com/k2-fsa/icefall",
                  "36e0420c7e3e849a25b3d24dbf913c424f3d23c9", ".",
                  "icefall: k2's speech-recognition recipes: the transducer search functions that call the decoder "
                  "and joiner once per encoder frame or symbol (greedy, modified and fast beam search, beam search "
                  "with LM shallow fusion / LODR, k2 RNN-T decoding streams), the streaming decoder that feeds "
                  "audio chunk by chunk through the Zipformer with cached states and advances each stream's "
                  "search, the decode-stream bookkeeping and the transducer model, decoder and joiner (the "
                  "Zipformer encoder, training, data modules, exports and the other recipes are left out)",
                  include=("egs/librispeech/ASR/pruned_transducer_stateless2/beam_search.py",
                           "egs/librispeech/ASR/zipformer/streaming_beam_search.py",
                           "egs/librispeech/ASR/zipformer/streaming_decode.py",
                           "egs/librispeech/ASR/zipformer/decode_stream.py", "egs/librispeech/ASR/zipformer/decoder.py",
                           "egs/librispeech/ASR/zipformer/joiner.py", "egs/librispeech/ASR/zipformer/model.py")),
        GitCorpus("droid", "https://github.com/princeton-vl/DROID-SLAM",
                  "2dfd39f0dcad44012ca7bbb8aa70b55edbfa9c99", ".",
                  "DROID-SLAM: deep visual SLAM: the Droid tracker whose track() runs every incoming frame through "
                  "the motion filter, the frontend that adds keyframes and runs iterations of the recurrent update "
                  "operator and dense bundle adjustment over the factor graph, the backend global optimisation, "
                  "the async variant, the depth-video state buffers, the correlation volumes and update network, "
                  "the projective geometry, BA and Cholesky solvers, the trajectory filler and the demo loop (the "
                  "RAFT-derived feature extractors, data readers, training, visualisation and the evaluation "
                  "scripts are left out)",
                  include=("demo.py", "droid_slam/droid.py", "droid_slam/droid_async.py", "droid_slam/droid_frontend.py",
                           "droid_slam/droid_backend.py", "droid_slam/factor_graph.py", "droid_slam/depth_video.py",
                           "droid_slam/motion_filter.py", "droid_slam/droid_net.py",
                           "droid_slam/trajectory_filler.py", "droid_slam/modules/corr.py",
                           "droid_slam/modules/gru.py",
                           "droid_slam/geom/projective_ops.py", "droid_slam/geom/ba.py", "droid_slam/geom/chol.py",
                           "droid_slam/geom/graph_utils.py")),
        GitCorpus("ace", "https://github.com/ai2cm/ace",
                  "57c54a748cc7f06d9b5ad6d0e9e7922e5a3f54c2", ".",
                  "ACE (fme): Ai2's climate model emulator: the stepper whose predict loop advances the atmosphere "
                  "(and coupled ocean) state one 6-hour step at a time with forcing, normalisation, the corrector "
                  "and derived variables, the single-module step, the inference entry point and loop that run "
                  "multi-year rollouts window by window, and the atmosphere corrector (the network architectures, "
                  "data loading, aggregators, writers and training are left out)",
                  include=("fme/ace/stepper/single_module.py", "fme/ace/inference/inference.py",
                           "fme/ace/inference/loop.py", "fme/core/generics/inference.py",
                           "fme/core/step/single_module.py", "fme/core/step/step.py",
                           "fme/core/corrector/atmosphere.py")),
        GitCorpus("torchmd", "https://github.com/torchmd/torchmd",
                  "09484183e34af78bb69b27a0149aeccf1318dbc7", ".",
                  "TorchMD: end-to-end differentiable molecular dynamics in PyTorch: the velocity-Verlet / Langevin "
                  "integrator whose step computes forces and updates positions and velocities every timestep, the "
                  "force evaluator (bonded, LJ, electrostatics, PME-free cutoffs, neighbour lists), the minimisers, "
                  "the run loop with its wrapper and the force-field parameter handling (the analysis scripts and "
                  "the OpenMM comparison are left out)",
                  include=("torchmd/forces.py", "torchmd/integrator.py", "torchmd/minimizers.py", "torchmd/run.py",
                           "torchmd/systems.py", "torchmd/wrapper.py", "torchmd/utils.py",
                           "torchmd/neighbourlist.py", "torchmd/forcefields/forcefield.py",
                           "torchmd/forcefields/ff_yaml.py", "torchmd/forcefields/ff_parmed.py",
                           "torchmd/parameters.py")),
    ), "the thirty-eighth untouched set, pinned in session 41 for the release after next (Lightning "
       "Thunder, dInfer, modded-nanogpt, qed_fermion, Chai-1, Stable-Baselines3, icefall, DROID-SLAM, ACE, TorchMD)"),
    "postern": GitSet(HERE / ".postern", (
        GitCorpus("openpi", "https://github.com/Physical-Intelligence/openpi",
                  "15a9616a00943ada6c20a0f158e3adb39df2ccac", ".",
                  "openpi: Physical Intelligence's vision-language-action models: the PyTorch pi0 / pi0.5 model whose "
                  "sample_actions is torch.compile'd (max-autotune by default) and runs the prefix pass and then the "
                  "flow-matching denoising loop over the action chunk on every policy call, the image "
                  "preprocessing, the policy that normalises observations and unnormalises actions per call, the "
                  "DROID / LIBERO input and output transforms, the websocket policy server and its client, the "
                  "client runtime that steps the robot environment and the action-chunk broker, and the PyTorch "
                  "training loop (the PaliGemma / Gemma wrapper shared with LeRobot's port, the JAX models, the "
                  "vendored transformers patches, data loading and the configs are left out)",
                  include=("src/openpi/models_pytorch/pi0_pytorch.py",
                           "src/openpi/models_pytorch/preprocessing_pytorch.py", "src/openpi/policies/policy.py",
                           "src/openpi/policies/droid_policy.py", "src/openpi/policies/libero_policy.py",
                           "src/openpi/transforms.py", "src/openpi/shared/normalize.py",
                           "src/openpi/shared/image_tools.py", "src/openpi/serving/websocket_policy_server.py",
                           "scripts/train_pytorch.py", "scripts/serve_policy.py",
                           "packages/openpi-client/src/openpi_client/action_chunk_broker.py",
                           "packages/openpi-client/src/openpi_client/runtime/runtime.py",
                           "packages/openpi-client/src/openpi_client/websocket_client_policy.py",
                           "packages/openpi-client/src/openpi_client/image_tools.py")),
        GitCorpus("dion", "https://github.com/microsoft/dion",
                  "0a059a4542e5aa74b40dcd1dce363836c7afcd48", ".",
                  "Dion: Microsoft's distributed orthonormalising optimizers (Dion, Dion2, Muon): the "
                  "CudaGraphOptimizer that warms an optimizer up, captures its step into a torch.cuda.CUDAGraph and "
                  "replays it every training step, the optimizers whose step runs fullgraph-compiled update "
                  "kernels, Newton-Schulz orthogonalisation and sharded collectives per parameter batch, the "
                  "megabatch base, the scalar (AdamW / Lion) updates and the GPT training script that calls them "
                  "every step (the reference and Triton variants, the data scripts and the benchmarks are left out)",
                  include=("dion/cuda_graph.py", "dion/dion.py", "dion/dion2.py", "dion/muon.py",
                           "dion/megabatch_base.py", "dion/opt_utils.py", "dion/scalar_opts.py", "train.py")),
        GitCorpus("ctm", "https://github.com/SakanaAI/continuous-thought-machines",
                  "aecfb63ac42db7a20903ee27489ff71671669474", ".",
                  "Continuous Thought Machines: Sakana AI's recurrent neuron-level-timing model: the CTM whose "
                  "forward unrolls its internal ticks (synapse model, neuron-level models, synchronisation "
                  "read-outs, attention over the input) every call, the RL variant stepped with the environment, "
                  "the modules, and the image-classification, maze and RL trainers that torch.compile the backbone "
                  "and synapses with reduce-overhead / fullgraph and run them every training step, with the losses "
                  "(the analysis, plotting, datasets and the other tasks are left out)",
                  include=("models/ctm.py", "models/ctm_rl.py", "models/modules.py", "models/utils.py",
                           "tasks/image_classification/train.py", "tasks/mazes/train.py", "tasks/rl/train.py",
                           "utils/losses.py")),
        GitCorpus("rlinf", "https://github.com/RLinf/RLinf",
                  "a3816b596478dcd8a5c69a6ec1468c9519f77b5b", ".",
                  "RLinf: a reinforcement-learning infrastructure for embodied agents: the CUDAGraphManager that "
                  "captures a policy's action-sampling forward per batch size into torch.cuda.CUDAGraph objects "
                  "on a shared pool and replays it on every rollout step, the MLP and CNN embodied policies that "
                  "build those graphs (and torch.compile their forwards), the base policy, the env worker that "
                  "steps the vectorised simulators chunk by chunk, the Hugging Face rollout worker that samples "
                  "actions per step, and the ManiSkill environment wrapper (the LLM rollout backends, the VLA "
                  "models, the other environments and the actor workers are left out)",
                  include=("rlinf/utils/cuda_graph.py", "rlinf/models/embodiment/base_policy.py",
                           "rlinf/models/embodiment/mlp_policy/mlp_policy.py",
                           "rlinf/models/embodiment/cnn_policy/cnn_policy.py", "rlinf/workers/env/env_worker.py",
                           "rlinf/workers/rollout/hf/huggingface_worker.py", "rlinf/envs/maniskill/maniskill_env.py")),
        GitCorpus("pytrack", "https://github.com/visionml/pytracking",
                  "7eb9e74bd3d40e29dbcec444902237da13de247b", ".",
                  "PyTracking: the visual object tracking framework: the DiMP, ToMP and KeepTrack trackers whose "
                  "track() runs every video frame (feature extraction, target classification, bounding-box "
                  "refinement or regression, online model updates and target-candidate association), the "
                  "evaluation tracker that runs sequences frame by frame, the steepest-descent / conjugate-gradient "
                  "optimisation library, TensorList and the sample preprocessing (the other trackers, ltr "
                  "training and the datasets are left out)",
                  include=("pytracking/tracker/dimp/dimp.py", "pytracking/tracker/tomp/tomp.py",
                           "pytracking/tracker/keep_track/keep_track.py",
                           "pytracking/tracker/keep_track/candidates.py", "pytracking/tracker/base/basetracker.py",
                           "pytracking/evaluation/tracker.py", "pytracking/libs/optimization.py",
                           "pytracking/libs/tensorlist.py", "pytracking/libs/dcf.py",
                           "pytracking/features/preprocessing.py")),
        GitCorpus("tdiffeq", "https://github.com/rtqichen/torchdiffeq",
                  "657943acefa826ef04c025ebeb1ff5e9d60dc268", ".",
                  "torchdiffeq: differentiable ODE solvers in PyTorch: odeint and the adaptive Runge-Kutta solvers "
                  "(dopri5 / dopri8 / bosh3 / tsit5) whose step loop evaluates the dynamics, estimates the error and "
                  "accepts or rejects each step, the fixed-grid, Adams and implicit solvers, event handling, the "
                  "adjoint backward ODE and the latent-ODE / CNF examples that integrate per training step (the "
                  "scipy wrapper and the other examples are left out)",
                  include=("torchdiffeq/__init__.py", "torchdiffeq/_impl/adaptive_heun.py",
                           "torchdiffeq/_impl/adjoint.py", "torchdiffeq/_impl/bosh3.py", "torchdiffeq/_impl/dopri5.py",
                           "torchdiffeq/_impl/dopri8.py", "torchdiffeq/_impl/event_handling.py",
                           "torchdiffeq/_impl/fehlberg2.py", "torchdiffeq/_impl/fixed_adams.py",
                           "torchdiffeq/_impl/fixed_grid.py", "torchdiffeq/_impl/fixed_grid_implicit.py",
                           "torchdiffeq/_impl/interp.py", "torchdiffeq/_impl/misc.py", "torchdiffeq/_impl/odeint.py",
                           "torchdiffeq/_impl/rk_common.py", "torchdiffeq/_impl/solvers.py",
                           "torchdiffeq/_impl/tsit5.py", "examples/latent_ode.py", "examples/cnf.py")),
        GitCorpus("timesfm", "https://github.com/google-research/timesfm",
                  "3dae50b20d7a724981e8ea36cda75578f80dd2dc", ".",
                  "TimesFM: Google Research's time-series foundation model: the PyTorch TimesFM 2.5 model whose "
                  "decode runs the input patches through the stacked transformer with a key/value cache and then "
                  "decodes the horizon autoregressively patch by patch, the forecast entry points with "
                  "normalisation and quantile heads, the torch transformer, dense and normalisation layers, and "
                  "the TimesFM 1.x patched decoder whose decode loop appends a patch per step, with its forecast "
                  "base (the Flax models, covariate regression, fine-tuning and the examples are left out)",
                  include=("src/timesfm/timesfm_2p5/timesfm_2p5_torch.py", "src/timesfm/timesfm_2p5/timesfm_2p5_base.py",
                           "src/timesfm/torch/dense.py", "src/timesfm/torch/normalization.py",
                           "src/timesfm/torch/transformer.py", "src/timesfm/torch/util.py", "src/timesfm/configs.py",
                           "v1/src/timesfm/pytorch_patched_decoder.py", "v1/src/timesfm/timesfm_torch.py",
                           "v1/src/timesfm/timesfm_base.py")),
        GitCorpus("dlrm", "https://github.com/facebookresearch/dlrm",
                  "090956ee2319ddd349a42232958aefccfe3f7b0a", ".",
                  "DLRM: Meta's deep learning recommendation model: the PyTorch DLRM whose forward looks up the "
                  "sparse embedding bags, runs the bottom / top MLPs and the feature interaction per batch, with "
                  "the training and inference loops (per-batch loss, accuracy and timing, periodic testing), the "
                  "TorchRec DLRM main loop, the quotient-remainder and mixed-dimension embedding tricks, the "
                  "row-wise sparse Adagrad and the distributed all-to-all helpers (the Caffe2 version, the data "
                  "loaders and the visualisation tool are left out)",
                  include=("dlrm_s_pytorch.py", "torchrec_dlrm/dlrm_main.py", "tricks/qr_embedding_bag.py",
                           "tricks/md_embedding_bag.py", "optim/rwsadagrad.py", "extend_distributed.py")),
        GitCorpus("chroma", "https://github.com/generatebio/chroma",
                  "929407c605013613941803c6113adefdccaad679", ".",
                  "Chroma: Generate Biomedicines' generative model for protein complexes: Chroma.sample, which "
                  "integrates the backbone diffusion SDE step by step (with conditioners and the graph backbone "
                  "denoiser) and then designs sequence and side chains, the diffusion process and SDE integrators, "
                  "the Potts-model sampler that runs its MCMC sweeps per design, and the graph backbone network "
                  "(the data system, the other layers, the classifiers and the utilities are left out)",
                  include=("chroma/models/chroma.py", "chroma/layers/structure/diffusion.py", "chroma/layers/sde.py",
                           "chroma/layers/structure/potts.py", "chroma/models/graph_backbone.py")),
        GitCorpus("jukebox", "https://github.com/openai/jukebox",
                  "08efbbc1d4ed1a3cef96e08a931944c8b4d63bb3", ".",
                  "Jukebox: OpenAI's generative model for music: the sampler that runs the three-level prior "
                  "window by window, the autoregressive prior whose sample loop calls the sparse transformer once "
                  "per token with a key/value cache, the conditioners, the factored attention with its cache "
                  "updates, the VQ-VAE encode / decode and bottleneck, and the model builders (training, the data "
                  "pipeline, the lyrics tokenizer and the tensorboard utilities are left out)",
                  include=("jukebox/sample.py", "jukebox/prior/autoregressive.py", "jukebox/prior/prior.py",
                           "jukebox/prior/conditioners.py", "jukebox/transformer/factored_attention.py",
                           "jukebox/transformer/transformer.py", "jukebox/transformer/ops.py",
                           "jukebox/vqvae/vqvae.py", "jukebox/vqvae/bottleneck.py", "jukebox/utils/sample_utils.py",
                           "jukebox/utils/torch_utils.py", "jukebox/make_models.py")),
    ), "the thirty-ninth untouched set, pinned in session 42 for the release after next (openpi, RLinf, "
       "Dion, Continuous Thought Machines, PyTracking, torchdiffeq, TimesFM, DLRM, Chroma, Jukebox)"),
    "donjon": GitSet(HERE / ".donjon", (
        GitCorpus("mjtorch", "https://github.com/vmoens/mujoco-torch",
                  "83fcbdac1d9442489ae8f632d7566d83ff4899ff", ".",
                  "mujoco-torch: a PyTorch port of MuJoCo XLA: the physics step (forward kinematics, dynamics, "
                  "passive forces, constraint assembly and the Newton / CG solver, integration) that the zoo "
                  "environments vmap over the batch and torch.compile (with the caller's mode, reduce-overhead in "
                  "the PPO script's option) and run frame_skip times per environment step, the throughput "
                  "benchmark that compiles vmap(step) with fullgraph=True and steps it in a loop, and the PPO "
                  "training script that collects rollouts and updates the policy, with the collision driver, "
                  "primitive collisions and sensors the step calls (convex / mesh / SDF collision, rendering, the "
                  "model conversion, the other environments and examples are left out)",
                  include=("mujoco_torch/_src/forward.py", "mujoco_torch/_src/smooth.py",
                           "mujoco_torch/_src/constraint.py", "mujoco_torch/_src/solver.py",
                           "mujoco_torch/_src/passive.py", "mujoco_torch/_src/collision_driver.py",
                           "mujoco_torch/_src/collision_primitive.py", "mujoco_torch/_src/sensor.py",
                           "mujoco_torch/zoo/base.py", "examples/train_ppo.py", "examples/bench_all.py")),
        GitCorpus("aoptim", "https://github.com/pytorch/ao",
                  "36027d82d1ad9949597ea16002ff4940374b1b94", ".",
                  "torchao's low-bit optimizers and float8 training: the Adam / AdamW base whose step runs a "
                  "fullgraph-compiled single-parameter update per parameter every training step, the 8-bit, 4-bit "
                  "and FP8 optimizer-state tensor subclasses and their block quantisation, the CPU-offload "
                  "optimizer that copies gradients and parameters between host and device each step, and the "
                  "float8 linear with its dynamic scaling, amax utilities, training tensor, ops, FSDP scale "
                  "precompute and inference path (the other quantisation schemes, the prototypes, kernels and the "
                  "benchmarks are left out)",
                  include=("torchao/optim/adam.py", "torchao/optim/cpu_offload.py", "torchao/optim/quant_utils.py",
                           "torchao/optim/subclass_4bit.py", "torchao/optim/subclass_8bit.py",
                           "torchao/optim/subclass_fp8.py", "torchao/float8/float8_linear.py",
                           "torchao/float8/float8_scaling_utils.py", "torchao/float8/float8_utils.py",
                           "torchao/float8/float8_training_tensor.py", "torchao/float8/float8_ops.py",
                           "torchao/float8/fsdp_utils.py", "torchao/float8/inference.py",
                           "torchao/float8/float8_linear_utils.py")),
        GitCorpus("gpudrive", "https://github.com/Emerge-Lab/gpudrive",
                  "b2e575fe79c9797628a8bf6bf3ea66810f4b9422", ".",
                  "GPUDrive: a GPU-accelerated multi-agent driving simulator: the torch environment whose step "
                  "applies the agents' actions, steps the batched simulator and builds observations, rewards and "
                  "done masks every step, the base and PufferLib environments, the PPO trainer whose policy is "
                  "torch.compile'd (reduce-overhead in the baseline config) and called on every rollout step, its "
                  "utilities, the late-fusion and permutation-equivariant policies and the PPO baseline script "
                  "(the JAX environment, the datasets, visualisation and the other integrations are left out)",
                  include=("gpudrive/env/env_torch.py", "gpudrive/env/base_env.py", "gpudrive/env/env_puffer.py",
                           "gpudrive/integrations/puffer/ppo.py", "gpudrive/integrations/puffer/utils.py",
                           "gpudrive/networks/late_fusion.py", "gpudrive/networks/perm_eq_late_fusion.py",
                           "baselines/ppo/ppo_pufferlib.py")),
        GitCorpus("nequip", "https://github.com/mir-group/nequip",
                  "e07489d4c55535f758501f0536e76d1b59caed38", ".",
                  "NequIP: equivariant interatomic potentials: the LAMMPS ML-IAP wrapper whose compute_forces runs "
                  "the torch.compile'd model (fullgraph unless ghost exchange is on) at every MD step, the ASE "
                  "calculator and TorchSim model called per step, the Nose-Hoover integrator, the compiled-graph "
                  "wrapper, the graph model, force / stress gradient outputs, edge and node embeddings, MLPs, "
                  "interaction and convolution layers, atomwise and pair-potential modules, and the Lightning "
                  "training module with its EMA (the data pipeline, the model builders and packaging, the "
                  "callbacks and metrics are left out)",
                  include=("nequip/integrations/lammps_mliap/lmp_mliap_wrapper.py", "nequip/integrations/ase.py",
                           "nequip/integrations/torchsim.py", "nequip/integrations/mixins.py",
                           "nequip/ase/nosehoover.py", "nequip/nn/compile.py", "nequip/nn/_graph_mixin.py",
                           "nequip/nn/graph_model.py", "nequip/nn/grad_output.py", "nequip/nn/interaction_block.py",
                           "nequip/nn/convnetlayer.py", "nequip/nn/atomwise.py", "nequip/nn/pair_potential.py",
                           "nequip/nn/embedding/_edge.py", "nequip/nn/embedding/node.py", "nequip/nn/mlp.py",
                           "nequip/train/lightning.py", "nequip/train/ema.py")),
        GitCorpus("makani", "https://github.com/NVIDIA/makani",
                  "2dfc4c893343dce717d611099f0df8cf0d243311", ".",
                  "Makani: NVIDIA's weather and climate model training and inference framework: the inferencer "
                  "that rolls a model out autoregressively step by step over the forecast horizon, scoring and "
                  "accumulating metrics per step, the inference and ensemble entry points, the multistep stepper, "
                  "the preprocessor that appends and flattens history, unpredicted channels and noise each step, "
                  "the stochastic noise generators and the FourCastNet3 network (the data processing, training "
                  "drivers, losses, model-parallel layers and the other networks are left out)",
                  include=("makani/inference.py", "makani/ensemble.py", "makani/utils/inference/inferencer.py",
                           "makani/utils/inference/helpers.py", "makani/models/stepper.py",
                           "makani/models/preprocessor.py", "makani/models/noise.py",
                           "makani/models/networks/fourcastnet3.py")),
        GitCorpus("mslam", "https://github.com/rmurai0610/MASt3R-SLAM",
                  "b0ae540fa52c236b850af53f6445513d8f4d927c", ".",
                  "MASt3R-SLAM: real-time dense SLAM on MASt3R priors: the main loop that reads frames and tracks "
                  "each one, the frame tracker that matches against the keyframe and solves Gauss-Newton pose "
                  "updates per frame, the shared keyframe store, the global optimiser over the factor graph, the "
                  "MASt3R inference and matching helpers, geometry, the retrieval database, the data loader and "
                  "trajectory evaluation (the vendored MASt3R / DUSt3R / in3d code and the visualisation are left "
                  "out)",
                  include=("main.py", "mast3r_slam/frame.py", "mast3r_slam/tracker.py", "mast3r_slam/global_opt.py",
                           "mast3r_slam/mast3r_utils.py", "mast3r_slam/matching.py", "mast3r_slam/geometry.py",
                           "mast3r_slam/retrieval_database.py", "mast3r_slam/evaluate.py",
                           "mast3r_slam/dataloader.py")),
        GitCorpus("hrm", "https://github.com/sapientinc/HRM",
                  "42410daaaf6ac8b266536d105a6e2362ffe40929", ".",
                  "HRM: Sapient's Hierarchical Reasoning Model: the ACT model whose forward runs its high- and "
                  "low-level recurrent cycles per segment and decides halting with a Q-head, the layers, the ACT "
                  "loss head, the sparse puzzle embedding and its optimiser, and the training and evaluation loops "
                  "that carry the recurrent state and step until all sequences halt (the dataset builders and the "
                  "puzzle dataset are left out)",
                  include=("models/hrm/hrm_act_v1.py", "models/layers.py", "models/losses.py",
                           "models/sparse_embedding.py", "pretrain.py", "evaluate.py")),
        GitCorpus("pmpnn", "https://github.com/dauparas/ProteinMPNN",
                  "8907e6671bfbfc92303b5f79c4b5e6ce47cdef57", ".",
                  "ProteinMPNN: message-passing protein sequence design: the run script that parses structures, "
                  "samples sequences batch by batch and scores them, the model whose sample / tied_sample decode "
                  "the sequence residue by residue in a random order with temperature and bias masks, the "
                  "featurisation and the training loop with its model utilities (the helper scripts and the CIF "
                  "parser are left out)",
                  include=("protein_mpnn_run.py", "protein_mpnn_utils.py", "training/training.py",
                           "training/model_utils.py")),
        GitCorpus("diffdock", "https://github.com/gcorso/DiffDock",
                  "b4704d94de74d8cb2acbe7ec84ad234c09e78009", ".",
                  "DiffDock: diffusion generative model for molecular docking: the inference script that "
                  "randomises ligand poses and runs the reverse diffusion, the sampler whose loop over inference "
                  "steps predicts translation, rotation and torsion scores and applies the SDE / ODE updates per "
                  "batch, the noise schedules, SO(3) and torus score utilities, torsion updates and geometry, the "
                  "coarse-grained and all-atom score models with their tensor-product layers, and the inference "
                  "helpers, and the training utilities whose epoch loop noises complexes and computes the score "
                  "losses per batch (the datasets, evaluation, the vendored spyrmsd and the app are left out)",
                  include=("inference.py", "utils/sampling.py", "utils/diffusion_utils.py",
                           "utils/inference_utils.py", "utils/so3.py", "utils/torus.py", "utils/torsion.py",
                           "utils/geometry.py", "models/cg_model.py", "models/aa_model.py", "models/layers.py",
                           "models/tensor_layers.py", "utils/training.py")),
        GitCorpus("gradtts", "https://github.com/huawei-noah/Speech-Backbones",
                  "7782c7a223dd25df47b4538698ee9756774e2924", ".",
                  "Huawei Noah's speech backbones, Grad-TTS and DiffVC: the diffusion decoders whose reverse "
                  "diffusion loop solves the reverse SDE / ODE step by step, the text-to-speech model that aligns "
                  "durations and decodes mel frames, the inference script, the voice-conversion model and its "
                  "modules, and the training loops (the Glow-TTS-style text and mel encoders that other corpora "
                  "share, HiFi-GAN, the speaker encoder, the text front-end, the data loaders and SPIRAL are left "
                  "out)",
                  include=("Grad-TTS/inference.py", "Grad-TTS/model/diffusion.py", "Grad-TTS/model/tts.py",
                           "Grad-TTS/model/base.py", "Grad-TTS/train.py", "Grad-TTS/train_multi_speaker.py",
                           "DiffVC/model/diffusion.py", "DiffVC/model/vc.py", "DiffVC/model/modules.py",
                           "DiffVC/model/utils.py", "DiffVC/train_dec.py", "DiffVC/train_enc.py")),
    ), "the fortieth untouched set, pinned in session 43 for the release after next (mujoco-torch, "
       "torchao, GPUDrive, NequIP, Makani, MASt3R-SLAM, HRM, ProteinMPNN, DiffDock, Grad-TTS / DiffVC)"),
    "merlon": GitSet(HERE / ".merlon", (
        GitCorpus("eole", "https://github.com/eole-nlp/eole",
                  "ce7139c3151264cc3ad052f33609472c22b24a5b", ".",
                  "eole: the NMT / LLM toolkit that succeeded OpenNMT-py: the transformer decoder whose layers or "
                  "whole stack are torch.compile'd with fullgraph=True (and inductor CUDA graphs) under "
                  "EOLE_TORCH_COMPILE and run once per generated token, the generator whose batch loop prefills, "
                  "warms the compiled decoder up and advances the decode strategy step by step, the inference "
                  "engine, the model with its KV-cache bookkeeping, the attention, rotary embedding, MoE layer "
                  "and the CPU prefill cache (the OpenNMT-derived beam / greedy strategies, translator and "
                  "inference loop, the converters, training, transforms, server and quantised kernels are left "
                  "out)",
                  include=("eole/decoders/transformer.py", "eole/predict/generator.py", "eole/inference_engine.py",
                           "eole/modules/multi_headed_attn.py", "eole/modules/prefill_cache.py",
                           "eole/models/model.py", "eole/modules/rope.py", "eole/modules/moe.py")),
        GitCorpus("rtlcm", "https://github.com/radames/Real-Time-Latent-Consistency-Model",
                  "5c81b638b6378d9ec670b115236c4d2423fde664", ".",
                  "Real-Time Latent Consistency Model: a websocket server that streams webcam frames through "
                  "few-step diffusion pipelines in real time: the ControlNet pipelines (SD 1.5, LoRA, Hyper-SDXL, "
                  "SDXL-Turbo) whose predict runs per frame with Canny edges computed on the GPU, each compiling "
                  "the UNet and VAE with mode=\"reduce-overhead\", fullgraph=True when TORCH_COMPILE is set, "
                  "the SDXL LoRA txt2img pipeline and the pix2pix-turbo pipeline and model (the server loop, "
                  "config and connection manager, which StreamDiffusion's demo copies, the img2img / txt2img / "
                  "IP-composition variants, the safety checker and the front-end are left out)",
                  include=("server/pipelines/controlnet.py", "server/pipelines/controlnetHyperSDXL.py",
                           "server/pipelines/controlnetSDXLTurbo.py", "server/pipelines/controlnetLoraSD15.py",
                           "server/pipelines/txt2imgLoraSDXL.py", "server/pipelines/pix2pixTurbo.py",
                           "server/pipelines/pix2pix/pix2pix_turbo.py", "server/pipelines/utils/canny_gpu.py")),
        GitCorpus("lsfast", "https://github.com/ceastld/latentsync-faster",
                  "f6166ba683355cbcb85abdb7c75fb99de8ac1448", ".",
                  "latentsync-faster: a streaming, real-time rework of ByteDance's LatentSync lip-sync: the "
                  "diffusion pipeline that compiles the UNet and VAE with mode=\"reduce-overhead\", "
                  "fullgraph=True and runs the denoising loop per batch of frames, the older pipeline, the "
                  "streaming inference context, the face / audio / lip-sync workers and the multi-stream runner "
                  "that push frames through queues, the v1.5 3D UNet, the affine face restore, face processor, "
                  "frame preprocessing and video helpers (the AnimateDiff-style UNet blocks, attention and motion "
                  "module, the vendored Whisper, the ONNX / TensorRT wrappers, the v1 models and the TTS are left "
                  "out)",
                  include=("latentsync/pipelines/lipsync_diffusion_pipeline.py",
                           "latentsync/pipelines/lipsync_pipeline.py", "latentsync/inference/latentsync.py",
                           "latentsync/inference/context.py", "latentsync/inference/lipsync_infer.py",
                           "latentsync/inference/lipsync_model.py", "latentsync/inference/multi_infer.py",
                           "latentsync/inference/audio_infer.py", "latentsync/inference/face_infer.py",
                           "latentsync/inference/_utils.py", "latentsync/models_v15/unet.py",
                           "latentsync/utils/affine_transform.py", "latentsync/utils/face_processor.py",
                           "latentsync/utils/frame_preprocess.py", "latentsync/utils/video.py")),
        GitCorpus("samfast", "https://github.com/pytorch-labs/segment-anything-fast",
                  "e6aadeb86f3ae1f58c3f98e2a91e251716e0f2aa", ".",
                  "segment-anything-fast: PyTorch's natively accelerated Segment Anything, its fast path only: "
                  "the builders that compile the image encoder with mode=\"max-autotune\", the evaluation loop "
                  "that compiles the encoder with the chosen mode and fullgraph and runs batched (optionally "
                  "nested-tensor) inference batch after batch, its COCO data and mIoU helpers, the SAM wrapper "
                  "with its batched forward, the Triton flash-attention kernel, the sparse / quantisation tools, "
                  "the transforms and the AMG example (the SAM modeling, predictor and mask generator that "
                  "SAM 2 shares, the ONNX export and the experiment drivers are left out)",
                  include=("segment_anything_fast/build_sam.py", "segment_anything_fast/modeling/sam.py",
                           "segment_anything_fast/flash_4.py", "segment_anything_fast/sparse.py",
                           "segment_anything_fast/tools.py", "segment_anything_fast/utils/transforms.py",
                           "experiments/eval_combo.py", "experiments/data.py", "experiments/metrics.py",
                           "amg_example/amg_example.py")),
        GitCorpus("pizero", "https://github.com/allenzren/open-pi-zero",
                  "c3df7fb062175c16f69d7ca4ce042958ea238fb7", ".",
                  "open-pi-zero: a from-scratch PyTorch re-implementation of the pi0 vision-language-action "
                  "policy: the model whose infer_action integrates the flow-matching action expert step by step "
                  "over a cached VLM prefix, the mixture-of-transformers joint model, the SIMPLER evaluation loop "
                  "and environment adapter that query the policy every control step, and the training loop (the "
                  "PaliGemma / SigLIP / Gemma backbone and KV cache that other corpora share, the OXE / RLDS "
                  "data pipeline, LoRA and the data scripts are left out)",
                  include=("src/model/vla/pizero.py", "src/model/vla/joint_model.py", "src/model/vla/mixture.py",
                           "src/model/vla/modules.py", "src/model/vla/processing.py", "src/agent/eval.py",
                           "src/agent/env_adapter/simpler.py", "src/agent/env_adapter/base.py",
                           "src/agent/train.py")),
        GitCorpus("mattersim", "https://github.com/microsoft/mattersim",
                  "296630372948fd35613939d14d3f97daa27cefda", ".",
                  "MatterSim: Microsoft's universal machine-learning interatomic potential: the ASE calculator "
                  "and Potential that build the graph and compute energy, forces and stress at every MD / "
                  "relaxation step, the molecular-dynamics and relaxation drivers, the M3GNet model with its "
                  "encodings, message passing and scaling, the LAMMPS ML-IAP wrapper whose compute_forces runs "
                  "each MD step and the TorchSim wrapper, and the periodic radius-graph builder (the datasets, "
                  "CLI, training scripts, the phonon / BTE applications and the AOTI / JIT tools are left out)",
                  include=("src/mattersim/applications/moldyn.py", "src/mattersim/applications/relax.py",
                           "src/mattersim/forcefield/potential.py", "src/mattersim/forcefield/m3gnet",
                           "src/mattersim/lammps/mliap_wrapper.py", "src/mattersim/lammps/m3gnet_lammps.py",
                           "src/mattersim/lammps/graph_builder.py", "src/mattersim/torchsim/torchsim_wrapper.py",
                           "src/mattersim/torchsim/graph_construction.py",
                           "src/mattersim/datasets/utils/radius_graph_pbc.py")),
        GitCorpus("dreamer", "https://github.com/NM512/dreamerv3-torch",
                  "6ef8646d807cd10ce0c88e10a7e943211e7fc44c", ".",
                  "dreamerv3-torch: a PyTorch DreamerV3: the agent whose __call__ acts every environment step and "
                  "trains the world model and actor-critic on replayed sequences, the world model, imagination "
                  "behaviour and exploration, the RSSM and networks stepped per time step, the simulate loop "
                  "and replay tools, the parallel environment driver and the wrappers (the Atari / DMLab / "
                  "Minecraft environments are left out)",
                  include=("dreamer.py", "models.py", "networks.py", "tools.py", "exploration.py", "parallel.py",
                           "envs/wrappers.py")),
        GitCorpus("protenix", "https://github.com/bytedance/Protenix",
                  "3248f8e7e1c94f0b5835a40ebdc649d74d631a82", ".",
                  "Protenix: ByteDance's AlphaFold3 reproduction: the model whose forward runs the recycling "
                  "trunk and the diffusion module, the generator whose sample_diffusion loop denoises atom "
                  "coordinates step by step over the noise schedule, the diffusion conditioning and transformer, "
                  "the pairformer, embedders and confidence head, and the inference runner that loads batches and "
                  "predicts them (the losses, data pipeline, MSA / template search, the custom Triton "
                  "triangle-attention kernels and the training runner are left out)",
                  include=("protenix/model/protenix.py", "protenix/model/generator.py",
                           "protenix/model/modules/diffusion.py", "protenix/model/modules/transformer.py",
                           "protenix/model/modules/pairformer.py", "protenix/model/modules/embedders.py",
                           "protenix/model/modules/confidence.py", "runner/inference.py")),
        GitCorpus("styletts2", "https://github.com/yl4579/StyleTTS2",
                  "5cedc71c333f8d8b8551ca59378bdcc7af4c9529", ".",
                  "StyleTTS 2: text-to-speech through style diffusion and adversarial training with speech "
                  "language models: the style-diffusion samplers (K-diffusion / ADPM2 loops over sigmas), the "
                  "diffusion model and its transformer modules, the SLM adversarial loss and the second-stage "
                  "and fine-tuning training loops that sample styles every step (the model builder that Kokoro "
                  "shares, the iSTFTNet / HiFi-GAN vocoders, the discriminators, the ASR / JDC helpers, the "
                  "first-stage script and the data loader are left out)",
                  include=("Modules/diffusion/sampler.py", "Modules/diffusion/diffusion.py",
                           "Modules/diffusion/modules.py", "Modules/diffusion/utils.py", "Modules/slmadv.py",
                           "train_second.py", "train_finetune.py")),
        GitCorpus("wham", "https://github.com/yohanshin/WHAM",
                  "2b54f7797391c94876848b905ed875b154c4a295", ".",
                  "WHAM: world-grounded humans with accurate motion from video: the demo and API that detect and "
                  "track people and extract features frame by frame, then run the network, the WHAM model whose "
                  "motion encoder / decoder and trajectory RNNs step over the sequence, its layers, the SMPL "
                  "layer, the detector / extractor preprocessing and the ViT pose backbone, and the trainer with "
                  "its losses (the datasets, evaluation, rendering and the SMPLify refinement are left out)",
                  include=("demo.py", "wham_api.py", "lib/models/wham.py", "lib/models/layers/modules.py",
                           "lib/models/smpl.py", "lib/models/preproc/detector.py",
                           "lib/models/preproc/extractor.py", "lib/models/preproc/backbone/vit.py",
                           "lib/models/preproc/backbone/smpl_head.py", "lib/models/preproc/backbone/t_cond_mlp.py",
                           "lib/core/trainer.py", "lib/core/loss.py")),
    ), "the forty-first untouched set, pinned in session 44 for the release after next (eole, Real-Time LCM, "
       "latentsync-faster, segment-anything-fast, open-pi-zero, MatterSim, DreamerV3, Protenix, StyleTTS 2, "
       "WHAM)"),
    "embrasure": GitSet(HERE / ".embrasure", (
        GitCorpus("d3rlpy", "https://github.com/takuseno/d3rlpy",
                  "38c34b6f99fde82875e2ad81d1ba1f7a7da34137", ".",
                  "d3rlpy: an offline / online deep RL library: the CudaGraphWrapper that torch.compiles an "
                  "update function and captures it in a CUDA graph after warm-up (compile_graph=True), the "
                  "Q-learning base with its online fit loop that steps the environment and updates every step, "
                  "SAC, CQL, DQN, DDPG, TD3 and IQL with their torch implementations, the decision-transformer "
                  "base whose stateful wrapper predicts an action per environment step, the policies, "
                  "distributions, ensemble Q-functions and transformer blocks, and the evaluation helpers (the "
                  "datasets, preprocessing, logging, the other algorithms and the CLI are left out)",
                  include=("d3rlpy/torch_utility.py", "d3rlpy/algos/qlearning/base.py", "d3rlpy/algos/qlearning/sac.py",
                           "d3rlpy/algos/qlearning/cql.py", "d3rlpy/algos/qlearning/dqn.py",
                           "d3rlpy/algos/qlearning/torch/sac_impl.py", "d3rlpy/algos/qlearning/torch/cql_impl.py",
                           "d3rlpy/algos/qlearning/torch/dqn_impl.py", "d3rlpy/algos/qlearning/torch/ddpg_impl.py",
                           "d3rlpy/algos/qlearning/torch/td3_impl.py", "d3rlpy/algos/qlearning/torch/iql_impl.py",
                           "d3rlpy/algos/qlearning/torch/utility.py", "d3rlpy/algos/transformer/base.py",
                           "d3rlpy/algos/transformer/action_samplers.py",
                           "d3rlpy/algos/transformer/torch/decision_transformer_impl.py", "d3rlpy/algos/utility.py",
                           "d3rlpy/models/torch/policies.py", "d3rlpy/models/torch/distributions.py",
                           "d3rlpy/models/torch/q_functions/ensemble_q_function.py",
                           "d3rlpy/models/torch/q_functions/mean_q_function.py", "d3rlpy/models/torch/transformers.py",
                           "d3rlpy/metrics/utility.py")),
        GitCorpus("owlwms", "https://github.com/Wayfarer-Labs/owl-wms",
                  "2fba8c603201c2f83600ab8f1343897407770faa", ".",
                  "OWL world models: real-time, action-conditioned audio-video world models of a game: the "
                  "CausVid pipeline that compiles the causal transformer and the frame decoder with "
                  "mode=\"max-autotune\", fullgraph=True and generates a frame per mouse / button input with a "
                  "few denoising steps over a KV-cached window, the X11 game loop that calls it every frame, the "
                  "game rectified-flow models, the attention, KV cache, rotary, modulation and embedding layers, "
                  "the windowed / cached samplers, the self-forcing and CausVid distillation trainers and the VAE "
                  "bridge (the data loaders, the other trainers, Muon, logging and the sanity scripts are left "
                  "out)",
                  include=("inference/causvid_pipeline.py", "inference/game_cv.py", "owl_wms/models", "owl_wms/nn",
                           "owl_wms/sampling", "owl_wms/trainers/sf_vid_only.py",
                           "owl_wms/trainers/causvid_vid_only.py", "owl_wms/utils/owl_vae_bridge.py",
                           "owl_wms/utils/__init__.py")),
        GitCorpus("psym", "https://github.com/NVIDIA/physicsnemo-sym",
                  "9dac911addc21e196312b42c4e1f666a39ba500b", ".",
                  "PhysicsNeMo Sym (formerly Modulus Sym): NVIDIA's physics-informed training framework: the "
                  "trainer whose training loop, with cuda_graphs on, captures the whole training step (losses, "
                  "backward, optimiser step) in a torch.cuda.CUDAGraph after a warm-up and replays it every step, "
                  "the AMP / derivative scaling, the solvers, the continuous and discrete constraints that sample "
                  "points and evaluate losses each step, the loss aggregators, the computational graph of nodes "
                  "with its autograd derivatives, the keys, manager and PDE base, and the validators (the "
                  "geometry, the networks, the PDE zoo, the datasets and the hydra configuration are left out)",
                  include=("physicsnemo/sym/trainer.py", "physicsnemo/sym/amp.py", "physicsnemo/sym/solver",
                           "physicsnemo/sym/domain/constraint", "physicsnemo/sym/loss", "physicsnemo/sym/graph.py",
                           "physicsnemo/sym/node.py", "physicsnemo/sym/key.py", "physicsnemo/sym/manager.py",
                           "physicsnemo/sym/eq/pde.py", "physicsnemo/sym/domain/validator")),
        GitCorpus("aimnet", "https://github.com/isayevlab/aimnetcentral",
                  "704325e1878c0d5805001c2f648ca07227addb27", ".",
                  "AIMNet2: a neural-network interatomic potential for molecules, its simulation side: the "
                  "calculator that builds neighbour lists, runs the model (torch.compile'd with the caller's "
                  "compile_kwargs; mode=\"reduce-overhead\" is the documented choice for long MD runs) and takes "
                  "forces / stress / Hessians by autograd on every call, the ASE and TorchSim adapters called once "
                  "per MD or optimisation step, the neighbour-list and derivative helpers, the AIMNet2 model and "
                  "base, the AEV and core modules, the long-range Coulomb / DFT-D3 modules and the neighbour ops "
                  "(training, data, the CLI, model registry / Hub download, validation scripts and the Warp "
                  "kernels are left out)",
                  include=("aimnet/calculators/calculator.py", "aimnet/calculators/aimnet2ase.py",
                           "aimnet/calculators/aimnet2torchsim.py", "aimnet/calculators/neighbors.py",
                           "aimnet/calculators/derivatives.py", "aimnet/models/aimnet2.py", "aimnet/models/base.py",
                           "aimnet/modules/aev.py", "aimnet/modules/core.py", "aimnet/modules/lr.py",
                           "aimnet/nbops.py", "aimnet/ops.py")),
        GitCorpus("holosoma", "https://github.com/amazon-far/holosoma",
                  "fc600e7db2de580509eedaa656ca6c601bd3af9b", "src/holosoma",
                  "holosoma: Amazon FAR's humanoid sim-to-real RL framework: the FastSAC agent whose learn loop "
                  "steps thousands of GPU environments, normalises observations and runs torch.compile'd critic / "
                  "actor updates every step, the FastSAC networks, the PPO agent with its rollout and update "
                  "loops, the actor / critic modules, the base task that computes observations, rewards and resets "
                  "per step, and the MuJoCo Warp backend with its tensor views (the FastTD3-derived utilities, "
                  "the Isaac Gym / Isaac Sim backends, scene loading, terrain, retargeting, inference and "
                  "configuration are left out)",
                  include=("holosoma/agents/fast_sac/fast_sac.py", "holosoma/agents/fast_sac/fast_sac_agent.py",
                           "holosoma/agents/ppo/ppo.py", "holosoma/agents/modules/modules.py",
                           "holosoma/envs/base_task/base_task.py",
                           "holosoma/simulator/mujoco/backends/warp_backend.py",
                           "holosoma/simulator/mujoco/tensor_views.py")),
        GitCorpus("fcnet", "https://github.com/NVlabs/FourCastNet",
                  "93360c1720a9f97aabf970689f21c9fad8737788", ".",
                  "FourCastNet: NVIDIA's AFNO global weather forecaster: the autoregressive inference scripts "
                  "that roll the model forward six hours at a time (deterministic, ensemble with perturbed "
                  "initial conditions, and the precipitation model fed by the backbone) computing RMSE / ACC per "
                  "step, the AFNO network and the image utilities (training, data loaders, the ERA5 copy "
                  "scripts and plotting are left out)",
                  include=("inference", "networks", "utils/img_utils.py")),
        GitCorpus("raft", "https://github.com/princeton-vl/RAFT",
                  "2888e15a51fa41140771d3f498ed8023cff098d1", ".",
                  "RAFT: recurrent all-pairs field transforms for optical flow: the model whose forward refines "
                  "the flow field over a fixed number of GRU update iterations, the correlation pyramid looked up "
                  "every iteration, the update block, the demo that runs it frame pair by frame pair and the "
                  "evaluation loops (the feature encoders that DROID-SLAM and DPVO share, training, datasets, "
                  "augmentation and the CUDA correlation extension are left out)",
                  include=("core/raft.py", "core/corr.py", "core/update.py", "core/utils/utils.py",
                           "core/utils/flow_viz.py", "demo.py", "evaluate.py")),
        GitCorpus("lagllama", "https://github.com/time-series-foundation-models/lag-llama",
                  "013ff0c786c6fee677a360b76df95685c9dac25d", ".",
                  "Lag-Llama: a decoder-only foundation model for probabilistic time-series forecasting: the "
                  "Lightning module whose prediction samples the forecast autoregressively one step at a time "
                  "over many sample paths (with or without its KV cache), the GluonTS estimator and predictor "
                  "setup, and the implicit-quantile distribution and robust scaler (the LLaMA-style model "
                  "module that other corpora share, the data scripts, augmentations and the run script are left "
                  "out)",
                  include=("lag_llama/gluon", "gluon_utils")),
        GitCorpus("framepack", "https://github.com/lllyasviel/FramePack",
                  "97fe5dbe06ac1f337ece08935b1076a35eefeeb9", ".",
                  "FramePack: next-frame-section prediction for long video diffusion on consumer GPUs: the Gradio "
                  "workers that generate a video section by section, moving models on and off the GPU, sampling "
                  "and VAE-decoding each section, the k-diffusion style HunyuanVideo sampling pipeline and the "
                  "UniPC flow-matching sampler stepped per denoising step, the HunyuanVideo text / VAE helpers and "
                  "the bucket, CLIP-vision, DiT and thread helpers (the packed transformer, the memory manager and "
                  "the utilities that other corpora share, and the progress bar are left out)",
                  include=("demo_gradio.py", "demo_gradio_f1.py", "diffusers_helper/k_diffusion",
                           "diffusers_helper/pipelines", "diffusers_helper/hunyuan.py",
                           "diffusers_helper/bucket_tools.py", "diffusers_helper/clip_vision.py",
                           "diffusers_helper/dit_common.py", "diffusers_helper/thread_utils.py")),
        GitCorpus("sgmse", "https://github.com/sp-uhh/sgmse",
                  "ae690e8c046aa163da0c6c774842fa5f9a5f2183", ".",
                  "SGMSE+: score-based generative speech enhancement and dereverberation: the enhancement script "
                  "that runs the reverse SDE per file, the score model with its Euler-Maruyama / predictor-"
                  "corrector / ODE samplers stepped per reverse step, the predictors and correctors, the OUVE / "
                  "OUVP / SB SDEs, the NCSN++ (v1, v2) and DCUNet backbones with their up / down-sampling layers, "
                  "and the inference helpers (training, the data module, the metric scripts, the preprocessing "
                  "and the score-SDE utility layers are left out)",
                  include=("enhancement.py", "sgmse/model.py", "sgmse/sampling", "sgmse/sdes.py",
                           "sgmse/backbones/ncsnpp.py", "sgmse/backbones/ncsnpp_v2.py", "sgmse/backbones/dcunet.py",
                           "sgmse/backbones/shared.py", "sgmse/backbones/ncsnpp_utils/layerspp.py",
                           "sgmse/util/inference.py", "sgmse/util/other.py", "sgmse/util/tensors.py")),
    ), "the forty-second untouched set, pinned in session 45 for the release after next (d3rlpy, OWL world "
       "models, PhysicsNeMo Sym, AIMNet2, holosoma, FourCastNet, RAFT, Lag-Llama, FramePack, SGMSE+)"),
    "portcullis": GitSet(HERE / ".portcullis", (
        GitCorpus("tianshou", "https://github.com/thu-ml/tianshou",
                  "f2402056b03acafeedf2518a5088db55add004ab", ".",
                  "Tianshou: a PyTorch deep RL library: the collectors that step vectorised environments, run "
                  "the policy on every step (hidden state, exploration noise, action mapping) and gather episode "
                  "statistics, the algorithm base with its policies, per-batch update, lagged target networks and "
                  "n-step / episodic (GAE) returns, the on-policy, off-policy and offline trainers whose loops "
                  "alternate collection, updates and test episodes, DQN, A2C and PPO, and the torch / numpy "
                  "converters (the buffers, Batch, the other algorithms, the high-level experiment API, the "
                  "environments, loggers, examples and tests are left out)",
                  include=("tianshou/data/collector.py", "tianshou/data/utils/converter.py",
                           "tianshou/algorithm/algorithm_base.py", "tianshou/algorithm/modelfree/dqn.py",
                           "tianshou/algorithm/modelfree/a2c.py", "tianshou/algorithm/modelfree/ppo.py",
                           "tianshou/trainer.py", "tianshou/utils/torch_utils.py")),
        GitCorpus("groundingdino", "https://github.com/IDEA-Research/GroundingDINO",
                  "856dde20aee659246248e20734ef9ba5214f5e44", ".",
                  "Grounding DINO: open-set object detection from a text prompt: the inference helpers that load "
                  "the model, run it on an image and keep the boxes and phrases above the box / text thresholds, "
                  "the demo script, the detector whose forward encodes the caption and scores every query against "
                  "its tokens, the deformable encoder-decoder with its text cross-attention, the image-text "
                  "bi-attention fusion, the multi-scale deformable attention (its PyTorch fallback and the op "
                  "wrapper), the Swin backbone and the token-span helpers (the BERT wrapper, the position "
                  "encodings, box ops and DETR utilities that RF-DETR shares, the CUDA op, datasets, COCO "
                  "evaluation, the Gradio app and the visualiser are left out)",
                  include=("groundingdino/util/inference.py", "groundingdino/util/vl_utils.py",
                           "groundingdino/models/GroundingDINO/groundingdino.py",
                           "groundingdino/models/GroundingDINO/transformer.py",
                           "groundingdino/models/GroundingDINO/fuse_modules.py",
                           "groundingdino/models/GroundingDINO/ms_deform_attn.py",
                           "groundingdino/models/GroundingDINO/backbone/swin_transformer.py",
                           "demo/inference_on_a_image.py")),
        GitCorpus("easyocr", "https://github.com/JaidedAI/EasyOCR",
                  "c4f3cd7225efd4f85451bd8b4a7646ae9a092420", ".",
                  "EasyOCR: ready-to-use OCR: the Reader that detects text boxes and recognises each crop, the "
                  "CRAFT and DBNet detectors with their score-map post-processing, the recogniser that batches "
                  "the crops, runs the CRNN and decodes them (greedy, beam-search and word-beam-search CTC "
                  "decoders in the utilities) with a second pass on low-confidence crops, and the recognition "
                  "models (the training code, the DBNet backbones / decoders / deformable-conv op, the CLI, the "
                  "export script and the unit tests are left out)",
                  include=("easyocr/easyocr.py", "easyocr/recognition.py", "easyocr/detection.py",
                           "easyocr/detection_db.py", "easyocr/craft.py", "easyocr/craft_utils.py", "easyocr/utils.py",
                           "easyocr/model/model.py", "easyocr/model/modules.py", "easyocr/model/vgg_model.py",
                           "easyocr/DBNet/DBNet.py")),
        GitCorpus("sadtalker", "https://github.com/OpenTalker/SadTalker",
                  "cd4c0465ae0b54a6f85af57f5c65fec9fe23e7f8", ".",
                  "SadTalker: audio-driven talking-head video from one portrait: the inference script, the "
                  "preprocessing that crops the face and extracts its 3DMM coefficients, the audio-to-coefficient "
                  "stage (the expression network and the pose CVAE run over mel chunks), the batch builders, the "
                  "face renderer that maps coefficients to keypoints and renders the video frame by frame (keypoint "
                  "detector, mapping net, dense motion, generator) and the face enhancer (the face-vid2vid utility "
                  "blocks that LivePortrait shares, the face-reconstruction training code, arcface, the Gradio / "
                  "WebUI apps and the sync-BN copy are left out)",
                  include=("inference.py", "src/test_audio2coeff.py", "src/generate_batch.py",
                           "src/generate_facerender_batch.py", "src/audio2exp_models",
                           "src/audio2pose_models/audio2pose.py", "src/audio2pose_models/cvae.py",
                           "src/audio2pose_models/audio_encoder.py", "src/audio2pose_models/networks.py",
                           "src/facerender/animate.py", "src/facerender/modules/make_animation.py",
                           "src/facerender/modules/generator.py", "src/facerender/modules/keypoint_detector.py",
                           "src/facerender/modules/dense_motion.py", "src/facerender/modules/mapping.py",
                           "src/utils/preprocess.py", "src/utils/face_enhancer.py")),
        GitCorpus("chronos", "https://github.com/amazon-science/chronos-forecasting",
                  "95185d1336e5bfdf50374d44c06ad9e10b303144", "src/chronos",
                  "Chronos: pretrained time-series forecasting models: the pipeline base with quantile / mean "
                  "prediction and the DataFrame entry point, Chronos (T5 over mean-scaled bins, forecasts sampled "
                  "autoregressively), Chronos-Bolt (direct multi-quantile forecasts, rolled out for long "
                  "horizons), Chronos-2 (its group-attention encoder model, layers, config and the pipeline that "
                  "batches covariate-aware tasks and rolls out long horizons) and the padding / quantile helpers "
                  "(the Chronos-2 datasets, preprocessing and fine-tuning trainer, the DataFrame and S3 utilities, "
                  "the training / evaluation scripts and the tests are left out)",
                  include=("base.py", "chronos.py", "chronos_bolt.py", "utils.py", "chronos2/config.py",
                           "chronos2/layers.py", "chronos2/model.py", "chronos2/pipeline.py")),
        GitCorpus("openrlhf", "https://github.com/OpenRLHF/OpenRLHF",
                  "3c3be6234e0cb353e76bb8019947db9dfe99fca7", ".",
                  "OpenRLHF: Ray / vLLM / DeepSpeed RLHF, its PPO side: the PPO trainer whose loop generates "
                  "rollouts, makes experience and trains actor and critic, the samples generator, the experience "
                  "maker (log-probs, values, rewards, KL, GAE / REINFORCE-style advantages), the experience and "
                  "replay buffer, the KL controllers, the Ray actor and critic workers with their training steps "
                  "and weight broadcast, the actor and reward / critic models, the policy / value / KL losses and "
                  "the model utilities (the CLI, datasets, the DeepSpeed strategy, the vLLM engine wrappers, the "
                  "async trainer, SFT / RM / DPO trainers, agents and examples are left out)",
                  include=("openrlhf/trainer/ppo_trainer.py", "openrlhf/trainer/ppo_utils/experience_maker.py",
                           "openrlhf/trainer/ppo_utils/experience.py",
                           "openrlhf/trainer/ppo_utils/samples_generator.py",
                           "openrlhf/trainer/ppo_utils/replay_buffer.py", "openrlhf/trainer/ppo_utils/kl_controller.py",
                           "openrlhf/trainer/ray/ppo_actor.py", "openrlhf/trainer/ray/ppo_critic.py",
                           "openrlhf/models/actor.py", "openrlhf/models/loss.py", "openrlhf/models/model.py",
                           "openrlhf/models/utils.py")),
        GitCorpus("actpp", "https://github.com/MarkFzp/act-plus-plus",
                  "26bab0789d05b7496bacef04f5c6b2541a4403b5", ".",
                  "ACT++ (Mobile ALOHA's imitation learning): the script that trains the ACT / CNN-MLP / diffusion "
                  "policies and evaluates them in rollouts that query the policy every control step (temporal "
                  "ensembling of action chunks), the policy wrappers, the DETR-VAE model and its build, the "
                  "ResNet backbone, the latent model and its trainer, the VINN evaluation and the episode / "
                  "statistics utilities (the DETR transformer and position encoding that other corpora share, the "
                  "simulated environments, scripted policies, Dynamixel client and the data scripts are left out)",
                  include=("imitate_episodes.py", "policy.py", "utils.py", "detr/main.py", "detr/models/detr_vae.py",
                           "detr/models/backbone.py", "detr/models/latent_model.py", "train_latent_model.py",
                           "vinn_eval.py")),
        GitCorpus("esmfold", "https://github.com/facebookresearch/esm",
                  "2b369911bb5b4b0dda914521b9475cad1656b2ac", ".",
                  "ESM: protein language models and ESMFold: the ESMFold model whose inference embeds the "
                  "sequence with ESM-2 and folds it through the recycled folding trunk and structure module, the "
                  "trunk and triangular self-attention blocks, the batching / PDB output helpers, the fold and "
                  "embedding-extraction scripts, ESM-2 and its modules, and the ESM-IF1 inverse-folding GVP "
                  "transformer whose sampling decodes one residue at a time, with its encoder, decoder and "
                  "coordinate utilities (the fairseq multi-head attention and rotary embedding that other corpora "
                  "share, the MSA transformer, the pretrained loaders, data, examples and tests are left out)",
                  include=("esm/esmfold/v1/esmfold.py", "esm/esmfold/v1/trunk.py",
                           "esm/esmfold/v1/tri_self_attn_block.py",
                           "esm/esmfold/v1/misc.py", "esm/esmfold/v1/categorical_mixture.py", "esm/model/esm2.py",
                           "esm/modules.py", "esm/inverse_folding/gvp_transformer.py",
                           "esm/inverse_folding/gvp_transformer_encoder.py",
                           "esm/inverse_folding/transformer_decoder.py",
                           "esm/inverse_folding/util.py", "scripts/fold.py", "scripts/extract.py")),
        GitCorpus("nnunet", "https://github.com/MIC-DKFZ/nnUNet",
                  "0e495086eb108ff79afe106291e8c15bd2f2bc3a", ".",
                  "nnU-Net v2: self-configuring medical image segmentation: the predictor whose sliding-window "
                  "inference runs the (optionally torch.compile'd) network tile by tile with Gaussian weighting "
                  "and mirroring, the preprocessing data iterators and the export of logits to segmentations, the "
                  "trainer with its per-iteration train / validation steps, online Dice and epoch loop, the Dice / "
                  "CE / deep-supervision losses, the poly LR schedule and the training entry point (the planning, "
                  "preprocessing, dataset conversion, data loading, augmentation, trainer variants, evaluation, "
                  "postprocessing and the image readers are left out)",
                  include=("nnunetv2/inference/predict_from_raw_data.py",
                           "nnunetv2/inference/sliding_window_prediction.py",
                           "nnunetv2/inference/data_iterators.py", "nnunetv2/inference/export_prediction.py",
                           "nnunetv2/training/nnUNetTrainer/nnUNetTrainer.py",
                           "nnunetv2/training/loss/compound_losses.py",
                           "nnunetv2/training/loss/dice.py", "nnunetv2/training/loss/deep_supervision.py",
                           "nnunetv2/training/loss/robust_ce_loss.py", "nnunetv2/training/lr_scheduler/polylr.py",
                           "nnunetv2/run/run_training.py", "nnunetv2/utilities/helpers.py")),
        GitCorpus("trellis", "https://github.com/microsoft/TRELLIS",
                  "6b0d64751ad54d9c32d7b05fec482eb29178f56f", ".",
                  "TRELLIS: structured 3D latents for image- and text-to-3D generation: the image / text-to-3D "
                  "pipelines that sample the sparse structure, then the structured latent, with flow-matching "
                  "Euler samplers stepped per denoising step (classifier-free guidance, guidance interval) and "
                  "decode them to Gaussians / meshes, the sparse-structure and structured-latent flow models and "
                  "the sparse-structure VAE, the sparse tensor and its full / serialised / windowed attention, the "
                  "dense attention, the flow-matching trainers and the GLB post-processing that bakes textures by "
                  "optimisation (the datasets, the VAE decoders and trainers, renderers, representations, the "
                  "sparse-conv backends, the apps and the dataset toolkits are left out)",
                  include=("trellis/pipelines/trellis_image_to_3d.py", "trellis/pipelines/trellis_text_to_3d.py",
                           "trellis/pipelines/base.py", "trellis/pipelines/samplers",
                           "trellis/models/sparse_structure_flow.py", "trellis/models/structured_latent_flow.py",
                           "trellis/models/sparse_structure_vae.py", "trellis/modules/sparse/basic.py",
                           "trellis/modules/sparse/attention/full_attn.py",
                           "trellis/modules/sparse/attention/serialized_attn.py",
                           "trellis/modules/sparse/attention/windowed_attn.py",
                           "trellis/modules/attention/full_attn.py",
                           "trellis/trainers/flow_matching/flow_matching.py",
                           "trellis/trainers/flow_matching/sparse_flow_matching.py",
                           "trellis/utils/postprocessing_utils.py")),
    ), "the forty-third untouched set, pinned in session 46 for the release after next (Tianshou, Grounding DINO, "
       "EasyOCR, SadTalker, Chronos, OpenRLHF, ACT++, ESM / ESMFold, nnU-Net, TRELLIS)"),
    "machicolation": GitSet(HERE / ".machicolation", (
        GitCorpus("openfold", "https://github.com/aqlaboratory/openfold",
                  "ce0029e1199b65fd834fe822be50d936cfe57fd4", ".",
                  "OpenFold: a trainable PyTorch reproduction of AlphaFold 2, its structure-inference side: the "
                  "inference script that runs the model per target (chunk size, tracing, relaxation hand-off), "
                  "the AlphaFold module whose forward loops over the recycling iterations, the Evoformer and "
                  "extra-MSA stacks, the structure module with invariant point attention iterated per block, the "
                  "MSA attention, triangular attention and outer-product-mean layers, the chunking utilities that "
                  "tune and apply the chunk size, and the script helpers (the data pipeline, the numpy / relax "
                  "code, the config, losses, training, templates, embedders, heads and the CUDA attention kernel "
                  "are left out)",
                  include=("run_pretrained_openfold.py", "openfold/model/model.py", "openfold/model/evoformer.py",
                           "openfold/model/structure_module.py", "openfold/model/msa.py",
                           "openfold/model/triangular_attention.py", "openfold/model/outer_product_mean.py",
                           "openfold/utils/chunk_utils.py", "openfold/utils/script_utils.py")),
        GitCorpus("cleanrl", "https://github.com/vwxyzjn/cleanrl",
                  "fe8d8a03c41a7ef5b523e2e354bd01c363e786bb", ".",
                  "CleanRL: single-file deep RL implementations, the torch training loops that step the "
                  "environments and update every step or rollout: Rainbow DQN with noisy nets and prioritised "
                  "replay, PPO with a Transformer-XL memory, PPO with random network distillation on EnvPool, "
                  "phasic policy gradient on Procgen, C51 and discrete SAC on Atari and QDagger DQN with an "
                  "IMPALA CNN (the PPO / SAC / TD3 / DQN scripts that LeanRL already carries and their close "
                  "variants, the JAX scripts, cleanrl_utils and the benchmarks are left out)",
                  include=("cleanrl/rainbow_atari.py", "cleanrl/ppo_trxl/ppo_trxl.py", "cleanrl/ppo_rnd_envpool.py",
                           "cleanrl/ppg_procgen.py", "cleanrl/c51_atari.py", "cleanrl/sac_atari.py",
                           "cleanrl/qdagger_dqn_atari_impalacnn.py")),
        GitCorpus("sgm", "https://github.com/Stability-AI/generative-models",
                  "0ad7de9a5cb53fd63d6d30a4f385485e72e08597", ".",
                  "Stability AI generative models (SDXL, SDXL-Turbo, SVD, SV3D, SV4D): the SVD / SV3D and SV4D "
                  "sampling scripts that sample frame batches and decode them chunk by chunk, the SDXL-Turbo and "
                  "video Streamlit demos, the sampling-pipeline API, the CFG / linear-prediction guiders, the "
                  "diffusion loss, the spatial-temporal and space-time attention blocks, the temporal "
                  "autoencoder decoder and the conditioner / embedder modules (the EDM samplers, the "
                  "discretiser, the UNet and autoencoder models close to CogVideo's copy, the data modules, the "
                  "LPIPS code and the watermark detection are left out)",
                  include=("scripts/sampling/simple_video_sample.py", "scripts/sampling/simple_video_sample_4d.py",
                           "scripts/demo/turbo.py", "scripts/demo/video_sampling.py", "sgm/inference/api.py",
                           "sgm/modules/diffusionmodules/guiders.py", "sgm/modules/diffusionmodules/loss.py",
                           "sgm/modules/video_attention.py", "sgm/modules/spacetime_attention.py",
                           "sgm/modules/autoencoding/temporal_ae.py", "sgm/modules/encoders/modules.py")),
        GitCorpus("detectron2", "https://github.com/facebookresearch/detectron2",
                  "02b5c4e295e990042a714712c21dc79b731e8833", ".",
                  "Detectron2: Meta's detection / segmentation library, a subset: the DefaultPredictor and the "
                  "demo predictor that runs it image by image and frame by frame, the default / simple / AMP "
                  "trainers whose loop runs a step and writes metrics every iteration, the evaluation loop, the "
                  "generalized R-CNN, RetinaNet and dense-detector meta-architectures, the RPN, the Fast R-CNN "
                  "output layers, the detector post-processing, the ROI poolers, the matcher and batched NMS "
                  "(the config, data, checkpoint and export code, the other layers, structures and heads, the "
                  "projects, tools, tests and the CUDA / C++ sources are left out)",
                  include=("demo/predictor.py", "detectron2/engine/defaults.py", "detectron2/engine/train_loop.py",
                           "detectron2/evaluation/evaluator.py", "detectron2/modeling/meta_arch/rcnn.py",
                           "detectron2/modeling/meta_arch/retinanet.py",
                           "detectron2/modeling/meta_arch/dense_detector.py",
                           "detectron2/modeling/proposal_generator/rpn.py",
                           "detectron2/modeling/roi_heads/fast_rcnn.py", "detectron2/modeling/postprocessing.py",
                           "detectron2/modeling/poolers.py", "detectron2/modeling/matcher.py",
                           "detectron2/layers/nms.py")),
        GitCorpus("shape", "https://github.com/openai/shap-e",
                  "50131012ee11c9d2617f3886c10f000d3c7a3b43", ".",
                  "Shap-E: OpenAI's text / image-to-3D latent diffusion, its sampling and decoding side: the "
                  "latent sampler, the latent-diffusion wrapper and the perceiver, the transmitter that encodes "
                  "to and projects latents into implicit-function parameters, the NeRF renderer that marches rays "
                  "in batches, the STF renderer that extracts meshes, the renderer base and bounding volume and "
                  "the notebook helpers that decode latents to images (the Gaussian / Karras diffusion, the "
                  "transformer and CLIP code that the Point-E corpus shares, Blender rendering, the marching-cube "
                  "tables and the data utilities are left out)",
                  include=("shap_e/diffusion/sample.py", "shap_e/models/generation/latent_diffusion.py",
                           "shap_e/models/generation/perceiver.py", "shap_e/models/transmitter/base.py",
                           "shap_e/models/transmitter/channels_encoder.py", "shap_e/models/transmitter/params_proj.py",
                           "shap_e/models/transmitter/bottleneck.py", "shap_e/models/nerf/renderer.py",
                           "shap_e/models/nerf/ray.py", "shap_e/models/stf/renderer.py", "shap_e/models/renderer.py",
                           "shap_e/models/volume.py", "shap_e/util/notebooks.py")),
        GitCorpus("rvc", "https://github.com/RVC-Project/Retrieval-based-Voice-Conversion-WebUI",
                  "4338f12c3c28c80b3ac015e2d0df66c41592746d", ".",
                  "RVC: retrieval-based voice conversion: the conversion pipeline that extracts HuBERT features "
                  "and F0, retrieves from the index and runs the synthesizer segment by segment, the VC "
                  "modules, the real-time converter called per audio block that replays the synthesizer through "
                  "the CUDA-graph helper, that helper (capture, cache and replay), the FCPE and HuBERT wrappers, "
                  "the GPU audio loading / resampling, the TorchGate noise gate, and the training loop and losses "
                  "(the VITS synthesizer modules, RMVPE and the mel helpers close to other sets' copies, the web "
                  "UI and real-time GUI, the separator and dataset preparation are left out)",
                  include=("infer/vc/pipeline.py", "infer/vc/modules.py", "infer/rtrvc.py", "tools/cuda_graph.py",
                           "infer/fcpe.py", "infer/hubert.py", "infer/audio.py", "tools/torchgate/torchgate.py",
                           "train/train.py", "train/losses.py")),
        GitCorpus("edm", "https://github.com/NVlabs/edm",
                  "008a4e5316c8e3bfe61a62f874bddba254295afb", ".",
                  "EDM: NVIDIA's elucidated diffusion models: the generation script whose stochastic Heun "
                  "sampler steps the denoiser per noise level batch by batch, the FID script, the training "
                  "script and loop with per-tick statistics, the DDPM++ / NCSN++ / ADM networks and their "
                  "preconditioners, the VP / VE / EDM losses, the augmentation pipe, and the torch utilities "
                  "(misc, training stats collected across ranks, persistence, distributed) (the dataset tool, "
                  "the dataset and dnnlib are left out)",
                  include=("generate.py", "fid.py", "train.py", "training/networks.py", "training/loss.py",
                           "training/training_loop.py", "training/augment.py", "torch_utils/misc.py",
                           "torch_utils/training_stats.py", "torch_utils/persistence.py",
                           "torch_utils/distributed.py")),
        GitCorpus("dac", "https://github.com/descriptinc/descript-audio-codec",
                  "c7cfc5d2647e26471dc394f95846a0830e7bec34", ".",
                  "Descript Audio Codec: a neural audio codec, the codec mixin whose compress / decompress run the "
                  "model chunk by chunk over long audio, the residual vector quantiser, the multi-period / "
                  "multi-resolution discriminator, the spectral and GAN losses, the model loading and the encode "
                  "/ decode loops over files, and the training scripts with and without the adversarial loss "
                  "and the evaluation script (the DAC model module close to Fish Speech's copy, the layers, "
                  "the EnCodec comparison, the listening-test and data scripts are left out)",
                  include=("dac/model/base.py", "dac/model/discriminator.py", "dac/nn/loss.py", "dac/nn/quantize.py",
                           "dac/utils/__init__.py", "dac/utils/decode.py", "dac/utils/encode.py",
                           "scripts/train.py", "scripts/train_no_adv.py", "scripts/evaluate.py")),
        GitCorpus("codeformer", "https://github.com/sczhou/CodeFormer",
                  "b33cc7d639d6545bfcccc7e0bc6ae51f24e79c2b", ".",
                  "CodeFormer: blind face restoration with a codebook lookup transformer: the inference scripts "
                  "that detect, align, restore and paste back faces image by image and frame by frame "
                  "(restoration, colourisation, inpainting), the CodeFormer and VQGAN architectures, the "
                  "CodeFormer / joint / VQGAN training models and their base model, the face-restoration helper "
                  "with the RetinaFace detector and the parsing network, and the Hugging Face demo (BasicSR's "
                  "data, losses, metrics, ops and utilities, the Real-ESRGAN helpers, YOLOv5-face and the scripts "
                  "are left out)",
                  include=("inference_codeformer.py", "inference_colorization.py", "inference_inpainting.py",
                           "basicsr/archs/codeformer_arch.py", "basicsr/archs/vqgan_arch.py",
                           "basicsr/models/codeformer_model.py", "basicsr/models/codeformer_joint_model.py",
                           "basicsr/models/vqgan_model.py", "basicsr/models/base_model.py",
                           "facelib/utils/face_restoration_helper.py", "facelib/detection/retinaface/retinaface.py",
                           "facelib/detection/retinaface/retinaface_net.py", "facelib/parsing/parsenet.py",
                           "web-demos/hugging_face/app.py")),
        GitCorpus("pointe", "https://github.com/openai/point-e",
                  "fc8a607c08a3ea804cc82bf1ef8628f88a3a5d2f", ".",
                  "Point-E: OpenAI's point-cloud diffusion: the sampler that runs the base and upsampler models "
                  "in turn with classifier-free guidance step by step, the CLIP-conditioned and upsampling "
                  "point-cloud transformers, the perceiver and the SDF model, the CLIP wrapper, the diffusion and "
                  "model configs, the point-cloud to mesh conversion that queries the SDF over a grid in batches, "
                  "the point-cloud type and the evaluation feature extractor / FID-IS metrics (the Gaussian "
                  "diffusion and Karras samplers close to other sets' copies, the checkpoint helper, Blender and "
                  "the download code are left out)",
                  include=("point_e/diffusion/sampler.py", "point_e/models/transformer.py", "point_e/models/sdf.py",
                           "point_e/models/pretrained_clip.py", "point_e/diffusion/configs.py",
                           "point_e/models/configs.py", "point_e/util/pc_to_mesh.py", "point_e/util/point_cloud.py",
                           "point_e/models/perceiver.py", "point_e/evals/feature_extractor.py",
                           "point_e/evals/fid_is.py")),
    ), "the forty-fourth untouched set, pinned in session 47 for the release after next (OpenFold, CleanRL, "
       "Stability AI generative models, Detectron2, Shap-E, RVC, EDM, Descript Audio Codec, CodeFormer, Point-E)"),
    "barbette": GitSet(HERE / ".barbette", (
        GitCorpus("stylegan3", "https://github.com/NVlabs/stylegan3",
                  "c233a919a6faee6e36a316ddd4eddababad1adf9", ".",
                  "StyleGAN3 (alias-free GANs): the training loop that runs the generator / discriminator phases "
                  "every step with lazy regularisation, EMA updates, image snapshots and metric evaluation, the "
                  "StyleGAN2 loss with its R1 / path-length penalties, the StyleGAN2 and StyleGAN3 generator and "
                  "discriminator networks, the adaptive discriminator augmentation pipeline, the image and "
                  "interpolation-video generation scripts, the metric utilities that run the generator and the "
                  "feature detector in batches with the equivariance and perceptual-path-length metrics, and the "
                  "Python sides of the upfirdn2d, filtered-lrelu, bias-act and conv2d-resample ops (dnnlib, the "
                  "torch_utils helpers close to EDM's copy, the dataset tool, the GUI visualiser, legacy pickle "
                  "conversion and the CUDA sources are left out)",
                  include=("training/training_loop.py", "training/loss.py", "training/networks_stylegan3.py",
                           "training/networks_stylegan2.py", "training/augment.py", "gen_images.py", "gen_video.py",
                           "metrics/metric_utils.py", "metrics/equivariance.py", "metrics/perceptual_path_length.py",
                           "torch_utils/ops/upfirdn2d.py", "torch_utils/ops/filtered_lrelu.py",
                           "torch_utils/ops/bias_act.py", "torch_utils/ops/conv2d_resample.py")),
        GitCorpus("guideddiff", "https://github.com/openai/guided-diffusion",
                  "22e0df8183507e13a7813f8d38d51b072ca1e67c", ".",
                  "guided-diffusion: OpenAI's ADM diffusion models: the Gaussian diffusion with its p_sample / DDIM "
                  "loops and the training losses, the timestep-respacing wrapper, the UNet and the noisy-image "
                  "classifier, the training loop with its schedule sampler, EMA, fp16 loss scaling and logging "
                  "every step, the importance / loss-aware timestep samplers, the model factory, and the sampling, "
                  "classifier-guided sampling, super-resolution sampling, NLL evaluation and training scripts (the "
                  "dist / fp16 / nn helpers close to the consistency-models copy, the logger, the image datasets and "
                  "the evaluator are left out)",
                  include=("guided_diffusion/gaussian_diffusion.py", "guided_diffusion/respace.py",
                           "guided_diffusion/unet.py", "guided_diffusion/train_util.py", "guided_diffusion/resample.py",
                           "guided_diffusion/losses.py", "guided_diffusion/script_util.py", "scripts/image_sample.py",
                           "scripts/classifier_sample.py", "scripts/super_res_sample.py", "scripts/classifier_train.py",
                           "scripts/image_nll.py", "scripts/image_train.py")),
        GitCorpus("dinov2", "https://github.com/facebookresearch/dinov2",
                  "b8931f7bf91576930313be2c6d6af376033b35f0", ".",
                  "DINOv2: Meta's self-supervised vision transformers: the training loop that updates the student, "
                  "the teacher EMA and the schedules every iteration and logs the losses, the SSL meta-architecture "
                  "with its DINO / iBOT / KoLeo losses and the centring (Sinkhorn-Knopp) steps, the vision "
                  "transformer with its attention, block, SwiGLU and DINO-head layers, the k-NN and linear "
                  "evaluations that extract features and train / evaluate the classifiers in loops, the eval "
                  "utilities and metrics, and the hub depth encoder-decoder with its sliding-window inference (the "
                  "data loaders and augmentations, the FSDP wrapper, the segmentation / depth mmcv heads, the "
                  "dino.txt text tower, the submitit launchers and the logging helpers are left out)",
                  include=("dinov2/train/train.py", "dinov2/train/ssl_meta_arch.py",
                           "dinov2/models/vision_transformer.py", "dinov2/layers/attention.py",
                           "dinov2/layers/block.py", "dinov2/layers/swiglu_ffn.py", "dinov2/layers/dino_head.py",
                           "dinov2/loss/dino_clstoken_loss.py", "dinov2/loss/ibot_patch_loss.py",
                           "dinov2/loss/koleo_loss.py", "dinov2/eval/knn.py", "dinov2/eval/linear.py",
                           "dinov2/eval/utils.py", "dinov2/eval/metrics.py", "dinov2/hub/depth/encoder_decoder.py")),
        GitCorpus("magicanimate", "https://github.com/magic-research/magic-animate",
                  "d2bc3bc3c9cc3dadeedef8a02668dd5582d10a01", ".",
                  "MagicAnimate: human-image animation with a video diffusion model: the animation pipeline that "
                  "denoises overlapping context windows of frames step by step with ControlNet pose guidance and "
                  "reference-attention control, the animation script and the demo class that run it per request, "
                  "the context-window scheduler, the ControlNet, the 3D UNet blocks, the temporal motion module, "
                  "the mutual self-attention (reference) control, the transformer and resnet blocks (the 3D UNet "
                  "close to LatentSync's copy, the appearance encoder and the SD reference pipeline, the Gradio apps, "
                  "the distributed demo and the video reader are left out)",
                  include=("demo/animate.py", "magicanimate/pipelines/pipeline_animation.py",
                           "magicanimate/pipelines/animation.py", "magicanimate/pipelines/context.py",
                           "magicanimate/models/unet_controlnet.py", "magicanimate/models/motion_module.py",
                           "magicanimate/models/mutual_self_attention.py", "magicanimate/models/attention.py",
                           "magicanimate/models/unet_3d_blocks.py", "magicanimate/models/resnet.py",
                           "magicanimate/models/controlnet.py")),
        GitCorpus("mae", "https://github.com/facebookresearch/mae",
                  "efb2a8062c206524e35e47d04501ed4f544c0ae8", ".",
                  "MAE (masked autoencoders): the pre-training and fine-tuning engines whose per-iteration loops "
                  "step the loss scaler, adjust the learning rate and log the losses, the pre-training, fine-tuning "
                  "and linear-probing mains, the masked-autoencoder and ViT models, and the misc (metric logger, "
                  "distributed helpers, native loss scaler, checkpointing), LR schedule, LARS, layer-wise LR decay "
                  "and positional-embedding utilities (the datasets, the crop transform and the submitit launchers "
                  "are left out)",
                  include=("engine_pretrain.py", "engine_finetune.py", "main_pretrain.py", "main_finetune.py",
                           "main_linprobe.py", "models_mae.py", "models_vit.py", "util/misc.py", "util/lr_sched.py",
                           "util/pos_embed.py", "util/lars.py", "util/lr_decay.py")),
        GitCorpus("ddpmtorch", "https://github.com/lucidrains/denoising-diffusion-pytorch",
                  "faed4db28e724735323fa91c70aa9b28a6e1cbac", ".",
                  "denoising-diffusion-pytorch: lucidrains' DDPM library: the UNet, the Gaussian diffusion with its "
                  "p_sample / DDIM loops and the Trainer whose loop accumulates gradients, steps the optimiser, "
                  "updates the EMA and samples / computes FID at each save, the classifier-free-guidance, "
                  "elucidated (Karras) and continuous-time diffusions with their samplers, the Karras UNet, the "
                  "attention (flash) module and the FID evaluator that runs Inception over sampled batches (the 1D "
                  "and 3D variants, the repaint, guided, simple, learned / v-param / weighted-objective diffusions "
                  "and the XM scripts are left out)",
                  include=("denoising_diffusion_pytorch/__init__.py",
                           "denoising_diffusion_pytorch/denoising_diffusion_pytorch.py",
                           "denoising_diffusion_pytorch/classifier_free_guidance.py",
                           "denoising_diffusion_pytorch/elucidated_diffusion.py",
                           "denoising_diffusion_pytorch/continuous_time_gaussian_diffusion.py",
                           "denoising_diffusion_pytorch/attend.py", "denoising_diffusion_pytorch/fid_evaluation.py",
                           "denoising_diffusion_pytorch/karras_unet.py")),
        GitCorpus("sit", "https://github.com/willisma/SiT",
                  "947f95bd3a510e9af441d38c1e9f72e0eee873c5", ".",
                  "SiT (scalable interpolant transformers): the transport module with its interpolant paths, "
                  "training losses and ODE / SDE samplers, the fixed-step and torchdiffeq integrators, the SiT "
                  "transformer, the sampling and distributed (DDP) sampling scripts that generate batches of "
                  "images with classifier-free guidance, and the training script whose loop updates the EMA and "
                  "logs the running loss every step (the checkpoint download and the wandb helpers are left out)",
                  include=("models.py", "sample.py", "sample_ddp.py", "train.py", "train_utils.py", "transport")),
        GitCorpus("bigvgan", "https://github.com/NVIDIA/BigVGAN",
                  "7d2b454564a6c7d014227f635b7423881f14bdac", ".",
                  "BigVGAN: NVIDIA's universal neural vocoder, its training and inference side: the training script "
                  "whose loop runs the generator and discriminator steps, computes mel losses and logs / validates "
                  "at intervals, the multi-period, multi-resolution and multi-band discriminators, the GAN, feature "
                  "and multi-scale mel losses, the mel-spectrogram code run on each batch, and the inference "
                  "scripts that synthesise waveforms file by file (the generator and its anti-aliased activations "
                  "close to Kimi-Audio's copy, the CUDA kernel, the Gradio demo, the LibriTTS parsing and the tests "
                  "are left out)",
                  include=("train.py", "discriminators.py", "loss.py", "meldataset.py", "inference.py",
                           "inference_e2e.py", "utils.py")),
        GitCorpus("zoedepth", "https://github.com/isl-org/ZoeDepth",
                  "d87f17b2f5fdcb174cf4fb115491f4a6c60de152", ".",
                  "ZoeDepth: metric depth estimation on a MiDaS backbone: the depth-model base with its padded / "
                  "flipped inference, ZoeDepth and ZoeDepth-NK with their metric-bins heads, attractors and "
                  "patch-transformer router, the MiDaS core wrapper, the base trainer whose loop steps the "
                  "optimiser and validates / logs at intervals, the ZoeDepth and NK trainers, the losses, the "
                  "evaluation script that infers per sample and accumulates metrics, and the metric helpers (the "
                  "data loaders, the config, the UI apps, the hub entry points and the sanity scripts are left out)",
                  include=("zoedepth/models/depth_model.py", "zoedepth/models/zoedepth/zoedepth_v1.py",
                           "zoedepth/models/zoedepth_nk/zoedepth_nk_v1.py", "zoedepth/models/base_models/midas.py",
                           "zoedepth/models/layers/attractor.py", "zoedepth/models/layers/dist_layers.py",
                           "zoedepth/models/layers/localbins_layers.py", "zoedepth/models/layers/patch_transformer.py",
                           "zoedepth/trainers/base_trainer.py", "zoedepth/trainers/zoedepth_trainer.py",
                           "zoedepth/trainers/zoedepth_nk_trainer.py", "zoedepth/trainers/loss.py", "evaluate.py",
                           "zoedepth/utils/misc.py")),
        GitCorpus("stylegan2", "https://github.com/rosinality/stylegan2-pytorch",
                  "bef283a1c24087da704d16c30abc8e36e63efa0e", ".",
                  "stylegan2-pytorch: rosinality's StyleGAN2 reimplementation: the training loop that alternates "
                  "discriminator / generator steps with lazy R1 and path-length regularisation, adaptive "
                  "augmentation probability, EMA accumulation and distributed loss reduction every step, the "
                  "StyleGAN2 and SWAGAN generators and discriminators, the non-leaking augmentation, the generation, "
                  "projection, perceptual-path-length and FID scripts, the distributed helpers and the Python sides "
                  "of the fused-activation, upfirdn2d and conv2d-gradfix ops (the LPIPS copy, the Inception "
                  "network, the weight conversion, the data preparation and the CUDA sources are left out)",
                  include=("train.py", "model.py", "swagan.py", "non_leaking.py", "generate.py", "projector.py",
                           "ppl.py", "fid.py", "distributed.py", "op/__init__.py", "op/fused_act.py",
                           "op/upfirdn2d.py", "op/conv2d_gradfix.py")),
    ), "the forty-fifth untouched set, pinned in session 48 for the release after next (StyleGAN3, guided-diffusion, "
       "DINOv2, MagicAnimate, MAE, denoising-diffusion-pytorch, SiT, BigVGAN, ZoeDepth, stylegan2-pytorch)"),
    "crenel": GitSet(HERE / ".crenel", (
        GitCorpus("mar", "https://github.com/LTH14/mar",
                  "fe470ac24afbee924668d8c5c83e9fec60af3a73", ".",
                  "MAR (autoregressive image generation without vector quantization): the masked autoregressive "
                  "transformer whose sampling loop unmasks tokens over a cosine schedule with classifier-free "
                  "guidance and samples each token with a diffusion head, the diffusion loss and its MLP denoiser, "
                  "the KL VAE that encodes / decodes the latents, the training engine whose per-iteration loop steps "
                  "the loss scaler, updates the EMA and logs the loss, the evaluation loop that generates batches for "
                  "FID / IS, and the main and latent-caching scripts (the Gaussian diffusion copied from "
                  "guided-diffusion, the misc / LR helpers close to MAE's copy, the data loader, the crop and "
                  "download helpers and the Gradio demo are left out)",
                  include=("engine_mar.py", "main_mar.py", "main_cache.py", "models/mar.py", "models/diffloss.py",
                           "models/vae.py")),
        GitCorpus("llama2c", "https://github.com/karpathy/llama2.c",
                  "350e04fe35433e6d2941dce5a1f53308f87058eb", ".",
                  "llama2.c: Karpathy's small Llama 2 in PyTorch: the transformer with its rotary embeddings, "
                  "attention without a KV cache and top-k / temperature generation loop, the training script whose "
                  "loop accumulates gradients under autocast with a grad scaler, evaluates the loss at intervals and "
                  "logs MFU, the sampling script, the TinyStories pretokenised batch iterator the loop pulls from, "
                  "the SentencePiece tokenizer wrapper and the exporters that serialise fp32 / int8-quantised weights "
                  "(the C runtime, the configurator, the vocabulary training and the tests are left out)",
                  include=("model.py", "train.py", "sample.py", "export.py", "tokenizer.py", "tinystories.py")),
        GitCorpus("taming", "https://github.com/CompVis/taming-transformers",
                  "3ba01b241669f5ade541ce990f7650a3b8f65318", ".",
                  "Taming Transformers: the VQGAN (Lightning modules whose training / validation steps alternate "
                  "autoencoder and discriminator optimisation and log images), the vector quantisers (EMA, Gumbel, "
                  "remapped), the encoder / decoder, the VQ-perceptual loss with its LPIPS network and PatchGAN "
                  "discriminator, the conditional transformer with its token-by-token top-k sampling loop, the minGPT "
                  "with its cached sampling, the permuters, the sampling scripts (fast unconditional / "
                  "class-conditional, conditional with streamlit, conditional over a data set) and the Lightning "
                  "training entry point with its image-logging callback (the data sets, the depth / segmentation "
                  "extraction scripts, the scene-sample script, the coordinate and dummy stages and the submodel "
                  "extractor are left out)",
                  include=("main.py", "taming/lr_scheduler.py", "taming/models/vqgan.py",
                           "taming/models/cond_transformer.py", "taming/modules/transformer/mingpt.py",
                           "taming/modules/transformer/permuter.py", "taming/modules/vqvae/quantize.py",
                           "taming/modules/diffusionmodules/model.py", "taming/modules/losses/__init__.py",
                           "taming/modules/losses/vqperceptual.py", "taming/modules/losses/lpips.py",
                           "taming/modules/discriminator/model.py", "taming/modules/util.py",
                           "scripts/sample_fast.py", "scripts/sample_conditional.py", "scripts/make_samples.py")),
        GitCorpus("effsam", "https://github.com/yformer/EfficientSAM",
                  "d525f622e6f640acf5a0fc37c7ca1f243da5bde0", ".",
                  "EfficientSAM: the lightweight segment-anything model: the predictor that embeds the image once and "
                  "decodes masks for batches of point / box prompts with its post-processing, the ViT image encoder, "
                  "the prompt encoder and mask decoder, the two-way transformer, the MLP block, the model builders "
                  "and the example that runs a prompt through both checkpoints (the ONNX wrappers, the ONNX / "
                  "TorchScript export scripts and the ONNX example are left out)",
                  include=("efficient_sam/__init__.py", "efficient_sam/build_efficient_sam.py",
                           "efficient_sam/efficient_sam.py", "efficient_sam/efficient_sam_decoder.py",
                           "efficient_sam/efficient_sam_encoder.py", "efficient_sam/two_way_transformer.py",
                           "efficient_sam/mlp.py", "EfficientSAM_example.py")),
        GitCorpus("clip", "https://github.com/openai/CLIP",
                  "d05afc436d78f1c48dc0dbf8e5980a9d471f35f6", ".",
                  "CLIP: OpenAI's contrastive image-text model: the model (modified ResNet and ViT image towers, the "
                  "text transformer, the logits), the loader that downloads, checksums and JIT-patches the device and "
                  "dtype nodes of the TorchScript checkpoint, the preprocessing and the tokenize function, and the "
                  "BPE tokenizer (the hub entry points, the setup script, the notebooks and the consistency test are "
                  "left out)",
                  include=("clip/__init__.py", "clip/clip.py", "clip/model.py", "clip/simple_tokenizer.py")),
        GitCorpus("detr", "https://github.com/facebookresearch/detr",
                  "29901c51d7fe8712168b8d0d64351170bc0f83e0", ".",
                  "DETR: Meta's detection transformer: the training engine whose per-iteration loop reduces the loss "
                  "dictionary across processes, checks the loss is finite and logs it, and the evaluation loop that "
                  "post-processes outputs into COCO / panoptic results, the main script, the DETR model with its set "
                  "criterion and post-processors, the Hungarian matcher, the transformer, the segmentation head with "
                  "its panoptic post-processing, the position encodings, the box ops, the misc utilities (nested "
                  "tensors, metric logger, distributed reductions), the COCO / panoptic evaluators and the Detectron2 "
                  "wrapper (the ResNet backbone close to ACT++'s copy, the data sets and transforms, the Detectron2 "
                  "training / conversion scripts, the hub entry points, the plotting, the submitit launcher and the "
                  "tests are left out)",
                  include=("engine.py", "main.py", "models/__init__.py", "models/detr.py", "models/matcher.py",
                           "models/transformer.py", "models/segmentation.py", "models/position_encoding.py",
                           "util/__init__.py", "util/misc.py", "util/box_ops.py", "datasets/coco_eval.py",
                           "datasets/panoptic_eval.py", "d2/detr/detr.py")),
        GitCorpus("scoresde", "https://github.com/yang-song/score_sde_pytorch",
                  "cb1f359f4aadf0ff9a5e122fe8fffc9451fd6e44", ".",
                  "score_sde_pytorch: score-based generative modelling through SDEs: the VE / VP / sub-VP SDEs and "
                  "their reverse processes, the predictor-corrector and ODE samplers, the SDE / SMLD / DDPM losses "
                  "and the optimisation step, the likelihood (probability-flow ODE) computation, the controllable "
                  "generation (inpainting, colourisation), the training / evaluation runner whose loops step the "
                  "model, the EMA and the snapshots, sample batches and compute likelihoods, and the DDPM, NCSNv2 "
                  "models with their layers, normalisations, resampling ops and model utilities (the NCSN++ model and "
                  "its layers close to SGMSE's copy, the EMA close to MDLM's, the fused ops close to "
                  "stylegan2-pytorch's, the TensorFlow evaluation and data sets, the configs and the main script are "
                  "left out)",
                  include=("sampling.py", "sde_lib.py", "losses.py", "run_lib.py", "likelihood.py",
                           "controllable_generation.py", "models/__init__.py", "models/utils.py", "models/ddpm.py",
                           "models/ncsnv2.py", "models/layers.py", "models/normalization.py",
                           "models/up_or_down_sampling.py")),
        GitCorpus("titok", "https://github.com/bytedance/1d-tokenizer",
                  "942a96fbdd873780179d1b78d5462911528bf8c8", ".",
                  "1d-tokenizer: ByteDance's TiTok family: the 1D image tokenizers (TiTok, TA-TiTok) with their "
                  "vector quantiser and the MaskGIT VQGAN decoder, the MaskGIT, RAR (randomised autoregressive) and "
                  "MaskGen generators with their iterative / token-by-token sampling loops and classifier-free "
                  "guidance, the transformer blocks, the EMA model and the base model, the reconstruction / GAN "
                  "losses, the training utilities whose tokenizer and generator loops accumulate gradients, log and "
                  "evaluate at intervals and reconstruct / generate images, the TiTok and MaskGIT training scripts, "
                  "the demo helpers and the ImageNet sampling scripts (the Gaussian diffusion copied from "
                  "guided-diffusion, the misc helpers close to MAE's copy, the LPIPS / perceptual networks, the "
                  "web-dataset reader, the evaluator, the pretokenisation and the other training scripts are left "
                  "out)",
                  include=("modeling/__init__.py", "modeling/titok.py", "modeling/tatitok.py", "modeling/maskgit.py",
                           "modeling/rar.py", "modeling/maskgen.py", "modeling/modules/__init__.py",
                           "modeling/modules/base_model.py", "modeling/modules/blocks.py",
                           "modeling/modules/maskgit_vqgan.py", "modeling/modules/ema_model.py",
                           "modeling/modules/losses.py", "modeling/quantizer/quantizer.py", "utils/train_utils.py",
                           "scripts/train_titok.py", "scripts/train_maskgit.py", "demo_util.py",
                           "sample_imagenet_titok.py", "sample_imagenet_rar.py")),
        GitCorpus("imagebind", "https://github.com/facebookresearch/ImageBind",
                  "53680b02d7e37b19b124fa37bae4b6c98c38f5be", ".",
                  "ImageBind: Meta's joint embedding across six modalities, its inference side: the model that builds "
                  "the per-modality preprocessors, transformer trunks, heads and post-processors and embeds a "
                  "dictionary of inputs, the multimodal preprocessors (RGB-D / audio / thermal / IMU patch embedders, "
                  "the text tokenizer-embedder), the transformer with its attention blocks, the helpers, and the data "
                  "loaders that read, clip, crop and move image, text, audio and video inputs to the device (the "
                  "setup script and the BPE vocabulary are left out)",
                  include=("imagebind/__init__.py", "imagebind/data.py", "imagebind/models/__init__.py",
                           "imagebind/models/helpers.py", "imagebind/models/imagebind_model.py",
                           "imagebind/models/multimodal_preprocessors.py", "imagebind/models/transformer.py")),
        GitCorpus("jepa", "https://github.com/facebookresearch/jepa",
                  "51c59d518fc63c08464af6de585f78ac0c7ed4d5", ".",
                  "V-JEPA: Meta's video joint-embedding predictive architecture: the pre-training loop that masks "
                  "clips, runs the encoder, the predictor and the EMA target encoder, steps the scaler and the "
                  "schedules and logs losses with GPU timers every iteration, the model / optimiser initialisation "
                  "and checkpointing, the frozen-backbone video and image classification evaluations whose loops "
                  "train and evaluate the attentive probe with their clip / frame aggregation, the vision "
                  "transformer, the predictor, the attentive pooler, the model modules, multi-mask wrapper, patch "
                  "embedding and positional embeddings, the 3D multi-block mask collator, the tensor, schedule, "
                  "distributed and logging utilities (the video / image data sets and augmentations, the training "
                  "transforms, the launchers and scaffolds and the monitoring helpers are left out)",
                  include=("app/vjepa/train.py", "app/vjepa/utils.py", "evals/video_classification_frozen/eval.py",
                           "evals/video_classification_frozen/utils.py", "evals/image_classification_frozen/eval.py",
                           "src/models/vision_transformer.py", "src/models/predictor.py",
                           "src/models/attentive_pooler.py", "src/models/utils/modules.py",
                           "src/models/utils/multimask.py", "src/models/utils/patch_embed.py",
                           "src/models/utils/pos_embs.py", "src/masks/multiblock3d.py", "src/masks/utils.py",
                           "src/utils/tensors.py", "src/utils/schedulers.py", "src/utils/distributed.py",
                           "src/utils/logging.py")),
    ), "the forty-sixth untouched set, pinned in session 49 for the release after next (MAR, llama2.c, Taming "
       "Transformers, EfficientSAM, CLIP, DETR, score_sde_pytorch, 1d-tokenizer, ImageBind, V-JEPA)"),
    "gabion": GitSet(HERE / ".gabion", (
        GitCorpus("nanogpt", "https://github.com/karpathy/nanoGPT",
                  "3adf61e154c3fe3fca428ad6bc3818b27a3b8291", ".",
                  "nanoGPT: Karpathy's small GPT-2 in PyTorch: the model with its flash / masked causal attention, "
                  "GPT-2 weight loading, optimiser configuration, MFU estimate and top-k / temperature generation "
                  "loop, the training script whose loop accumulates gradients under autocast with a grad scaler, "
                  "compiles the model, evaluates the loss at intervals and logs it, the sampling script and the "
                  "benchmark that times compiled training steps with the profiler or synchronised timers (the "
                  "configurator, the configs and the data preparation are left out)",
                  include=("model.py", "train.py", "sample.py", "bench.py")),
        GitCorpus("ddim", "https://github.com/ermongroup/ddim",
                  "e8df66cf02e457719930748b5c26e37e3126dfdd", ".",
                  "DDIM: denoising diffusion implicit models: the runner whose training loop steps the noise-estimation "
                  "loss, the EMA and the checkpoints and logs the loss every step, and whose sampling paths (FID "
                  "batches, sequences, interpolation) run the generalised DDIM / DDPM step loops, the beta schedules, "
                  "the U-Net with its timestep embeddings, the EMA helper, the optimiser factory, the losses and the "
                  "main script (the data sets, the checkpoint download helpers and the configs are left out)",
                  include=("main.py", "runners/__init__.py", "runners/diffusion.py", "models/diffusion.py",
                           "models/ema.py", "functions/__init__.py", "functions/denoising.py",
                           "functions/losses.py")),
        GitCorpus("vitpt", "https://github.com/lucidrains/vit-pytorch",
                  "69d24fe9e3024c0d4b02761123b8583a24ebed1e", ".",
                  "vit-pytorch: lucidrains' vision transformers, a subset: ViT and SimpleViT, the MAE and SimMIM "
                  "masked-image pre-training wrappers, the DINO self-distillation wrapper with its EMA teacher, the "
                  "distillation wrapper with its distillable ViT / T2T / efficient variants, and the CaiT, NaViT "
                  "(packed variable-resolution batches), ViViT and CrossViT variants, the attention recorder and the "
                  "embedding extractor (the other sixty-odd variants, the training script and the tests are left out)",
                  include=("vit_pytorch/__init__.py", "vit_pytorch/vit.py", "vit_pytorch/simple_vit.py",
                           "vit_pytorch/mae.py", "vit_pytorch/dino.py", "vit_pytorch/distill.py", "vit_pytorch/t2t.py",
                           "vit_pytorch/efficient.py", "vit_pytorch/simmim.py", "vit_pytorch/cait.py",
                           "vit_pytorch/na_vit.py", "vit_pytorch/vivit.py", "vit_pytorch/cross_vit.py",
                           "vit_pytorch/recorder.py", "vit_pytorch/extractor.py")),
        GitCorpus("openclip", "https://github.com/mlfoundations/open_clip",
                  "89fb801f1e6087880e951fc8354b8a2077b79c6d", "src",
                  "OpenCLIP: the open CLIP training library, a subset: the CLIP / custom-text CLIP models, the "
                  "vision and text transformers (attentional pooler, patch dropout, modern rotary text tower), the "
                  "CoCa model with its caption generation and the Hugging Face generation wrapper, the CLIP / CoCa / "
                  "distillation / SigLIP / GenLIP losses with their feature gathers and neighbour exchanges, the "
                  "zero-shot classifier builder, the base and CLIP training tasks (EMA, compile, DDP / FSDP "
                  "preparation), the training loop that accumulates gradients, clips, steps the scaler and logs "
                  "scalars at intervals, the evaluation and zero-shot evaluation loops and the autocast helper (the "
                  "factory, the pretrained registry, the tokenizers, the transforms, the audio / NaFlex / timm / HF "
                  "towers, the data pipelines, the main script, the parameters, the scripts and the tests are left "
                  "out)",
                  include=("open_clip/model.py", "open_clip/transformer.py", "open_clip/coca_model.py",
                           "open_clip/generation.py", "open_clip/loss.py", "open_clip/zero_shot_classifier.py",
                           "open_clip/task/base_task.py", "open_clip/task/clip_task.py", "open_clip_train/train.py",
                           "open_clip_train/zero_shot.py", "open_clip_train/precision.py")),
        GitCorpus("minrf", "https://github.com/cloneofsimo/minRF",
                  "4fc10e0cc8ba976152c7936a1af9717209f03e18", ".",
                  "minRF: minimal rectified-flow training and sampling: the rectified flow with its logit-normal "
                  "time sampling and Euler sampling loop with classifier-free guidance and the MNIST / CIFAR training "
                  "loop that logs the loss every step, the Llama-style DiT, and the advanced text-to-image trainer "
                  "(DeepSpeed, streaming data set of T5 / VAE latents, per-step norm and EMA logging) with its "
                  "compiled MMDiT (nothing is left out)",
                  include=("rf.py", "dit.py", "advanced/mmdit.py", "advanced/main_t2i.py")),
        GitCorpus("dino", "https://github.com/facebookresearch/dino",
                  "7c446df5b9f45747937fb0d72314eb9f7b66930a", ".",
                  "DINO: Meta's self-distillation with no labels: the training loop that runs the multi-crop student "
                  "and the EMA teacher under a grad scaler, checks the loss is finite, clips and freezes the last "
                  "layer and logs through the metric logger, the DINO loss with its all-reduced centre update, the "
                  "vision transformer, the utilities (multi-crop wrapper, DINO head, LARS, schedules, metric logger, "
                  "distributed helpers), and the evaluations: k-NN and linear classification, DAVIS video "
                  "segmentation by label propagation, image retrieval and copy detection (the attention "
                  "visualisation, the video generation, the hub entry points and the submitit launcher are left out)",
                  include=("main_dino.py", "vision_transformer.py", "utils.py", "eval_knn.py", "eval_linear.py",
                           "eval_video_segmentation.py", "eval_image_retrieval.py", "eval_copy_detection.py")),
        GitCorpus("mocov3", "https://github.com/facebookresearch/moco-v3",
                  "c349e6e24f40d3fedb22d973f92defa4cedf37a7", ".",
                  "MoCo v3: Meta's self-supervised ViT / ResNet training: the pre-training loop that adjusts the "
                  "learning rate and momentum per iteration, runs the model under autocast with a grad scaler and "
                  "logs the loss every step, the linear-classification training and validation loops, the MoCo "
                  "builder with its momentum encoder, contrastive loss and all-gather, the LARS optimiser and the "
                  "ViT variants with sin-cos position embeddings and a convolutional stem (the augmentation loader, "
                  "the transfer data sets and the DeiT conversion script are left out)",
                  include=("main_moco.py", "main_lincls.py", "moco/builder.py", "moco/optimizer.py", "vits.py")),
        GitCorpus("imagen", "https://github.com/lucidrains/imagen-pytorch",
                  "c166739b03b06fbc2e7c00116ffc81724626ad08", ".",
                  "imagen-pytorch: lucidrains' Imagen: the cascading text-to-image diffusion model whose sampling "
                  "loop runs each U-Net's DDPM steps with classifier-free guidance, dynamic thresholding and "
                  "inpainting resampling, the continuous-time Gaussian diffusion, the efficient U-Net, the elucidated "
                  "(Karras) variant with its stochastic sampler, the Accelerate trainer (per-U-Net EMA, gradient "
                  "accumulation, chunked sampling, validation and checkpointing) and the T5 text encoder (the video "
                  "U-Net, the configs, the CLI, the data set and the tests are left out)",
                  include=("imagen_pytorch/__init__.py", "imagen_pytorch/imagen_pytorch.py",
                           "imagen_pytorch/elucidated_imagen.py", "imagen_pytorch/trainer.py",
                           "imagen_pytorch/t5.py")),
        GitCorpus("deit", "https://github.com/facebookresearch/deit",
                  "7e160fe43f0252d17191b71cbb5826254114ea5b", ".",
                  "DeiT: Meta's data-efficient image transformers: the training engine whose per-iteration loop runs "
                  "the model under autocast, checks the loss is finite, steps the loss scaler, updates the model EMA "
                  "and logs through the metric logger, and the evaluation loop, the main script (mixup, teacher "
                  "model, distillation), the distillation loss, the utilities (metric logger, distributed helpers), "
                  "and the DeiT, DeiT III, CaiT, ResMLP and PatchConvNet models (the data sets, the augmentations, "
                  "the samplers, the hub entry points and the submitit launcher are left out)",
                  include=("main.py", "engine.py", "losses.py", "utils.py", "models.py", "models_v2.py",
                           "cait_models.py", "resmlp_models.py", "patchconvnet_models.py")),
        GitCorpus("blip", "https://github.com/salesforce/BLIP",
                  "056a169437371659074aa2732649d5de3bffb4a8", ".",
                  "BLIP: Salesforce's language-image pre-training: the captioner with its beam / nucleus generation, "
                  "the retrieval model with its momentum encoders, feature queues and all-gathers, the VQA model "
                  "with answer generation and ranking, the pre-training, ITM and NLVR models, the BERT-based mixed "
                  "encoder / decoder and the NLVR encoder, the vision transformer, the training and evaluation loops "
                  "for pre-training, captioning, retrieval (ITM re-ranking of the top-k), VQA and NLVR, the NoCaps "
                  "evaluation, the Cog predictor and the utilities (metric logger, schedules, distributed helpers) "
                  "(the data sets, the RandAugment transform and the video retrieval evaluation are left out)",
                  include=("models/__init__.py", "models/blip.py", "models/blip_retrieval.py", "models/blip_vqa.py",
                           "models/blip_pretrain.py", "models/blip_itm.py", "models/blip_nlvr.py",
                           "models/nlvr_encoder.py", "models/med.py", "models/vit.py", "pretrain.py",
                           "train_caption.py", "train_retrieval.py", "train_vqa.py", "train_nlvr.py",
                           "eval_nocaps.py", "predict.py", "utils.py")),
    ), "the forty-seventh untouched set, pinned in session 50 for the release after next (nanoGPT, DDIM, "
       "vit-pytorch, OpenCLIP, minRF, DINO, MoCo v3, imagen-pytorch, DeiT, BLIP)"),
    "glacis": GitSet(HERE / ".glacis", (
        GitCorpus("mingpt", "https://github.com/karpathy/minGPT",
                  "37baab71b9abea1b76ab957409a1cc2fbfba8a26", ".",
                  "minGPT: Karpathy's minimal GPT: the model with its causal self-attention, GPT-2 weight loading, "
                  "optimiser configuration and top-k / temperature generation loop, the trainer whose loop steps "
                  "the optimiser, clips gradients, times each iteration and fires the batch-end callbacks, the "
                  "configuration helpers and the adder / char-level projects whose callbacks log the loss and run "
                  "sampling and evaluation from inside the training loop (the BPE tokenizer, the setup script and "
                  "the Hugging Face import test are left out)",
                  include=("mingpt/model.py", "mingpt/trainer.py", "mingpt/utils.py", "projects/adder/adder.py",
                           "projects/chargpt/chargpt.py")),
        GitCorpus("dit", "https://github.com/facebookresearch/DiT",
                  "ed81ce2229091fd4ecc9a223645f95cf379d582b", ".",
                  "DiT: Meta's scalable diffusion transformers: the DiT models with adaLN-zero blocks and the "
                  "classifier-free-guidance forward, the sampling script that runs the diffusion sampling loop and "
                  "decodes the latents with the VAE, the DDP sampling script that generates FID sample batches on "
                  "every rank, and the DDP training script that encodes images with the VAE, steps the model and its "
                  "EMA and all-reduces and logs the loss at intervals (the diffusion/ package, close to the "
                  "guided-diffusion and PixArt copies already pinned, and the download helper are left out)",
                  include=("models.py", "sample.py", "sample_ddp.py", "train.py")),
        GitCorpus("yolov7", "https://github.com/WongKinYiu/yolov7",
                  "a207844b1ce82d204ab36d87d496728d3d2348e7", ".",
                  "YOLOv7: the real-time object detector: the detection script whose per-image loop runs the model "
                  "and NMS and times them with synchronised timers, the test loop that matches predictions to "
                  "targets and accumulates mAP statistics, the training loop (AMP, gradient accumulation, EMA, "
                  "running loss means, per-epoch evaluation and checkpoints), the YOLO model with its detect / "
                  "auxiliary / IKeypoint heads and fusing, the common and experimental layers (ensemble loading), the "
                  "losses with the OTA label assignment, and the general / torch utilities (NMS, box ops, model EMA, "
                  "synchronised timing) (the data sets, the plots, the metrics, the autoanchor, the export / deploy "
                  "/ tools scripts, the auxiliary-head trainer and the W&B logging are left out)",
                  include=("detect.py", "test.py", "train.py", "models/yolo.py", "models/common.py",
                           "models/experimental.py", "utils/loss.py", "utils/general.py", "utils/torch_utils.py")),
        GitCorpus("encodec", "https://github.com/facebookresearch/encodec",
                  "0e2d0aed29362c8e8f52494baf3e6f99056b214f", ".",
                  "EnCodec: Meta's neural audio codec: the model that encodes / decodes audio in overlapping "
                  "segments with the residual vector quantizer and the small transformer LM used for entropy coding, "
                  "the arithmetic coder and the compress / decompress paths that drive the LM token by token, the "
                  "binary bit packer, the SEANet encoder / decoder with its streamable convolutions, LSTM, norms and "
                  "streaming transformer, the k-means / EMA codebook with its distributed broadcasts, the loss "
                  "balancer, the distributed helpers, the multi-scale STFT discriminator and the benchmark that times "
                  "encoding and decoding (the CLI, the setup script and the quantization package's re-export are "
                  "left out)",
                  include=("benchmark.py", "encodec/__init__.py", "encodec/model.py", "encodec/compress.py",
                           "encodec/binary.py", "encodec/balancer.py", "encodec/distrib.py", "encodec/msstftd.py",
                           "encodec/utils.py", "encodec/modules/__init__.py", "encodec/modules/conv.py",
                           "encodec/modules/lstm.py", "encodec/modules/norm.py", "encodec/modules/seanet.py",
                           "encodec/modules/transformer.py", "encodec/quantization/ac.py",
                           "encodec/quantization/core_vq.py", "encodec/quantization/vq.py")),
        GitCorpus("vits", "https://github.com/jaywalnut310/vits",
                  "2e561ba58618d021b5b8323d3765880f7e0ecfdb", ".",
                  "VITS: conditional VAE with adversarial learning for end-to-end text-to-speech: the synthesizer "
                  "with its text encoder, posterior encoder, normalising flow, stochastic duration predictor and "
                  "monotonic-alignment search call, its inference and voice-conversion paths, the HiFi-GAN-style "
                  "generator and multi-period discriminator, the relative-position attention, the WaveNet / coupling "
                  "modules and rational-quadratic spline transforms, the single- and multi-speaker training loops "
                  "(AMP, generator / discriminator steps, loss logging and evaluation), the losses, the mel "
                  "processing and the checkpoint / logging utilities (the Cython monotonic_align, the data loaders, "
                  "the text front-end and the preprocessing script are left out)",
                  include=("models.py", "train.py", "train_ms.py", "commons.py", "attentions.py", "modules.py",
                           "transforms.py", "losses.py", "mel_processing.py", "utils.py")),
        GitCorpus("vqpt", "https://github.com/lucidrains/vector-quantize-pytorch",
                  "0d7d1aa83334b6f2f8a40306bece75cdaa13d065", ".",
                  "vector-quantize-pytorch: lucidrains' quantizers: vector quantization with its Euclidean / cosine "
                  "codebooks (k-means initialisation, EMA updates, dead-code expiry, distributed all-reduces, "
                  "orthogonal and commitment losses), residual and grouped residual VQ with quantize dropout, "
                  "hierarchical VQ, finite scalar quantization and its residual variant, lookup-free quantization "
                  "with its entropy loss and residual variant, latent quantization, SimVQ and residual SimVQ, the "
                  "random-projection quantizer, the binary mapper and finite scalar perturbation, and three of the "
                  "example autoencoder training loops (VQ, FSQ, LFQ) (the other examples and the tests are left out)",
                  include=("vector_quantize_pytorch/__init__.py", "vector_quantize_pytorch/vector_quantize_pytorch.py",
                           "vector_quantize_pytorch/residual_vq.py", "vector_quantize_pytorch/hierarchical_vq.py",
                           "vector_quantize_pytorch/finite_scalar_quantization.py",
                           "vector_quantize_pytorch/residual_fsq.py",
                           "vector_quantize_pytorch/lookup_free_quantization.py",
                           "vector_quantize_pytorch/residual_lfq.py", "vector_quantize_pytorch/latent_quantization.py",
                           "vector_quantize_pytorch/sim_vq.py", "vector_quantize_pytorch/residual_sim_vq.py",
                           "vector_quantize_pytorch/random_projection_quantizer.py",
                           "vector_quantize_pytorch/binary_mapper.py",
                           "vector_quantize_pytorch/finite_scalar_perturbation.py",
                           "vector_quantize_pytorch/utils.py", "examples/autoencoder.py",
                           "examples/autoencoder_fsq.py", "examples/autoencoder_lfq.py")),
        GitCorpus("muse", "https://github.com/lucidrains/muse-maskgit-pytorch",
                  "6df7f33bcd33ba28a2f682d5bd293e4f8a513e6c", ".",
                  "muse-maskgit-pytorch: lucidrains' Muse / MaskGIT: the masked transformer whose generation loop "
                  "unmasks tokens over a cosine schedule with classifier-free guidance and critic-guided "
                  "re-masking, the token critic, the base-plus-super-resolution Muse pipeline, the VQGAN-VAE with "
                  "its discriminator, perceptual and gradient-penalty losses, the attention (flash / einsum), the T5 "
                  "text encoder and the Accelerate trainers for the VAE and the transformer (EMA, gradient "
                  "accumulation, periodic sampling, logging) (the setup script is left out)",
                  include=("muse_maskgit_pytorch/__init__.py", "muse_maskgit_pytorch/muse_maskgit_pytorch.py",
                           "muse_maskgit_pytorch/vqgan_vae.py", "muse_maskgit_pytorch/trainers.py",
                           "muse_maskgit_pytorch/attend.py", "muse_maskgit_pytorch/t5.py")),
        GitCorpus("nerfpt", "https://github.com/yenchenlin/nerf-pytorch",
                  "63a5a630c9abd62b0f21c08703d0ac2ea7d4b9dd", ".",
                  "nerf-pytorch: a PyTorch port of NeRF: the ray batching and chunked rendering, the volume "
                  "rendering of raw network outputs, the hierarchical (coarse / fine) sampling, the render-path loop "
                  "that renders and saves test views, and the training loop that samples rays, steps the optimiser, "
                  "decays the learning rate and prints PSNR, with the NeRF MLP, the positional encoder, the ray "
                  "helpers and the inverse-CDF sampler (the LLFF / Blender / LINEMOD / DeepVoxels loaders are left "
                  "out)",
                  include=("run_nerf.py", "run_nerf_helpers.py")),
        GitCorpus("fairseq", "https://github.com/facebookresearch/fairseq",
                  "3d262bb25690e4eb2e7d3c1309b1e9c406ca4b99", ".",
                  "fairseq: Meta's sequence modelling toolkit, a subset: the sequence generator whose beam-search "
                  "loop runs the incremental decoder step by step, finalises hypotheses and reorders the cached "
                  "states, the search strategies (beam, length-constrained, prefix-constrained, lexically "
                  "constrained, diverse beam, sampling, diverse siblings), the n-gram repeat blocker, the "
                  "Transformer encoder / decoder / base model, the multi-head attention with its incremental state "
                  "and the encoder / decoder layers, and the trainer whose train step accumulates gradients, "
                  "all-reduces, clips, checks for overflow and NaN and logs the statistics (the rest of the toolkit, "
                  "the CUDA kernels, the legacy and augmented transformers and the configs are left out)",
                  include=("fairseq/sequence_generator.py", "fairseq/search.py", "fairseq/ngram_repeat_block.py",
                           "fairseq/models/transformer/transformer_base.py",
                           "fairseq/models/transformer/transformer_encoder.py",
                           "fairseq/models/transformer/transformer_decoder.py",
                           "fairseq/modules/multihead_attention.py", "fairseq/modules/transformer_layer.py",
                           "fairseq/trainer.py")),
        GitCorpus("hifigan", "https://github.com/jik876/hifi-gan",
                  "4769534d45265d52a904b850da5a622601885777", ".",
                  "HiFi-GAN: the GAN vocoder: the generator with its multi-receptive-field residual blocks and "
                  "weight-norm removal, the multi-period and multi-scale discriminators with the feature-matching, "
                  "generator and discriminator losses, the training loop that steps the discriminators and the "
                  "generator, prints the mel error with the step time and runs the validation loop, the inference "
                  "scripts from wav files and from mel files, the mel spectrogram (run on the device inside the "
                  "training loop) with its audio data set, and the checkpoint helpers (the env helper is left out)",
                  include=("models.py", "train.py", "inference.py", "inference_e2e.py", "meldataset.py",
                           "utils.py")),
    ), "the forty-eighth untouched set, pinned in session 51 for the release after next (minGPT, DiT, YOLOv7, "
       "EnCodec, VITS, vector-quantize-pytorch, muse-maskgit-pytorch, nerf-pytorch, fairseq, HiFi-GAN)"),
    "moat": GitSet(HERE / ".moat", (
        GitCorpus("karlo", "https://github.com/kakaobrain/karlo",
                  "3c68a50a16d76b48a15c181d1c5a5e0879a90f85", ".",
                  "Karlo: Kakao Brain's unCLIP text-to-image pipeline, its own code: the text-to-image and "
                  "image-variation samplers that run the prior, the decoder and the 64-to-256 super-resolution "
                  "stages in turn, the sampler template that loads CLIP and the three checkpoints, the diffusion "
                  "prior with its classifier-free-guidance forward and causal mask, the progressive text-to-image "
                  "decoder, the super-resolution models, the customised CLIP and its padded tokenizer, the prior "
                  "transformer and the example script that times a batch (the Gaussian diffusion, respacing, U-Net, "
                  "nn and resample modules, close to the guided-diffusion / PixArt copies already pinned, the "
                  "Gradio demo and the seed helper are left out)",
                  include=("example.py", "karlo/sampler/t2i.py", "karlo/sampler/i2i.py", "karlo/sampler/template.py",
                           "karlo/models/prior_model.py", "karlo/models/decoder_model.py",
                           "karlo/models/sr_64_256.py", "karlo/models/sr_256_1k.py", "karlo/models/clip.py",
                           "karlo/modules/xf.py")),
        GitCorpus("dallept", "https://github.com/lucidrains/DALLE-pytorch",
                  "58c1e1a4fef10725a79bd45cdb5581c03e3e59e7", ".",
                  "DALLE-pytorch: lucidrains' DALL-E: the discrete VAE, the CLIP reranker and the DALL-E transformer "
                  "whose text and image generation loops sample token by token with top-k / Gumbel sampling, a cache "
                  "and classifier-free guidance, the transformer with its shift tokens and cached attention, the "
                  "full / sparse convolutional / sparse axial attention, the reversible layers, the OpenAI and VQGAN "
                  "VAE wrappers, the distributed backends (the DeepSpeed one that averages the loss across ranks), "
                  "the VAE and DALL-E training loops (logging, sampling, checkpoints) and the generation script that "
                  "generates and saves image batches per prompt (the tokenizers, the data loader, the Horovod / dummy "
                  "backends and the setup script are left out)",
                  include=("dalle_pytorch/__init__.py", "dalle_pytorch/dalle_pytorch.py", "dalle_pytorch/vae.py",
                           "dalle_pytorch/transformer.py", "dalle_pytorch/attention.py", "dalle_pytorch/reversible.py",
                           "dalle_pytorch/distributed_utils.py", "dalle_pytorch/distributed_backends/__init__.py",
                           "dalle_pytorch/distributed_backends/distributed_backend.py",
                           "dalle_pytorch/distributed_backends/deepspeed_backend.py", "train_dalle.py",
                           "train_vae.py", "generate.py")),
        GitCorpus("dreamfusion", "https://github.com/ashawkey/stable-dreamfusion",
                  "5550b91862a3af7842bb04875b7f1211e5095a63", ".",
                  "stable-dreamfusion: text-to-3D by score distillation, a subset: the NeRF renderer (the PyTorch "
                  "ray-marching path, the CUDA-extension path with its occupancy-grid updates, DMTet mesh "
                  "refinement and mesh export), the trainer whose train step renders random views, queries the "
                  "guidance and steps the optimiser under AMP with EMA, and its evaluation / test loops, the "
                  "ray helpers, the vanilla and hash-grid NeRF networks, the random / circular camera-pose provider, "
                  "the Stable Diffusion, DeepFloyd IF, Zero-1-to-3 and CLIP guidance with the perpendicular-negative "
                  "helpers, the frequency encoder, the truncated-exp activation, the Python sides of the "
                  "ray-marching and grid-encoder ops and the main script (the GUI, the taichi / tiny-cuda-nn "
                  "variants, the CUDA / C++ sources, the frequency / spherical-harmonics encoder bindings, the "
                  "vendored ldm copy, DPT, the Adan optimiser, the image preprocessing and the evaluation scripts "
                  "are left out)",
                  include=("main.py", "nerf/renderer.py", "nerf/utils.py", "nerf/network.py", "nerf/network_grid.py",
                           "nerf/provider.py", "guidance/sd_utils.py", "guidance/if_utils.py",
                           "guidance/zero123_utils.py", "guidance/perpneg_utils.py", "guidance/clip_utils.py",
                           "encoding.py", "activation.py", "raymarching/raymarching.py", "gridencoder/grid.py")),
        GitCorpus("audiolm", "https://github.com/lucidrains/audiolm-pytorch",
                  "d65fd151075d304bc7b28dfcb736e179b6020fca", ".",
                  "audiolm-pytorch: lucidrains' AudioLM: the semantic, coarse and fine transformers with their "
                  "wrappers and the AudioLM pipeline whose generation loops sample token by token with top-k / "
                  "Gumbel sampling, classifier-free guidance and EOS masking, the SoundStream codec with its causal "
                  "convolutions, local transformer, residual quantizer and multi-scale / complex STFT "
                  "discriminators, the EnCodec wrapper, the HuBERT k-means and vq-wav2vec tokenizers, and the "
                  "Accelerate trainers for SoundStream and the three transformers (gradient accumulation, "
                  "discriminator steps, EMA, validation, sampling and logging) (the attention module, close to "
                  "perceiver copies already pinned, the T5 encoder, the optimiser helper, the data sets and the "
                  "setup script are left out)",
                  include=("audiolm_pytorch/__init__.py", "audiolm_pytorch/audiolm_pytorch.py",
                           "audiolm_pytorch/soundstream.py", "audiolm_pytorch/trainer.py",
                           "audiolm_pytorch/encodec.py", "audiolm_pytorch/hubert_kmeans.py",
                           "audiolm_pytorch/vq_wav2vec.py", "audiolm_pytorch/utils.py")),
        GitCorpus("tacotron2", "https://github.com/NVIDIA/tacotron2",
                  "185cd24e046cc1304b4f8e564734d2498c6e2e6f", ".",
                  "Tacotron 2: NVIDIA's text-to-mel model: the encoder, the attention-based autoregressive decoder "
                  "with its gate-driven inference loop, the location-sensitive attention, the pre- and post-nets, "
                  "the layers and the STFT / mel front end, the loss, the training loop (distributed all-reduce of "
                  "the loss read back each step, apex AMP, gradient clipping with a NaN overflow check, timed "
                  "iterations, validation and logging), the distributed and dynamic loss-scaler helpers, the "
                  "TensorBoard logger and the text-mel loader with its collate (the hyper-parameters, the "
                  "multiprocess launcher, the text front-end and the plotting helpers are left out)",
                  include=("model.py", "layers.py", "train.py", "loss_function.py", "stft.py", "audio_processing.py",
                           "utils.py", "distributed.py", "loss_scaler.py", "logger.py", "data_utils.py")),
        GitCorpus("alpacalora", "https://github.com/tloen/alpaca-lora",
                  "8bb8579e403dc78e37fe81ffbb253c413007323f", ".",
                  "Alpaca-LoRA: instruction-tuning LLaMA with LoRA: the fine-tuning script (int8 loading, PEFT "
                  "wrapping, tokenisation and the Hugging Face Trainer), the generation script with its streaming "
                  "Gradio evaluation and the stopping-criteria streamer, the prompter and the exporters that merge "
                  "the LoRA weights into Hugging Face / state-dict checkpoints (the templates and the notebook are "
                  "left out)",
                  include=("finetune.py", "generate.py", "utils/prompter.py", "utils/callbacks.py",
                           "export_hf_checkpoint.py", "export_state_dict_checkpoint.py")),
        GitCorpus("litllama", "https://github.com/Lightning-AI/lit-llama",
                  "2a464de2a1d2f266614d15091d3d7f30330c3ede", ".",
                  "lit-llama: Lightning AI's nanoGPT-based LLaMA: the model with its rotary embeddings and KV "
                  "cache, the adapter and adapter-v2 variants, the checkpoint / lazy-loading utilities, the "
                  "generation script whose loop samples token by token with top-k and times it, the full, LoRA and "
                  "adapter generation scripts, the Fabric fine-tuning loops (full, LoRA, adapter: gradient "
                  "accumulation, periodic validation with a sample generation, checkpoints), the RedPajama and "
                  "Shakespeare pre-training loops and the full-model perplexity evaluation (the LoRA layers, close "
                  "to the pinned LitGPT copies, the quantisation and GPTQ code, the tokenizer, the packed data set, "
                  "the data preparation and conversion scripts and the tests are left out)",
                  include=("lit_llama/__init__.py", "lit_llama/model.py", "lit_llama/adapter.py",
                           "lit_llama/adapter_v2.py", "lit_llama/utils.py", "generate.py", "generate/full.py",
                           "generate/lora.py", "generate/adapter.py", "finetune/full.py", "finetune/lora.py",
                           "finetune/adapter.py", "pretrain/redpajama.py", "pretrain/shakespeare.py",
                           "evaluate/full.py")),
        GitCorpus("convnext", "https://github.com/facebookresearch/ConvNeXt",
                  "048efcea897d999aed302f2639b6270aedf8d4c8", ".",
                  "ConvNeXt: Meta's modernised ConvNet for ImageNet: the ConvNeXt and isotropic ConvNeXt models, the "
                  "training engine whose per-step loop applies mixup, runs under AMP with gradient accumulation, "
                  "updates the model EMA, checks the loss and logs the metrics, the evaluation loop, the main "
                  "script (distributed setup, EMA evaluation, checkpoints) and the layer-decay optimiser factory "
                  "(the misc / distributed utilities, close to the MAE copy already pinned, the data sets, the "
                  "submitit launcher and the detection / segmentation backbones and configs are left out)",
                  include=("main.py", "engine.py", "models/convnext.py", "models/convnext_isotropic.py",
                           "optim_factory.py")),
        GitCorpus("parti", "https://github.com/lucidrains/parti-pytorch",
                  "5075148e3cbe788e5e4b96985c82208013f024b7", ".",
                  "parti-pytorch: lucidrains' Parti: the autoregressive text-to-image transformer whose generation "
                  "loop samples image tokens one by one with top-k / Gumbel sampling and classifier-free guidance, "
                  "the ViT-VQGAN with its discriminator, perceptual and gradient-penalty losses, and the Accelerate "
                  "VQGAN trainer whose train step alternates autoencoder and discriminator updates with gradient "
                  "accumulation, EMA, periodic sample saving and logging (the T5 encoder and the optimiser helper, "
                  "near-copies of other lucidrains copies, and the setup script are left out)",
                  include=("parti_pytorch/__init__.py", "parti_pytorch/parti_pytorch.py", "parti_pytorch/vit_vqgan.py",
                           "parti_pytorch/vit_vqgan_trainer.py")),
        GitCorpus("ns2", "https://github.com/lucidrains/naturalspeech2-pytorch",
                  "659bec7f7543e7747e809e950cc2f84242fbeec7", ".",
                  "naturalspeech2-pytorch: lucidrains' NaturalSpeech 2: the latent-diffusion TTS model whose "
                  "sampling loops (DDPM / DDIM) denoise the codec latents step by step, the WaveNet and "
                  "conditionable-transformer denoisers, the phoneme and speech-prompt encoders, the duration / "
                  "pitch predictor, the perceiver resampler, the pitch extraction and mel front end, the trainer "
                  "(Accelerate, EMA, periodic sampling, checkpoints), the monotonic aligner with its forward-sum and "
                  "bin losses and the duration-averaging helpers (the attention module, close to perceiver copies "
                  "already pinned, the text front-end, the phonemizers and the tokenizer are left out)",
                  include=("naturalspeech2_pytorch/__init__.py", "naturalspeech2_pytorch/naturalspeech2_pytorch.py",
                           "naturalspeech2_pytorch/aligner.py", "naturalspeech2_pytorch/utils/utils.py")),
    ), "the forty-ninth untouched set, pinned in session 52 for the release after next (Karlo, DALLE-pytorch, "
       "stable-dreamfusion, audiolm-pytorch, Tacotron 2, Alpaca-LoRA, lit-llama, ConvNeXt, parti-pytorch, "
       "naturalspeech2-pytorch)"),
    "bailey": GitSet(HERE / ".bailey", (
        GitCorpus("ptexamples", "https://github.com/pytorch/examples",
                  "77f55b912142e11fcfdf5b530231fb9c52f181e8", ".",
                  "PyTorch's own examples, a subset of training / evaluation loops and the models they run: the "
                  "word-level language model (LSTM / GRU / Transformer models, the truncated-BPTT training loop that "
                  "repackages the hidden state and logs the loss per interval, evaluation, ONNX export, the sampling "
                  "script), DCGAN's alternating generator / discriminator steps, the MNIST VAE, classifier, RNN "
                  "classifier and forward-forward network, the sub-pixel super-resolution net with its PSNR test "
                  "loop and single-image script, the LSTM sine-wave predictor trained with LBFGS, fast neural style "
                  "(the style-transfer training loop and the transformer network, stylising by PyTorch or ONNX), the "
                  "REINFORCE and actor-critic policy gradients, the siamese network, the GCN on Cora and the "
                  "Transformer translator with its greedy decoding (the ImageNet script and the "
                  "perceptual VGG, close to MoCo v3's and taming's copies already pinned, the data loaders, the "
                  "download helpers, the C++, distributed and FX examples are left out)",
                  include=("word_language_model/main.py", "word_language_model/model.py",
                           "word_language_model/generate.py", "dcgan/main.py", "vae/main.py", "mnist/main.py",
                           "mnist_rnn/main.py", "mnist_forward_forward/main.py", "super_resolution/main.py",
                           "super_resolution/model.py", "super_resolution/super_resolve.py",
                           "time_sequence_prediction/train.py", "fast_neural_style/neural_style/neural_style.py",
                           "fast_neural_style/neural_style/transformer_net.py", "reinforcement_learning/reinforce.py",
                           "reinforcement_learning/actor_critic.py", "siamese_network/main.py", "gcn/main.py",
                           "language_translation/main.py", "language_translation/src/model.py")),
        GitCorpus("swin", "https://github.com/microsoft/Swin-Transformer",
                  "f82860bfb5225915aca09c3227159ee9e1df874d", ".",
                  "Swin Transformer: the classification, MoE, SimMIM pre-training and fine-tuning entry points whose "
                  "per-iteration loops step the loss scaler with gradient accumulation, update the LR scheduler per "
                  "step, log loss / grad norm / memory and synchronise for timing, the validation loops that reduce "
                  "accuracy across ranks, the throughput benchmark, the model builder, the Swin V2 and Swin-MoE "
                  "backbones (windowed / shifted attention, continuous position bias, Tutel MoE MLP), the SimMIM "
                  "wrapper, the LR schedulers, the MoE checkpoint helpers, the data-loader builder and the Python "
                  "side of the fused window-process kernel (the Swin V1 and Swin-MLP backbones, close to the "
                  "GroundingDINO copy already pinned, the optimiser / checkpoint helpers close to ConvNeXt's and MAE's "
                  "copies, the config and the data sets are left out)",
                  include=("main.py", "main_moe.py", "main_simmim_pt.py", "main_simmim_ft.py", "models/build.py",
                           "models/simmim.py", "models/swin_transformer_v2.py", "models/swin_transformer_moe.py",
                           "lr_scheduler.py", "utils_moe.py", "data/build.py",
                           "kernels/window_process/window_process.py")),
        GitCorpus("dalle2", "https://github.com/lucidrains/DALLE2-pytorch",
                  "680dfc4d93b70f9ab23c814a22ca18017a738ef6", ".",
                  "DALLE2-pytorch: lucidrains' unCLIP: the CLIP adapters, the noise schedulers, the diffusion prior "
                  "(causal transformer, DDPM / DDIM sampling loops with classifier-free guidance), the cascading "
                  "U-Net decoder whose sampling loops run each stage in turn with inpainting and dynamic "
                  "thresholding, the DALL-E 2 pipeline, the prior and decoder trainers (Accelerate, EMA, gradient "
                  "clipping, chunked sampling) and the decoder and diffusion-prior training scripts whose loops log "
                  "losses, gather and reduce across ranks, sample, evaluate (FID / IS / KID / cosine similarity) and "
                  "checkpoint (the VQGAN-VAE and its trainer, near-copies of the parti / muse copies already "
                  "pinned, the trackers, data loaders, config models, tokenizer, CLI and small helpers are left out)",
                  include=("dalle2_pytorch/__init__.py", "dalle2_pytorch/dalle2_pytorch.py",
                           "dalle2_pytorch/trainer.py", "train_decoder.py", "train_diffusion_prior.py")),
        GitCorpus("lora", "https://github.com/microsoft/LoRA",
                  "c4593f060e6a368d7bb5af5273b8e42810cdef90", ".",
                  "LoRA's GPT-2 NLG example: the GPT-2 model with LoRA attention projections and its cached "
                  "attention, the fine-tuning script whose loop accumulates gradients, steps the optimiser and "
                  "scheduler, logs the averaged loss and evaluates, the beam-search decoder with n-gram blocking, "
                  "repetition penalty and past-cache reordering, the AdamW and warm-up / cyclic schedulers, the "
                  "distributed helpers (all-gather, barrier, Horovod) and the experiment helpers (loralib's layers "
                  "and utils, "
                  "near-copies of the LoRA layers already pinned, the data and encoder utilities, the format "
                  "converters, the evaluation scripts and the NLU transformers fork are left out)",
                  include=("examples/NLG/src/gpt2_ft.py", "examples/NLG/src/gpt2_beam.py", "examples/NLG/src/model.py",
                           "examples/NLG/src/optimizer.py", "examples/NLG/src/gpu.py",
                           "examples/NLG/src/exp_utils.py")),
        GitCorpus("swinir", "https://github.com/JingyunLiang/SwinIR",
                  "6545850fbf8df298df73d81f3e8cba638787c8bd", ".",
                  "SwinIR: image restoration with Swin Transformers: the test script that builds the model per task "
                  "(classical / lightweight / real-world super-resolution, denoising, JPEG artefact removal), pads "
                  "the input to the window size, runs whole-image or tiled inference with overlap averaging and "
                  "computes PSNR / SSIM per image, the network (residual Swin blocks, pixel-shuffle / nearest-conv "
                  "upsamplers) and the Cog predictor (the PSNR / SSIM helpers, pure NumPy / OpenCV, are left out)",
                  include=("main_test_swinir.py", "models/network_swinir.py", "predict.py")),
        GitCorpus("slowfast", "https://github.com/facebookresearch/SlowFast",
                  "287ec0076846560f44a9327e931a5a2360240533", ".",
                  "PySlowFast: video understanding, a subset: the training entry whose per-iteration loop runs "
                  "mixed precision with a grad scaler, mixup, gradient clipping, contrastive / masked objectives, "
                  "all-reduces losses and errors for the meters, updates precise BN and the multigrid schedule, and "
                  "the validation loop; the multi-view test loop that ensembles clip predictions; the model builder, "
                  "the SlowFast / ResNet / X3D / MViT builders, the heads, the ResNet blocks and the losses; the "
                  "train / val / test / AVA / epoch meters, the top-k error metrics, the distributed helpers "
                  "(all-reduce, all-gather, process groups), the LR policies and the misc helpers (parameter and "
                  "FLOP counts, GPU memory, launching) (the AVA evaluation, data sets, visualisation, config "
                  "defaults, checkpoint loading, contrastive / masked / reversible models and the demo are left "
                  "out)",
                  include=("tools/train_net.py", "tools/test_net.py", "slowfast/models/build.py",
                           "slowfast/models/video_model_builder.py", "slowfast/models/head_helper.py",
                           "slowfast/models/resnet_helper.py", "slowfast/models/losses.py",
                           "slowfast/utils/meters.py", "slowfast/utils/metrics.py", "slowfast/utils/distributed.py",
                           "slowfast/utils/lr_policy.py", "slowfast/utils/misc.py")),
        GitCorpus("palmrlhf", "https://github.com/lucidrains/PaLM-rlhf-pytorch",
                  "bd0d0f3893ec62f827fa35e759cb38d748829d51", ".",
                  "PaLM-rlhf-pytorch: lucidrains' RLHF on a PaLM: the PaLM with parallel attention / feed-forward "
                  "blocks, rotary xPos embeddings, LoRA fine-tuning scopes and its top-k / top-p sampling loop, the "
                  "reward model "
                  "and the implicit process reward model, the PPO actor-critic and trainer (rollouts that generate "
                  "and score sequences, a memory of experiences, clipped policy / value updates with KL penalty), "
                  "the GRPO, FlowRL and TPO trainers (group-relative advantages, a learned partition function, a "
                  "replay buffer with cross-entropy to target distributions) and the enwik8 pre-training script "
                  "whose loop accumulates gradients, validates and samples (the attention helper, close to the "
                  "perceiver copies already pinned, the small helpers, the usage example and the setup script are "
                  "left out)",
                  include=("palm_rlhf_pytorch/__init__.py", "palm_rlhf_pytorch/palm.py", "palm_rlhf_pytorch/ppo.py",
                           "palm_rlhf_pytorch/grpo.py", "palm_rlhf_pytorch/flowrl.py", "palm_rlhf_pytorch/tpo.py",
                           "palm_rlhf_pytorch/reward.py", "palm_rlhf_pytorch/implicit_process_reward.py",
                           "palm_rlhf_pytorch/lora.py", "train.py")),
        GitCorpus("minigpt4", "https://github.com/Vision-CAIR/MiniGPT-4",
                  "d94738a7626ec43eba6c2cddf3cd2043f1a9689a", ".",
                  "MiniGPT-4 / MiniGPT-v2: the vision-language models (the base model that loads the LLaMA with LoRA "
                  "and the checkpoints, the shared base that embeds images, wraps prompts and computes the "
                  "language-model loss, the MiniGPT-4 and v2 heads), the chat wrapper whose answer step encodes the "
                  "image, builds the context and generates with stopping criteria, the runner whose train / "
                  "evaluation loops step under AMP with a grad scaler, log and checkpoint across ranks, the task "
                  "whose inner loop steps the LR schedule and accumulates gradients, the training entry and the VQA "
                  "and referring-expression evaluation scripts (the Q-Former, EVA ViT and LLaMA modules, close to the "
                  "BLIP and other copies already pinned, the Gradio demos, the data sets and processors and the "
                  "registry are left out)",
                  include=("minigpt4/conversation/conversation.py", "minigpt4/models/base_model.py",
                           "minigpt4/models/minigpt_base.py", "minigpt4/models/minigpt4.py",
                           "minigpt4/models/minigpt_v2.py", "minigpt4/runners/runner_base.py",
                           "minigpt4/tasks/base_task.py", "train.py", "eval_scripts/eval_vqa.py",
                           "eval_scripts/eval_ref.py")),
        GitCorpus("lmeval", "https://github.com/EleutherAI/lm-evaluation-harness",
                  "4e7e0d47f33bc71070c1d38394bafbb52b117163", ".",
                  "lm-evaluation-harness, its model-running core: the Hugging Face LM whose log-likelihood and "
                  "rolling-log-likelihood loops batch re-ordered requests (with automatic batch-size detection) and "
                  "whose generate-until loop decodes with stop sequences, the vLLM and Mamba back ends, the LM base "
                  "class with its request cache, the collator / grouper and stop-sequence helpers, and the evaluator "
                  "that builds requests, runs them per request type, pads and gathers results across ranks and "
                  "aggregates metrics with its helpers (the task definitions, API / other back ends, metrics, "
                  "registry and CLI are left out)",
                  include=("lm_eval/models/huggingface.py", "lm_eval/models/vllm_causallms.py",
                           "lm_eval/models/mamba_lm.py", "lm_eval/models/utils.py", "lm_eval/api/model.py",
                           "lm_eval/evaluator.py", "lm_eval/evaluator_utils.py")),
        GitCorpus("soundstorm", "https://github.com/lucidrains/soundstorm-pytorch",
                  "8119522e45fd8c5925a70cad0daf94d5012997ce", ".",
                  "soundstorm-pytorch: lucidrains' SoundStorm: the Conformer-based masked audio-token model whose "
                  "generation loop unmasks the residual-quantiser levels one by one over a cosine schedule with "
                  "prompt prefixes, top-k / Gumbel sampling, re-masking by confidence and optional speculative "
                  "decoding, conditioned on semantic tokens (optionally from a Spear-TTS text-to-semantic model), "
                  "its Conformer with rotary and T5 relative position biases, the self-conditioned masked training "
                  "loss and the SoundStream encode / decode around it (the attention helper and the trainer, close "
                  "to the perceiver and audiolm-pytorch copies already pinned, and the setup script are left out)",
                  include=("soundstorm_pytorch/__init__.py", "soundstorm_pytorch/soundstorm.py")),
    ), "the fiftieth untouched set, pinned in session 53 for the release after next (pytorch/examples, "
       "Swin Transformer, DALLE2-pytorch, LoRA, SwinIR, PySlowFast, PaLM-rlhf-pytorch, MiniGPT-4, "
       "lm-evaluation-harness, soundstorm-pytorch)"),
    "motte": GitSet(HERE / ".motte", (
        GitCorpus("timm", "https://github.com/huggingface/pytorch-image-models",
                  "aa4b5850c1543fa488abf260f18390eda46cf85d", ".",
                  "PyTorch Image Models (timm), a subset: the ImageNet training script whose per-step loop runs AMP "
                  "with a loss scaler, gradient accumulation, mixup, EMA updates, per-interval loss / LR logging and "
                  "distributed reduction, the validation and inference scripts (top-k accuracy, per-batch timing, "
                  "top-k class export), the prefetching CUDA loader (side stream, non-blocking copies, on-device "
                  "normalisation and random erasing), the model EMA helpers, the accuracy metric and the distributed "
                  "helpers (the model zoo, the legacy training script, the optimiser and scheduler factories, the "
                  "loss-scaler helper close to MAE's copy already pinned and the data transforms are left out)",
                  include=("train.py", "validate.py", "inference.py", "timm/__init__.py", "timm/data/__init__.py",
                           "timm/data/loader.py", "timm/utils/__init__.py", "timm/utils/model_ema.py",
                           "timm/utils/metrics.py", "timm/utils/distributed.py")),
        GitCorpus("ldm", "https://github.com/CompVis/latent-diffusion",
                  "a506df5756472e2ebaf9078affdde2c4f1502cd4", ".",
                  "latent-diffusion (CompVis LDM): the DDPM / LatentDiffusion Lightning modules whose training steps "
                  "log losses and whose sampling loops denoise step by step (progressive and inpainting samplers, "
                  "logging images), the DDIM and PLMS samplers, the noisy-latent classifier trainer, the conditioning "
                  "encoders, the shared helpers and the sampling scripts (unconditional, text-to-image, inpainting, "
                  "retrieval-augmented kNN) (the autoencoders and main.py, close to the taming-transformers copies "
                  "already pinned, the guided-diffusion U-Net, x-transformers and the data sets are left out)",
                  include=("ldm/models/diffusion/ddpm.py", "ldm/models/diffusion/ddim.py",
                           "ldm/models/diffusion/plms.py",
                           "ldm/models/diffusion/classifier.py", "ldm/modules/encoders/modules.py", "ldm/util.py",
                           "scripts/sample_diffusion.py", "scripts/txt2img.py", "scripts/inpaint.py",
                           "scripts/knn2img.py")),
        GitCorpus("tortoise", "https://github.com/neonbjb/tortoise-tts",
                  "8a2563ecabe93c4fb626f876dd0c52c966edef2f", ".",
                  "Tortoise TTS: the TextToSpeech pipeline that samples candidate token sequences batch by batch, "
                  "re-ranks them with CLVP, runs the diffusion decoder's sampling loop and the vocoder, the "
                  "command-line and long-text readers, the diffusion decoder and its building blocks, CLVP, the audio "
                  "classifier, the audio helpers, typical sampling and the wav2vec alignment used for redaction (the "
                  "autoregressive model, close to the IndexTTS copy already pinned, the vocoders close to the XTTS "
                  "and resemble-enhance copies, the guided-diffusion copy, x-transformers and the fast API are left "
                  "out)",
                  include=("tortoise/api.py", "tortoise/do_tts.py", "tortoise/read.py",
                           "tortoise/models/diffusion_decoder.py", "tortoise/models/arch_util.py",
                           "tortoise/models/clvp.py", "tortoise/models/classifier.py", "tortoise/utils/audio.py",
                           "tortoise/utils/typical_sampling.py", "tortoise/utils/wav2vec_alignment.py")),
        GitCorpus("pwg", "https://github.com/kan-bayashi/ParallelWaveGAN",
                  "86740373ec609cb9fb192d472d2aea125041491a", ".",
                  "ParallelWaveGAN (kan-bayashi): the GAN vocoder trainer whose per-step loop alternates generator "
                  "and discriminator updates, accumulates and logs the loss dict per interval, evaluates and writes "
                  "sample figures, the decoding script (per-utterance real-time factor), the Parallel WaveGAN "
                  "generator / discriminators, the multi-resolution STFT, mel and adversarial losses, PQMF and the "
                  "upsampling network (the other vocoder models, the data sets, preprocessing, evaluation and the "
                  "recipes are left out)",
                  include=("parallel_wavegan/__init__.py", "parallel_wavegan/bin/train.py",
                           "parallel_wavegan/bin/decode.py", "parallel_wavegan/models/__init__.py",
                           "parallel_wavegan/models/parallel_wavegan.py", "parallel_wavegan/losses/__init__.py",
                           "parallel_wavegan/losses/stft_loss.py", "parallel_wavegan/losses/mel_loss.py",
                           "parallel_wavegan/losses/adversarial_loss.py", "parallel_wavegan/layers/__init__.py",
                           "parallel_wavegan/layers/pqmf.py", "parallel_wavegan/layers/upsample.py")),
        GitCorpus("a2cppo", "https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail",
                  "41332b78dfb50321c29bade65f9d244387f68a60", ".",
                  "pytorch-a2c-ppo-acktr-gail: the on-policy RL loop (vectorised environments wrapped to return "
                  "device tensors, rollout storage with GAE returns, per-update logging of episode rewards), A2C / "
                  "ACKTR with the K-FAC optimiser, PPO's epoch / minibatch update, GAIL's discriminator and reward, "
                  "the actor-critic models and distributions and the evaluation loop (the argument parser, the "
                  "enjoy script and the expert-data converter are left out)",
                  include=("main.py", "evaluation.py", "a2c_ppo_acktr/algo/__init__.py",
                           "a2c_ppo_acktr/algo/a2c_acktr.py", "a2c_ppo_acktr/algo/ppo.py", "a2c_ppo_acktr/algo/gail.py",
                           "a2c_ppo_acktr/algo/kfac.py", "a2c_ppo_acktr/distributions.py", "a2c_ppo_acktr/envs.py",
                           "a2c_ppo_acktr/model.py", "a2c_ppo_acktr/storage.py", "a2c_ppo_acktr/utils.py")),
        GitCorpus("trl", "https://github.com/huggingface/trl",
                  "f2cd57710ae345ea6428ae95363267fcf38a3dc8", ".",
                  "TRL, a subset of its trainers: the DPO trainer (reference log-probs, the preference losses, "
                  "per-step reward / margin / accuracy metrics gathered and logged), the reward-model trainer and "
                  "the experimental PPO trainer whose rollout loop generates responses, scores them, computes "
                  "KL-penalised rewards and advantages and runs the PPO epochs with per-step statistics (the other "
                  "trainers, their configs, the shared utils and the vLLM client are left out)",
                  include=("trl/__init__.py", "trl/trainer/__init__.py", "trl/trainer/dpo_trainer.py",
                           "trl/trainer/reward_trainer.py", "trl/experimental/__init__.py",
                           "trl/experimental/ppo/__init__.py", "trl/experimental/ppo/ppo_trainer.py")),
        GitCorpus("clipbench", "https://github.com/LAION-AI/CLIP_benchmark",
                  "48de38c1689fa6d8b4dd53e3370c669c3bb18117", ".",
                  "CLIP_benchmark: the evaluation harness's command line (model / data set / task loops, result "
                  "dumps) and its metrics: zero-shot classification (class-embedding build, per-batch logits, top-k "
                  "accuracy, balanced accuracy), zero-shot retrieval (recall@k over the score matrix), the linear "
                  "probe (feature extraction, a trained linear head, its evaluation), captioning and image-caption "
                  "selection, with the model loaders (the data-set builders and the webdataset converter are left "
                  "out)",
                  include=("clip_benchmark/__init__.py", "clip_benchmark/cli.py",
                           "clip_benchmark/metrics/captioning.py", "clip_benchmark/metrics/image_caption_selection.py",
                           "clip_benchmark/metrics/linear_probe.py",
                           "clip_benchmark/metrics/zeroshot_classification.py",
                           "clip_benchmark/metrics/zeroshot_retrieval.py", "clip_benchmark/models/__init__.py",
                           "clip_benchmark/models/nllb_clip.py")),
        GitCorpus("m2f", "https://github.com/facebookresearch/Mask2Former",
                  "9b0651c6c1d5b3af2e6da0589b719c514ec0d69a", ".",
                  "Mask2Former: the meta-architecture whose inference turns mask / class predictions into semantic, "
                  "panoptic and instance results per image, the set criterion (point-sampled mask losses, the "
                  "number of masks reduced across ranks), the Hungarian matcher, the masked-attention transformer "
                  "decoder, the multi-scale deformable-attention pixel decoder, the head, the detectron2 training "
                  "entry point and the demo (the video variant and criterion, near-copies of the image ones, the "
                  "Swin backbone, the DETR-derived transformer and position encoding, the demo predictor close to "
                  "detectron2's, the data-set mappers and registrations are left out)",
                  include=("mask2former/__init__.py", "mask2former/maskformer_model.py",
                           "mask2former/modeling/__init__.py",
                           "mask2former/modeling/criterion.py", "mask2former/modeling/matcher.py",
                           "mask2former/modeling/meta_arch/__init__.py",
                           "mask2former/modeling/meta_arch/mask_former_head.py",
                           "mask2former/modeling/pixel_decoder/__init__.py",
                           "mask2former/modeling/pixel_decoder/msdeformattn.py",
                           "mask2former/modeling/transformer_decoder/__init__.py",
                           "mask2former/modeling/transformer_decoder/mask2former_transformer_decoder.py",
                           "train_net.py", "demo/demo.py")),
        GitCorpus("voicebox", "https://github.com/lucidrains/voicebox-pytorch",
                  "d115a997452f278190a2634be500a3db0da5db15", ".",
                  "voicebox-pytorch: lucidrains' Voicebox: the flow-matching wrapper whose sampler integrates the "
                  "ODE with torchdiffeq (classifier-free guidance, cond masks, the EnCodec / mel codecs), the "
                  "duration predictor with its aligner, the conditional transformer, the text-to-semantic adapters "
                  "and the data set (the trainer, close to the audiolm-pytorch copy already pinned, and the attend "
                  "module, close to the denoising-diffusion-pytorch copy, are left out)",
                  include=("voicebox_pytorch/__init__.py", "voicebox_pytorch/voicebox_pytorch.py",
                           "voicebox_pytorch/data.py", "voicebox_pytorch/optimizer.py")),
        GitCorpus("neox", "https://github.com/EleutherAI/gpt-neox",
                  "ea7aefd8f8e183256992d9fede4d7c71a46d67a5", ".",
                  "GPT-NeoX, a subset: the DeepSpeed training loop (train step with pipeline / non-pipeline paths, "
                  "loss scaling and skipped iterations, per-interval logging, evaluation, checkpoint intervals, "
                  "post-training DPO / KTO / RM losses), the text-generation utilities (the batched sampling loop "
                  "with KV cache, stop-token and end-of-text bookkeeping, broadcast across ranks, interactive and "
                  "file-driven generation), the training logger (grad / param norms, timers, tensorboard / wandb), "
                  "the lm-evaluation-harness adapter and the generation entry point (the model, the mpu layers, the "
                  "data pipeline, the argument machinery and the conversion tools are left out)",
                  include=("megatron/__init__.py", "megatron/training.py", "megatron/text_generation_utils.py",
                           "megatron/logging.py", "eval_tasks/__init__.py", "eval_tasks/eval_adapter.py",
                           "generate.py")),
    ), "the fifty-first untouched set, pinned in session 54 for a later release (timm, latent-diffusion, Tortoise TTS, "
       "ParallelWaveGAN, pytorch-a2c-ppo-acktr-gail, TRL, CLIP_benchmark, Mask2Former, voicebox-pytorch, GPT-NeoX)"),
}

# Sets labelled for a coming release: graphlint work never lints them, reads their labels or looks at their
# findings (score_sets.py refuses them). A name may be listed before its set is pinned in GIT_SETS.
HELD_BACK: tuple[str, ...] = ("motte",)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def download(corpus: Corpus, tmp: Path) -> Path:
    """pip-download the pinned wheel and return it once its hash matches."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
           "--disable-pip-version-check", "-q", *corpus.pip_args, "-d", str(tmp), corpus.requirement]
    proc = subprocess.run(cmd, text=True, capture_output=True)
    wheel = tmp / corpus.wheel
    if proc.returncode != 0 or not wheel.is_file():
        raise RuntimeError(f"pip download {corpus.requirement} failed: {proc.stderr.strip()[-800:]}")
    got = sha256(wheel)
    if got != corpus.sha256:
        raise RuntimeError(f"{corpus.wheel}: sha256 {got} does not match the pinned {corpus.sha256}")
    return wheel


def unpack(wheel: Path, corpus: Corpus, dest: Path) -> int:
    """Extract the package's .py files into dest/<name>; return how many."""
    prefixes = corpus.prefixes()
    with zipfile.ZipFile(wheel) as zf:
        names = [n for n in zf.namelist() if n.startswith(prefixes) and n.endswith(".py")]
        zf.extractall(dest, names)
    (dest / STAMP).write_text(corpus.sha256 + "\n")
    return len(names)


def already_fetched(dest: Path, pin: str, source: str) -> bool:
    """True when dest was fetched at the pin (a wheel's sha256, a commit); an error when it holds anything else."""
    stamp = dest / STAMP
    if stamp.is_file() and stamp.read_text().strip() == pin:
        return True
    if dest.exists():
        # An older or half-written fetch: labels would point at the wrong lines.
        raise RuntimeError(f"{dest} exists but was not fetched from {source}; remove it and rerun")
    return False


def fetch(corpus: Corpus, root: Path) -> str:
    dest = root / corpus.name
    if already_fetched(dest, corpus.sha256, corpus.wheel):
        return f"{corpus.name}: present ({corpus.requirement})"
    with tempfile.TemporaryDirectory() as tmp:
        wheel = download(corpus, Path(tmp))
        n = unpack(wheel, corpus, dest)
    return f"{corpus.name}: {n} files from {corpus.wheel} (sha256 ok)"


def git(*args: str, cwd: Path | None = None) -> str:
    """Run git quietly; its stdout, or a RuntimeError with its stderr."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True)
    if proc.returncode != 0:
        raise RuntimeError(f"git {args[0]} failed: {proc.stderr.decode(errors='replace').strip()[-800:]}")
    return proc.stdout.decode(errors="replace")


def git_source(corpus: GitCorpus, mirror: Path | None) -> str:
    """Where to fetch the commit from: the local mirror when one is given, else the public URL."""
    if mirror is None:
        return corpus.url
    for candidate in (mirror / corpus.mirror_name() / "repo", mirror / corpus.mirror_name(), mirror):
        if (candidate / "HEAD").is_file() or (candidate / ".git").exists():
            return str(candidate)
    raise RuntimeError(f"no git mirror of {corpus.url} under {mirror}")


def verified_commit(repo: Path, rev: str, corpus: GitCorpus) -> str:
    """The commit `rev` names in repo, which must be the pinned one."""
    try:
        got = git("rev-parse", "--verify", "--quiet", rev, cwd=repo).strip()
    except RuntimeError as exc:
        raise RuntimeError(f"{corpus.name}: commit {corpus.commit} is not in {repo}") from exc
    if got != corpus.commit:
        raise RuntimeError(f"{corpus.name}: fetched commit {got}, not the pinned {corpus.commit}")
    return got


def in_commit(repo: Path, commit: str, paths: tuple[str, ...]) -> set[str]:
    """Those of `paths` the commit's tree has (read from its trees alone: no blob needed)."""
    return set(git("ls-tree", "--name-only", commit, "--", *paths, cwd=repo).splitlines()) if paths else set()


def warn_cut_package(repo: Path, commit: str, corpus: GitCorpus) -> None:
    """Say so when the default layout cuts the kept folder from its package: its parent has an `__init__.py`,
    so the code imports the folder by a longer path than the one it is fetched under."""
    base = corpus.base()
    if corpus.root is None and base and in_commit(repo, commit, (f"{base}/__init__.py",)):
        print(f"warning: {corpus.name}: {base}/__init__.py makes {base} a package, so the files of "
              f"{corpus.folder} import each other by a longer path than {corpus.tree_paths()[1]}/: "
              "set the corpus's root to keep it", file=sys.stderr)


def archive(repo: Path, commit: str, corpus: GitCorpus) -> bytes:
    """A tar of the kept paths at commit, with the parent packages' `__init__.py`s the commit has. git
    archive reads only their blobs, so a mirror whose large files (media, PDFs) are absent still serves them."""
    folder = corpus.tree_paths()[0]
    paths = [f"{folder}/{sub}".lstrip("/") for sub in corpus.include] or [folder or "."]
    inits = in_commit(repo, commit, corpus.parent_inits())
    warn_cut_package(repo, commit, corpus)
    tar = subprocess.run(["git", "archive", "--format=tar", commit, "--", *paths, *sorted(inits)], cwd=repo,
                         capture_output=True)
    if tar.returncode != 0 or not tar.stdout:
        raise RuntimeError(f"{corpus.name}: {' '.join(paths)!r} is not in commit {commit}")
    return tar.stdout


def pinned_tar(corpus: GitCorpus, source: str) -> bytes:
    """The kept paths at the pinned commit: read straight from a local repository (a mirror), else
    fetched alone (`--depth 1`) from the URL into a scratch repository."""
    if not re.fullmatch(r"[0-9a-f]{40}", corpus.commit):
        raise RuntimeError(f"{corpus.name}: commit {corpus.commit!r} is not a full 40-hex hash")
    if Path(source).is_dir():
        # No fetch: a shallow fetch packs the commit's whole tree, which fails on a mirror
        # that lacks some blobs outside the kept folder.
        return archive(Path(source), verified_commit(Path(source), corpus.commit + "^{commit}", corpus), corpus)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        git("init", "-q", cwd=repo)
        git("fetch", "-q", "--depth", "1", source, corpus.commit, cwd=repo)
        return archive(repo, verified_commit(repo, "FETCH_HEAD^{commit}", corpus), corpus)


def checkout(corpus: GitCorpus, source: str, dest: Path) -> int:
    """Write the .py files of the corpus's kept paths at the pinned commit to dest; return how many."""
    tar = pinned_tar(corpus, source)
    count = 0
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
        for member in tf.getmembers():
            place = corpus.place(member.name) if member.isfile() and member.name.endswith(".py") else None
            if place is None:
                continue
            out = dest / place
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(tf.extractfile(member).read())  # type: ignore[union-attr]
            count += 1
    if not count:
        raise RuntimeError(f"{corpus.name}: no .py file under {corpus.folder!r} in commit {corpus.commit}")
    (dest / STAMP).write_text(corpus.pin + "\n")
    return count


def fetch_git(corpus: GitCorpus, root: Path, mirror: Path | None = None) -> str:
    dest = root / corpus.name
    if already_fetched(dest, corpus.pin, f"{corpus.url} at {corpus.pin}"):
        return f"{corpus.name}: present ({corpus.commit[:12]})"
    try:
        n = checkout(corpus, git_source(corpus, mirror), dest)
    except BaseException:
        if dest.exists():  # half-written: would otherwise block the next run
            shutil.rmtree(dest)
        raise
    return f"{corpus.name}: {n} files of {corpus.folder} at {corpus.commit[:12]} (commit verified)"


def corpus_root(root: Path, name: str) -> Path:
    """Where a fetched corpus lives (score.py lints from here); an error when it is missing."""
    dest = root / name
    if not (dest / STAMP).is_file():
        raise RuntimeError(f"corpus {name} is not fetched under {root}: run benchmarks/accuracy/fetch.py")
    return dest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--fresh", action="store_true", help="fetch the untouched test set instead of the dev corpora")
    for key, git_set in GIT_SETS.items():
        which.add_argument(f"--{key}", action="store_const", const=key, dest="git_set",
                           help=f"fetch the git-pinned {key} set: {git_set.why} (default dest {git_set.dest})")
    ap.add_argument("--dest", type=Path, help=f"cache folder (default: {DEFAULT_DEST}, with --fresh {FRESH_DEST})")
    ap.add_argument("--mirror", type=Path,
                    help=f"with {', '.join('--' + k for k in GIT_SETS)}: a folder of local git mirrors "
                         "(<owner>+<repo>/repo) used instead of the network")
    args = ap.parse_args(argv)
    if args.mirror and not args.git_set:
        ap.error("--mirror applies to a git-pinned set only")
    git_set = GIT_SETS.get(args.git_set or "")
    dest = args.dest or (git_set.dest if git_set else FRESH_DEST if args.fresh else DEFAULT_DEST)
    dest.mkdir(parents=True, exist_ok=True)
    if git_set:
        jobs = [lambda c=c: fetch_git(c, dest, args.mirror) for c in git_set.corpora]
    else:
        jobs = [lambda c=c: fetch(c, dest) for c in (FRESH_CORPORA if args.fresh else CORPORA)]
    status = 0
    for job in jobs:
        try:
            print(job())
        except (RuntimeError, OSError, zipfile.BadZipFile, tarfile.TarError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":
    raise SystemExit(main())
