"""Library calls that make the host wait for the GPU, one row each, read from the library's own source.

One table for the hand rows of library objects whose calls wait (a loss scaler's step, a TensorBoard writer's
`add_scalar`, an experiment tracker's `log`): `facts/torch_kinds.py` derives the lookups its consumers ask
(`GRAD_SCALERS`, `SUMMARY_WRITERS`, `WRITER_READS`, `TRACKER_LOGS`) from these rows, so adding a library is one row
here. Rows generated from library sources (functions that read a parameter on the host) live in
`library_facts.json`; these are the object protocols the generator leaves out (methods, an object called).

A row waits only where the engine's facts say so, never by a name: the object must be one the data flow shows built
by a row's class (a construction in place, a local, a field every store fills so, a parameter every call site fills
so), and where `value` names an argument, that argument must be a device tensor (a host float, an `.item()` already
read, a value of unknown kind say nothing)."""

from __future__ import annotations

from typing import NamedTuple

# what a row's objects are, as the engine tracks them: a loss scaler (`kinds.Base.GRAD_SCALER`: built enabled on
# CUDA, its waiting call waits every time), a TensorBoard writer (`Base.SUMMARY_WRITER`), a tracker's module function,
# a library function or transform class that copies its first argument across (`copy`: the direction)
SCALER, WRITER, TRACKER, COPY = "scaler", "writer", "tracker", "copy"
D2H, H2D = "d2h", "h2d"


class Wait(NamedTuple):
    kind: str  # SCALER, WRITER, TRACKER or COPY
    owners: tuple[str, ...]  # the classes whose objects wait, or (TRACKER) the functions, by qualified name
    method: str  # the call that waits: a method, "__call__" (the object called), "" (the function itself)
    value: tuple[int, str] | None  # the argument that must hold a device tensor (position, keyword); None: any call
    skip: tuple[str, ...] = ()  # keywords whose `False` literal skips the wait (`need_update=False`)
    device_param: bool = False  # (SCALER) the constructor's first parameter is `device` ("cpu": no wait)
    source: str = ""  # where the library waits, as read
    copy: str | None = None  # (COPY) the direction of the copy inside: D2H or H2D
    tensor_only: bool = False  # (COPY) raises for anything but a tensor: an untyped argument is claimed on the device


