"""The image half of identification: decode -> locate -> straighten -> read -> features.

``analyse(data)`` is pure CPU work (call it off the event loop) and knows nothing about the
catalog: it returns one ``Reading`` per located card or slab with its quad, straightened crop,
OCR lines, visual features (for both upright orientations), the border colour, serial numbers
read, and for a slab the parsed label. ``tools/identify.py`` matches readings to catalog cards.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision import detect, ocr, smallprint
from vision.decode import decode
from vision.features import card_features
from vision.text import SlabLabel, parse_label, serials

OCR_SIZE = (360, 504)


@dataclass
class Reading:
    quad: np.ndarray
    kind: str  # card | slab
    detect_score: float
    crop: np.ndarray  # the straightened card (for a slab: the card window)
    lines: list[str] = field(default_factory=list)
    features: list[dict] = field(default_factory=list)  # [upright, rotated 180]
    serials: list[tuple[int, int]] = field(default_factory=list)
    label: SlabLabel | None = None
    slab_crop: np.ndarray | None = None
    # whether the straightened card is upside down (``orientation``), from the first read sure of a line
    # (the first read here, or a closer one in ``tools.identify``); None: not known
    upside_down: bool | None = None
    # the first read's lines as the text detector cut them (BGR, before the angle classifier turned any):
    # for spotting catalog names in them (``identification.closer``)
    line_crops: list[np.ndarray] = field(default_factory=list)
    # what the first read's recogniser output for each of them wide enough to hold a name (``ocr.Recognised``,
    # else None): spotting names in those lines reuses it instead of recognising them again
    line_probs: list[ocr.Recognised | None] = field(default_factory=list)
    read_s: float = 0.0  # seconds its first read took (straightened, read, features): a yardstick for closer reads


@dataclass
class Analysis:
    width: int
    height: int
    readings: list[Reading]
    timings: dict[str, float]


def _ocr_lines(img: np.ndarray, max_side: int = OCR_SIZE[1], crops: list | None = None,
               turned: list[bool] | None = None, probs: list | None = None, probs_aspect: float = smallprint.NAME_ASPECT,
               classes: np.ndarray | None = None) -> list[tuple[str, float, list]]:
    """OCR lines with score >= 0.5; boxes in the input's coordinates (``crops``, ``turned``, ``probs``,
    ``probs_aspect``, ``classes``: see ``ocr.read``; by default it keeps probabilities for crops wide enough
    to hold a name; ``turned`` is left empty when the engine gave no verdict per line)."""
    h, w = img.shape[:2]
    s = min(1.0, max_side / max(h, w))
    if s < 1.0:
        img = cv2.resize(img, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    flags: list[bool] = []
    found = ocr.read(img) if crops is None and turned is None else ocr.read(
        img, crops=crops, turned=flags, probs=probs, probs_aspect=probs_aspect, classes=classes)
    if turned is not None and len(flags) == len(found):
        turned.extend(f for f, (_, sc, _) in zip(flags, found) if sc >= 0.5)
    return [(t, sc, [[x / s, y / s] for x, y in b]) for t, sc, b in found if sc >= 0.5]


SURE_SCORE, SURE_CHARACTERS = 0.8, 3  # a line read this surely tells which way up the card is


def orientation(found: list[tuple[str, float, list]], turned: list[bool]) -> bool | None:
    """Whether a straightened card is upside down, from the lines its read was sure of (score
    ``SURE_SCORE`` or more, ``SURE_CHARACTERS`` letters or digits or more): a line the angle classifier
    turned the wrong way reads as garbage, so the sure lines read the right way up. True when every
    one of them was turned round, False when none was; None when no line was sure, they disagree, or
    the engine gave no verdicts."""
    if len(turned) != len(found):
        return None
    votes = {flag for (t, sc, _), flag in zip(found, turned)
             if sc >= SURE_SCORE and sum(ch.isalnum() for ch in t) >= SURE_CHARACTERS}
    return votes.pop() if len(votes) == 1 else None


def read_closer(crop: np.ndarray, *, grey: bool = False, way: list[bool | None] | None = None,
                probs: list[ocr.Recognised | None] | None = None, classes: np.ndarray | None = None
                ) -> tuple[list[str], list[np.ndarray]]:
    """A second, slower read of a straightened card whose first read named no card: the crop enlarged
    2x (bicubic) and sharpened, so print a few pixels tall reaches the recogniser with more detail.
    On photos of real scans it reads names the first pass missed or garbled about as often as the
    reverse, so the caller merges both reads. ``grey``: read the card's grey levels instead of its
    colours; on blurred, noisy photos the text detector then finds lines it misses in colour (red
    numbers on white, light names on a dark bar) while it loses others, so it is a further read, not
    a replacement. Returns the lines and the line crops, for ``read_turned``; ``way``, if given,
    gets which way up this read found the card (``orientation``); ``probs``, if given, gets for every line
    crop what the recogniser output for it, of ``classes`` only (``ocr.read``), for spotting names."""
    big = enlarged(cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY) if grey else crop)
    if grey:  # enlarged as one channel, a third of the work, then made the three alike channels the OCR takes
        big = cv2.cvtColor(big, cv2.COLOR_GRAY2RGB)
    line_crops: list[np.ndarray] = []
    turned: list[bool] = []
    found = _ocr_lines(big, 2 * max(crop.shape[:2]), line_crops, turned, probs, 0.0, classes)
    if way is not None:
        way.append(orientation(found, turned))
    return [t for t, _, _ in found], line_crops


def enlarged(img: np.ndarray) -> np.ndarray:
    """``img`` (any number of channels) enlarged 2x (bicubic) and sharpened (unsharp mask), each channel
    on its own."""
    big = cv2.resize(img, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
    return cv2.addWeighted(big, 1.8, cv2.GaussianBlur(big, (0, 0), 3), -0.8, 0)


def read_turned(line_crops: list[np.ndarray]) -> list[str]:
    """The closer read's lines recognised upside down (blurred upside-down print the angle classifier
    did not turn): the same lines as reading the turned card again, without detecting them again
    (detection is most of a read's time), in the turned card's reading order."""
    return [t for t, sc in ocr.recognise([np.ascontiguousarray(c[::-1, ::-1]) for c in reversed(line_crops)])
            if sc >= 0.5]


def read_card(crop: np.ndarray, *, with_ocr: bool = True) -> tuple[list[str], list[dict]]:
    feats = [card_features(crop), card_features(np.ascontiguousarray(crop[::-1, ::-1]))]
    lines = [t for t, _, _ in _ocr_lines(crop)] if with_ocr else []
    return lines, feats


def read_slab(slab: np.ndarray, *, with_ocr: bool = True,
              label_end: str | None = None) -> tuple[SlabLabel, np.ndarray, list[str], list[dict]]:
    """Label + card window of a straightened slab (either way up; ``label_end`` = "top" / "bottom"
    when the holder's geometry already told where the label is, see ``detect._window_end``: then
    the label's colours name the company when its text cannot be read)."""
    h, w = slab.shape[:2]
    found = _ocr_lines(slab, 704) if with_ocr else []
    top = [t for t, _, b in found if b and np.mean([p[1] for p in b]) < h * 0.25]
    bottom = [t for t, _, b in found if b and np.mean([p[1] for p in b]) > h * 0.75]
    label_top, label_bottom = parse_label(top), parse_label(bottom)
    if label_end is None:
        label_end = label_end_by_text_and_colour(slab, _end_bands(found, w, h))
    if label_end is not None:
        flipped = label_end == "bottom"
    else:
        flipped = label_bottom.company is not None and label_top.company is None
        if not flipped and label_top.company is None and label_bottom.company is None:
            flipped = _label_band_score(slab[::-1, ::-1]) > _label_band_score(slab)
    if flipped:
        slab = np.ascontiguousarray(slab[::-1, ::-1])
    label = label_bottom if flipped else label_top
    band_lines = bottom if flipped else top
    if label.company is None and (label_end is not None or (band_lines and (label.grade or label.cert))):
        # a holder's geometry, or a grade or cert read, but no company: judge the label's colours
        # (never for bare card text alone, whose border colours would pass for a label)
        label.company = label_colour_company(slab)
        label.by_colour = label.company is not None
    if label.company is not None and label.grade is None:
        label.grade = lone_grade(band_lines)
    window = slab[int(h * 0.279): int(h * 0.952), int(w * 0.097): int(w * 0.903)]
    window = cv2.resize(window, (500, 700), interpolation=cv2.INTER_AREA)
    card_lines = [t for t, _, b in found if b and (h * 0.25 <= np.mean([p[1] for p in b]) <= h * 0.75)]
    feats = [card_features(window), card_features(np.ascontiguousarray(window[::-1, ::-1]))]
    return label, window, without_grade(band_lines, label) + card_lines, feats


def without_grade(lines: list[str], label: SlabLabel) -> list[str]:
    """A slab's lines less its grade printed on its own: the label's, not a card number ("10" made
    Tentacruel #10 of a PSA 10 of Tentacruel #61)."""
    return [t for t in lines if label.grade is None or lone_grade([t]) != label.grade]


def label_colour_company(slab: np.ndarray) -> str | None:
    """Company from the label's colours (PSA red frame, BGS gold frame on beige, CGC blue frame, SGC
    black label); robust to blur. The label is judged as a whole, the share of its pixels of each
    hue: a light label with a clear majority hue, or a dark one; anything else (TAG's black frame on
    white, a card's name bar) is ``None``."""
    h, w = slab.shape[:2]
    band = slab[int(h * 0.03): int(h * 0.22), int(w * 0.05): int(w * 0.95)]
    hsv = cv2.cvtColor(band, cv2.COLOR_RGB2HSV).reshape(-1, 3).astype(np.int32)
    hue, sat, val = hsv[:, 0], hsv[:, 1], hsv[:, 2]
    if float(np.mean(val < 70)) > 0.5:
        return "SGC"
    if float(np.mean((val > 170) & (sat < 60))) < 0.5:
        return None
    col = (sat > 45) & (val > 60)
    share = {"PSA": float(np.mean(col & ((hue < 10) | (hue > 165)))),
             "BGS": float(np.mean(col & (hue >= 12) & (hue <= 35))),
             "CGC": float(np.mean(col & (hue >= 95) & (hue <= 130)))}
    best, second = sorted(share.values(), reverse=True)[:2]
    if best < 0.05 or best < 3 * second:
        return None
    return max(share, key=share.__getitem__)


def end_up(slab: np.ndarray, end: str) -> np.ndarray:
    """A straightened holder turned so that its ``end`` ("top" / "bottom") is at the top."""
    return slab if end == "top" else np.ascontiguousarray(slab[::-1, ::-1])


def label_end_by_colour(slab: np.ndarray) -> str | None:
    """``"top"`` / ``"bottom"`` when exactly one end of a straightened holder has a PSA, BGS or CGC
    label's colours. SGC's black label is left out: a card's dark name bar at the end of an outline
    looks the same (and, on photographed cards, a dark corner of the photo); it is read from its
    text instead."""
    ends = {end: label_colour_company(end_up(slab, end)) for end in ("top", "bottom")}
    hits = [end for end, c in ends.items() if c is not None]
    if len(hits) != 1 or ends[hits[0]] == "SGC":
        return None
    return hits[0]


_LONE_GRADE = re.compile(r"^(10|[1-9](?:\.5)?|[1-9]5)$")


def lone_grade(lines: list[str]) -> str | None:
    """A grade printed on its own in a label band ("9.5"; "95" is a 9.5 whose point blurred away)."""
    for line in lines:
        m = _LONE_GRADE.match(line.replace(" ", "").replace(",", "."))
        if m:
            g = m.group(1)
            return f"{g[0]}.5" if len(g) == 2 and g != "10" else g
    return None


def _end_bands(found: list, w: int, h: int) -> dict[str, list[tuple[str, float]]]:
    """OCR lines in the top and bottom quarter of a straightened holder, each with its centre's
    share of the width counted from the label's own left (the bottom band is upside down)."""
    out: dict[str, list[tuple[str, float]]] = {"top": [], "bottom": []}
    for t, _, b in found:
        if not b:
            continue
        cx, cy = float(np.mean([p[0] for p in b])) / w, float(np.mean([p[1] for p in b]))
        if cy < h * 0.25:
            out["top"].append((t, cx))
        elif cy > h * 0.75:
            out["bottom"].append((t, 1 - cx))
    return out


def label_end_by_text_and_colour(slab: np.ndarray, bands: dict[str, list[tuple[str, float]]]) -> str | None:
    """The end of a straightened holder with a label, from its colours and the text read in each end
    band (``_end_bands``), when both agree: that end alone has a label's colours
    (``label_end_by_colour``) and label text was read there (a company, a cert, or a lone grade in
    the right half, where labels print it), or a company was read there and the colours there name
    the same company (an SGC label only this way). Neither alone is enough: real cards have light,
    coloured ends, and lone numbers."""
    by_colour = label_end_by_colour(slab)
    for end, items in bands.items():
        lines = [t for t, _ in items]
        label = parse_label(lines)
        if label.company is not None and label_colour_company(end_up(slab, end)) == label.company:
            return end
        right_grade = lone_grade([t for t, cx in items if cx > 0.6])
        if by_colour == end and (label.company is not None or label.cert or right_grade):
            return end
    return None


def _label_band_score(slab: np.ndarray) -> float:
    """Contrast in the top band: a printed label has more of it than the card window edge."""
    h = slab.shape[0]
    band = cv2.cvtColor(slab[: int(h * 0.22)], cv2.COLOR_RGB2GRAY)
    return float(band.std())


def _holder_label_end(rgb: np.ndarray, quad: np.ndarray, found: list, size: tuple[int, int]) -> str | None:
    """For an outline found with a card's proportions: the end of it with a slab label, judged from
    the card OCR's text in each end band and the colours there (``label_end_by_text_and_colour``)."""
    bands = _end_bands(found, *size)
    if not any(parse_label(x).company or parse_label(x).cert or lone_grade(x)
               for x in ([t for t, _ in items] for items in bands.values())):
        return None  # no label text: skip the colour check
    return label_end_by_text_and_colour(detect.straighten(rgb, quad, "slab"), bands)


def _held(rgb: np.ndarray, f: detect.Found, found: Sequence[detect.Found] = ()) -> bool:
    """A card (or a part of a holder) located alone whose holder outline lies on the photo's edges
    (``detect._holders``) and whose label end has a label's colours there (``label_end_by_colour``;
    SGC's black too where the label box was located on its own among ``found``,
    ``_label_box_located``): the holder is the detection (read as a slab), not the card inside it.
    True when it was."""
    for end, quad in f.holders or []:
        slab = detect.straighten(rgb, quad, "slab")
        if label_end_by_colour(slab) == end or _label_box_located(slab, quad, end, found):
            f.quad, f.kind, f.label_end = quad, "slab", end
            return True
    return False


def _label_box_located(slab: np.ndarray, holder: np.ndarray, end: str, found: Sequence[detect.Found]) -> bool:
    """Another detection is the label box of ``holder`` at ``end`` (IoU 0.5 or more with where
    ``detect.LABEL_BOX`` lies) and that end has a label's colours, SGC's black label included: a
    card's dark name bar, which ``label_end_by_colour`` leaves out for looking the same, is not an
    object located beyond the card. (An SGC slab lying sideways, its holder's outline missed, was
    located as its label and its card: two answers for one slab, neither outlining it.)"""
    box = detect._part(holder, detect.LABEL_BOX, end)
    if not any(detect._iou(g.quad, box)[0] >= 0.5 for g in found):
        return False
    return label_colour_company(end_up(slab, end)) is not None


def _framed(rgb: np.ndarray, f: detect.Found) -> None:
    """An outline with a holder's label box and window at one end (``detect._framed``) and a label's
    colours at that end, the only end with them: a holder whose label could not be read (small,
    blurred) and whose proportions may read as a card's; read as a slab with its label there."""
    if not f.framed:
        return
    end = label_end_by_colour(detect.straighten(rgb, f.quad, "slab"))
    if end in f.framed:
        f.kind, f.label_end = "slab", end


def settle(rgb: np.ndarray, found: list[detect.Found]) -> list[detect.Found]:
    """Outlines settled as holders (``_framed``, else ``_held``); detections lying inside a holder
    recovered around them (a label box located on its own) are dropped."""
    grown = []
    for f in found:
        if f.label_end is None:
            _framed(rgb, f)
        if f.label_end is None and _held(rgb, f, found):
            grown.append(f)
    return [g for g in found if not any(g is not f and detect._inside_of(g.quad, f.quad) for f in grown)]


def analyse(data: bytes | np.ndarray, *, with_ocr: bool = True, max_objects: int = 12) -> Analysis:
    # max_objects: a binder page holds nine cards, a flatbed up to twelve (eight cut a page short)
    t0 = time.perf_counter()
    rgb = decode(data) if isinstance(data, (bytes, bytearray)) else data
    t1 = time.perf_counter()
    found = detect.locate(rgb, max_objects=max_objects)
    t2 = time.perf_counter()
    readings: list[Reading] = []
    for f in settle(rgb, found):
        began = time.perf_counter()
        if f.kind == "slab" or f.label_end is not None:
            # a card window nested where a slab holds it makes a slab even when perspective gave
            # the outline a card's proportions
            slab = detect.straighten(rgb, f.quad, "slab")
            label, window, lines, feats = read_slab(slab, with_ocr=with_ocr, label_end=f.label_end)
            if with_ocr and label.company is None and label.grade is None:
                # no label read: most often a card seen in perspective; read it as a card
                crop = detect.straighten(rgb, f.quad, "card")
                lines, feats = read_card(crop, with_ocr=with_ocr)
                readings.append(Reading(quad=f.quad, kind="card", detect_score=f.score, crop=crop, lines=lines,
                                        features=feats, serials=serials(lines), read_s=time.perf_counter() - began))
                continue
            r = Reading(quad=f.quad, kind="slab", detect_score=f.score, crop=window, lines=lines, features=feats,
                        label=label, slab_crop=slab)
        else:
            crop = detect.straighten(rgb, f.quad, "card")
            turned: list[bool] = []
            line_crops: list[np.ndarray] = []
            line_probs: list[ocr.Recognised | None] = []
            found_lines = _ocr_lines(crop, crops=line_crops, turned=turned, probs=line_probs) if with_ocr else []
            end = _holder_label_end(rgb, f.quad, found_lines, (crop.shape[1], crop.shape[0])) if found_lines else None
            if end is not None:  # a holder seen in perspective with a card's proportions
                slab = detect.straighten(rgb, f.quad, "slab")
                label, window, lines, feats = read_slab(slab, with_ocr=with_ocr, label_end=end)
                readings.append(Reading(quad=f.quad, kind="slab", detect_score=f.score, crop=window, lines=lines,
                                        features=feats, label=label, slab_crop=slab, serials=serials(lines),
                                        read_s=time.perf_counter() - began))
                continue
            lines = [t for t, _, _ in found_lines]
            feats = [card_features(crop), card_features(np.ascontiguousarray(crop[::-1, ::-1]))]
            r = Reading(quad=f.quad, kind="card", detect_score=f.score, crop=crop, lines=lines, features=feats,
                        upside_down=orientation(found_lines, turned), line_crops=line_crops,
                        line_probs=line_probs)
            label = parse_label(lines)
            if label.company and (label.grade or label.cert):  # a slab whose outline was missed
                r.kind, r.label = "slab", label
                r.lines = without_grade(lines, label)
        r.serials = serials(r.lines)
        r.read_s = time.perf_counter() - began
        readings.append(r)
    t3 = time.perf_counter()
    return Analysis(width=rgb.shape[1], height=rgb.shape[0], readings=readings,
                    timings={"decode": t1 - t0, "locate": t2 - t1, "read": t3 - t2})


def warm() -> None:
    """Load the text models and run each once (a card with a line of print, read as ``analyse`` reads one):
    the first read in a process otherwise pays 2-3 s for loading them and for onnxruntime's first runs."""
    card = np.full((350, 250, 3), 235, np.uint8)
    cv2.putText(card, "Card 12", (30, 300), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (20, 20, 20), 2)
    _ocr_lines(card, crops=[], turned=[])
    ocr.recognise([np.ascontiguousarray(card[280:310, 20:200, ::-1])])


def locate_only(data: bytes) -> tuple[np.ndarray, list[detect.Found]]:
    rgb = decode(data)
    return rgb, detect.locate(rgb)
