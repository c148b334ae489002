"""Hits and decoys for where host tensors come from (docs/inference.md, "Host producers"): torch calls whose result
lives on the host by torch's documented behaviour, and project helpers whose body returns one. Each hit is the
shape of a missed `h2d-copy` label of the accuracy benchmark (F5-TTS's `list_str_to_idx`, its mel window); each
decoy the same code on the device.
"""

from __future__ import annotations

from snippets import check, findings


def test_a_spectral_window_is_built_on_the_host():
    """`torch.hann_window(n)` is a factory: on the default device unless `device=` says otherwise, whatever its
    length is (a parameter here). Decoys: a window built on the device, one converted to a dtype only (no copy),
    and one under `with torch.device("cuda"):`."""
    check("""
        import torch


        def mel(x: torch.Tensor, n: int, win):
            w = torch.hann_window(win).to(x.device)  # <- GL131
            k = torch.kaiser_window(win, periodic=False).cuda()  # <- GL131
            d = torch.hann_window(win, device=x.device)
            h = torch.hamming_window(win).to(torch.float16)
            with torch.device("cuda"):
                b = torch.blackman_window(win).to(x.device)
            return x * w * k * d * h * b
    """, scope="all")


def test_fft_frequencies_and_triangle_indices_are_built_on_the_host():
    """`torch.fft.fftfreq(n)` / `rfftfreq(n)`, `torch.tril_indices(r, c)` and the `torch.signal.windows` are
    factories (sizes in, a `device=` keyword, the default device otherwise), as `torch.arange` is (qedf's
    `k = torch.fft.fftfreq(L); assert k[0].item() == 0` reads a host tensor). Decoys: `device=x.device`, one built
    under `with torch.device("cuda"):`, and `torch.fft.fft(x)`, which computes where its input lives."""
    check("""
        import torch
        from torch.fft import rfftfreq


        def spectrum(x: torch.Tensor, n: int):
            k = torch.fft.fftfreq(n).to(x.device)  # <- GL131
            r = rfftfreq(n, d=0.5).to(x.device)  # <- GL131
            t = torch.tril_indices(n, n).cuda()  # <- GL131
            w = torch.signal.windows.hann(n).to(x.device)  # <- GL131
            kd = torch.fft.fftfreq(n, device=x.device).to(x.device)
            with torch.device("cuda"):
                kc = torch.fft.rfftfreq(n).to(x.device)
            f = torch.fft.fft(x).to(x.device)
            return k, r, t, w, kd, kc, f
    """, scope="all")


def test_pad_sequence_lives_where_its_sequences_do():
    """`pad_sequence(parts)` stacks its sequences: of host tensors (a comprehension of `torch.tensor(ids)`, here
    bound to a name first) a host tensor, which a project helper returns to its caller. Decoy: the same helper
    over sequences built on the device, and one whose list is filled by an unknown call."""
    check("""
        import torch
        from torch.nn.utils.rnn import pad_sequence


        def to_idx(text: list[str], vocab: dict[str, int]):
            parts = [torch.tensor([vocab.get(c, 0) for c in t]) for t in text]
            return pad_sequence(parts, padding_value=-1, batch_first=True)


        def to_idx_on(text: list[str], vocab: dict[str, int], device):
            parts = [torch.zeros(len(t), dtype=torch.long, device=device) for t in text]
            return pad_sequence(parts, padding_value=-1, batch_first=True)


        def to_idx_of(text: list[str], encode):
            parts = [encode(t) for t in text]
            return pad_sequence(parts, batch_first=True)


        def step(x: torch.Tensor, text: list[str], vocab: dict[str, int], encode):
            a = to_idx(text, vocab).to(x.device)  # <- GL131
            b = to_idx_on(text, vocab, x.device).to(x.device)
            c = to_idx_of(text, encode).to(x.device)
            return a, b, c
    """, scope="all")


def test_an_annotation_that_names_no_kind_leaves_the_return_to_the_body():
    """`-> int["b nt"]` (a shape string on a Python scalar, F5-TTS's spelling of a tensor annotation) names neither a
    kind nor a class: what the function returns is what its body shows, a host tensor here. Decoys: the same
    annotation on a helper that builds on the device (a project `load_audio` returning a CUDA tensor), and a
    plain `-> int` helper, which still reads as a Python number."""
    check("""
        from __future__ import annotations

        import torch


        def list_to_tensor(text: list[str]) -> int["b nt"]:
            return torch.tensor([[*bytes(t, "UTF-8")] for t in text])


        def load_audio(path: str) -> float["n"]:
            return torch.zeros(16000, device="cuda")


        def count(text: list[str]) -> int:
            return len(text)


        def step(x: torch.Tensor, text: list[str], path: str):
            a = list_to_tensor(text).to(x.device)  # <- GL131
            b = load_audio(path).to(x.device)
            n = count(text)
            return a, b, x[:n]
    """, scope="all")


def test_a_data_loader_yields_what_its_collate_function_builds():
    """Iterating a `DataLoader` without `collate_fn=` yields torch's default collate: host tensors (tuples and dicts
    of them), so moving a batch is a pageable copy; with a collate function, a batch is what it returns (F5-TTS's
    benchmark: `collate_fn=lambda b: data_collator(b, ...)`, a dict whose lengths are a `LongTensor` and whose mels
    it built on the device). Decoys: a pinned loader's batch moved with `non_blocking=True`, a batch the code has
    already moved, the collate's device item, and a loader whose collate function is not read."""
    check("""
        import torch
        from torch.utils.data import DataLoader


        def collate(samples: list[torch.Tensor]):
            lens = torch.LongTensor([len(s) for s in samples])
            mels = torch.stack([s.cuda() for s in samples])
            return {"lens": lens, "mels": mels}


        def plain(model, dataset, device):
            loader = DataLoader(dataset, batch_size=4)
            for x, y in loader:
                model(x.to(device), y)  # <- GL131
            for batch in loader:
                model(batch["input_ids"].to(device))  # <- GL131


        def pinned(model, dataset, device):
            loader = DataLoader(dataset, batch_size=4, pin_memory=True)
            for batch in loader:
                moved = batch.to(device, non_blocking=True)
                model(moved.to(device))


        def collated(model, dataset, device, make):
            loader = DataLoader(dataset, batch_size=4, collate_fn=lambda b: collate(b))
            for batch in loader:
                model(batch["lens"].to(device), batch["mels"].to(device))  # <- GL131
            other = DataLoader(dataset, collate_fn=make)
            for batch in other:
                model(batch.to(device))
    """, scope="all")


def test_a_batch_item_read_with_get_is_what_the_subscript_reads():
    """`data.get("mask")` of a default-collated batch is the host tensor `data["mask"]` is (Cutie's `eval_vos`: `mask =
    data.get('mask')` then `mask.cuda()`): a pageable copy. Decoys: a pinned loader's item moved with
    `non_blocking=True`, a `get` of a dict of device tensors, and a `get` of a value nothing types."""
    check("""
        import torch
        from torch.utils.data import DataLoader


        def plain(model, dataset, device, other):
            loader = DataLoader(dataset, batch_size=None, num_workers=4)
            for data in loader:
                image = data["rgb"].cuda()  # <- GL131
                mask = data.get("mask")
                if mask is not None:
                    mask = mask.cuda()  # <- GL131
                model(image, mask, data.pop("info").to(device))  # <- GL131
            pinned = DataLoader(dataset, pin_memory=True)
            for data in pinned:
                model(data.get("rgb").to(device, non_blocking=True))
            moved = {"rgb": torch.zeros(2, device=device)}
            model(moved.get("rgb").to(device), other.get("rgb").to(device))
    """, scope="all")


def test_a_batch_read_with_get_holds_what_its_subscript_holds():
    """No tensor has `.get`: a default-collated batch read as `data.get("mask")` is a dict's item, a host tensor as
    `data["rgb"]` is (Cutie's `eval_vos`), so moving it is a pageable copy and its `.tolist()` reads host memory
    (the decoy: no GL102 on it)."""
    src = """
        import torch
        from torch.utils.data import DataLoader


        def run(model, dataset):
            loader = DataLoader(dataset, batch_size=None)
            for data in loader:
                image = data["rgb"].cuda()  # <- GL131
                mask = data.get("mask")
                if mask is not None:
                    mask = mask.cuda()  # <- GL131
                labels = data.get("valid_labels")
                if labels is not None:
                    labels = labels.tolist()
                model(image, mask, labels)
    """
    check(src, scope="all")
    assert not {code for _line, code in findings(src, scope="all")} & {"GL102", "GL106"}


