"""Text reading with rapidocr (PP-OCR det+rec+cls ONNX models shipped inside the wheel).

The engine loads once per process, lazily, behind a lock; ``read(rgb)`` returns ``[(text,
score, box)]`` in reading order; with ``crops=[]`` it also fills that list with each detected
line's crop (before the angle classifier turned any), so ``recognise`` can read the same lines
again another way (upside down) without detecting them again (that path calls the engine's own
steps, as ``RapidOCR.__call__`` in the pinned rapidocr 3.10.0 does). Limits: inputs are never
upscaled (``limit_type=max``) and onnxruntime uses at most ``CARDWISE_OCR_THREADS`` (default 2)
threads. The sessions are rapidocr's own with two onnxruntime options its config cannot express
(``_tuned``): denormal floats flushed to zero (the detector's convolutions otherwise spend about
half their time on them; text, scores and boxes came out identical on the recorded reads) and
threads that wait asleep instead of spinning (``CARDWISE_OCR_SPIN=1`` restores onnxruntime's
spinning; on a busy 2-core machine a spinning thread takes the core the next step needs).
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from pathlib import Path

import numpy as np

log = logging.getLogger("cardwise.vision")

_ENGINE = None
# line crops the recogniser runs at once in ``frames``: 8 wide crops made onnxruntime's buffers grow by
# ~250 MB for no gain in speed; 4 keep a process under its budget
BATCH = 4
# and at most this many times the recogniser's height (48 px) of padded width per batch: the model's
# working memory grows with it, batched or not (eight 8 x 450 px lines, four at a time: +545 MB for
# the call; one at a time +192 MB in the same time)
BATCH_WIDTH = 40
_LOCK = threading.Lock()


def available() -> bool:
    try:
        import rapidocr  # noqa: F401
    except Exception:  # pragma: no cover
        return False
    return True


def engine():
    global _ENGINE
    if _ENGINE is None:
        with _LOCK:
            if _ENGINE is None:
                from rapidocr import RapidOCR

                threads = int(os.environ.get("CARDWISE_OCR_THREADS", "2"))
                logging.getLogger("RapidOCR").setLevel(logging.ERROR)
                _ENGINE = RapidOCR(params={
                    "Global.log_level": "warning",
                    "Det.limit_type": "max",
                    "Det.limit_side_len": 736,
                    "EngineConfig.onnxruntime.intra_op_num_threads": threads,
                    "EngineConfig.onnxruntime.inter_op_num_threads": 1,
                })
                _tuned(_ENGINE, threads, spin=os.environ.get("CARDWISE_OCR_SPIN", "0") == "1")
                log.info("ocr engine loaded", extra={"threads": threads})
    return _ENGINE


def _tuned(eng, threads: int, *, spin: bool) -> None:
    """Hand each model (det, cls, rec) a session of its own before the engine loads it lazily (rapidocr
    takes a ready ``InferenceSession`` in a model's ``session`` setting, and then builds none itself):
    rapidocr's model file and options (its onnxruntime engine sets only these) plus denormals as
    zero and, unless ``spin``, no spinning threads. Loading each model once keeps the resident
    memory what rapidocr's own sessions take."""
    import onnxruntime as ort
    from omegaconf import flag_override
    from rapidocr.inference_engine.base import FileInfo, InferSession

    for section in ("Det", "Cls", "Rec"):
        cfg = eng.cfg[section]
        model = InferSession.get_model_url(FileInfo(engine_type=cfg.engine_type, ocr_version=cfg.ocr_version,
                                                    task_type=cfg.task_type, lang_type=cfg.lang_type,
                                                    model_type=cfg.model_type))
        path = Path(eng.cfg.Global.model_root_dir) / Path(model["model_dir"]).name
        opts = ort.SessionOptions()
        opts.log_severity_level = 4
        opts.enable_cpu_mem_arena = False  # an arena measured ~10 % faster but +40 MB resident
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.add_session_config_entry("session.set_denormal_as_zero", "1")
        if not spin:
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
        with flag_override(cfg, "allow_objects", True):
            cfg.session = ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


# the recogniser's per-frame output for one line crop as the first read recognised it: whether the angle
# classifier had turned the crop round first, and the frames x ``charset()`` probabilities
Recognised = tuple[bool, np.ndarray]


def read(rgb: np.ndarray, *, crops: list[np.ndarray] | None = None, turned: list[bool] | None = None,
         probs: list[Recognised | None] | None = None, probs_aspect: float = 0.0, classes: np.ndarray | None = None
         ) -> list[tuple[str, float, list]]:
    """``[(text, score, box)]``; ``crops``: see the module's notes; ``turned``: filled with one flag per
    line returned, whether the angle classifier turned it round before it was recognised (as
    rapidocr does: its label "180" above the classifier's threshold); ``probs`` (with ``crops``): filled
    with one entry per crop, what the recogniser output for it (``Recognised``) for crops at least
    ``probs_aspect`` times as wide as tall, else None, so later steps need not recognise them again;
    ``classes``: keep only those columns of them (``columns``), as ``frames`` gives them."""
    if not available():  # pragma: no cover
        return []
    eng = engine()
    bgr = np.ascontiguousarray(rgb[:, :, ::-1])
    flags: list[bool] = []
    if crops is None and turned is None:
        res = eng(bgr)
    else:  # the engine's own steps (RapidOCR.run_ocr_steps), keeping the line crops, the classifier's verdicts
        # and the recogniser's output
        img, op_record = eng.preprocess_img(bgr)
        det, cls, rec, line_crops, kept = _steps(eng, img, op_record, probs_aspect if probs is not None else None,
                                                 classes)
        verdicts: list[bool] = []
        if rec.txts is not None:  # as build_final_output keeps the lines: those with text
            thresh = eng.cfg.Cls.cls_thresh
            verdicts = [bool(lab == "180" and sc > thresh) for lab, sc in cls.cls_res or [("", 0.0)] * len(rec.txts)]
            flags = [v for v, t in zip(verdicts, rec.txts) if t.strip()]
        res = eng.build_final_output(bgr, det, cls, rec, line_crops, op_record)
        if res is not None and res.txts is not None and crops is not None:
            crops.extend(line_crops)
            if probs is not None:
                probs.extend(None if p is None or len(verdicts) != len(kept) else (verdicts[i], p)
                             for i, p in enumerate(kept))
    if res is None or res.txts is None:
        return []
    if turned is not None and len(flags) == len(res.txts):
        turned.extend(flags)
    boxes = res.boxes if res.boxes is not None else [None] * len(res.txts)
    out = []
    for txt, score, box in zip(res.txts, res.scores, boxes):
        b = [[float(x), float(y)] for x, y in box] if box is not None else []
        out.append((str(txt), float(score), b))
    return out


def _steps(eng, img: np.ndarray, op_record: dict, aspect: float | None, classes: np.ndarray | None = None):
    """``RapidOCR.run_ocr_steps`` (rapidocr 3.10.0, every step on) with its recogniser's steps done here
    (``_recognised``) so as to keep, for each crop ``aspect`` times as wide as tall or more (none when
    ``aspect`` is None), the probabilities behind its reading (of ``classes`` only, if given):
    ``(det, cls, rec, crops, probs)``."""
    from rapidocr.ch_ppocr_cls import TextClsOutput
    from rapidocr.ch_ppocr_det import TextDetOutput
    from rapidocr.ch_ppocr_rec import TextRecOutput
    from rapidocr.main import RapidOCRError

    try:
        line_crops, det = eng.detect_and_crop(img, op_record)
    except RapidOCRError:
        return TextDetOutput(), TextClsOutput(), TextRecOutput(), [], []
    try:
        cls_crops, cls = eng.cls_and_rotate(line_crops)
    except RapidOCRError:
        return det, TextClsOutput(), TextRecOutput(), [], []
    keep = [aspect is not None and min(c.shape[:2]) >= 2 and c.shape[1] >= aspect * c.shape[0] for c in line_crops]
    rec, probs = _recognised(eng, cls_crops, keep, classes)
    if rec.txts is None:
        return det, cls, TextRecOutput(), [], []
    return det, cls, rec, line_crops, probs


def _recognised(eng, crops: list[np.ndarray], keep: list[bool], classes: np.ndarray | None = None):
    """``TextRecognizer.__call__`` (rapidocr 3.10.0: crops sorted by proportions, run ``rec_batch_num`` at a
    time, each batch padded to its widest, the same decoding), so its readings are the engine's own, plus
    each kept crop's probabilities cut to the frames over its own width (as ``_frames`` cuts them), and to
    ``classes`` (``columns``) if given: ``(TextRecOutput, [probabilities or None per crop])``."""
    from rapidocr.ch_ppocr_rec import TextRecOutput

    rec = eng._load_rec_model()
    probs: list[np.ndarray | None] = [None] * len(crops)
    if not crops:
        return TextRecOutput(), probs
    _, img_h, img_w = rec.rec_image_shape[:3]
    ratios = [c.shape[1] / float(c.shape[0]) for c in crops]
    order = np.argsort(np.array(ratios))
    out: list[tuple[str, float]] = [("", 0.0)] * len(crops)
    for beg in range(0, len(crops), rec.rec_batch_num):
        idx = [int(i) for i in order[beg:beg + rec.rec_batch_num]]
        wh = [ratios[i] for i in idx]
        widest = max(img_w / img_h, *wh)
        x = np.concatenate([rec.resize_norm_img(crops[i], widest)[np.newaxis, :] for i in idx]).astype(np.float32)
        preds = rec.session(x)
        lines, _ = rec.postprocess_op(preds, False, wh_ratio_list=wh, max_wh_ratio=widest)
        preds = np.asarray(preds, dtype=np.float32)
        for k, i in enumerate(idx):
            out[i] = lines[k]
            if keep[i]:
                own = max(img_w / img_h, ratios[i])
                p = preds[k, :min(preds.shape[1], int(math.ceil(preds.shape[1] * own / widest)))]
                probs[i] = p.copy() if classes is None else columns(p, classes)
    txts, scores = zip(*out)
    # no word boxes, as rapidocr's recogniser fills them when not asked for any
    return TextRecOutput(list(crops), tuple(txts), list(scores), tuple([None] * len(crops)), 0.0), probs  # type: ignore[arg-type]


def recognise(line_crops: list[np.ndarray]) -> list[tuple[str, float]]:
    """The recogniser alone on line crops (BGR, as ``read`` keeps them): ``[(text, score)]``."""
    if not line_crops or not available():
        return []
    res = engine().recognize_txt(list(line_crops))
    if res is None or res.txts is None:
        return []
    return [(str(t), float(sc)) for t, sc in zip(res.txts, res.scores)]


YARDSTICK_SHAPE = (1, 3, 736, 512)  # a closer read's detection of a straightened card


def yardstick_ms(runs: int = 20) -> float:
    """The machine's speed at this work, for comparing latency figures taken on different machines
    (machines of one kind differ: the text detector on this input took 49 ms on one and 78 ms on
    another, and every latency scales with it): the median milliseconds of the text detector's model
    alone on a fixed ``YARDSTICK_SHAPE`` input, after three runs to warm it up."""
    det = engine()._load_det_model()
    x = np.random.default_rng(0).random(YARDSTICK_SHAPE, dtype=np.float32)
    times = []
    for i in range(runs + 3):
        t = time.perf_counter()
        det.session(x)
        if i >= 3:
            times.append(time.perf_counter() - t)
    return 1000 * float(np.median(times))


def yardstick_line(ms: float) -> str:
    """``yardstick_ms`` as the eval and the benches print it."""
    h, w = YARDSTICK_SHAPE[2:]
    return f"machine yardstick {ms:.1f} ms (the text detector alone on a {w} x {h} px input)"


def _recogniser():
    """rapidocr's text recogniser (it loads the model on first use, so one empty read comes first)."""
    eng = engine()
    if eng.text_rec is None:
        eng.recognize_txt([np.zeros((32, 96, 3), np.uint8)])
    return eng.text_rec


def charset() -> list[str]:
    """The recogniser's output classes: index 0 is the CTC blank, then one character each."""
    return list(_recogniser().postprocess_op.character)


def _frames(line_crops: list[np.ndarray], batch: int):
    """``(index, probabilities)`` per usable crop: the recogniser run on crops of similar proportions
    together (``batch`` at a time, like the engine's own batches of lines), each cut to the frames over its own
    width, as if it had run alone. The arrays are views into the batch's output (copy what you keep)."""
    rec = _recogniser()
    _, img_h, img_w = rec.rec_image_shape[:3]
    ratios = [max(img_w / img_h, c.shape[1] / max(c.shape[0], 1)) for c in line_crops]
    usable = sorted((i for i, c in enumerate(line_crops) if min(c.shape[:2]) >= 2), key=lambda i: ratios[i])
    groups: list[list[int]] = []
    for i in usable:  # narrowest first: a batch is padded to its widest crop
        if groups and len(groups[-1]) < batch and ratios[i] * (len(groups[-1]) + 1) <= BATCH_WIDTH:
            groups[-1].append(i)
        else:
            groups.append([i])
    for idx in groups:
        widest = max(ratios[i] for i in idx)
        x = np.stack([rec.resize_norm_img(line_crops[i], widest) for i in idx]).astype(np.float32)
        preds = np.asarray(rec.session(x), dtype=np.float32)
        for k, i in enumerate(idx):
            yield i, preds[k, :min(preds.shape[1], int(math.ceil(preds.shape[1] * ratios[i] / widest)))]


def frame_probs(line_crops: list[np.ndarray], *, batch: int = BATCH) -> list[np.ndarray]:
    """The recogniser's per-frame class probabilities (frames x ``charset()``) for each line crop
    (BGR), in the order given: what the recogniser saw in each slice of the line, before its decoder
    kept only the likeliest character per slice. A crop under 2 px either way gets no frames. Each
    array is frames x ~18,700 classes (7 MB for a 100-frame line): keep few, or use ``frames``."""
    if not line_crops or not available():
        return []
    out = [np.zeros((0, 1), np.float32)] * len(line_crops)
    for i, probs in _frames(line_crops, batch):
        out[i] = probs.copy()
    return out


def frames(line_crops: list[np.ndarray], classes: np.ndarray, *, batch: int = BATCH
           ) -> list[tuple[str, float, np.ndarray]]:
    """For each line crop (BGR): the recogniser's reading ``(text, score)`` and its per-frame
    probabilities of ``classes`` only (indices into ``charset()``, e.g. the letters of a catalog's
    names), with one last column holding each frame's largest probability over every class (what
    the recogniser's own best reading needs). Lets a caller ask how likely a given text is
    (``vision.spotting``) when the decoded text is garbled, at a few hundred bytes a frame."""
    if not line_crops or not available():
        return []
    out = [("", 0.0, np.zeros((0, len(classes) + 1), np.float32))] * len(line_crops)
    for i, probs in _frames(line_crops, batch):
        text, score = decode(probs)
        out[i] = (text, score, columns(probs, classes))
    return out


def columns(probs: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Full per-frame probabilities (``frame_probs``) cut down as ``frames`` keeps them: ``classes``, then
    each frame's largest probability over every class."""
    return np.concatenate([probs[:, classes], probs.max(axis=1, keepdims=True)], axis=1)


def decode(probs: np.ndarray) -> tuple[str, float]:
    """The recogniser's own reading of ``frame_probs`` output: ``(text, score)``."""
    if probs.shape[0] == 0:
        return "", 0.0
    (text, score), = _recogniser().postprocess_op(probs[np.newaxis])[0]
    return str(text), float(score)
