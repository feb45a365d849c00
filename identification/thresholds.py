"""Every number identification decides by, in one place.

``THRESHOLDS`` holds the hand-set cuts (why each has its value: ``docs/identification.md`` and the
commit history); the three tier cuts on the fused confidence are calibrated on labelled photos and
read from ``calibration.json`` (``tier_cuts``; method in ``docs/vision-calibration.md``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

CALIBRATION = Path(__file__).with_name("calibration.json")


@dataclass(frozen=True)
class Thresholds:
    # text score weights: name, number, release and set words, year
    name_weight: float = 0.6
    number_weight: float = 0.25
    context_weight: float = 0.1
    year_weight: float = 0.05
    # names
    name_read: float = 0.7  # a name similarity from which the name counts as read (below: text score halved)
    clear_name: float = 0.8  # one from which a name's cards of the number read are looked up
    class_name: float = 0.55  # a loose name this like a card of the class a number's prefix read names: a candidate
    line_rival: float = 0.1  # a name fitting a whole line read this near a best one that fits none comes first
    clearly_read: float = 0.9  # another name read this well caps a loosely read best card at Low
    near_names: int = 5  # names looked up per name line by the letter pairs they share (``CatalogNames.near_in``)
    near_min: float = 0.4  # the least share (Dice) of letter pairs such a name shares with the line
    word_order: float = 0.1  # a name's words matched only against the reading order: this much less like it
    word_letters: float = 0.6  # in a word's similarity: the share of letters (the rest: its outline)
    spot_scale: float = 6.0  # spotting score per letter -> similarity: 1 + score / spot_scale
    spot_cap: float = 0.9  # a spotted name's similarity never reaches a name read
    spot_margin: float = 0.3  # per letter: a spotted name must beat the next by this much
    # numbers
    loose_number: float = 0.5  # a number read behind one stray character
    prefix_misread: float = 0.8  # a number's digits read exactly behind its letter prefix misread
    prefix_class: float = 0.3  # a number read with the card's letter prefix (confusables folded), its digits not
    set_and_number: float = 0.45  # a card whose release, year and number were read, not its name
    # namesakes (``identification.namesakes``)
    spotted_number: float = 0.2  # a number spotted, never read: its number credit
    spot_number_min: float = -1.2  # per character: a number spotted must be this close to what was read
    spot_number_margin: float = 0.6  # and beat every other card's number by this much per character
    spot_numbers: int = 24  # numbers are spotted among at most this many cards of a name
    spotted_context: float = 1.0  # a release and set spotted: as if their words were read
    context_min: float = -0.6  # per character: the release's words spotted must be nearly what was read
    context_margin: float = 0.4  # and beat every other namesake's release and set by this much
    context_letters: int = 3  # shorter words ("of", "V") fit any print
    # pictures
    sure_picture: float = 0.8  # a photo this like some reference image needs no closer reads
    looks_known: float = 0.6  # a photo this like some reference image: cards without one get a prior
    unimaged_prior: float = 0.3  # that prior, added to half the text score
    foil_sheen: float = 0.4  # a card this covered by pale tinted sheen (``vision.features.sheen``) looks foil
    agree_text: float = 0.6  # text and picture this sure each compound
    agree_picture: float = 0.8
    same_picture: float = 0.85  # this like one card's reference image, and no other's: that card
    visual_lead: float = 0.15  # a reference image this far ahead of every other card's
    visual_lead_min: float = 0.4  # and this alike, tells a card from its namesakes
    visual_lead_weight: float = 0.5  # the share of that lead added to the card's text score
    # time
    overrun_s: float = 0.2  # a closer read may end this far past the photo's budget (one-card answers by 1.0 s)
    # deciding
    high_margin: float = 0.06  # the best two different cards within this: never High
    tie: float = 0.02  # two cards within this score the same
    confidence_margin: float = 0.2  # a runner-up within this discounts the confidence
    confidence_discount: float = 0.25  # by up to this share
    suggestion_min: float = 0.3  # alternatives scoring this or more are suggested
    suggestions: int = 5


THRESHOLDS = Thresholds()
_OVERRIDE: dict[str, float] = {}


@lru_cache(maxsize=1)
def _calibrated() -> dict[str, float]:
    return {k: float(v) for k, v in json.loads(CALIBRATION.read_text())["thresholds"].items()}


def tier_cuts() -> dict[str, float]:
    """The High, Medium and Low cuts on the fused confidence (``calibration.json``)."""
    return _OVERRIDE or _calibrated()


def override_tier_cuts(cuts: dict[str, float] | None) -> None:
    """Use other cuts in this process (the calibration run lowers them all); None restores."""
    _OVERRIDE.clear()
    _OVERRIDE.update(cuts or {})


def tier(conf: float) -> str | None:
    """High, Medium or Low for a fused confidence; None below the Low cut (the detection is dropped)."""
    t = tier_cuts()
    if conf >= t["high"]:
        return "High"
    if conf >= t["medium"]:
        return "Medium"
    if conf >= t["low"]:
        return "Low"
    return None