def _names(*roots: str, tails: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{root}{tail}" for root in roots for tail in tails)


WAITS: tuple[Wait, ...] = (
    Wait(SCALER, ("torch.amp.GradScaler", "torch.amp.grad_scaler.GradScaler", "torch.GradScaler"), "step", None,
         device_param=True,
         source="torch 2.13 torch/amp/grad_scaler.py: `step` -> `_maybe_opt_step`, "
                "`sum(v.item() for v in found_inf_per_device.values())` (l. 371, 479)"),
    Wait(SCALER, ("torch.cuda.amp.GradScaler", "torch.cuda.amp.grad_scaler.GradScaler"), "step", None,
         source="torch/cuda/amp/grad_scaler.py: a subclass of torch.amp's fixing \"cuda\" (no `device` parameter)"),
    Wait(SCALER, ("torch.distributed.fsdp.sharded_grad_scaler.ShardedGradScaler",), "step", None, device_param=True,
         source="torch/distributed/fsdp/sharded_grad_scaler.py: subclasses torch.amp's (`device=\"cuda\"`), "
                "inherits `step`"),
    Wait(SCALER, _names("timm.utils.", "timm.utils.cuda.", tails=("NativeScaler",)), "__call__", None,
         skip=("need_update", "step_and_update"), device_param=True,
         source="timm/utils/cuda.py `NativeScaler`: `__init__(device='cuda')` builds `torch.amp.GradScaler(device)` "
                "(older: `torch.cuda.amp.GradScaler()`); `__call__(loss, optimizer, ..)` runs "
                "`self._scaler.step(optimizer)` unless `need_update` (older: `step_and_update`) is false"),
    *(Wait(WRITER, _names("torch.utils.tensorboard.", "torch.utils.tensorboard.writer.", "tensorboardX.",
                          "tensorboardX.writer.", tails=("SummaryWriter",)), method, value,
           source="torch 2.13 torch/utils/tensorboard/writer.py `" + method + "` -> summary.py -> "
                  "`_convert_np.make_np` -> `x.detach().cpu().numpy()`; tensorboardX `x2num.make_np` -> "
                  "`x.cpu().numpy()`")
      for method, value in (
          ("add_scalar", (1, "scalar_value")),  # -> `scalar` -> `make_np(tensor)`
          ("add_scalars", (1, "tag_scalar_dict")),  # each value -> `scalar`
          ("add_histogram", (1, "values")),  # -> `histogram` -> `make_np(values)`
          ("add_image", (1, "img_tensor")),  # -> `image` -> `make_np(tensor)`
          ("add_images", (1, "img_tensor")),  # -> `image`
          ("add_image_with_boxes", (1, "img_tensor")),  # -> `image_boxes` -> `make_np(tensor_image)`
          ("add_video", (1, "vid_tensor")),  # -> `video` -> `make_np(tensor)`
          ("add_audio", (1, "snd_tensor")),  # -> `audio` -> `make_np(tensor)`
          ("add_embedding", (0, "mat")),  # `mat = make_np(mat)` (writer.py:909)
          ("add_pr_curve", (1, "labels")),  # `make_np(labels), make_np(predictions)` (writer.py:1006)
      )),
    # copies of the first argument (a device tensor) inside the library, on every call
    Wait(COPY, _names("torchvision.transforms.", tails=("functional.to_pil_image", "v2.functional.to_pil_image")), "",
         (0, "pic"), copy=D2H, source="torchvision transforms/functional.py `to_pil_image`: `pic.cpu().numpy()`"),
    Wait(COPY, _names("torchvision.transforms.", tails=("ToPILImage", "transforms.ToPILImage", "v2.ToPILImage")),
         "__call__", (0, "pic"), copy=D2H, source="torchvision `ToPILImage.__call__` -> `F.to_pil_image(pic)`"),
    Wait(COPY, _names("torchvision.transforms.", tails=("functional.normalize", "v2.functional.normalize")), "",
         (0, "tensor"), copy=H2D,
         source="torchvision `normalize`: `torch.as_tensor(mean, device=tensor.device)` and the same of `std`, from "
                "Python lists (two pageable host-to-device copies)"),
    Wait(COPY, _names("torchvision.transforms.", tails=("Normalize", "transforms.Normalize", "v2.Normalize")),
         "__call__", (0, "tensor"), copy=H2D, source="torchvision `Normalize.forward` -> `F.normalize(tensor, ..)`"),
    Wait(COPY, _names("torchaudio.compliance.kaldi.", tails=("fbank", "mfcc", "spectrogram")), "", (0, "waveform"),
         copy=H2D,
         source="torchaudio compliance/kaldi.py: the mel banks (`fbank`, `mfcc` through it) and the log floor "
                "(`spectrogram`) built on the host and `.to(device)` (measured on an H100 for `fbank`: 101.3 ms "
                "behind a queued 100 ms kernel, benchmarks/accuracy/h200_checks_redoubt_pyannote.py)"),
    Wait(COPY, _names("basicsr.utils.", tails=("tensor2img", "img_util.tensor2img")), "", (0, "tensor"), copy=D2H,
         tensor_only=True,
         source="BasicSR utils/img_util.py `tensor2img` (CodeFormer, GFPGAN, Real-ESRGAN): "
                "`t.squeeze(0).float().detach().cpu()` of each tensor, then NumPy; raises for anything else"),
    Wait(COPY, ("wandb.Image", "wandb.data_types.Image", "wandb.sdk.data_types.image.Image"), "", (0, "data_or_path"),
         copy=D2H,
         source="wandb sdk/data_types/image.py `Image.__init__` -> `_initialize_from_data`: a torch tensor goes "
                "through `make_grid(data, normalize=True)` and `.mul(255)..permute(1, 2, 0).cpu().numpy()`"),
    Wait(TRACKER, ("wandb.log", "wandb.run.log"), "", (0, "data"),
         source="wandb 0.31.0 `Run.log` -> `_partial_history_callback` -> `json_dumps_safer_history` -> "
                "`json_friendly`: a 0-d tensor by `.item()` (util.py:588), any other by `.cpu().detach().numpy()`"),
)


def rows(kind: str) -> tuple[Wait, ...]:
    """The rows of one kind, in order."""
    return tuple(row for row in WAITS if row.kind == kind)
