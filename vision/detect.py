"""Locating cards and graded slabs in a photo (OpenCV, no learned weights).

Edges (Canny on grey with automatic and fixed thresholds, and on saturation/value) -> contours ->
convex hull -> a quadrilateral (polygon approximation or the minimum-area rectangle) whose corners
are refined by fitting a line to each side's contour points and intersecting them -> shape
filters (aspect ratio, fill) -> an edge-support check (most points along each side must lie on an
edge) -> non-maximum suppression that keeps outer quads and drops quads nested inside a kept one
(art boxes, a slab's card window) -> card or slab by aspect ratio (0.714 vs ~0.60). A dropped quad
that sits exactly where a slab holds its card marks the outer quad's ``label_end`` (the pipeline then
reads it as a slab whatever its measured proportions). An outline with neither gets two holder checks
from edges alone: a label box and window inside it (``framed``), or a holder around it (``holders``);
the pipeline confirms either by the label's colours.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK_SIDE = 1024
CARD_RATIO = 63.5 / 88.9  # 0.714
SLAB_RATIO = 0.60


@dataclass
class Found:
    quad: np.ndarray  # 4x2 float32, in the coordinates of the image given to locate()
    kind: str  # "card" | "slab"
    score: float  # edge support 0..1
    label_end: str | None = None  # "top" | "bottom": a card window nested where a slab holds it (see _window_end)
    holders: list[tuple[str, np.ndarray]] | None = None  # outlines of a holder around it (_holders)
    framed: list[str] | None = None  # ends at which a holder's label box and card window lie on edges (_framed)
    whole: bool = False  # the image itself is the card (``_frame_is_card``)

    @property
    def area(self) -> float:
        return float(cv2.contourArea(self.quad.astype(np.float32)))


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Corners clockwise from top-left, portrait: the first edge is a short side, the upper one."""
    pts = np.asarray(pts, dtype=np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))]
    e = [float(np.linalg.norm(pts[(i + 1) % 4] - pts[i])) for i in range(4)]
    starts = (0, 2) if e[0] + e[2] <= e[1] + e[3] else (1, 3)
    start = min(starts, key=lambda i: (pts[i][1] + pts[(i + 1) % 4][1]))
    return np.roll(pts, -start, axis=0)


def _edges(img: np.ndarray) -> list[np.ndarray]:
    grey = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    blur = cv2.GaussianBlur(grey, (5, 5), 0)
    med = float(np.median(blur))
    out = [cv2.Canny(blur, int(max(0, 0.66 * med)), int(min(255, 1.33 * med)) or 1)]
    out.append(cv2.Canny(blur, 30, 90))
    hsv = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_RGB2HSV)
    out.append(cv2.Canny(hsv[:, :, 1], 30, 90))
    return out


def _support_map(edge_maps: list[np.ndarray]) -> np.ndarray:
    """Every edge map's pixels, dilated: where an outline's side counts as lying on an edge."""
    union = np.zeros_like(edge_maps[0])
    for e in edge_maps:
        union |= e
    return cv2.dilate(union, np.ones((7, 7), np.uint8))


def _frame_edges(img: np.ndarray) -> np.ndarray:
    """Edge pixels on the image frame where something unlike the background touches it.

    A card cut off by the photo's edge leaves an open outline (Canny finds no edge along the
    frame); these pixels close it so its contour can be traced. They are never used as support
    nor for fitting a side (see ``_line_fit_quad``), so the card's cut corners are extrapolated.
    """
    h, w = img.shape[:2]
    blur = cv2.GaussianBlur(img, (5, 5), 0).astype(np.int16)
    ring = np.concatenate([blur[0], blur[-1], blur[:, 0], blur[:, -1]])
    bg = np.median(ring, axis=0)
    out = np.zeros((h, w), np.uint8)
    for sl in ((0, slice(None)), (h - 1, slice(None)), (slice(None), 0), (slice(None), w - 1)):
        line = blur[sl]
        out[sl] = np.where(np.abs(line - bg).sum(axis=1) > 60, 255, 0)
    return out


