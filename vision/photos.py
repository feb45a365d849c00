"""Phone-like photos of cards and slabs with ground truth (for tests and the evaluation).

``make_photo(objects, difficulty, seed)`` places 1-4 object images (rendered faces, real scans,
slabs) on a cluttered background with rotation, perspective, lighting, glare, blur, noise and
JPEG compression, and returns ``(jpeg bytes, [Truth(quad, index)])``. Difficulty ``easy`` /
``medium`` / ``hard`` scales every degradation. Deterministic in ``seed``.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

LEVELS = {
    "easy": dict(rot=12, persp=0.03, blur=(0.0, 0.6), noise=2, jpeg=(85, 95), glare=0.0, scale=(0.55, 0.8)),
    "medium": dict(rot=40, persp=0.07, blur=(0.3, 1.2), noise=5, jpeg=(70, 90), glare=0.3, scale=(0.45, 0.75)),
    "hard": dict(rot=180, persp=0.12, blur=(0.8, 2.2), noise=9, jpeg=(45, 75), glare=0.6, scale=(0.35, 0.65)),
}


@dataclass
class Truth:
    quad: np.ndarray  # 4x2, corners of the object in the photo (TL, TR, BR, BL of the upright object)
    index: int  # which input object


def _background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = rng.integers(40, 200, 3)
    bg = np.ones((h, w, 3), np.float32) * base
    yy, xx = np.mgrid[0:h, 0:w]
    bg += (np.sin(xx / rng.uniform(20, 80)) * rng.uniform(0, 12))[..., None]  # wood-like grain
    img = np.clip(bg, 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(3, 10))):  # clutter: pens, papers, coins
        col = tuple(int(v) for v in rng.integers(0, 255, 3))
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        if rng.random() < 0.5:
            cv2.line(img, (x, y), (x + int(rng.integers(-300, 300)), y + int(rng.integers(-300, 300))), col,
                     int(rng.integers(2, 10)))
        else:
            cv2.circle(img, (x, y), int(rng.integers(10, 60)), col, -1)
    return img


def make_photo(objects: list[np.ndarray], difficulty: str = "easy", seed: int = 0,
               size: tuple[int, int] = (1600, 1200)) -> tuple[bytes, list[Truth]]:
    p = LEVELS[difficulty]
    rng = np.random.default_rng(seed)
    w, h = size
    canvas = _background(rng, w, h).astype(np.float32)
    n = len(objects)
    cols = 1 if n == 1 else 2
    rows = 1 if n <= 2 else 2
    cell_w, cell_h = w / cols, h / rows
    truths = []
    for i, obj in enumerate(objects):
        cx = (i % cols + 0.5) * cell_w + rng.uniform(-0.06, 0.06) * cell_w
        cy = (i // cols + 0.5) * cell_h + rng.uniform(-0.06, 0.06) * cell_h
        oh, ow = obj.shape[:2]
        target_h = min(cell_h, cell_w * oh / ow) * rng.uniform(*p["scale"]) * (1.0 if n > 1 else 1.15)
        s = target_h / oh
        angle = np.deg2rad(rng.uniform(-p["rot"], p["rot"]))
        if n > 1:
            angle = np.deg2rad(rng.uniform(-min(p["rot"], 25), min(p["rot"], 25))) + (np.pi if rng.random() < 0.1 and p["rot"] >= 180 else 0)
        ca, sa = np.cos(angle), np.sin(angle)
        src = np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], np.float32)
        centred = (src - [ow / 2, oh / 2]) * s
        rot = np.stack([centred[:, 0] * ca - centred[:, 1] * sa, centred[:, 0] * sa + centred[:, 1] * ca], 1)
        jitter = rng.uniform(-p["persp"], p["persp"], (4, 2)) * target_h
        dst = (rot + [cx, cy] + jitter).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(obj.astype(np.float32), m, (w, h), flags=cv2.INTER_LINEAR)
        mask = cv2.warpPerspective(np.ones((oh, ow), np.float32), m, (w, h))[..., None]
        # a soft shadow under the object
        shadow = cv2.GaussianBlur(np.roll(mask[..., 0], (8, 8), (0, 1)), (0, 0), 6)[..., None]
        canvas = canvas * (1 - 0.35 * shadow * (1 - mask))
        canvas = canvas * (1 - mask) + warped * mask
        truths.append(Truth(quad=dst, index=i))
    # lighting gradient
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1 + rng.uniform(-0.15, 0.15) * (xx / w - 0.5) + rng.uniform(-0.15, 0.15) * (yy / h - 0.5)
    canvas *= light[..., None]
    if rng.random() < p["glare"]:
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        g = np.exp(-(((xx - gx) / (w * 0.08)) ** 2 + ((yy - gy) / (h * 0.05)) ** 2))
        canvas += (g * rng.uniform(60, 140))[..., None]
    sigma = rng.uniform(*p["blur"])
    if sigma > 0.2:
        canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
    canvas += rng.normal(0, p["noise"], canvas.shape)
    img = Image.fromarray(np.clip(canvas, 0, 255).astype(np.uint8))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=int(rng.integers(*p["jpeg"])))
    return buf.getvalue(), truths


def resave(img: Image.Image, rng) -> tuple[str, bytes]:
    """A card scan as a phone or scanner hands it on (``rng``: a ``random.Random``): scaled to 55-95 %, turned
    up to 4 degrees (white corners), then either a thin border of scanner bed (1-4 % a side) or a crop 1-4 %
    inside the card's edge, JPEG quality 55-85. Returns a short description and the JPEG bytes."""
    w, h = img.size
    s = rng.uniform(0.55, 0.95)
    out = img.resize((max(8, int(w * s)), max(8, int(h * s))), Image.Resampling.LANCZOS)
    turn = rng.uniform(-4, 4)
    out = out.rotate(turn, expand=True, fillcolor=(255, 255, 255), resample=Image.Resampling.BILINEAR)
    w, h = out.size
    share = rng.uniform(0.01, 0.04)
    if rng.random() < 0.5:
        b = max(2, int(share * max(w, h)))
        bed = Image.new("RGB", (w + 2 * b, h + 2 * b), tuple(rng.randint(215, 250) for _ in range(3)))
        bed.paste(out, (b, b))
        out, edge = bed, f"bed {share:.0%}"
    else:
        dx, dy = int(share * w), int(share * h)
        out, edge = out.crop((dx, dy, w - dx, h - dy)), f"inside {share:.0%}"
    q = rng.randint(55, 85)
    buf = io.BytesIO()
    out.save(buf, "JPEG", quality=q)
    return f"{s:.0%} turned {turn:+.1f} {edge} q{q}", buf.getvalue()


