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