def test_a_dict_a_helper_returns_holds_what_its_helpers_return():
    """A collate function that returns a dict whose value is another project function's result (F5-TTS's benchmark:
    `"text_pad_sequence": list_str_to_idx(...)`, a `pad_sequence` of `torch.tensor(ids)`) holds a host tensor under
    that key, read through the helper as a direct return is. Decoys: the key whose helper builds on the device, a key
    whose helper's origin is unknown, and a pinned loader's batch moved with `non_blocking=True`."""
    check("""
        import torch
        from torch.nn.utils.rnn import pad_sequence
        from torch.utils.data import DataLoader


        def to_idx(texts: list[str], vocab: dict[str, int]):
            parts = [torch.tensor([vocab.get(c, 0) for c in t]) for t in texts]
            return pad_sequence(parts, batch_first=True)


        def to_mel(samples: list[torch.Tensor]):
            return torch.stack([s.cuda() for s in samples])


        def collate(samples, vocab, fetch):
            ids = to_idx([s["text"] for s in samples], vocab)
            return {"ids": ids, "mels": to_mel([s["audio"] for s in samples]), "extra": fetch(samples)}


        def run(model, dataset, vocab, device, fetch):
            loader = DataLoader(dataset, batch_size=4, collate_fn=lambda b: collate(b, vocab, fetch))
            for batch in loader:
                model(batch["ids"].to(device), batch["mels"].to(device), batch["extra"].to(device))  # <- GL131
            pinned = DataLoader(dataset, pin_memory=True, collate_fn=lambda b: collate(b, vocab, fetch))
            for batch in pinned:
                model(batch["ids"].to(device, non_blocking=True))
    """, scope="all")


def test_torchaudio_ops_and_transforms_compute_where_the_waveform_is():
    """torchaudio's functional ops (`resample`) and its transforms (`Resample`, `MelSpectrogram`: modules of those ops)
    return a tensor where their input lives: a waveform decoded on the host stays there through them, also through a
    helper that resamples on one branch only (XTTS's `load_audio`), and its move to the device is a copy. Decoys: the
    same ops of a device tensor, a transform moved to the device and fed a device tensor, and a waveform nothing
    types (its origin is unknown)."""
    check("""
        import torch
        import torchaudio
        import torchaudio.functional as AF
        from torchaudio.transforms import MelSpectrogram


        def load_audio(path: str, sr: int):
            audio, lsr = torchaudio.load(path)
            if lsr != sr:
                audio = torchaudio.functional.resample(audio, lsr, sr)
            return audio


        def step(path: str, device, x: torch.Tensor, wav):
            a = load_audio(path, 16000)[:, :100].to(device)  # <- GL131
            ref, sr = torchaudio.load(path)
            if sr != 24000:
                audio = torchaudio.transforms.Resample(sr, 24000)(ref)
            else:
                audio = ref
            b = audio.to(device)  # <- GL131
            mel = MelSpectrogram(sample_rate=24000)
            c = mel(ref).to(device)  # <- GL131
            d = AF.resample(x, 16000, 8000).to(device)
            on_device = MelSpectrogram(sample_rate=24000).to(device)
            e = on_device(x).to(device)
            f = mel(wav).to(device)
            g = AF.resample(wav, 16000, 8000).to(device)
            return a, b, c, d, e, f, g
    """, scope="all")


def test_torchvision_image_conversions_are_host_tensors_and_transforms_keep_them_there():
    """`transforms.ToTensor()(image)` / `PILToTensor()` convert a PIL image or an array in host memory; torchvision's
    other transforms (`Normalize`, `CenterCrop`) compute where their input lives. Show-o's `image_transform` helper
    rebinds `image` through both, the last on one branch only (`if normalize:`): what its last top-level binding holds
    is what every later binding keeps, so the helper returns a host tensor and its `.to(device)` is a copy. Decoys: a
    transform of a value nothing types, of a device tensor (no copy of it; `Normalize` uploads its mean and std
    lists there, GL130), the result of a helper that moves its tensor on one branch (a later binding that does not
    keep it: the join), and a `Compose` (it runs whatever it holds)."""
    check("""
        import torch
        from torchvision import transforms


        def image_transform(image, resolution=256, normalize=True):
            image = transforms.CenterCrop((resolution, resolution))(image)
            image = transforms.ToTensor()(image)
            if normalize:
                image = transforms.Normalize(mean=[0.5], std=[0.5], inplace=True)(image)
            return image


        def moved(image, device, normalize=True):
            image = transforms.ToTensor()(image)
            if normalize:
                image = image.to(device)  # <- GL131
            return image


        def step(img, device, x: torch.Tensor, pipeline: list):
            a = image_transform(img, resolution=256).to(device)  # <- GL131
            to_tensor = transforms.PILToTensor()
            b = to_tensor(img).to(device)  # <- GL131
            c = transforms.Normalize([0.5], [0.5])(img).to(device)
            d = transforms.Normalize([0.5], [0.5])(x).to(device)  # <- GL130
            e = moved(img, device).to(device)
            f = transforms.Compose(pipeline)(img).to(device)
            return a, b, c, d, e, f
    """, scope="all")


def test_transforms_held_in_fields_and_composed_convert_as_they_would_alone():
    """MuseTalk's `VAE.preprocess_img`: `self.transform = transforms.Normalize(..)` held in a field keeps its input
    where it is, as a local one does, so `self.transform(torch.FloatTensor(x)).to(device)` is a copy; a `Compose` of a
    `ToTensor` and such transforms (held or built in place) converts in host memory. Decoys: the same field and a
    `Compose` of `Normalize` alone fed a device tensor (no copy of it; `Normalize` uploads its mean and std lists
    there, GL130) or a value nothing types, and a `Compose` holding a `Lambda` (it runs whatever that does)."""
    check("""
        import torch
        from torchvision import transforms


        class Processor:
            def __init__(self):
                self.transform = transforms.Normalize(mean=[0.5], std=[0.5])
                self.to_input = transforms.Compose([transforms.ToTensor(), transforms.Normalize([0.5], [0.5])])
                self.norm = transforms.Compose([transforms.Normalize([0.5], [0.5])])
                self.custom = transforms.Compose([transforms.ToTensor(), transforms.Lambda(lambda t: t.cuda())])

            def run(self, window, img, x: torch.Tensor, device):
                a = self.transform(torch.FloatTensor(window)).to(device)  # <- GL131
                b = self.to_input(img).to(device)  # <- GL131
                c = transforms.Compose([transforms.Resize(64), transforms.ToTensor()])(img).to(device)  # <- GL131
                d = self.transform(x).to(device)  # <- GL130
                e = self.norm(img).to(device)
                f = self.norm(x).to(device)  # <- GL130
                g = self.custom(img).to(device)
                return a, b, c, d, e, f, g
    """, scope="all")


def test_diffusers_image_processors_make_host_tensors_of_host_images():
    """StreamDiffusion's `self.image_processor.preprocess(x, h, w).to(device)`: diffusers'
    `VaeImageProcessor.preprocess` builds a host tensor of NumPy arrays or lists (and PIL images), and keeps a tensor
    where it lives; `postprocess` hands back PIL images or arrays unless `output_type="pt"`. Decoys: a device tensor
    preprocessed, an input nothing types, and a host postprocess result (no device value to read)."""
    check("""
        import numpy as np
        import torch
        from diffusers.image_processor import VaeImageProcessor


        class Pipeline:
            def __init__(self):
                self.image_processor = VaeImageProcessor(8)

            def run(self, arr: np.ndarray, img, x: torch.Tensor, device):
                a = self.image_processor.preprocess(arr, 64, 64).to(device)  # <- GL131
                proc = VaeImageProcessor(8)
                b = proc.preprocess(arr.tolist()).to(device)  # <- GL131
                c = proc.preprocess(x).to(device)
                d = proc.preprocess(img).to(device)
                e = proc.postprocess(x, output_type="pt")
                f = proc.postprocess(x, output_type="np")
                return a, b, c, d, e, f, proc.postprocess(x)[0]
    """, scope="all")
    # what postprocess hands back: the device tensor for "pt" (its `.item()` reads it), host data otherwise
    assert findings("""
        import torch
        from diffusers.image_processor import VaeImageProcessor
        def post(x: torch.Tensor):
            proc = VaeImageProcessor(8)
            a = proc.postprocess(x, output_type="pt").sum().item()
            b = proc.postprocess(x, output_type="np").sum().item()
            return a, b, proc.postprocess(x)[0].size
    """, scope="all") == {(5, "GL101")}


def test_torchaudio_load_returns_a_host_waveform_and_a_number():
    """`torchaudio.load(path)` decodes on the host: `(waveform, sample_rate)`, a host tensor and a Python int, also
    through a project helper that returns it. Decoys: a project `load_audio` that returns a CUDA tensor, and the
    sample rate (a number, no copy)."""
    check("""
        import torch
        import torchaudio


        def read(path: str):
            return torchaudio.load(path)


        def load_audio(path: str):
            wav, sr = torchaudio.load(path)
            return wav.cuda(), sr  # <- GL131


        def step(model, path: str, device):
            wav, sr = torchaudio.load(path)
            a = wav.to(device)  # <- GL131
            w2, sr2 = read(path)
            b = w2.to(device)  # <- GL131
            w3, sr3 = load_audio(path)
            c = w3.to(device)
            return model(a, b, c), sr + sr2 + sr3
    """, scope="all")


