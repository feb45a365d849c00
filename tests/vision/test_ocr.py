"""The OCR engine's onnxruntime sessions: tuned for speed without changing what is read."""

from __future__ import annotations

import numpy as np

from vision import ocr
from vision.render import CardSpec, render_card


def _card() -> np.ndarray:
    return render_card(CardSpec(id="ocr-test", name="Aaron Judge", number="99", release_name="2024 Topps Chrome",
                                year="2024", team="New York Yankees"))


def test_sessions_flush_denormals_and_do_not_spin():
    eng = ocr.engine()
    assert ocr.read(_card())  # the engine loads each model at its first use
    for model in (eng.text_det, eng.text_cls, eng.text_rec):
        opts = model.session.session.get_session_options()
        assert opts.get_session_config_entry("session.set_denormal_as_zero") == "1"
        assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_tuned_sessions_read_a_card_like_rapidocrs_own():
    from rapidocr import RapidOCR

    card = _card()
    plain = RapidOCR(params={"Global.log_level": "warning", "Det.limit_type": "max", "Det.limit_side_len": 736,
                             "EngineConfig.onnxruntime.intra_op_num_threads": 2,
                             "EngineConfig.onnxruntime.inter_op_num_threads": 1})
    want = plain(np.ascontiguousarray(card[:, :, ::-1]))
    got = ocr.read(card)
    assert [t for t, _, _ in got] == list(want.txts)
    assert "Aaron Judge" in [t for t, _, _ in got]
    assert [round(s, 4) for _, s, _ in got] == [round(float(s), 4) for s in want.scores]


def _line(text: str, width: int) -> np.ndarray:
    import cv2

    img = np.full((24, width, 3), 240, np.uint8)
    cv2.putText(img, text, (4, 17), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (20, 20, 20), 1, cv2.LINE_AA)
    return img


def test_frame_probabilities_come_back_in_order_and_read_like_the_recogniser():
    # lines of different widths run together in batches, each as if alone: the same reading as the
    # engine's own recogniser, in the order given, and no frames for a crop too small to read
    lines = [_line("Darren Turcotte", 150), _line("#96", 40), np.zeros((1, 30, 3), np.uint8),
             _line("Centre/Centre", 130), _line("Paul Coffey", 110)]
    probs = ocr.frame_probs(lines)
    assert len(probs) == len(lines) and probs[2].shape[0] == 0
    alone = [ocr.frame_probs([c], batch=1)[0] for c in lines]
    for together, single in zip(probs, alone):
        assert ocr.decode(together)[0] == ocr.decode(single)[0]
    readable = [c for i, c in enumerate(lines) if i != 2]
    assert [ocr.decode(p)[0] for i, p in enumerate(probs) if i != 2] == [t for t, _ in ocr.recognise(readable)]
    assert ocr.decode(probs[0])[0] == "Darren Turcotte"


def test_frames_keep_only_the_classes_asked_for_and_each_frames_best():
    # a catalog's names use about a hundred of the recogniser's ~18,700 classes: only those are kept
    # per frame (and the frame's best over all), with the same reading as the full output
    from vision.spotting import alphabet

    columns, classes = alphabet(["Darren Turcotte", "Paul Coffey"], ocr.charset())
    lines = [_line("Darren Turcotte", 150), _line("Paul Coffey", 110)]
    full = ocr.frame_probs(lines)
    kept = ocr.frames(lines, classes)
    assert len(columns) == len(classes) + 1 < 60
    for probs, (text, _, small) in zip(full, kept):
        assert text == ocr.decode(probs)[0]
        assert small.shape == (probs.shape[0], len(classes) + 1)
        assert np.allclose(small[:, :-1], probs[:, classes]) and np.allclose(small[:, -1], probs.max(axis=1))


def test_warming_loads_every_text_model_before_the_first_photo(monkeypatch):
    # rapidocr loads each model at its first use: 2-3 s the first upload of a process paid on its own
    from vision import pipeline

    monkeypatch.setattr(ocr, "_ENGINE", None)
    pipeline.warm()
    eng = ocr.engine()
    assert all(m is not None for m in (eng.text_det, eng.text_cls, eng.text_rec))


def test_keeping_the_recognisers_output_reads_the_same_and_keeps_it_for_wide_lines_only():
    # the first read keeps what the recogniser output for each line wide enough to hold a name, so that
    # spotting names there need not recognise it again: the read itself is unchanged, and what is kept
    # reads as the line read and as the recogniser on that crop alone
    for card in (_card(), np.ascontiguousarray(_card()[::-1, ::-1])):
        crops: list = []
        probs: list = []
        kept = ocr.read(card, crops=crops, turned=[], probs=probs, probs_aspect=3.0)
        assert kept == ocr.read(card) and len(probs) == len(crops)
        texts = {t for t, _, _ in kept}
        assert any(p is not None for p in probs) and "Aaron Judge" in texts
        for crop, entry in zip(crops, probs):
            if crop.shape[1] < 3.0 * crop.shape[0]:
                assert entry is None
                continue
            turned, p = entry
            alone = ocr.frame_probs([np.ascontiguousarray(crop[::-1, ::-1]) if turned else crop])[0]
            assert ocr.decode(p)[0] == ocr.decode(alone)[0]
            assert not ocr.decode(p)[0].strip() or ocr.decode(p)[0] in texts


def test_the_recognisers_output_kept_for_some_classes_is_what_frames_gives_for_them():
    # a closer read keeps, for every line, only the classes catalog names use (kilobytes a line, not the
    # ~18,700-class output): the columns of the full output, as ``frames`` cuts them
    card = _card()
    classes = np.array([0, *range(10, 60)], dtype=np.int64)
    crops: list = []
    full: list = []
    ocr.read(card, crops=crops, turned=[], probs=full, probs_aspect=0.0)
    crops2: list = []
    cut: list = []
    assert ocr.read(card, crops=crops2, turned=[], probs=cut, probs_aspect=0.0, classes=classes) == ocr.read(card)
    assert len(cut) == len(crops2) == len(full) and all(p is not None for p in cut)
    for (t1, p1), (t2, p2) in zip(full, cut):
        assert t1 == t2 and p2.shape == (p1.shape[0], len(classes) + 1)
        assert np.array_equal(p2, ocr.columns(p1, classes))
