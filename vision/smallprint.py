"""Finding lines of small print that the OCR's text detector passes over.

On photos of real scans a player's name is often printed 6-10 px tall in a thin serif face; the
learned text detector returns no box for it at any scale tried, while the lines stand out plainly
as strokes darker (or lighter) than their surroundings. ``find_lines`` finds them the classic
way: a morphological black-hat (top-hat for light print) keeps thin strokes and drops flat areas
and large shapes, a threshold and a short horizontal closing join letters into words and words
into lines, and connected components of a line's proportions are kept (at two kernel sizes, for
print about 10 and 20 px tall in the straightened card). The boxes are cut out (``line_crops``)
for the recogniser: read as text (numbers such as "#96", names on a bar), and for the lines long
enough to hold a name, its per-frame probabilities for ``vision.spotting`` to score catalog names
against.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision import ocr

MIN_H, MAX_H = 6, 40  # a line's height in the 500 x 700 straightened card
KERNELS = (11, 21)  # print up to about 10 and 20 px tall
MAX_LINES = 14
NAME_ASPECT = 3.0  # a line at least this many times as wide as tall can hold a name; shorter ones
# ("#96") are read as text only
MARGINS = ((4, 3), (8, 6))  # (x, y) pixels around a line's box
PROBES = 4  # lines read both ways up to tell which way up the card is


def find_lines(rgb: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x, y, w, h)`` of text-like lines (at least 1.5 times as wide as tall), dark print and
    light print, small and larger, widest first; print found more than once is kept once."""
    g = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    joiner = cv2.getStructuringElement(cv2.MORPH_RECT, (9, 3))
    w_img = g.shape[1]
    boxes: list[tuple[int, int, int, int]] = []
    for size in KERNELS:
        kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
        for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
            hat = cv2.morphologyEx(g, op, kernel)
            thr = max(25.0, cv2.threshold(hat, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0])
            mask = cv2.morphologyEx(((hat >= thr) * 255).astype(np.uint8), cv2.MORPH_CLOSE, joiner)
            n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
            parts = [(int(x), int(y), int(w), int(h)) for x, y, w, h, area in stats[1:n]
                     if MIN_H <= h <= MAX_H and w >= h and 0.2 <= area / (w * h) <= 0.85]
            for box in [*_rows(parts), *parts]:  # whole lines first, then their words
                if 1.5 * box[3] <= box[2] <= 0.9 * w_img:
                    _keep(boxes, box)
    boxes.sort(key=lambda b: -b[2])
    return boxes[:MAX_LINES]