def test_a_helper_returns_where_its_argument_lives():
    """A device-polymorphic helper (`make_pad_mask(lengths)`: a mask built on `lengths.device`; `pad_or_trim(x)`:
    a pad or a slice of `x`) returns where the argument a call passes lives: a host tensor passed, a host tensor
    returned, whose move to the device is a copy. Decoys: the same helpers called with device tensors, one whose
    argument nothing types, and a helper whose factory ignores its argument's device (nothing follows)."""
    check("""
        import torch
        import torch.nn.functional as F


        def make_pad_mask(lengths: torch.Tensor, max_len: int = 0) -> torch.Tensor:
            max_len = max_len if max_len > 0 else lengths.max().item()
            seq_range = torch.arange(0, max_len, dtype=torch.int64, device=lengths.device)
            expanded = seq_range.unsqueeze(0).expand(lengths.size(0), max_len)
            mask = expanded >= lengths.unsqueeze(-1)
            return mask


        def pad_or_trim(array, length: int = 3000, *, axis: int = -1):
            if array.shape[axis] > length:
                array = array.index_select(dim=axis, index=torch.arange(length, device=array.device))
            if array.shape[axis] < length:
                array = F.pad(array, [0, length - array.shape[axis]])
            return array


        def ones_like_len(lengths: torch.Tensor, device):
            return torch.ones(lengths.size(0), device=device) + lengths


        def step(h: torch.Tensor, n: int, lens, device):
            a = (~make_pad_mask(torch.tensor([n + 1]))).to(h)  # <- GL131
            b = pad_or_trim(torch.zeros(80, 10), length=3000).to(h.device)  # <- GL131
            c = (~make_pad_mask(h.sum(-1).long())).to(h)
            d = pad_or_trim(h, 3000).to(h.device)
            e = make_pad_mask(lens).to(h)
            f = ones_like_len(torch.tensor([n]), device).to(h)
            return a, b, c, d, e, f
    """, scope="all")


def test_a_helper_of_several_arguments_returns_host_data_when_they_all_are():
    """A helper computed from several parameters (F5-TTS's `get_pos_embed_indices(start, length, max_pos, scale=1.0)`:
    `start + arange(n, device=start.device) * scale`, clamped by `torch.where(pos < max_pos, pos, max_pos - 1)`)
    returns host data when every argument a call passes for them is host data, a left-out number default included:
    its index into a device table is copied up. Decoys: the same helper with a device `start`, with a `max_pos`
    nothing types, and with a `scale` tensor of unknown device (any of them may put the result on the device)."""
    check("""
        import torch


        def get_pos_embed_indices(start, length, max_pos, scale=1.0):
            scale = scale * torch.ones_like(start, dtype=torch.float32)
            pos = start.unsqueeze(1) + (
                torch.arange(length, device=start.device, dtype=torch.float32).unsqueeze(0) * scale.unsqueeze(1)).long()
            pos = torch.where(pos < max_pos, pos, max_pos - 1)
            return pos


        class Embed(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("freqs_cis", torch.zeros(4096, 64), persistent=False)

            def forward(self, text: torch.Tensor, mp, s: torch.Tensor):
                start = torch.zeros((text.shape[0],), dtype=torch.long)
                pos_idx = get_pos_embed_indices(start, text.shape[1], max_pos=4096)
                a = self.freqs_cis[pos_idx]  # <- GL133
                b = self.freqs_cis[get_pos_embed_indices(text[:, 0], text.shape[1], max_pos=4096)]
                c = self.freqs_cis[get_pos_embed_indices(start, text.shape[1], max_pos=mp)]
                d = self.freqs_cis[get_pos_embed_indices(start, text.shape[1], 4096, s)]
                return a, b, c, d
    """, scope="all")
def test_a_helper_of_math_numbers_and_one_tensor_returns_where_the_tensor_lives():
    """A schedule helper that mixes its tensor argument with Python numbers of `math` (FLUX's `time_shift(mu, sigma,
    t)`: `math.exp(mu) / (math.exp(mu) + (1 / t - 1) ** sigma)`; x-transformers' `cosine_schedule(t)`:
    `torch.cos(t * pi / 2)` with `from math import pi`; `float(..)` of a parameter) returns where `t` lives: the
    shifted host schedule's `.tolist()` reads host memory. Hits: the same helpers on a device schedule."""
    assert findings("""
        import math
        from math import pi
        import torch


        def time_shift(mu: float, sigma: float, t: torch.Tensor):
            return math.exp(mu) / (math.exp(mu) + (1 / t - 1) ** sigma)


        def cosine_schedule(t, scale):
            return torch.cos(t * pi / 2) * float(scale)


        class Sampler(torch.nn.Module):
            def forward(self, x: torch.Tensor, n: int, shift: bool):
                timesteps = torch.linspace(1, 0, n + 1)
                if shift:
                    timesteps = time_shift(0.5, 1.0, timesteps)
                a = timesteps.tolist()
                b = cosine_schedule(torch.linspace(0, 1, n), 2).tolist()
                c = time_shift(0.5, 1.0, x.sum(-1)).tolist()
                d = cosine_schedule(x.sum(-1), 2).tolist()
                return a, b, c, d
    """) == {(21, "GL102"), (22, "GL102")}


def test_a_processors_feature_extractor_returns_a_host_batch():
    """In a `transformers` processor (`ProcessorMixin`), `self.feature_extractor(audio)` returns a `BatchFeature`
    built on the host: `math.ceil(padding_mask.sum(dim=-1) / hop)` over its items reads host memory (Dia's
    processor, transformers 5.17). Hits: the same call told `device="cuda"`, the processor's audio tokenizer (a
    model), and a feature extractor of a class that is no processor."""
    from snippets import findings

    src = """
        import math
        from transformers import ProcessorMixin


        class DiaProcessor(ProcessorMixin):
            def __call__(self, audio, **kwargs):
                batch = self.feature_extractor(audio, **kwargs)
                for padding_mask, values in zip(batch["padding_mask"], batch["input_values"]):
                    n = math.ceil(padding_mask.sum(dim=-1) / self.feature_extractor.hop_length)
                on_device = self.feature_extractor(audio, device="cuda")
                m = math.ceil(on_device["padding_mask"].sum(dim=-1) / 4)
                codes = self.audio_tokenizer.encode(audio)
                return n + m + math.ceil(codes.sum(dim=-1) / 4)


        class Other:
            def __call__(self, audio):
                batch = self.feature_extractor(audio)
                return math.ceil(batch["padding_mask"].sum(dim=-1) / 4)
    """
    got = {(line, code) for line, code in findings(src, scope="all") if code == "GL105"}
    assert got == {(11, "GL105"), (13, "GL105"), (19, "GL105")}


def test_methods_of_a_host_library_object_return_host_data():
    """`self.index = faiss.IndexFlatIP(d)`, then `self.index.search(q, k)[1][0].tolist()` reads NumPy arrays (MInference's
    InfLLM block retrieval): a method of an object a host-only library built (faiss, NumPy, scikit-learn, SciPy)
    returns host data. Hits: the copy of the query to the host, and the same read of a torch module's output."""
    from snippets import findings

    src = """
        import faiss
        import torch


        class Store:
            def __init__(self, d: int):
                self.index = faiss.IndexFlatIP(d)
                self.proj = torch.nn.Linear(d, d)

            def search(self, t: torch.Tensor, k: int):
                xq = t[None, :].cpu().float().numpy()
                ids = self.index.search(xq, k)[1][0].tolist()
                return ids, self.proj(t).tolist()
    """
    assert {(line, code) for line, code in findings(src, scope="all")} == {(11, "GL103"), (13, "GL102")}



TRITON_MODEL = """
    import torch
    import triton_python_backend_utils as pb_utils
    from torch.utils.dlpack import from_dlpack, to_dlpack


    class TritonPythonModel:
        def execute(self, requests):
            for request in requests:
                wav_in = pb_utils.get_input_tensor_by_name(request, "wav")
                wav = from_dlpack(wav_in.to_dlpack())
                gpu = wav.to(self.device)  # <- GL131
                rms = torch.sqrt(torch.mean(torch.square(wav)))
                if rms < self.target_rms:
                    gpu = gpu * self.target_rms / rms
                out = self.vocoder(gpu)
                dev = from_dlpack(to_dlpack(torch.zeros(4, device="cuda")))
                if torch.sqrt(dev.sum()) > 0:
                    out = out * 2
                other = from_dlpack(out.to_dlpack())
                if torch.mean(other) > 1:
                    out = out / 2
"""


def test_triton_request_inputs_and_their_dlpack_views_live_on_the_host():
    """Triton's Python backend hands `execute` its request inputs in CPU memory (by default), and a DLPack import
    shares the exporter's memory: `from_dlpack(t.to_dlpack())` of such an input is a host tensor, so a condition on
    its RMS reads no device (F5-TTS's Triton model, an attic look-alike), while its move to the device is a copy.
    Decoys: the DLPack view of a device tensor (`to_dlpack(t)`) and of a value nothing places stay device tensors."""
    check(TRITON_MODEL, scope="all")
    conditions = {line for line, code in findings(TRITON_MODEL, scope="all") if code == "GL110"}
    assert conditions == {17, 20}  # (counted from the first line: the two decoys, not the RMS test at 13)


