"""Visual features of a straightened card: a 256-bit perceptual hash plus a colour thumbnail.

``card_features(rgb)`` -> ``{"phash": 64 hex chars, "color": [192 floats], "border": [L, a, b]}``.
The hash is the sign of the low 16x16 DCT coefficients of a 64x64 grey image (against their
median); the colour thumbnail is a 8x8 Lab image with the mean removed (cancels colour casts),
compared by cosine. Both are computed on the inner card (a small margin cut) so that the exact
detection boundary matters little. ``border`` is the mean Lab colour of the border band, the
parallel evidence (gold, red, blue borders...).
"""

from __future__ import annotations

import cv2
import numpy as np

HASH_BITS = 256


def _inner(rgb: np.ndarray, margin: float = 0.03) -> np.ndarray:
    h, w = rgb.shape[:2]
    dy, dx = int(h * margin), int(w * margin)
    return rgb[dy:h - dy, dx:w - dx]


def phash(rgb: np.ndarray) -> np.ndarray:
    """256 bools."""
    grey = cv2.cvtColor(_inner(rgb), cv2.COLOR_RGB2GRAY)
    small = cv2.resize(grey, (64, 64), interpolation=cv2.INTER_AREA).astype(np.float32)
    dct = cv2.dct(small)[:16, :16].ravel()
    return dct > np.median(dct[1:])


def color_vector(rgb: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(cv2.resize(_inner(rgb), (8, 8), interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2LAB)
    v = lab.astype(np.float32).reshape(-1, 3)
    v = v - v.mean(axis=0)
    v = v.ravel()
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


def border_lab(rgb: np.ndarray) -> list[float]:
    h, w = rgb.shape[:2]
    band = max(2, int(0.035 * w))
    inset = max(1, int(0.012 * w))
    strips = [rgb[inset:inset + band, inset:w - inset], rgb[h - inset - band:h - inset, inset:w - inset],
              rgb[inset:h - inset, inset:inset + band], rgb[inset:h - inset, w - inset - band:w - inset]]
    px = np.concatenate([s.reshape(-1, 3) for s in strips]).astype(np.uint8).reshape(-1, 1, 3)
    lab = cv2.cvtColor(px, cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
    return [round(float(x), 1) for x in np.median(lab, axis=0)]


def bits_to_hex(bits: np.ndarray) -> str:
    return np.packbits(bits.astype(np.uint8)).tobytes().hex()


def hex_to_bits(h: str) -> np.ndarray:
    return np.unpackbits(np.frombuffer(bytes.fromhex(h), dtype=np.uint8)).astype(bool)


def card_features(rgb: np.ndarray) -> dict:
    """Features of a card image; a landscape one is turned upright first, as a photo's card is straightened
    (its features are compared both ways up, so the way it is turned does not matter)."""
    if rgb.shape[1] > rgb.shape[0]:
        rgb = np.ascontiguousarray(np.rot90(rgb))
    img = cv2.resize(rgb, (250, 350), interpolation=cv2.INTER_AREA)
    return {"phash": bits_to_hex(phash(img)), "color": [round(float(x), 4) for x in color_vector(img)],
            "border": border_lab(img)}


class HashIndex:
    """A packed in-memory index of reference hashes; Hamming scan with numpy (1M x 256 bit = 32 MB)."""

    def __init__(self, ids: list, hashes: list[str], colors: list[list[float] | None]) -> None:
        self.ids = list(ids)
        self.packed = (np.frombuffer(b"".join(bytes.fromhex(h) for h in hashes), dtype=np.uint8)
                       .reshape(len(hashes), HASH_BITS // 8) if hashes else np.zeros((0, HASH_BITS // 8), np.uint8))
        self.colors = colors
        self.rows: dict = {}
        for i, ident in enumerate(self.ids):
            self.rows.setdefault(ident, []).append(i)

    def __len__(self) -> int:
        return len(self.ids)

    def _sim(self, i: int, dist: int, qc: np.ndarray) -> float:
        hs = max(0.0, 1.0 - float(dist) / 110.0)  # random pairs sit near 128 bits
        c = self.colors[i]
        cs = max(0.0, float(np.dot(qc, np.asarray(c, np.float32)))) if c is not None else hs
        return 0.6 * hs + 0.4 * cs

    def query(self, feats: dict, k: int = 10) -> list[tuple[object, float]]:
        """(id, visual similarity 0..1) best first; similarity fuses hash and colour."""
        if not len(self.ids):
            return []
        q = np.frombuffer(bytes.fromhex(feats["phash"]), dtype=np.uint8)
        dist = _POPCOUNT[np.bitwise_xor(self.packed, q)].sum(axis=1)
        top = np.argsort(dist)[: max(k * 4, 40)]
        qc = np.asarray(feats["color"], np.float32)
        best: dict = {}
        for i in top:
            s = self._sim(int(i), int(dist[i]), qc)
            if s > best.get(self.ids[i], -1.0):
                best[self.ids[i]] = s
        return sorted(best.items(), key=lambda t: -t[1])[:k]

    def similarity(self, feats: dict, ids) -> dict:
        """Visual similarity of the photo to the reference images of the given ids (those that have one)."""
        q = np.frombuffer(bytes.fromhex(feats["phash"]), dtype=np.uint8)
        qc = np.asarray(feats["color"], np.float32)
        out = {}
        for ident in ids:
            for i in self.rows.get(ident, ()):
                dist = int(_POPCOUNT[np.bitwise_xor(self.packed[i], q)].sum())
                out[ident] = max(out.get(ident, 0.0), self._sim(i, dist, qc))
        return out


_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint16)


def sheen(rgb: np.ndarray) -> float:
    """The share of a card's pixels that are light and faintly tinted (HSV value over 0.6, saturation
    0.08-0.45): a hologram's or foil's sheen covers most of its face (0.45-0.55 on real hologram scans),
    while printed cards show white paper, saturated ink or dark areas (0.3 or less)."""
    small = cv2.resize(rgb, (100, 140), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_RGB2HSV)
    s, v = hsv[..., 1], hsv[..., 2]
    return float(((v > 153) & (s > 20) & (s < 115)).mean())
