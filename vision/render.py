"""Drawing realistic card faces and graded slabs for catalog cards (demo references, generated photos).

``render_card(spec)`` draws a 500x700 card: a border coloured by the parallel, artwork that is
deterministic in the card id (so every card looks different and the same card always looks the
same), a name bar, team line, set/year header, the card number and, for numbered parallels, a
serial stamp ``23/50``. ``render_slab(spec, company, grade, cert)`` puts the card in a graded
slab with a company-styled label (620x1040).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

W, H = 500, 700
SLAB_W, SLAB_H = 620, 1040

COLOR_WORDS = {
    "gold": (212, 175, 55), "red": (200, 30, 40), "blue": (30, 80, 200), "green": (30, 150, 60),
    "orange": (240, 120, 20), "purple": (120, 40, 160), "black": (25, 25, 25), "pink": (235, 100, 170),
    "silver": (190, 195, 205), "refractor": (190, 195, 205), "yellow": (240, 210, 30), "aqua": (40, 200, 200),
    "teal": (20, 140, 140), "bronze": (160, 100, 50), "white": (245, 245, 245), "lava": (220, 60, 20),
    "superfractor": (230, 190, 40), "sapphire": (20, 60, 170), "ruby": (170, 10, 50), "emerald": (10, 140, 80),
}
LABEL_STYLE = {  # company -> (label border, label background, text colour)
    "PSA": ((200, 20, 30), (250, 250, 250), (20, 20, 20)),
    "BGS": ((200, 170, 80), (235, 225, 190), (20, 20, 20)),
    "SGC": ((20, 20, 20), (25, 25, 25), (245, 245, 245)),
    "CGC": ((20, 70, 160), (240, 244, 250), (20, 30, 60)),
    "TAG": ((30, 30, 30), (250, 250, 250), (10, 10, 10)),
}
GRADE_WORDS = {"10": "GEM MT", "9.5": "GEM MINT", "9": "MINT", "8.5": "NM-MT+", "8": "NM-MT", "7": "NM",
               "6": "EX-MT", "5": "EX", "4": "VG-EX", "3": "VG", "2": "GOOD", "1": "POOR"}


@dataclass
class CardSpec:
    id: str
    name: str
    number: str | None = None
    set_name: str | None = None
    release_name: str | None = None
    year: str | None = None
    team: str | None = None
    segment: str | None = None
    parallel: str | None = None
    numbered_to: int | None = None
    serial: int | None = None
    extra: dict = field(default_factory=dict)


def _seed(s: str) -> int:
    return int.from_bytes(hashlib.sha256(s.encode()).digest()[:8], "big")


@lru_cache(maxsize=16)
def font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    names = ["DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", "LiberationSans-Bold.ttf"]
    for root in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation",
                 "/usr/share/fonts/dejavu", "/usr/local/share/fonts"):
        for n in names:
            p = Path(root) / n
            if p.exists():
                return ImageFont.truetype(str(p), size)
    return ImageFont.load_default(size=size)


def named_color(name: str | None) -> tuple[int, int, int] | None:
    """The border colour a parallel's name says (a word of ``COLOR_WORDS``: "Gold Refractor"), or
    None when it names none ("Collector's Edition (Glossy)", "1st Edition", and "Numbered /99": a
    colour's letters inside another word are not the colour)."""
    said = set(re.findall(r"[a-z]+", (name or "").lower()))
    return next((rgb for word, rgb in COLOR_WORDS.items() if word in said), None)


def parallel_color(name: str | None) -> tuple[int, int, int]:
    """The border drawn for a parallel (the base card's when ``name`` is None): the colour its name
    says, else one made up from the name (for drawing only: nothing says a real card has it)."""
    if not name:
        return (248, 248, 246)
    rgb = named_color(name)
    if rgb is not None:
        return rgb
    low = name.lower()
    rng = np.random.default_rng(_seed(low))
    return tuple(int(x) for x in rng.integers(30, 230, 3))


def _fit(draw: ImageDraw.ImageDraw, text: str, max_w: int, size: int) -> ImageFont.FreeTypeFont:
    while size > 10:
        f = font(size)
        if draw.textlength(text, font=f) <= max_w:
            return f
        size -= 2
    return font(size)


def _artwork(seed: int, w: int, h: int) -> Image.Image:
    rng = np.random.default_rng(seed)
    c1, c2 = rng.integers(0, 255, 3), rng.integers(0, 255, 3)
    t = np.linspace(0, 1, h)[:, None, None]
    grad = (c1 * (1 - t) + c2 * t) * np.ones((h, w, 3))
    img = Image.fromarray(grad.astype(np.uint8))
    d = ImageDraw.Draw(img)
    for _ in range(int(rng.integers(6, 12))):
        x0, y0 = int(rng.integers(-50, w)), int(rng.integers(-50, h))
        s = int(rng.integers(30, 180))
        col = tuple(int(v) for v in rng.integers(0, 255, 3))
        if rng.random() < 0.5:
            d.ellipse([x0, y0, x0 + s, y0 + s], fill=col)
        else:
            d.polygon([(x0, y0), (x0 + s, y0 + int(rng.integers(0, s))), (x0 + int(rng.integers(0, s)), y0 + s)],
                      fill=col)
    # a "player" silhouette
    px = int(w * rng.uniform(0.3, 0.7))
    skin = tuple(int(v) for v in rng.integers(60, 200, 3))
    d.ellipse([px - 40, 60, px + 40, 150], fill=skin)
    d.rounded_rectangle([px - 85, 150, px + 85, h + 20], radius=40, fill=tuple(int(v) for v in rng.integers(0, 255, 3)))
    return img.filter(ImageFilter.GaussianBlur(0.6))


def render_card(spec: CardSpec) -> np.ndarray:
    """RGB array (700, 500, 3)."""
    seed = _seed(spec.id)
    rng = np.random.default_rng(seed)
    border = parallel_color(spec.parallel)
    img = Image.new("RGB", (W, H), border)
    d = ImageDraw.Draw(img)
    bw = 24
    art_box = (bw, bw + 56, W - bw, H - bw - 110)
    art = _artwork(_seed(spec.id + "art"), art_box[2] - art_box[0], art_box[3] - art_box[1])
    img.paste(art, art_box[:2])
    if spec.parallel:  # foil sheen over the art for parallels, same artwork otherwise
        sheen = Image.new("RGB", art.size, border)
        img.paste(Image.blend(art, sheen, 0.18), art_box[:2])
    team_rgb = tuple(int(v) for v in rng.integers(0, 140, 3))
    # header: year + release / set
    d.rectangle([bw, bw, W - bw, bw + 56], fill=(250, 250, 250))
    header = " ".join(x for x in [spec.release_name or "", spec.set_name if spec.set_name not in (None, "Base") else ""]
                      if x).strip() or (spec.segment or "")
    if spec.year and spec.year not in header:
        header = f"{spec.year} {header}"
    f = _fit(d, header, W - 2 * bw - 110, 24)
    d.text((bw + 10, bw + 14), header, fill=(20, 20, 20), font=f)
    if spec.number:
        num = f"#{spec.number}"
        fn = _fit(d, num, 100, 30)
        d.text((W - bw - 10 - d.textlength(num, font=fn), bw + 10), num, fill=(180, 20, 20), font=fn)
    # name bar
    y0 = H - bw - 110
    d.rectangle([bw, y0, W - bw, H - bw], fill=team_rgb)
    fname = _fit(d, spec.name, W - 2 * bw - 30, 44)
    d.text((bw + 15, y0 + 12), spec.name, fill=(255, 255, 255), font=fname)
    if spec.team:
        ft = _fit(d, spec.team.upper(), W - 2 * bw - 30, 22)
        d.text((bw + 15, y0 + 70), spec.team.upper(), fill=(235, 235, 235), font=ft)
    if spec.numbered_to:
        serial = spec.serial or int(rng.integers(1, spec.numbered_to + 1))
        text = f"{serial:02d}/{spec.numbered_to}" if spec.numbered_to >= 10 else f"{serial}/{spec.numbered_to}"
        fs = font(26)
        tw = d.textlength(text, font=fs)
        d.rectangle([W - bw - tw - 26, y0 - 46, W - bw - 6, y0 - 8], fill=(20, 20, 20))
        d.text((W - bw - tw - 16, y0 - 42), text, fill=(240, 240, 240), font=fs)
    # rounded corners on a transparent-looking white
    return np.asarray(img)


def render_slab(spec: CardSpec, company: str, grade: str, cert: str, card: np.ndarray | None = None) -> np.ndarray:
    """RGB array (1040, 620, 3): clear holder, company label on top, the card in the window."""
    edge, bg, fg = LABEL_STYLE.get(company, LABEL_STYLE["PSA"])
    img = Image.new("RGB", (SLAB_W, SLAB_H), (214, 220, 226))
    d = ImageDraw.Draw(img)
    d.rectangle([8, 8, SLAB_W - 9, SLAB_H - 9], outline=(170, 178, 186), width=6)
    lx0, ly0, lx1, ly1 = 26, 26, SLAB_W - 26, 232
    d.rectangle([lx0, ly0, lx1, ly1], fill=edge)
    d.rectangle([lx0 + 8, ly0 + 8, lx1 - 8, ly1 - 8], fill=bg)
    d.text((lx0 + 24, ly0 + 22), company, fill=edge if company != "SGC" else (240, 240, 240), font=font(54))
    rel = spec.release_name or ""
    title = (rel if spec.year and spec.year in rel else f"{spec.year or ''} {rel}").strip().upper()
    d.text((lx0 + 24, ly0 + 92), _trim(d, title, 330, 22), fill=fg, font=font(22))
    d.text((lx0 + 24, ly0 + 124), _trim(d, spec.name.upper(), 330, 22), fill=fg, font=font(22))
    if spec.number:
        d.text((lx0 + 24, ly0 + 156), f"#{spec.number}", fill=fg, font=font(22))
    word = GRADE_WORDS.get(grade, "")
    fw = font(24)
    d.text((lx1 - 24 - d.textlength(word, font=fw), ly0 + 34), word, fill=fg, font=fw)
    fg_ = font(64)
    d.text((lx1 - 24 - d.textlength(grade, font=fg_), ly0 + 68), grade, fill=fg, font=fg_)
    fc = font(22)
    d.text((lx1 - 24 - d.textlength(cert, font=fc), ly0 + 150), cert, fill=fg, font=fc)
    card_img = Image.fromarray(card if card is not None else render_card(spec)).resize((500, 700))
    img.paste(card_img, (60, 290))
    return np.asarray(img)


def _trim(d: ImageDraw.ImageDraw, text: str, max_w: int, size: int) -> str:
    f = font(size)
    while text and d.textlength(text, font=f) > max_w:
        text = text[:-1]
    return text