def test_a_method_of_a_typed_receiver_returns_its_host_tensor():
    """`self.tokenizer.ids(text)` where `tokenizer: Tok` is stored as it came (chatterbox's `EnTokenizer`), `t.ids()`
    of `t = Tok()` and of a parameter annotated `t: Tok`: the method of that class runs, and its return builds a host
    tensor. Decoys: a method that builds on the device, one a project subclass overrides with a device build (either
    may run), and a method returning an object whose fields an annotation calls tensors (no host fact: silent)."""
    check("""
        import torch
        from dataclasses import dataclass


        @dataclass
        class Encoded:
            parts: list[torch.Tensor]


        class Tok:
            def __init__(self, device):
                self.device = device

            def ids(self, text: str):
                return torch.arange(len(text))

            def ids_on_device(self, text: str):
                return torch.arange(len(text), device=self.device)

            def pieces(self, text: str):
                return torch.zeros(len(text))

            def encode(self, text: str) -> Encoded:
                return Encoded(parts=[torch.tensor([1])])


        class CudaTok(Tok):
            def pieces(self, text: str):
                return torch.zeros(len(text), device="cuda")


        class TTS:
            def __init__(self, tokenizer: Tok, device):
                self.tokenizer = tokenizer
                self.device = device

            @torch.inference_mode()
            def generate(self, text: str, t: Tok):
                a = self.tokenizer.ids(text).to(self.device)  # <- GL131
                local = Tok(self.device)
                b = local.ids(text).cuda()  # <- GL131
                c = t.ids(text).to(self.device)  # <- GL131
                d = self.tokenizer.ids_on_device(text).to(self.device)
                e = self.tokenizer.pieces(text).to(self.device)
                f = [p.to(self.device) for p in t.encode(text).parts]
                return a, b, c, d, e, f
    """, scope="all")


def test_a_helper_returns_what_its_last_top_level_binding_holds():
    """`ids = self.encode(text)` then `ids = torch.IntTensor(ids).unsqueeze(0)` at the body's top level (chatterbox's
    `text_to_tokens`): the return below sees the second binding only, a host tensor. Decoys: the host rebinding in a
    branch (the first binding may reach the return), a last top-level binding that moves to the device (that move is
    the copy; the caller's `.to(device)` is a no-op), and a read above the rebinding (a return in a branch before it)."""
    check("""
        import torch


        class Tok:
            def encode(self, text: str):
                return self.vocab.encode(text).ids

            def text_to_tokens(self, text: str):
                ids = self.encode(text)
                ids = torch.IntTensor(ids).unsqueeze(0)
                return ids

            def maybe(self, text: str, raw: bool):
                ids = self.encode(text)
                if not raw:
                    ids = torch.IntTensor(ids)
                return ids

            def moved(self, text: str):
                ids = torch.IntTensor(self.encode(text))
                ids = ids.cuda()  # <- GL131
                return ids

            def early(self, text: str, ready):
                ids = self.encode(text)
                if ready:
                    return ids
                ids = torch.IntTensor(ids)
                return ids


        def generate(tok: Tok, text: str, device):
            a = tok.text_to_tokens(text).to(device)  # <- GL131
            b = tok.maybe(text, False).to(device)
            c = tok.moved(text).to(device)
            d = tok.early(text, True).to(device)
            return a, b, c, d
    """, scope="all")


def test_a_typed_receivers_method_of_mixed_or_unknown_origin_stays_silent():
    """Decoys of the typed-method fact: a method that returns a host tensor on one branch and a device tensor on
    the other (mixed: either may come back), one that returns what its caller passed (unknown), and one that
    returns a field of unknown place. Only the method whose every return is host data is a copy source."""
    check("""
        import torch


        class Tok:
            def __init__(self, device, table):
                self.device = device
                self.table = table

            def ids(self, text: str):
                return torch.arange(len(text))

            def either(self, text: str, on_device: bool):
                if on_device:
                    return torch.arange(len(text), device=self.device)
                return torch.arange(len(text))

            def passed(self, t):
                return t

            def held(self):
                return self.table


        class TTS:
            def __init__(self, tokenizer: Tok, device):
                self.tokenizer = tokenizer
                self.device = device

            @torch.inference_mode()
            def generate(self, text: str, x):
                a = self.tokenizer.ids(text).to(self.device)  # <- GL131
                b = self.tokenizer.either(text, True).to(self.device)
                c = self.tokenizer.passed(x).to(self.device)
                d = self.tokenizer.held().to(self.device)
                return a, b, c, d
    """, scope="all")


def test_a_triton_tensors_as_numpy_is_a_host_array():
    """Triton's Python backend gives a `pb_utils.Tensor`'s data as a NumPy array with `.as_numpy()` (a request input,
    or a BLS response's output; a tensor in GPU memory raises there): reading it (`.item()`, `.tolist()`) reads host
    memory (Spark-TTS's Triton audio tokenizer, a bunker look-alike). Hit: the same read of a torch tensor the model
    computed on the device."""
    src = """
        import torch
        import triton_python_backend_utils as pb_utils


        class TritonPythonModel:
            def execute(self, requests):
                for request in requests:
                    n = pb_utils.get_input_tensor_by_name(request, "wav_len").as_numpy().item()
                    response = self.llm.exec(request)
                    ids = pb_utils.get_output_tensor_by_name(response, "output_ids").as_numpy()
                    first = ids[0].tolist()
                    out = self.vocoder(torch.zeros(n, device="cuda"))
                    peak = out.max().item()
                    return first, peak
    """
    assert {(line, code) for line, code in findings(src, scope="all") if code in ("GL101", "GL102")} \
        == {(13, "GL101")}


def test_a_tokenizer_or_processor_call_builds_a_host_batch():
    """A Hugging Face tokenizer, processor or feature extractor (known by its `from_pretrained`, passed as a parameter,
    returned in a tuple or kept in a field) builds its batch on the host whether or not `return_tensors="pt"` is
    spelled out (a remote-code processor returns tensors by default): `batch["input_ids"].to(device)` is an upload
    (MOSS-TTSD, a bunker miss), and `list(tokenizer(prompt).input_ids)` a list of ids whose `torch.as_tensor(..,
    device=)` is one too (FastChat: the batch is host data, not one host tensor). Decoys: a processor told a `device=` (fast image processors build there), and a
    project callable of the same shape that is no tokenizer."""
    check("""
        import torch
        from transformers import AutoProcessor, AutoTokenizer, WhisperFeatureExtractor


        def load(name):
            model = torch.nn.Linear(4, 4).cuda()
            return model, AutoProcessor.from_pretrained(name, trust_remote_code=True)


        def run(processor, model, conversations, device):
            batch = processor(conversations, mode="generation")
            ids = batch["input_ids"].to(device)  # <- GL131
            mask = batch.attention_mask.to(device)  # <- GL131
            placed = processor(conversations, device=device)
            ok = placed["input_ids"].to(device)
            return model.generate(input_ids=ids, attention_mask=mask), ok


        class Speaker:
            def __init__(self, name, encode):
                self.tokenizer = AutoTokenizer.from_pretrained(name)
                self.features = WhisperFeatureExtractor.from_pretrained(name)
                self.encode = encode

            def step(self, text, audio, device):
                ids = self.tokenizer(text, return_tensors="pt")["input_ids"].to(device)  # <- GL131
                feats = self.features(audio, sampling_rate=16000).input_features.to(device)  # <- GL131
                mine = self.encode(text)["input_ids"].to(device)
                return ids, feats, mine


        def chat(tokenizer, prompt, device):
            output_ids = list(tokenizer(prompt).input_ids)
            return torch.as_tensor([output_ids], device=device)  # <- GL130


        def main(conversations):
            model, processor = load("m")
            with torch.no_grad():
                return run(processor, model, conversations, "cuda"), chat(AutoTokenizer.from_pretrained("m"), "hi", "cuda")
    """, scope="all")


def test_a_text_tokenizer_without_return_tensors_returns_lists():
    """`PreTrainedTokenizerBase.__call__` returns Python lists of ids unless `return_tensors=` names a tensor type:
    an id drawn from `tokenizer(text)["input_ids"]` (or `.input_ids`) keys a dict of lists and is no index tensor
    (LLMLingua's `recover`, a citadel unlabelled GL133 x6: decoys). Hits: the same text with `return_tensors="pt"`
    uploaded, a processor's batch (remote code may build tensors by default) indexing a tensor nothing types, and the
    list of ids made a tensor and moved."""
    check("""
        import torch
        from collections import defaultdict
        from transformers import AutoProcessor, AutoTokenizer


        class Compressor:
            def __init__(self, name):
                self.tokenizer = AutoTokenizer.from_pretrained(name)
                self.processor = AutoProcessor.from_pretrained(name, trust_remote_code=True)

            def recover(self, prompt, response, table, device):
                original = self.tokenizer(prompt, add_special_tokens=False)["input_ids"]
                answer = self.tokenizer(response, return_tensors=None).input_ids
                seen = defaultdict(list)
                for idx in range(len(original)):
                    seen[original[idx]].append(idx)
                    seen[answer[idx]].append(idx)
                ids = self.tokenizer(prompt, return_tensors="pt")["input_ids"].to(device)  # <- GL131
                feats = self.processor(prompt)["input_ids"]
                moved = torch.tensor(original).to(device)  # <- GL131
                return seen, ids, table[feats], moved  # <- GL133
    """, scope="all")