def _rows(parts: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Pieces side by side on one baseline joined into a line: blurred light print on a dark bar
    breaks into pieces of a word ("Bla" "stoise") that the recogniser cannot read apart."""
    rows: list[list[int]] = []
    for x, y, w, h in sorted(parts):
        for r in rows:
            gap = x - (r[0] + r[2])
            shared = min(r[1] + r[3], y + h) - max(r[1], y)
            if -w < gap <= 1.2 * max(h, r[3]) and shared >= 0.6 * min(h, r[3]):
                x1, y1 = max(r[0] + r[2], x + w), max(r[1] + r[3], y + h)
                r[0], r[1] = min(r[0], x), min(r[1], y)
                r[2], r[3] = x1 - r[0], y1 - r[1]
                break
        else:
            rows.append([x, y, w, h])
    return [tuple(r) for r in rows if (r[0], r[1], r[2], r[3]) not in parts]


def _keep(boxes: list[tuple[int, int, int, int]], box: tuple[int, int, int, int]) -> None:
    """Add ``box`` unless a box found already covers the same print; of the two the wider stays (the
    gaps between light letters, found as dark print, make a shorter box over the same word)."""
    for i, b in enumerate(boxes):
        if _overlap(box, b) > 0.7:
            if box[2] > b[2]:
                boxes[i] = box
            return
    boxes.append(box)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """Intersection over the smaller box."""
    iw = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    ih = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    return iw * ih / min(a[2] * a[3], b[2] * b[3])


def line_crops(rgb: np.ndarray, boxes: list[tuple[int, int, int, int]], margins=MARGINS, *,
               turned: bool = False) -> list[np.ndarray]:
    """Each box cut out with each of ``margins`` (by default a tight and a wide one), as BGR crops
    (the recogniser's input), upside down if ``turned``: on blurred print the recogniser's output
    shifts with the margin, so a caller spotting names keeps the better of the two."""
    h_img, w_img = rgb.shape[:2]
    out = []
    for x, y, w, h in boxes:
        for mx, my in margins:
            c = rgb[max(0, y - my):min(h_img, y + h + my), max(0, x - mx):min(w_img, x + w + mx), ::-1]
            out.append(np.ascontiguousarray(c[::-1, ::-1] if turned else c))
    return out


@dataclass
class SmallPrint:
    texts: list[str]  # lines read (recogniser score >= 0.5, two characters or more)
    boxes: list[tuple[int, int, int, int]]
    turned: bool  # read upside down past the probes
    probs: list[np.ndarray] = field(default_factory=list)  # per box, tight margin, as ``ocr.frames`` gives


def read(crop: np.ndarray, classes: np.ndarray, upside_down: bool | None = None) -> SmallPrint:
    """The lines found in a straightened card (RGB) read as text: the widest ``PROBES`` lines both
    ways up, the rest only the way the probes say the card is (reading every line both ways was
    most of this step's time); every line only one way when ``upside_down`` says which (the card's
    first read was sure of some line, ``pipeline.orientation``). ``classes``: the recogniser classes
    kept for spotting (``ocr.frames``)."""
    boxes = find_lines(crop)
    if upside_down is not None:
        lines = ocr.frames(line_crops(crop, boxes, margins=MARGINS[:1], turned=upside_down), classes)
        return SmallPrint(texts=_kept(lines), boxes=boxes, turned=upside_down, probs=[p for _, _, p in lines])
    crops = line_crops(crop, boxes, margins=MARGINS[:1])
    turned = line_crops(crop, boxes, margins=MARGINS[:1], turned=True)
    k = min(PROBES, len(crops))
    probe = ocr.frames([*crops[:k], *turned[:k]], classes)
    up, down = probe[:k], probe[k:]

    # turned only when at least two more lines read as words (two characters or more, score 0.6 or
    # more) that way: clutter reads as a lone confident "1" either way up, and a blurred name as
    # often reads with more confidence upside down ("iprog ming" 0.68 for Wayne Gretzky)
    def words(read: list[tuple[str, float, np.ndarray]]) -> int:
        return sum(sc >= 0.6 and _characters(t) >= 2 for t, sc, _ in read)

    flip = words(down) >= words(up) + 2
    rest = ocr.frames((turned if flip else crops)[k:], classes)
    return SmallPrint(texts=_kept([*up, *down, *rest]), boxes=boxes, turned=flip, probs=[p for _, _, p in [*(down if flip else up), *rest]])


def spotting_probs(crop: np.ndarray, found: SmallPrint, closer: list[np.ndarray], classes: np.ndarray,
                   upside_down: bool | None = None, known: list[np.ndarray | None] | None = None
                   ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Per-frame probabilities (``ocr.frames``, ``classes``) to spot in: ``(names, numbers)``, the
    lines long enough to hold a name, at both margins (the tight one already read by ``read``), and
    ``closer`` (the closer reads' line crops, as the text detector cut them: turned round when the
    card is known to lie upside down); for numbers every line found (tight margin) and ``closer``.
    ``known``: per closer crop, its probabilities read that way already (None: recognised here)."""
    names = [i for i, b in enumerate(found.boxes) if b[2] >= NAME_ASPECT * b[3]]
    wide = line_crops(crop, [found.boxes[i] for i in names], MARGINS[1:], turned=found.turned)
    have = list(known or [])[:len(closer)] + [None] * max(0, len(closer) - len(known or []))
    todo = [c for c, k in zip(closer, have) if k is None]
    if upside_down:
        todo = [np.ascontiguousarray(c[::-1, ::-1]) for c in todo]
    fresh = [p for _, _, p in ocr.frames([*wide, *todo], classes)]
    read = iter(fresh + [np.zeros((0, len(classes) + 1), np.float32)] * (len(wide) + len(todo) - len(fresh)))
    more = [next(read) for _ in wide]
    more += [next(read) if k is None else k for k in have]
    return [*(found.probs[i] for i in names), *more], [*found.probs, *more[len(wide):]]


CORNERS = ((0.02, 0.13, 0.55, 0.99), (0.02, 0.13, 0.01, 0.45))  # (y0, y1, x0, x1) of the card: the
# top band's right and left halves, where a card prints its number (read turned too: the bottom's)


def corner_crops(crop: np.ndarray, upside_down: bool | None = None) -> list[np.ndarray]:
    """The straightened card's corners (``CORNERS``) cut out as lines for the recogniser (BGR), of
    the card and of the card turned (a card upside down, or its bottom corners), each in colour and
    in grey levels (a red number on white, blurred, reads in grey when it does not in colour); only
    the card's top corners the right way up when ``upside_down`` says which way that is."""
    h, w = crop.shape[:2]
    turned = np.ascontiguousarray(crop[::-1, ::-1])
    out = []
    for img in {None: (crop, turned), False: (crop,), True: (turned,)}[upside_down]:
        for y0, y1, x0, x1 in CORNERS:
            c = img[int(y0 * h):int(y1 * h), int(x0 * w):int(x1 * w)]
            grey = cv2.cvtColor(cv2.cvtColor(c, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2BGR)
            out += [np.ascontiguousarray(c[:, :, ::-1]), np.ascontiguousarray(grey)]
    return out


def read_corners(crop: np.ndarray, classes: np.ndarray, upside_down: bool | None = None
                 ) -> tuple[list[str], list[np.ndarray]]:
    """A card's corners (``corner_crops``) read by the recogniser alone, without detecting lines there:
    on a small, blurred card the detector passes over a number in a corner that the recogniser still
    reads ("43" for Krabby #43). Returns the texts read (as ``read`` keeps them) and the per-frame
    probabilities (``ocr.frames`` over ``classes``) for spotting numbers."""
    found = ocr.frames(corner_crops(crop, upside_down), classes)
    texts = [_EDGES.sub("", t) for t, sc, _ in found if sc >= 0.5]
    return [t for t in texts if _characters(t) >= 2], [p for _, _, p in found]


# the card's edge and border cut into a corner read as a dash or a stroke before or after the print
# ("一16", "一*26", "—0619" for #16, #26, #0619): dropped, so that a number stands alone as it is printed
_EDGES = re.compile(r"^[^0-9A-Za-z#]+|[^0-9A-Za-z]+$")


def _kept(read: list[tuple[str, float, np.ndarray]]) -> list[str]:
    """The texts of lines read (``ocr.frames``) kept as read: recogniser score 0.5 or more, two
    letters or digits or more."""
    return [t for t, sc, _ in read if sc >= 0.5 and _characters(t) >= 2]


def _characters(text: str) -> int:
    """Letters and digits in ``text``: a lone "1" or "2" read in small print is a stroke or a dot as
    often as print, and as a card number it would match some card of a big set."""
    return sum(ch.isalnum() for ch in text)
