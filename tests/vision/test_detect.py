"""Locating cards that the photo's edge cuts off, and cards on a background of nearly their colour."""

from __future__ import annotations

import cv2
import numpy as np

from vision import detect
from vision.render import CardSpec, render_card


def _place(card: np.ndarray, quad: np.ndarray, bg: tuple[int, int, int], size=(1200, 900)) -> np.ndarray:
    w, h = size
    canvas = np.full((h, w, 3), bg, np.float32)
    src = np.array([[0, 0], [card.shape[1], 0], [card.shape[1], card.shape[0]], [0, card.shape[0]]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    warped = cv2.warpPerspective(card.astype(np.float32), m, (w, h))
    mask = cv2.warpPerspective(np.ones(card.shape[:2], np.float32), m, (w, h))[..., None]
    out = canvas * (1 - mask) + warped * mask
    return np.clip(cv2.GaussianBlur(out, (0, 0), 0.8), 0, 255).astype(np.uint8)


def test_card_cut_off_by_the_photo_edge_is_located_whole():
    card = render_card(CardSpec(id="cut", name="Paul Skenes", number="10", release_name="2024 Topps Chrome"))
    # rotated 30 degrees, its lower corner 150 px below the photo and its right corner 50 px past it
    c, s = np.cos(np.deg2rad(30)), np.sin(np.deg2rad(30))
    half = np.array([[-250, -350], [250, -350], [250, 350], [-250, 350]], np.float32) * 0.95
    quad = (half @ np.array([[c, s], [-s, c]], np.float32) + [880, 640]).astype(np.float32)
    assert quad[:, 1].max() > 1000 and quad[:, 0].max() > 1200
    found = detect.locate(_place(card, quad, (70, 90, 160)))
    best = max((detect._iou(quad, f.quad)[0] for f in found), default=0.0)
    assert best >= 0.9


def _outline_candidate(quad: np.ndarray, size=(1000, 800)):
    """``detect._quad_from`` on an outline traced along ``quad`` with full edge support."""
    w, h = size
    edges = np.zeros((h, w), np.uint8)
    cv2.polylines(edges, [np.int32(quad)], True, 255, 3)
    dense = np.concatenate([np.linspace(quad[i], quad[(i + 1) % 4], 200) for i in range(4)]).astype(np.int32)
    points = dense.reshape(-1, 1, 2)
    hull_area = cv2.contourArea(cv2.convexHull(points))
    return detect._quad_from(points, np.int32(quad).reshape(4, 1, 2), hull_area, size, 1000.0, edges)


def test_an_outline_with_a_side_run_along_clutter_is_not_a_card():
    # a real-scan photo: a card's top-left corner and left side, then a shadow line running away to
    # the far right; the quad it made covered the card's neighbour and the table (top side 185 px,
    # bottom side 637 px) and pushed the card's own outline out
    bad = np.array([[374, 162], [559, 156], [991, 773], [354, 793]], np.float32) * 0.8
    assert _outline_candidate(bad) is None
    tilted = np.array([[375, 162], [798, 148], [754, 779], [356, 793]], np.float32) * 0.8  # the card itself
    found = _outline_candidate(tilted)
    assert found is not None and detect._iou(found.quad, tilted)[0] > 0.95


def test_card_foreshortened_until_it_looks_almost_square_is_located_whole():
    # a phone held low: the card's far end shrinks and its near end widens, so its outline measures
    # about 0.93 wide to tall; the outline is the card, not its art box (which is nearly card-shaped)
    card = render_card(CardSpec(id="square", name="Juan Ohtani", number="35", release_name="2023 Bowman"))
    quad = np.array([[440, 230], [740, 230], [780, 600], [400, 600]], np.float32)
    wq = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    hq = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    assert 0.9 < wq / hq < 0.95
    found = detect.locate(_place(card, quad, (40, 70, 150)))
    best = max(found, key=lambda f: detect._iou(quad, f.quad)[0])
    assert detect._iou(quad, best.quad)[0] >= 0.9 and best.kind == "card"


def test_a_slab_seen_at_a_slant_until_it_looks_narrow_is_located_as_a_slab():
    # an SGC 10 in a hard photo: its far end foreshortened, the holder measured 0.43 wide to tall (top 119
    # and bottom 83 px, sides 241 and 228) and was located as nothing at all, not even its card
    from vision.render import render_slab

    spec = CardSpec(id="slant", name="Mike Schooler", number="299", release_name="1989 Topps")
    slab = render_slab(spec, "SGC", "10", "61383630", render_card(spec))
    quad = np.array([[217, 455], [336, 450], [331, 691], [249, 680]], np.float32) * 1.2
    found = detect.locate(_place(slab, quad, (60, 170, 90)))
    best = max(found, key=lambda f: detect._iou(quad, f.quad)[0])
    assert detect._iou(quad, best.quad)[0] >= 0.9 and best.kind == "slab"


def test_a_blank_image_of_a_cards_proportions_is_no_card():
    # an image the card fills is taken whole only where it holds print: a plain grey frame is nothing
    for size in ((420, 300), (300, 420)):
        assert detect.locate(np.full((*size, 3), 120, np.uint8)) == []