def test_zip_longest_items_keep_the_iterables_kinds():
    """`itertools.zip_longest(seqs, lens)` yields tuples of its iterables' elements, padded with the fill value:
    `for s, n in zip_longest(seq, token_lengths)` over device tensors reads device rows (x-transformers' entropy
    tokenizer: a boolean-mask read of each row). Decoy: the same loop over host tensors."""
    src = """
        import torch
        from itertools import zip_longest


        def split(seq: torch.Tensor, token_lengths: torch.Tensor, n: int):
            out = []
            for one_seq, one_len in zip_longest(seq, token_lengths, fillvalue=None):
                out.append(one_seq[one_len > 0])
            host = torch.zeros(n, 4)
            for row, flag in zip_longest(host, host > 0):
                out.append(row[flag])
            return out
    """
    assert findings(src, scope="all") == {(7, "GL402"), (8, "GL123")}  # (GL402: `zip_longest` over device rows)


def test_a_tuple_target_gives_each_field_its_own_item():
    """`self.counts, self.n = torch.zeros(n), n`: each field stores its own item, as two assignments would (BLT sets
    its special token ids this way): the field is a host tensor, so reading it is no sync. Hit: the same tuple
    assignment of a device tensor."""
    src = """
        import torch


        class Sampler:
            def __init__(self, n: int):
                self.counts, self.n = torch.zeros(n), n
                self.seen, self.k = torch.zeros(n, device="cuda"), 2

            def step(self, logits: torch.Tensor):
                ids = self.counts.tolist()
                seen = self.seen.tolist()
                return logits[:, ids[0]], seen
    """
    assert findings(src, scope="all") == {(11, "GL102")}


def test_a_module_level_tensor_built_on_the_host_is_a_host_tensor():
    """A module-level name bound once, at the module's top level, to a tensor built without a device (`torch.tensor`
    of NumPy data, `torch.arange`, `torch.from_numpy`, a comprehension of such) holds a host tensor in every function
    that reads it (MAGI-1's special-token tensors): its `.to(device)` / `.cuda()` copies it up per call (hits).
    Decoys: a constant built on the device, `torch.tensor` of a device constant, a name rebound at module level or
    through `global`, one bound under `with torch.device("cuda"):`, a parameter that shadows the constant, a move to a
    dtype only, a comprehension of device tensors, and a tensor of no element (petals' `DUMMY_KEY_PAST`: its move
    copies nothing)."""
    check("""
        import numpy as np
        import torch

        TABLE = np.load("tokens.npz")
        CAPTION = torch.tensor(TABLE["caption"].astype(np.float16))
        DURATION = [torch.tensor(TABLE["other"][i : i + 1]) for i in range(8)]
        POSITIONS = torch.arange(16)
        ON_DEVICE = torch.zeros(4, device="cuda")
        COPIED = torch.tensor(ON_DEVICE)
        MOVED = torch.ones(4)
        MOVED = MOVED.half()
        LATER = torch.ones(4)
        NOTHING = torch.empty((0, 0, 0))
        PER_DEVICE = [torch.zeros(2, device="cuda") for _ in range(4)]
        with torch.device("cuda"):
            BUILT = torch.arange(4)


        def init():
            global LATER
            LATER = LATER.cuda()


        @torch.no_grad()
        def step(x: torch.Tensor, i: int, SHADOW: torch.Tensor):
            a = CAPTION.to(x.device)  # <- GL131
            b = DURATION[min(i, 7)].to(x.device)  # <- GL131
            c = POSITIONS.cuda()  # <- GL131
            d = ON_DEVICE.to(x.device) + COPIED.to(x.device) + MOVED.to(x.device) + LATER.to(x.device)
            e = PER_DEVICE[i].to(x.device) + BUILT.to(x.device) + CAPTION.to(torch.float32).sum()
            past = (NOTHING.to(dtype=x.dtype, device=x.device), NOTHING.to(x.device))
            return a + b + c + d + e, past
    """, scope="all")


def test_a_module_level_host_tensor_under_a_moved_default_device_is_left_alone():
    """`torch.set_default_device("cuda")` puts every factory without `device=` on the device: a module-level
    `torch.arange(16)` is then a device tensor, and its move copies nothing (decoy)."""
    check("""
        import torch

        torch.set_default_device("cuda")
        POSITIONS = torch.arange(16)


        @torch.no_grad()
        def step(x: torch.Tensor):
            return x + POSITIONS.to(x.device)
    """, scope="all")


def test_a_cast_to_a_cpu_tensor_type_lives_on_the_host():
    """`t.type(torch.LongTensor)` casts to a legacy CPU tensor type: the result is a host tensor whatever `t` was
    (a device tensor is copied down, GL103 on the cast itself), so a helper that returns it hands its caller host
    tensors, item by item through a tuple (FireRedASR's `preprocess_texts`), and their `.cuda()` copies them up (hits).
    A cast of a host tensor to a CUDA tensor type (`torch.cuda.LongTensor`) is the upload itself (GL131 on the cast),
    and its result is on the device, so a later `.to(x.device)` copies nothing. Decoys: a cast to a dtype
    (`.type(torch.int64)`: where `t` was), and `.type()` without an argument (a type name)."""
    check("""
        import torch


        def pack(rows: list[list[int]]):
            ids = torch.tensor(rows, dtype=torch.int)
            mask = ids.ne(0)
            ids = ids.type(torch.LongTensor)
            return ids, mask


        def down(x: torch.Tensor):
            return x.type(torch.LongTensor)


        def cast(x: torch.Tensor):
            return x.type(torch.int64)


        def up(rows: list[int]):
            return torch.tensor(rows).type(torch.cuda.LongTensor)  # <- GL131


        @torch.no_grad()
        def step(x: torch.Tensor, rows: list[list[int]]):
            ids, mask = pack(rows)
            ids = ids.cuda()  # <- GL131
            mask = mask.cuda()  # <- GL131
            a = down(x).to(x.device)  # <- GL131
            b = cast(x).to(x.device) + up(rows[0]).to(x.device)
            c = torch.tensor(rows).type(torch.cuda.LongTensor).to(x.device)  # <- GL131
            return a + b + c + ids + mask
    """, scope="all")


def test_a_tensor_over_a_host_buffer_lives_on_the_host():
    """`torch.frombuffer(buf, dtype=...)` wraps the bytes of a Python buffer (ffmpeg's decoded frames) without a copy:
    a host tensor whatever the default device, so a helper that returns a view of it returns a host tensor and the
    caller's `.cuda()` copies it up (hits, also under `with torch.device("cuda"):`). Decoys: a helper that returns
    the buffer's tensor on one path and a device tensor on another (unknown), and a move of a device tensor."""
    check("""
        import torch


        def decode(out: bytes, h: int, w: int):
            return torch.frombuffer(out, dtype=torch.uint8).view(-1, h, w, 3)


        def decode_or_keep(out: bytes, x: torch.Tensor, raw: bool):
            if raw:
                return torch.frombuffer(out, dtype=torch.uint8)
            return x.flatten()


        @torch.no_grad()
        def step(x: torch.Tensor, out: bytes, raw: bool):
            video = decode(out, 224, 384).cuda()  # <- GL131
            with torch.device("cuda"):
                frames = torch.frombuffer(out, dtype=torch.uint8).to(x.device)  # <- GL131
            kept = decode_or_keep(out, x, raw).cuda()
            return video, frames, kept, x.cuda()
    """, scope="all")


def test_moving_the_module_leaves_a_plain_host_field_on_the_host():
    """`nn.Module._apply` (what `.to()` / `.cuda()` run) converts the children, `_parameters` and `_buffers` only: a
    plain attribute built on the host in `__init__` (MegaTTS3's `self.emb = torch.exp(torch.arange(..) * -s)`) stays
    there however the instance is moved, so its `.to(x.device)` in `forward` copies it up per call (hit), while a
    registered buffer moves with the module (decoy)."""
    check("""
        import torch
        from torch import nn


        class PosEmb(nn.Module):
            def __init__(self, half_dim: int):
                super().__init__()
                self.emb = torch.exp(torch.arange(half_dim) * -0.5)
                self.register_buffer("inv", torch.arange(half_dim).float())

            def forward(self, x: torch.Tensor):
                return x[:, None] * self.emb.to(x.device) + self.inv.to(x.device)  # <- GL131


        def place(m: PosEmb, device: torch.device):
            m.to(device)
            return m.cuda()
    """, scope="all")


