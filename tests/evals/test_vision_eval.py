"""``python -m evals.vision --real``: the evaluation on cards of the real catalogs."""

from __future__ import annotations

import re

import pytest

from evals import vision
from tests.conftest import shared_data


def test_the_real_catalogs_are_evaluated_from_text_alone(capsys):
    with pytest.raises(SystemExit):
        vision.main(["--real", str(shared_data()), "--modes", "text,refs"])
    assert "text only" in capsys.readouterr().err


def test_photos_of_real_catalog_cards_are_identified(capsys):
    # two easy one-card photos of cards drawn from the 26,131 of tcgdex and the 1989 checklists
    vision.main(["--real", str(shared_data()), "--photos", "2", "--levels", "easy", "--modes", "text",
                 "--cards", "4", "--seed", "3"])
    out = capsys.readouterr().out
    assert "text easy   objects=  2" in out
    assert "base top-1 100.0%" in out
    # the machine's speed at the same work, so latencies from two machines compare
    yardstick = re.search(r"^machine yardstick (\d+\.\d) ms \(the text detector alone on a 512 x 736 px input", out, re.M)
    assert yardstick and float(yardstick.group(1)) > 0
