"""Questions typed the way collectors type (filler openings, texting short forms, apostrophe years,
one-letter typos in the words a family is recognised by) are read as the same question written out."""

from __future__ import annotations

import pytest

from agent.builtin import intents
from agent.builtin.collector_typing import drop_filler, family_word, full_years, tidy, write_out
from agent.builtin.conversation import respell
from agent.builtin.rewrites import ELLIPSIS


def _family(text: str) -> str | None:
    intent, _ = intents.classify(respell(text))
    return intent.name if intent else None


@pytest.mark.parametrize("typed,written", [
    ("hey quick q, whats a psa 9 zard worth", "whats a psa 9 zard worth"),
    ("ok so - pull up my wishlist", "pull up my wishlist"),
    ("random q but, total across all psa grades?", "total across all psa grades?"),
    ("hi there - when did team rocket come out", "when did team rocket come out"),
])
def test_a_filler_opening_is_dropped(typed: str, written: str) -> None:
    assert drop_filler(typed) == written


@pytest.mark.parametrize("text", ["hey", "hi there", "ok thanks", "so cool", "question about grading"])
def test_a_greeting_alone_is_not_filler(text: str) -> None:
    assert drop_filler(text) == text


def test_a_follow_up_after_filler_is_still_a_follow_up() -> None:
    assert ELLIPSIS.match(respell("so and when was it released"))
    assert ELLIPSIS.match(respell("ok and the 94 donruss charlie hough 269 in a 9?"))


def test_texting_short_forms_are_written_out() -> None:
    assert write_out("can u show ur cards w/ prices w/o tax") == "can you show your cards with prices without tax"
    assert write_out("what can you help me w/") == "what can you help me with"
    assert write_out("sgc 10 u/d #1 $4.u") == "sgc 10 u/d #1 $4.u"
    assert write_out("1995 fleer update U-156, can u?") == "1995 fleer update U-156, can you?"


def test_apostrophe_years_are_written_in_full() -> None:
    assert full_years("my '87 topps and '24 chrome") == "my 1987 topps and 2024 chrome"
    assert full_years("rock 'n' roll, 87 topps, #'12") == "rock 'n' roll, 87 topps, #'12"


@pytest.mark.parametrize("typo,word", [("numbeerd", "numbered"), ("cheapet", "cheapest"), ("wnts", "wants"),
                                       ("trendibg", "trending"), ("wishlsit", "wishlist"), ("fkeer", "fleer"),
                                       ("tpops", "topps"), ("toops", "topps"), ("gradde", "grade"),
                                       ("gonig", "going"), ("thnk", "thank")])
def test_a_one_letter_typo_in_a_keyword_is_put_right(typo: str, word: str) -> None:
    assert family_word(typo) == word


@pytest.mark.parametrize("word", ["hough", "cars", "steelix", "tyranitar", "griffey", "grades", "price", "thats",
                                  "hoops", "jetter", "shawn", "grase", "comer"])
def test_names_and_real_words_are_left_alone(word: str) -> None:
    assert family_word(word) is None


@pytest.mark.parametrize("question,family", [
    ("random q but, pull up my wishlsit", "wantlist"),
    ("hey quick q - whats the lowest on that sacle", "grades"),
    ("2024 boys of summer base crusade teal numbeerd to?", "parallels"),
    ("what can u help me w/", "help"),
    ("heading to a show saturday what was on my wnts again", "wantlist"),
])
def test_typed_questions_keep_their_family(question: str, family: str) -> None:
    assert _family(question) == family


def test_tidy_keeps_a_question_written_out() -> None:
    q = "what's a psa 9 1999 pokemon base set charizard worth?"
    assert tidy(q) == q


@pytest.mark.parametrize("question", ["suggestion add 1952 bowman to the catalog",
                                      "complaint search is too slow for me"])
def test_a_feedback_heading_typed_without_its_colon_is_feedback(question: str) -> None:
    assert _family(question) == "feedback"


def test_asking_for_a_suggestion_is_not_feedback() -> None:
    assert _family("suggestion for me on what to buy next") != "feedback"


def test_thanks_with_a_typo_is_still_thanks() -> None:
    assert _family("thnk u so much") == "unknown"