def test_a_gymnasium_vector_env_answers_numpy_arrays():
    """LeanRL's rollouts: `envs = gym.vector.SyncVectorEnv([...])`, then `next_obs, rewards, terminations,
    truncations, infos = envs.step(actions)`: NumPy arrays and a dict of them, so `torch.as_tensor(next_obs,
    device=device)` is a pageable copy every step, as is one of `infos["final_observation"][idx]` (hits; also
    through gym's four-tuple and `make_vec(.., vectorization_mode="sync")`). Decoys: a project environment whose
    `step` answers device tensors (FastTD3's wrappers), an environment of unknown type (`make_env()`), and `make_vec`
    without a vectorization mode (an environment's own vector entry point may answer tensors)."""
    check("""
        import gym as old_gym
        import gymnasium as gym
        import torch
        from project_envs import make_env


        class TorchEnv:
            def step(self, actions: torch.Tensor):
                return actions * 2, actions.sum(-1), actions.sum(-1) > 0, {}


        def policy(obs: torch.Tensor) -> torch.Tensor:
            return obs * 2


        if __name__ == "__main__":
            device = torch.device("cuda")
            envs = gym.vector.SyncVectorEnv([lambda: gym.make("CartPole-v1")])
            old = old_gym.vector.AsyncVectorEnv([lambda: old_gym.make("CartPole-v1")])
            made = gym.make_vec("CartPole-v1", 4, vectorization_mode="sync")
            custom = gym.make_vec("CartPole-v1", 4)
            wrapped = TorchEnv()
            unknown = make_env()
            obs, _ = envs.reset(seed=0)
            obs = torch.as_tensor(obs, device=device)  # <- GL130
            for step in range(100):
                actions = policy(obs)
                next_obs, rewards, terminations, truncations, infos = envs.step(actions.cpu().numpy())
                next_obs = torch.as_tensor(next_obs, device=device, dtype=torch.float)  # <- GL130
                final = torch.as_tensor(infos["final_observation"][0], device=device)  # <- GL130
                o2, r2, d2, i2 = old.step(actions.cpu().numpy())
                r2 = torch.as_tensor(r2, device=device)  # <- GL130
                o3, *_ = made.step(actions.cpu().numpy())
                o3 = torch.as_tensor(o3, device=device)  # <- GL130
                o4, *_ = custom.step(actions)
                o4 = torch.as_tensor(o4, device=device)
                o5, r5, d5, i5 = wrapped.step(actions)
                o5 = torch.as_tensor(o5, device=device)
                o6, r6, d6, t6, i6 = unknown.step(actions)
                o6 = torch.as_tensor(o6, device=device)
                obs = next_obs
    """)


def test_rows_of_a_numpy_array_and_opencv_results_are_host_arrays():
    """Iterating a NumPy array yields its rows (or NumPy scalars of a 1-d one), in a loop and in a comprehension:
    host data, so their `.tolist()` copies nothing (doctr's CTC decoder, `[seq.tolist() for seq in
    argmax(..).cpu().numpy()]`). OpenCV's Python functions take and return NumPy arrays (doctr's table predictor,
    `poly = cv2.perspectiveTransform(poly[None], m)[0]` then `poly.tolist()`), tuples of them unpack to arrays.
    Hits: the rows of the device tensor itself, in both forms."""
    src = """
        import cv2
        import torch


        def decode(logits: torch.Tensor, inverse):
            paths = torch.argmax(logits, dim=-1).cpu().numpy()
            words = [seq.tolist() for seq in paths]
            for row in paths:
                words.append(row.tolist())
            poly = cv2.perspectiveTransform(paths[None, :, :], inverse)[0]
            ok, buf = cv2.imencode(".png", paths)
            on_device = [seq.tolist() for seq in logits]
            for row in logits:
                words.append(row.tolist())
            return words, poly.tolist(), buf.tolist(), on_device
    """
    assert {f for f in findings(src, scope="all") if f[1] == "GL102"} == {(12, "GL102"), (14, "GL102")}


def test_another_librarys_data_loader_yields_host_batches():
    """A `*DataLoader` class of another library (PyG's `torch_geometric.loader.DataLoader`, MACE's vendored copy
    `mace.tools.torch_geometric.dataloader.DataLoader`, torchdata's `StatefulDataLoader`) collates each batch in host
    memory as torch's does: `next(iter(loader)).to(device)` is a pageable copy (MACE's calculator `_atoms_to_batch`).
    Decoys: a loader that places its batches (`device=`, as DGL's takes), one named for a device (a wrapper that moves
    each batch), and a loader class the project defines itself (read from its code)."""
    check("""
        import torch
        from torch_geometric.loader import DataLoader
        from torchdata.stateful_dataloader import StatefulDataLoader
        from mylib.loaders import DeviceDataLoader
        from dgl.dataloading import DataLoader as GraphLoader


        class LocalDataLoader:
            def __init__(self, dataset, device):
                self.dataset, self.device = dataset, device

            def __iter__(self):
                for item in self.dataset:
                    yield item.to(self.device)


        def run(model, dataset, device):
            batch = next(iter(DataLoader(dataset, batch_size=1))).to(device)  # <- GL131
            for data in StatefulDataLoader(dataset, batch_size=4):
                model(data.to(device))  # <- GL131
            for data in DeviceDataLoader(dataset, device):
                model(data.to(device))
            for data in GraphLoader(dataset, batch_size=4, device=device):
                model(data.to(device))
            for data in LocalDataLoader(dataset, device):
                model(data.to(device))
            return model(batch)
    """, scope="all")


def test_a_tensor_of_what_a_handed_in_object_returns_for_arrays_lives_on_the_host():
    """`torch.as_tensor(df_state.synthesis(spec.numpy()))`: a method of an object the function is handed, given NumPy
    arrays, returns host memory (DeepFilterNet's `enhance`, whose every return is that tensor: its caller's
    `audio.to("cpu")` copies nothing, and moving it to the device is a pageable copy). Decoys: the same object given a
    string (an encoder may answer on the device), a method of `self` (the project's own code, read on its own), and
    a tensor of what a module-level function returns."""
    check("""
        import torch
        from dsp import synthesize


        def enhance(model, df_state, audio):
            spec = model(audio.cuda()).cpu()
            return torch.as_tensor(df_state.synthesis(spec.numpy()))


        def embed(encoder, text: str):
            return torch.as_tensor(encoder.encode(text))


        def library(spec):
            return torch.as_tensor(synthesize(spec.numpy()))


        class Runner:
            def synth(self, spec):
                return torch.as_tensor(self.vocoder(spec.numpy()))


        def main(model, df_state, encoder, audio, text: str, runner: Runner, device):
            out = enhance(model, df_state, audio).to(device)  # <- GL131
            emb = embed(encoder, text).to(device)
            wav = runner.synth(audio).to(device)
            lib = library(audio).to(device)
            return out, emb, wav, lib
    """, scope="all")



def test_a_tensor_target_moves_to_where_that_tensor_lives():
    """`t.to(other)` moves `t` to `other`'s device and dtype (torch's `Tensor.to(other)`), as `t.to(other.device)`
    does: a host tensor so moved is copied up. The target is a tensor where the inference types one or where the
    unit reads it as one (`other.view(..)`, `other.dim()`, `other.size(1)`: no device, device string or dtype has
    those; LightGlue's `torch.tensor([w, h]).to(keypoints)`). Decoys: a target nothing types (`dt`: a dtype as
    likely), one read only through a dtype's method, a string split like a device name, a host tensor, a dtype, and a
    device tensor's own move."""
    check("""
        import torch
        from torch import nn


        def sample(keypoints, descriptors, s: int = 8):
            b, c, h, w = descriptors.shape
            keypoints = keypoints - s / 2 + 0.5
            keypoints /= torch.tensor([w * s, h * s]).to(keypoints)[None]  # <- GL131
            return keypoints.view(b, 1, -1, 2)


        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)

            def forward(self, x, img, dt, spec, name):
                out = self.lin(x) + sample(x, x)
                if img.dim() == 3:
                    img = img[None]
                a = torch.tensor(img.shape[-2:])[None].to(img)  # <- GL131
                b = torch.zeros(3).to(dt)
                c = torch.zeros(3).to(spec) if spec.is_floating_point else None
                host = torch.zeros(3)
                d = torch.zeros(host.size(0)).to(host)
                e = out.to(img)
                f = torch.zeros(3).to(img.dtype)
                parts = name.split(":")
                g = torch.zeros(3).to(name)
                return out, a, b, c, d, e, f, g, parts
    """, scope="all")


def test_type_as_moves_to_the_other_tensors_device():
    """`t.type_as(other)` is `t.type(other.type())`: `other`'s dtype and device, so a host tensor so cast is copied
    up (rife's `torch.ones(n, 1, h, w).type_as(t)`, OpenNMT's `torch.Tensor(b).type_as(enc_out)`). `type_as` takes only
    a tensor: one nothing types is read as `t.to(other.device)` is. Decoys: a cast to a host tensor, an empty legacy
    tensor (`torch.Tensor([])`: no byte moves, CogVideo's concat default), and a device tensor's own cast."""
    check("""
        import torch
        from torch import nn


        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)

            def forward(self, x, t, n: int):
                a = torch.ones(n, 1).type_as(t)  # <- GL131
                host = torch.zeros(3)
                b = torch.ones(3).type_as(host)
                c = torch.Tensor([]).type_as(x)
                d = self.lin(x).type_as(t)
                e = torch.Tensor([]).to(x.device)
                return a, b, c, d, e
    """, scope="all")