def _inside(pts: np.ndarray, w: int, h: int, margin: float = 3.0) -> np.ndarray:
    return (pts[:, 0] >= margin) & (pts[:, 0] <= w - 1 - margin) & (pts[:, 1] >= margin) & (pts[:, 1] <= h - 1 - margin)


def _line_fit_quad(contour: np.ndarray, approx: np.ndarray, size: tuple[int, int] | None = None) -> np.ndarray | None:
    """Refine 4 approximate corners by fitting a line to the contour points of each side (points on
    the image frame, ``size`` = (w, h), are left out: they are where the photo cut the card)."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    if size is not None:
        pts = pts[_inside(pts, *size)]
    corners = approx.reshape(4, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        ab = b - a
        length = float(np.linalg.norm(ab))
        if length < 10:
            return None
        d = ab / length
        n = np.array([-d[1], d[0]])
        rel = pts - a
        t = rel @ d
        dist = np.abs(rel @ n)
        sel = (t > 0.12 * length) & (t < 0.88 * length) & (dist < max(6.0, 0.04 * length))
        side_pts = pts[sel]
        if len(side_pts) < 5:
            lines.append((a, d))
            continue
        vx, vy, x0, y0 = cv2.fitLine(side_pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    out = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, p2 - p1)
        out.append(p1 + t[0] * d1)
    return np.array(out, np.float32)


def _support(edge_dil: np.ndarray, quad: np.ndarray) -> tuple[float, float]:
    """(mean, least) share of each side's points that lie on an edge; only points inside the image
    count, and a side with fewer than 10 of its 40 points inside, most of them beyond the frame, is
    skipped (at most one may be)."""
    h, w = edge_dil.shape
    per_side = []
    unseen = 0
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ts = np.linspace(0.06, 0.94, 40)
        pts = np.stack([a[0] + (b[0] - a[0]) * ts, a[1] + (b[1] - a[1]) * ts], 1)
        beyond = (pts[:, 0] < 0) | (pts[:, 0] > w - 1) | (pts[:, 1] < 0) | (pts[:, 1] > h - 1)
        pts = pts[_inside(pts, w, h)]
        if len(pts) < 10:
            if beyond.sum() < 20:  # a side lying along the frame is no card edge
                return 0.0, 0.0
            unseen += 1
            continue
        per_side.append(float((edge_dil[pts[:, 1].astype(int), pts[:, 0].astype(int)] > 0).mean()))
    if unseen > 1:
        return 0.0, 0.0
    return float(np.mean(per_side)), float(min(per_side))


def _visible_area(quad: np.ndarray, w: int, h: int) -> float:
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    inter, _ = cv2.intersectConvexConvex(quad.astype(np.float32), frame)
    return float(max(inter, 0.0))


def _iou(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """(IoU, share of the smaller quad inside the larger)."""
    ia, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    aa, ab = cv2.contourArea(a), cv2.contourArea(b)
    if ia <= 0:
        return 0.0, 0.0
    return ia / (aa + ab - ia), ia / max(1e-6, min(aa, ab))


def _quad_from(points: np.ndarray, approx: np.ndarray, hull_area: float, size: tuple[int, int], min_area: float,
               edge_dil: np.ndarray) -> Found | None:
    """A card or slab quad fitted to ``points`` if it passes the shape and edge-support filters."""
    w, h = size
    quad = _line_fit_quad(points, approx, size)
    if quad is None:
        return None
    quad = order_corners(quad)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2).astype(np.float32)):
        return None
    qa = cv2.contourArea(quad)
    seen = _visible_area(quad, w, h)
    if qa < min_area or seen < 0.6 * qa or hull_area / max(seen, 1) < 0.80:
        return None
    sides = [float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4)]
    short = min(sides)
    reach = max(float(-quad[:, 0].min()), float(quad[:, 0].max() - w), float(-quad[:, 1].min()),
                float(quad[:, 1].max() - h), 0.0)
    if reach > 0.35 * short:  # a corner extrapolated far past the frame: sides fitted to clutter
        return None
    if max(sides[0] / max(sides[2], 1), sides[2] / max(sides[0], 1),
           sides[1] / max(sides[3], 1), sides[3] / max(sides[1], 1)) > MAX_SIDE_RATIO:
        return None  # a side fitted to a shadow or clutter line, not a rectangle seen in perspective
    wq = (sides[0] + sides[2]) / 2
    hq = (sides[1] + sides[3]) / 2
    ratio = wq / max(hq, 1)
    # up to 0.95, not the card's 0.714 with a margin: a card seen at a slant measures nearly square
    # (one end foreshortened), and a tighter cap kept its art box instead, a crop with no name on it
    if not SLANTED_SLAB <= ratio <= 0.95:  # under NARROW only a closed outline (CLOSED_OUTLINE)
        return None
    mean_sup, min_sup = _support(edge_dil, quad)
    if mean_sup < 0.75 or min_sup < 0.5 or (ratio < NARROW and min(mean_sup, min_sup) < CLOSED_OUTLINE):
        return None
    kind = "slab" if ratio < (CARD_RATIO + SLAB_RATIO) / 2 else "card"
    return Found(quad=quad, kind=kind, score=mean_sup)


# opposite sides of a card seen in perspective: a phone photo's tilt shortens one by far less than half
MAX_SIDE_RATIO = 2.2
# the narrowest outline (wide to tall) taken as such; a slab (0.60) seen at a slant, its far end
# foreshortened, measures down to about 0.42 (an SGC 10 whose top and bottom measured 119 and 83 px, its
# sides 241 and 228, was located as nothing at all): down to SLANTED_SLAB an outline is taken only where
# every side lies on edges (CLOSED_OUTLINE), as a holder's does
NARROW, SLANTED_SLAB, CLOSED_OUTLINE = 0.48, 0.40, 0.95


# where a slab holds its card, as shares of the holder (vision/render.py: 620x1040, card at 60..560 x 290..990),
# and the card's printed area inside its 24 px border (what edges find when the white border melts into the
# plastic)
WINDOWS = ((0.097, 0.279, 0.903, 0.952), (0.135, 0.356, 0.865, 0.929))
# the label's box (26..594 x 26..232), and the holder below it: what an outline traced along the label box's
# inner edge instead of the holder's end covers
LABEL_BOX = (0.042, 0.025, 0.958, 0.223)
BELOW_LABEL = (0.0, 0.223, 1.0, 1.0)
FRAME_SUPPORT = (0.9, 0.7)  # (mean, least) side support of the label box and window inside an outline


UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


def _unit_box(box: tuple[float, float, float, float], end: str) -> np.ndarray:
    """The corners (TL, TR, BR, BL) of ``box``, given as shares of an upright holder, in the unit square
    of a holder whose label is at ``end`` (``"bottom"``: turned round; every box here is centred
    left to right, so only its rows move)."""
    x0, y0, x1, y1 = box
    a, b = (y0, y1) if end == "top" else (1 - y1, 1 - y0)
    return np.array([[x0, a], [x1, a], [x1, b], [x0, b]], np.float32)


def _window_end(outer: np.ndarray, inner: np.ndarray, tol: float = 0.07) -> str | None:
    """``"top"`` / ``"bottom"``: which end of ``outer`` has the label, when ``inner`` sits exactly where
    a slab's card window (or the card's printed area) does (upright or turned round; the window's margins are uneven, 0.28 above
    and 0.05 below, so they tell the label's end); ``None`` when it does not fit."""
    m = cv2.getPerspectiveTransform(order_corners(outer), UNIT)
    pts = cv2.perspectiveTransform(order_corners(inner).reshape(-1, 1, 2).astype(np.float32), m).reshape(4, 2)
    for box in WINDOWS:
        for end in ("top", "bottom"):
            if float(np.abs(pts - _unit_box(box, end)).max()) < tol:
                return end
    return None


def _part(outer: np.ndarray, box: tuple[float, float, float, float], end: str) -> np.ndarray:
    """The quad of ``box`` (shares of an upright holder) inside the holder ``outer`` whose label is at ``end``."""
    part = _unit_box(box, end).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(part, cv2.getPerspectiveTransform(UNIT, order_corners(outer))).reshape(4, 2)


def _framed(outer: np.ndarray, edge_dil: np.ndarray) -> list[str]:
    """The ends of ``outer`` at which a holder's label box and its card window (or the card's printed
    area) both lie on edges, every side (``FRAME_SUPPORT``): the inner structure of a holder whose
    outline was located but whose label could not be read (small, blurred) and whose window was not
    located as a quad of its own. A bare card has no edges there (its art box, name bar and header
    sit elsewhere); the caller also wants a label's colours at that end."""
    ends = [end for end in ("top", "bottom") if _box_seen(outer, LABEL_BOX, end, edge_dil)
            and any(_box_seen(outer, w, end, edge_dil) for w in WINDOWS)]
    return ends if len(ends) == 1 else []  # both: a busy picture (a photographed card) is all edges


def _box_seen(outer: np.ndarray, box: tuple[float, float, float, float], end: str, edge_dil: np.ndarray) -> bool:
    """Every side of ``box`` (``_part``) lies on edges (``FRAME_SUPPORT``)."""
    mean_sup, min_sup = _support(edge_dil, order_corners(_part(outer, box, end)))
    return mean_sup >= FRAME_SUPPORT[0] and min_sup >= FRAME_SUPPORT[1]


def _holders(card: np.ndarray, edge_dil: np.ndarray, others: list[np.ndarray]) -> list[tuple[str, np.ndarray]]:
    """``[(label end, holder quad)]``: outlines a slab holding ``card`` where its window (or its card's
    printed area, or the holder's part below the label) would have it, either way up, whose every side
    lies on edges in the photo like a located outline's (``_support``) and which overlaps no other
    detection but ones inside it (a label box located on its own). A holder whose outline did not
    close into one contour (its edge merged with the card's or the label's) leaves a part of it
    located alone; the caller confirms a candidate by the label's colours."""
    unit = UNIT.reshape(-1, 1, 2)
    h, w = edge_dil.shape
    out = []
    for box in (*WINDOWS, BELOW_LABEL):
        for end in ("top", "bottom"):
            m = cv2.getPerspectiveTransform(_unit_box(box, end), order_corners(card))
            quad = cv2.perspectiveTransform(unit, m).reshape(4, 2)
            quad = order_corners(quad)
            # wholly in the photo: a side beyond the frame would be skipped by _support, and straighten()
            # would fill the label's band by repeating the photo's border
            if _visible_area(quad, w, h) < 0.99 * cv2.contourArea(quad):
                continue
            mean_sup, min_sup = _support(edge_dil, quad)
            if mean_sup < 0.75 or min_sup < 0.5:
                continue
            if box == BELOW_LABEL and not _box_seen(quad, LABEL_BOX, end, edge_dil):
                # grown past the outline's end only, along its own sides: the label box must be seen too,
                # or a light background beyond a bare card's end passes for a label
                continue
            if any(_iou(quad, o)[1] > 0.2 and not _inside_of(o, quad) for o in others):
                continue
            out.append((end, quad))
    return out


def _inside_of(inner: np.ndarray, outer: np.ndarray) -> bool:
    """``inner`` lies (almost) wholly inside the larger ``outer``."""
    _, inside = _iou(inner, outer)
    return inside > 0.9 and cv2.contourArea(inner) < cv2.contourArea(outer)


# a scan or crop the card fills: the image's own proportions (short to long side) are a card's, within what a
# crop inside the edge, a thin border of scanner bed or a small turn gives
FRAME_RATIO = (0.62, 0.82)
# the share of edge pixels outside everything located (``_frame_is_card``): where that decides, on the real scans
# and their re-saves 0.032-0.17 (the card's own print and border), on phone-like photos of cards on a table
# 0.001-0.007, and 0.025 where a card lying there was not located (its print is outside what was)
FRAME_CONTENT = 0.03
# an outline covering this share of a card-shaped image or more is taken with all around it: a card's photo
# box covers 0.70-0.87 of a scan, and a card photographed that close loses little read as the whole image
FRAME_FILLED = 0.55


def _angle(quad: np.ndarray) -> float:
    """How far the quad's top edge is turned from the image's rows (degrees, -45..45)."""
    a = float(np.degrees(np.arctan2(quad[1][1] - quad[0][1], quad[1][0] - quad[0][0])))
    return (a + 45) % 90 - 45


def _several_cards(kept: list[Found], frame_area: float) -> bool:
    """Two or more outlines of one card's size and proportions, lying apart and turned alike: cards laid out
    side by side (a flatbed, a binder page), whatever lies around them."""
    cards = []
    for f in kept:
        sides = [float(np.linalg.norm(f.quad[(i + 1) % 4] - f.quad[i])) for i in range(4)]
        ratio = (sides[0] + sides[2]) / max(sides[1] + sides[3], 1)
        if 0.66 <= ratio <= 0.78 and f.area >= 0.04 * frame_area:
            cards.append(f)
    for i, a in enumerate(cards):
        for b in cards[i + 1:]:
            if (max(a.area, b.area) <= 1.6 * min(a.area, b.area) and _iou(a.quad, b.quad)[1] < 0.1
                    and abs(_angle(a.quad) - _angle(b.quad)) < 4):
                return True
    return False


def _without_pages(cands: list[Found], frame_area: float) -> list[Found]:
    """``cands`` (largest first) less every outline that holds three cards or more side by side
    (``_cards_apart``): a binder page or a sheet of pockets is no card, and keeping it would drop the cards
    nested in it as parts of one. (Two outlines of a card's proportions inside one card are found in some
    scans' pictures; three alike, apart, are not.)"""
    out = []
    for i, f in enumerate(cands):
        if f.area >= 0.1 * frame_area:
            inner = [g for g in cands[i + 1:] if g.area <= 0.3 * f.area and _iou(g.quad, f.quad)[1] > 0.9]
            if len(inner) >= 3 and _cards_apart(inner, frame_area) >= 3:
                continue
        out.append(f)
    return out


def _cards_apart(found: list[Found], frame_area: float) -> int:
    """How many outlines of a card's proportions (``_several_cards``' test), of about one size, turned alike
    and lying apart, ``found`` (largest first) holds."""
    picked: list[Found] = []
    for f in found:
        sides = [float(np.linalg.norm(f.quad[(i + 1) % 4] - f.quad[i])) for i in range(4)]
        ratio = (sides[0] + sides[2]) / max(sides[1] + sides[3], 1)
        if not (0.66 <= ratio <= 0.78 and f.area >= 0.03 * frame_area):
            continue
        if picked and (picked[0].area > 1.6 * f.area or abs(_angle(picked[0].quad) - _angle(f.quad)) >= 4):
            continue
        if all(_iou(f.quad, g.quad)[1] < 0.1 for g in picked):
            picked.append(f)
    return len(picked)


def _frame_is_card(size: tuple[int, int], kept: list[Found], edge_maps: list[np.ndarray]) -> bool:
    """The image itself is the card (a scan or crop it fills): the image has a card's proportions (either
    way round, ``FRAME_RATIO``) and what was located in it fills most of it (``FRAME_FILLED``: the card's
    photo box, or the card with a thin border around it), or beyond what was located, if anything, the image
    is still full of print (``FRAME_CONTENT``: bits of the card's picture were located, its name and border
    lie outside them; a blank image is no card). Cards laid out side by side are never one (``_several_cards``)."""
    w, h = size
    if not FRAME_RATIO[0] <= min(w, h) / max(w, h) <= FRAME_RATIO[1]:
        return False
    if _several_cards(kept, w * h):
        return False
    if max((f.area for f in kept), default=0.0) >= FRAME_FILLED * w * h:
        return True
    region = np.zeros((h, w), np.uint8)
    m = int(0.02 * max(w, h))  # the frame's own edge (a scan's cut, JPEG ringing) is left out
    region[m:h - m, m:w - m] = 1
    for f in kept:
        c = f.quad.mean(axis=0)
        cv2.fillConvexPoly(region, ((f.quad - c) * 1.04 + c).astype(np.int32), 0)
    left = region > 0
    if not left.any():
        return True
    union = np.zeros_like(edge_maps[0])
    for e in edge_maps:
        union |= e
    return float((union[left] > 0).mean()) >= FRAME_CONTENT


TURNED = (0.4, 10.0)  # degrees: a scan turned this much in its frame is straightened by its largest outline


def _frame_quad(size: tuple[int, int], kept: list[Found]) -> np.ndarray:
    """The card's outline in an image it fills: the frame, or, where the largest outline located in it (its
    photo box, its border's inner line) is turned ``TURNED`` degrees, the rectangle turned alike whose
    corners touch the frame's sides (a scan turned by its scanner or a phone, its corners filled in)."""
    w, h = size
    frame = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    big = max(kept, key=lambda f: f.area, default=None)
    if big is None or big.area < 0.3 * w * h or not TURNED[0] <= abs(_angle(big.quad)) <= TURNED[1]:
        return frame
    t = np.radians(_angle(big.quad))
    c, s = float(np.cos(t)), abs(float(np.sin(t)))
    cw, ch = (w * c - h * s) / (c * c - s * s), (h * c - w * s) / (c * c - s * s)
    if cw <= 0 or ch <= 0:
        return frame
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    half = np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]], np.float32) / 2
    return (half @ rot.T + np.array([w / 2, h / 2], np.float32)).astype(np.float32)