def binder_page(cards: list[np.ndarray], rng, size: tuple[int, int] = (1800, 2400)
                ) -> tuple[bytes, list[Truth]]:
    """A phone photo of a 9-pocket binder page (``rng``: a ``random.Random``): up to nine card images (RGB,
    upright) in sleeves in a 3 x 3 grid of pockets on a dark page, each a little off its pocket's centre
    and turned up to 2 degrees; the sleeves' sheen and a band of glare across the page; the whole page
    turned up to 6 degrees with some perspective, seen on a table; slight blur, noise, JPEG 70-90.
    Returns the JPEG and each card's quad in the photo (reading order of the pockets)."""
    w, h = size
    page_w, page_h = int(w * 0.86), int(h * 0.86)
    page = np.empty((page_h, page_w, 3), np.float32)
    page[:] = [rng.randint(20, 60)] * 3  # the page's black or grey plastic
    pw, ph = page_w / 3, page_h / 3
    quads: list[np.ndarray] = []
    for i, card in enumerate(cards[:9]):
        col, row = i % 3, i // 3
        ch, cw = card.shape[:2]
        if cw > ch:  # a landscape card lies turned in its pocket
            card = np.ascontiguousarray(np.rot90(card))
            ch, cw = card.shape[:2]
        s = min(pw * 0.88 / cw, ph * 0.88 / ch)
        cx = (col + 0.5) * pw + rng.uniform(-0.03, 0.03) * pw
        cy = (row + 0.5) * ph + rng.uniform(-0.03, 0.03) * ph
        a = np.deg2rad(rng.uniform(-2, 2))
        src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
        c = (src - [cw / 2, ch / 2]) * s
        dst = np.stack([c[:, 0] * np.cos(a) - c[:, 1] * np.sin(a), c[:, 0] * np.sin(a) + c[:, 1] * np.cos(a)], 1)
        dst = (dst + [cx, cy]).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(card.astype(np.float32), m, (page_w, page_h), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.ones((ch, cw), np.float32), m, (page_w, page_h))[..., None]
        page = page * (1 - mask) + warped * mask
        quads.append(dst)
        # the sleeve: a clear film a little larger than the card, its edge a faint light line
        x0, y0 = int(col * pw + pw * 0.04), int(row * ph + ph * 0.03)
        cv2.rectangle(page, (x0, y0), (int((col + 1) * pw - pw * 0.04), int((row + 1) * ph - ph * 0.03)),
                      (95, 95, 95), 2)
    page = page * 0.92 + 14  # the film's haze over everything
    yy, xx = np.mgrid[0:page_h, 0:page_w].astype(np.float32)
    # glare: a soft diagonal band of the lamp's reflection on the sleeves, and one hot spot
    ang = rng.uniform(0.3, 1.2)
    d = (xx - page_w * rng.uniform(0.3, 0.7)) * np.cos(ang) + (yy - page_h * rng.uniform(0.3, 0.7)) * np.sin(ang)
    page += (np.exp(-(d / (page_w * 0.05)) ** 2) * rng.uniform(50, 110))[..., None]
    gx, gy = rng.uniform(0, page_w), rng.uniform(0, page_h)
    page += (np.exp(-(((xx - gx) / (page_w * 0.06)) ** 2 + ((yy - gy) / (page_h * 0.04)) ** 2))
             * rng.uniform(80, 160))[..., None]
    # the page on a table, turned and seen a little from the side
    table = np.empty((h, w, 3), np.float32)
    table[:] = [rng.randint(120, 190), rng.randint(100, 160), rng.randint(70, 130)]
    t = np.deg2rad(rng.uniform(-6, 6))
    src = np.array([[0, 0], [page_w, 0], [page_w, page_h], [0, page_h]], np.float32)
    c = src - [page_w / 2, page_h / 2]
    dst = np.stack([c[:, 0] * np.cos(t) - c[:, 1] * np.sin(t), c[:, 0] * np.sin(t) + c[:, 1] * np.cos(t)], 1)
    dst = (dst + [w / 2, h / 2] + [[rng.uniform(-1, 1) * w * 0.02, rng.uniform(-1, 1) * h * 0.02]
                                  for _ in range(4)]).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(page, m, (w, h), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones((page_h, page_w), np.float32), m, (w, h))[..., None]
    photo = table * (1 - mask) + warped * mask
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.4, 1.0))
    photo += np.random.default_rng(rng.randint(0, 1 << 30)).normal(0, 3, photo.shape)
    buf = io.BytesIO()
    Image.fromarray(np.clip(photo, 0, 255).astype(np.uint8)).save(buf, "JPEG", quality=rng.randint(70, 90))
    truths = [Truth(quad=cv2.perspectiveTransform(q[None], m)[0].astype(np.float32), index=i)
              for i, q in enumerate(quads)]
    return buf.getvalue(), truths