def test_clip_tokenizers_and_torchvision_decoders_build_on_the_host():
    """OpenAI's `clip.tokenize(texts)` and open_clip's `tokenize(texts)` fill a `torch.zeros(n, context_length,
    dtype=torch.long)` on the host; so does the tokenizer open_clip's `get_tokenizer(name)` returns, called on texts,
    also through a field the constructor stores (mmaudio's `self.tokenizer`, `None` in the other arm). torchvision's
    `read_image` / `decode_image` / `decode_png` decode on the host. Decoys: `decode_jpeg(data, device="cuda")`
    decodes on the device, a project `tokenize` of its own returns a device tensor, and a dtype-only cast moves
    nothing."""
    check("""
        import clip
        import open_clip
        import torch
        from torch import nn
        from torchvision.io import decode_image, decode_jpeg, decode_png, read_file


        def tokenize(texts, device):
            return torch.zeros(len(texts), 77, dtype=torch.long, device=device)


        class TextEncoder(nn.Module):
            def __init__(self, name, enable: bool):
                super().__init__()
                if enable:
                    self.tokenizer = open_clip.get_tokenizer(name)
                else:
                    self.tokenizer = None
                self.proj = nn.Linear(77, 8)

            def forward(self, texts, path, device):
                a = clip.tokenize(texts, truncate=True).to(device)  # <- GL131
                b = open_clip.tokenize(texts).to(device)  # <- GL131
                c = self.tokenizer(texts).to(device)  # <- GL131
                data = read_file(path)
                d = decode_image(data).to(device)  # <- GL131
                e = decode_png(data).cuda()  # <- GL131
                f = decode_jpeg(data, device="cuda").to(device)
                g = tokenize(texts, device).to(device)
                h = clip.tokenize(texts).to(torch.int32)
                return self.proj(a + b + c + g + h), d, e, f
    """, scope="all")


def test_a_deep_copy_of_a_host_value_stays_on_the_host():
    """`copy.deepcopy` copies each tensor on its own device: DiffDock's `data_list = [copy.deepcopy(orig_complex_graph)
    for _ in range(N)]` of a host loader item holds host graphs, so reading their fields with `.cpu()` waits for
    nothing, and moving one to the device is a pageable copy. Decoys: a deep copy of a device tensor still blocks
    on `.item()`, and moving it is no host copy."""
    src = """
        import copy
        import torch
        from torch.utils.data import DataLoader


        def run(model, dataset, device):
            for g in DataLoader(dataset, batch_size=1):
                graphs = [copy.deepcopy(g) for _ in range(3)]
                for graph in graphs:
                    print((graph['ligand'].pos + 1).detach().cpu())
                x = copy.deepcopy(g).pos.to(device)
                y = torch.ones(3, device="cuda").sum()
                print(copy.deepcopy(y).item(), copy.deepcopy(y).to(device))
    """
    assert findings(src, scope="all") == {(11, "GL131"), (13, "GL101"), (13, "GL106")}


def test_a_data_loader_carries_its_host_batches_across_calls():
    """torch's `DataLoader(dataset, ...)` with the default collate (no `collate_fn=`, no `pin_memory=`) yields host
    batches wherever it goes: stored in a field (`for b in self.loader`), returned by a project function, passed to a
    parameter, and through `iter(loader)` passed on (`next(data_iterator)` in a helper every caller hands one). Decoys:
    a loader with a collate function that moves each batch, a pinned one's batch moved with `non_blocking=True` (its
    blocking move still waits, as in the unit that makes the loader: GL131, session 48), one whose keywords are
    spread in (it may pin: the same two moves, session 49), and a helper whose caller passes an iterator over device tensors."""
    check("""
        import torch
        from torch.utils.data import DataLoader


        def make_loader(ds):
            return DataLoader(ds, batch_size=2)


        def fetch(data_iterator, device):
            batch = next(data_iterator)
            return batch.to(device)  # <- GL131


        def fetch_device(rows, device):
            return next(rows).to(device)


        def consume(loader, device):
            for b in loader:
                yield b.to(device)  # <- GL131


        class Trainer:
            def __init__(self, ds, model, kwargs):
                self.model = model
                self.loader = DataLoader(ds, batch_size=2)
                self.moved = DataLoader(ds, batch_size=2, collate_fn=lambda b: [t.cuda() for t in b])
                self.pinned = DataLoader(ds, batch_size=2, pin_memory=True)
                self.spread = DataLoader(ds, **kwargs)

            def train(self, ds, device):
                it = iter(self.loader)
                for _ in range(10):
                    self.model(fetch(it, device))
                for b in self.loader:
                    self.model(b.to(device))  # <- GL131
                for y in consume(self.loader, device):
                    self.model(y)
                first = next(iter(make_loader(ds))).to(device)  # <- GL131
                for b in self.moved:
                    self.model(b.to(device))
                for b in self.pinned:
                    self.model(b.to(device, non_blocking=True))
                    self.model(b.to(device))  # <- GL131
                for b in self.spread:
                    self.model(b.to(device, non_blocking=True))
                    self.model(b.to(device))  # <- GL131
                dev = iter([torch.ones(2, device=device)])
                return first, fetch_device(dev, device)
    """, scope="all")

def test_noise_from_a_host_generator_is_built_on_the_host():
    """`torch.Generator()` and `torch.Generator("cpu")` live on the host (a generator's default device is the CPU,
    whatever the default tensor device), `manual_seed(s)` answers the generator itself, and `g.device` is where it
    lives: `torch.randn(shape, generator=g, device=g.device)` of a host generator is a host tensor, in the unit that
    makes the generator and in a helper every caller hands one (FramePack's sampler: `generator=rnd` of a
    `torch.Generator("cpu").manual_seed(seed)`); so is `torch.manual_seed(s)`, which answers the default CPU
    generator. Decoys: a CUDA generator, one made on a device parameter, a helper one
    of whose callers passes a CUDA generator, and host noise that is never uploaded."""
    check("""
        import torch


        def sample(model, shape, device, generator):
            z = torch.randn(shape, generator=generator, device=generator.device).to(device=device)  # <- GL131
            return model(z)


        def sample_any(model, shape, device, generator):
            z = torch.randn(shape, generator=generator, device=generator.device).to(device=device)
            return model(z)


        def step(model, shape, device, seed):
            g = torch.Generator().manual_seed(seed)
            a = torch.randn(shape, generator=g, device=g.device).to(device)  # <- GL131
            c = torch.Generator("cuda").manual_seed(seed)  # <- GL203
            b = torch.randn(shape, generator=c, device=c.device).to(device)
            d = torch.Generator(device=device)  # <- GL203
            e = torch.rand(shape, generator=d, device=d.device).to(device)
            h = torch.Generator("cpu")
            kept = torch.randn(shape, generator=h, device=h.device)
            s = torch.manual_seed(seed)
            f = torch.rand(shape, generator=s, device=s.device).to(device)  # <- GL131
            rnd = torch.Generator("cpu").manual_seed(seed)
            out = sample(model, shape, device, rnd)
            out = out + sample_any(model, shape, device, rnd) + sample_any(model, shape, device, c)
            return model(a + b + e + f) + out, kept.mean()
    """, scope="all")


def test_a_helper_returns_noise_of_a_host_generator():
    """A project helper returning `torch.randn(.., generator=g, device=g.device)` of a host generator returns a host
    tensor to its callers (the call-site facts read `g.device` as the host). Decoy: the same helper on a CUDA
    generator."""
    check("""
        import torch


        def host_noise(shape, seed):
            g = torch.Generator("cpu").manual_seed(seed)
            return torch.randn(shape, generator=g, device=g.device)


        def cuda_noise(shape, seed):
            g = torch.Generator("cuda").manual_seed(seed)  # <- GL203
            return torch.randn(shape, generator=g, device=g.device)


        def step(x: torch.Tensor, shape, seed):
            a = host_noise(shape, seed).to(x.device)  # <- GL131
            b = cuda_noise(shape, seed).to(x.device)
            return x + a + b
    """, scope="all")


def test_an_ndarray_parameter_passed_as_data_by_keyword_is_uploaded():
    """`torch.tensor(data=array, device=d)` is `torch.tensor(array, device=d)`: an `np.ndarray` / `NDArray`
    parameter is host data (NumPy arrays live in host memory), copied up by keyword as by position (d3rlpy's
    `convert_to_torch`). Decoys: the parameter rebound to a CUDA tensor before the copy (the flow beats the
    annotation), and `device="cpu"`."""
    check("""
        import numpy as np
        import torch
        from numpy.typing import NDArray


        def to_torch(array: NDArray, device: str) -> torch.Tensor:
            return torch.tensor(data=array, dtype=torch.float32, device=device)  # <- GL130


        def to_torch2(array: np.ndarray, device: str) -> torch.Tensor:
            return torch.as_tensor(data=array, device=device)  # <- GL130


        def rebound(array: np.ndarray, device: str) -> torch.Tensor:
            array = torch.randn(2, 4, device="cuda")
            return torch.tensor(data=array, device=device)


        def kept(array: np.ndarray) -> torch.Tensor:
            return torch.tensor(data=array, device="cpu")


        def step(model, batch, device):
            return model(to_torch(batch, device) + to_torch2(batch, device) + rebound(batch, device)), kept(batch)
    """, scope="all")