def locate(rgb: np.ndarray, *, max_objects: int = 12) -> list[Found]:
    """Every card and slab in the image, largest first (quads in the input's coordinates)."""
    h0, w0 = rgb.shape[:2]
    scale = WORK_SIDE / max(h0, w0)
    img = cv2.resize(rgb, (int(w0 * scale), int(h0 * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else rgb
    if scale >= 1:
        scale = 1.0
    h, w = img.shape[:2]
    min_area = 0.012 * h * w
    edge_maps = _edges(img)
    edge_dil = _support_map(edge_maps)
    frame = _frame_edges(img)
    cands: list[Found] = []
    for e in edge_maps:
        closed = cv2.morphologyEx(e | frame, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
        for c in contours:
            if len(c) < 40:
                continue
            hull = cv2.convexHull(c)
            ha = cv2.contourArea(hull)
            if ha < min_area or ha > 0.98 * h * w:
                continue
            peri = cv2.arcLength(hull, True)
            approx = cv2.approxPolyDP(hull, 0.02 * peri, True)
            if len(approx) != 4:
                approx = cv2.boxPoints(cv2.minAreaRect(hull)).reshape(4, 1, 2)
            # sides fitted to the hull's corners first, then to every outline point (a card cut by
            # the photo's edge has few hull corners on its visible sides)
            for points in (hull, c):
                found = _quad_from(points, approx, ha, (w, h), min_area, edge_dil)
                if found is not None:
                    cands.append(found)
                    break
    cands.sort(key=lambda f: f.area, reverse=True)
    cands = _without_pages(cands, w * h)
    kept: list[Found] = []
    for f in cands:
        drop = False
        for k in kept:
            iou, inside = _iou(f.quad, k.quad)
            if iou > 0.5 or inside > 0.7:
                drop = True
                if k.label_end is None and iou <= 0.5:
                    k.label_end = _window_end(k.quad, f.quad)
                if iou > 0.85 and f.score > k.score + 0.1:
                    k.quad, k.score = f.quad, f.score
                break
        if not drop:
            kept.append(f)
        if len(kept) >= max_objects:
            break
    if _frame_is_card((w, h), kept, edge_maps):
        kept = [Found(quad=_frame_quad((w, h), kept), kind="card", score=1.0, whole=True)]
    for f in kept:
        if f.whole:
            continue
        if f.label_end is None:
            f.framed = _framed(f.quad, edge_dil) or None
            found = _holders(f.quad, edge_dil, [k.quad for k in kept if k is not f])
            f.holders = [(end, (q / scale).astype(np.float32)) for end, q in found] or None
    for f in kept:
        f.quad = (f.quad / scale).astype(np.float32)
    return kept


def straighten(rgb: np.ndarray, quad: np.ndarray, kind: str = "card", *, width: int | None = None) -> np.ndarray:
    """Perspective-corrected crop of a quad (portrait)."""
    if width is None:
        width = 500 if kind == "card" else 620
    height = int(round(width / (CARD_RATIO if kind == "card" else SLAB_RATIO)))
    dst = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float32)
    m = cv2.getPerspectiveTransform(order_corners(quad), dst)
    return cv2.warpPerspective(rgb, m, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