def test_a_loader_batch_handed_to_a_helper_stays_on_the_host():
    """A batch of torch's default collate handed on is host data where it lands (ACT++'s `train_bc(train_dataloader,
    ..)` -> `forward_pass(data, policy)` -> `image_data.cuda()`): the loader a parameter every caller fills with a
    `DataLoader`, one a project function returns, or a local; the batch handed whole or unpacked (`for x, y in
    loader`). A module-level `forward_*` helper is no framework method: its callers' arguments are evidence. Decoys: a
    loader whose `collate_fn` moves each batch, a pinned loader's batch moved with `non_blocking=True`, and a loader
    parameter no caller in the tree fills."""
    check("""
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.l = nn.Linear(4, 4)

            def forward(self, x):
                return self.l(x)


        def to_cuda(items):
            return torch.stack([a for a, _ in items]).cuda(), torch.stack([b for _, b in items]).cuda()


        def forward_pass(data, policy):
            x, y = data
            x = x.cuda()  # <- GL131
            return policy(x)


        def step_item(x, policy):
            return policy(x.cuda())  # <- GL131


        def step_made(data, policy):
            return policy(data["x"].cuda())  # <- GL131


        def step_collated(data, policy):
            x, y = data
            return policy(x.cuda())


        def step_pinned(data, policy):
            x, y = data
            return policy(x.cuda(non_blocking=True))


        def step_orphan(data, policy):
            x, y = data
            return policy(x.cuda())


        def make_loader(ds):
            return DataLoader(ds, batch_size=2)


        def train(loader, policy, opt):
            for data in loader:
                forward_pass(data, policy).sum().backward()
                opt.step()
            for x, y in loader:
                step_item(x, policy).sum().backward()
                opt.step()


        def train_made(ds, policy, opt):
            for data in make_loader(ds):
                step_made(data, policy).sum().backward()
                opt.step()


        def train_collated(loader, policy, opt):
            for data in loader:
                step_collated(data, policy).sum().backward()
                opt.step()


        def train_pinned(loader, policy, opt):
            for data in loader:
                step_pinned(data, policy).sum().backward()
                opt.step()


        def train_orphan(loader, policy, opt):
            for data in loader:
                step_orphan(data, policy).sum().backward()
                opt.step()


        def main(ds, net: Net):
            opt = torch.optim.SGD(net.parameters())
            train(DataLoader(ds, batch_size=2), net, opt)
            train_made(ds, net, opt)
            train_collated(DataLoader(ds, batch_size=2, collate_fn=to_cuda), net, opt)
            train_pinned(DataLoader(ds, batch_size=2, pin_memory=True), net, opt)
    """, scope="all")



def test_a_pinned_loader_batch_handed_on_is_pinned_host_memory():
    """A loader with `pin_memory=True` pins each batch, and only host tensors can be pinned, so its batches are host
    data whatever its collate function builds (EasyOCR's `recognizer_predict(.., test_loader, ..)` of a
    `DataLoader(.., collate_fn=AlignCollate(..), pin_memory=True)`): a blocking move still waits (GL131), also in a
    helper the batch is handed to. Decoys: the same batches moved with `non_blocking=True`, whole, handed on and
    unpacked (a row of a pinned tensor is pinned memory too: no GL206), and a pinning setting with a collate function
    (not read)."""
    check("""
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.l = nn.Linear(4, 4)

            def forward(self, x):
                return self.l(x)


        class Collate:
            def __call__(self, items):
                return torch.stack(items)


        def forward_pass(data, policy):
            x, y = data
            return policy(x.cuda())  # <- GL131


        def step_async(data, policy):
            x, y = data
            return policy(x.cuda(non_blocking=True))


        def predict(model, loader, device):
            for images in loader:
                model(images.to(device))  # <- GL131


        def predict_async(model, loader, device):
            for images in loader:
                model(images.to(device, non_blocking=True))


        def predict_maybe(model, loader, device):
            for images in loader:
                model(images.to(device))


        def train(loader, policy, opt):
            for data in loader:
                forward_pass(data, policy).sum().backward()
                step_async(data, policy).sum().backward()
                opt.step()
            for x, y in loader:
                policy(x.cuda(non_blocking=True)).sum().backward()


        def local(ds, policy):
            loader = DataLoader(ds, batch_size=2, pin_memory=True)
            for data in loader:
                x, y = data
                policy(x.cuda(non_blocking=True))


        def main(ds, net: Net, pin: bool):
            opt = torch.optim.SGD(net.parameters())
            train(DataLoader(ds, batch_size=2, pin_memory=True), net, opt)
            predict(net, DataLoader(ds, collate_fn=Collate(), pin_memory=True), "cuda")
            predict_async(net, DataLoader(ds, collate_fn=Collate(), pin_memory=True), "cuda")
            predict_maybe(net, DataLoader(ds, collate_fn=Collate(), pin_memory=pin), "cuda")
    """, scope="all")


def test_a_pinned_loader_batch_on_one_host_path_waits_on_its_blocking_move():
    """ACT++'s `train_bc`: `forward_pass(data, policy)` gets a pinned loader's batch from the validation loop and
    `next(repeater(loader))` (a project generator: unknown) from the training one. The callers disagree, so the
    parameter has no kind, but along the validation path it is a pinned host batch (`HOST_PATH_KINDS`): its blocking
    `.cuda()` waits (GL131, two items on one line). Decoy: the same batch moved with `non_blocking=True`."""
    check("""
        from itertools import repeat

        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.l = nn.Linear(4, 4)

            def forward(self, x):
                return self.l(x)


        def load_data(ds):
            train = DataLoader(ds, batch_size=2, pin_memory=True)
            val = DataLoader(ds, batch_size=2, pin_memory=True)
            return train, val


        def forward_pass(data, policy):
            x, y = data
            x, y = x.cuda(), y.cuda()  # <- GL131
            return policy(x)


        def forward_async(data, policy):
            x, y = data
            return policy(x.cuda(non_blocking=True))


        def repeater(data_loader):
            for loader in repeat(data_loader):
                for data in loader:
                    yield data


        def train_bc(train_dataloader, val_dataloader, policy, opt):
            train_dataloader = repeater(train_dataloader)
            for step in range(100):
                with torch.inference_mode():
                    for batch_idx, data in enumerate(val_dataloader):
                        forward_pass(data, policy)
                        forward_async(data, policy)
                data = next(train_dataloader)
                forward_pass(data, policy).sum().backward()
                forward_async(data, policy).sum().backward()
                opt.step()


        def main(ds):
            net = Net().cuda()
            opt = torch.optim.SGD(net.parameters())
            train, val = load_data(ds)
            train_bc(train, val, net, opt)


        if __name__ == "__main__":
            main(None)
    """)


def test_a_list_filled_from_an_iterated_parameter_is_host_data():
    """A list filled with the elements of an iterated parameter (`for u in graph: ii.append(u)`, a dict of frame ids
    the caller builds) holds host data or unknown values once the index settles them, never a device tensor: its
    `torch.as_tensor(ii)` is a host tensor, and the forward's `.to(device=...)` of it uploads (DROID-SLAM's
    `graph_to_edge_list`). An element of an iterated parameter is a deferred batch only as a loader batch."""
    src = """
        import torch
        from torch import nn

        def edges(graph):
            ii, jj = [], []
            for u in graph:
                for v in graph[u]:
                    ii.append(u)
                    jj.append(v)
            return torch.as_tensor(ii), torch.as_tensor(jj)

        class Net(nn.Module):
            def forward(self, images, graph=None):
                ii, jj = edges(graph)
                ii = ii.to(device=images.device, dtype=torch.long)  # <- GL131
                jj = jj.to(device=images.device, dtype=torch.long)  # <- GL131
                return images[:, ii] + images[:, jj]
    """
    check(src, scope="all")


def test_a_loader_given_spread_keywords_yields_host_batches_that_may_be_pinned():
    """`DataLoader(ds, **loader_kwargs)` (StyleGAN3's `**data_loader_kwargs`): the keywords may pin its batches or
    not, but either way a batch of the default collate is host memory, and a blocking `.to(device)` of it waits
    (GL131), in the unit and handed on. Decoys: the same moves with `non_blocking=True` (pinning unknown, so a
    pageable copy is not claimed), a `*args` spread (a positional `collate_fn` may hide there) and a collate function
    of its own beside the spread keywords (not read)."""
    check("""
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.l = nn.Linear(4, 4)

            def forward(self, x):
                return self.l(x)


        def predict(model, loader, device):
            for (images,) in loader:
                model(images.to(device))  # <- GL131


        def predict_async(model, loader, device):
            for (images,) in loader:
                model(images.to(device, non_blocking=True))


        def train(ds, kw, args, collate, net: Net, device):
            it = iter(torch.utils.data.DataLoader(dataset=ds, batch_size=8, **kw))
            loader = DataLoader(ds, batch_size=8, **kw)
            spread = DataLoader(*args, **kw)
            own = DataLoader(ds, collate_fn=collate, **kw)
            for step in range(10):
                (x,) = next(it)
                net(x.to(device)).sum().backward()  # <- GL131
                (y,) = next(it)
                net(y.to(device, non_blocking=True)).sum().backward()
            for (x,) in loader:
                net(x.to(device)).sum().backward()  # <- GL131
            for (x,) in spread:
                net(x.to(device)).sum().backward()
            for (x,) in own:
                net(x.to(device)).sum().backward()
            predict(net, DataLoader(ds, **kw), device)
            predict_async(net, DataLoader(ds, **kw), device)
    """, scope="all")
