"""The collector suites (issue 25): well-formed files, a judge that reads answers as a collector
would, and the earlier parts (tuning, dev..dev5) run through the built-in agent on the real catalog
(SQLite; needs ../shared/data: skipped locally without it, failing in CI; the later parts run in
``test_collector_later.py``, so the two halves can run in parallel). The run prints the per-part, per-family
report and holds each part to the suite's own ``min_pass`` and ``trap_wrong_card_max``.
"""

from __future__ import annotations

from datetime import date


from evals.facts import FACTS, Expect, Identity
from evals.judge import RIGHT, UNHELPFUL, WRONG_CARD, judge, money
from evals.names import NameIndex
from evals.suite import KINDS, load_suite, suite_settings
from tests.evals.collector_parts import EARLY, PARTS, run_parts

def _cases(part: str):
    return load_suite(PARTS[part])


def test_the_two_parts_hold_300_questions_covering_every_family_and_kind():
    tuning, held = _cases("tuning"), _cases("held-out")
    assert len(tuning) + len(held) >= 300
    assert {c.family for c in held} == {c.family for c in tuning}
    for cases in (tuning, held):
        assert {c.kind for c in cases} == set(KINDS)
        assert all(next(iter(c.fact)) in FACTS for c in cases)
        assert all("real" in c.needs for c in cases)
    # different wording: no held-out question is a tuning question
    assert not {c.query.lower() for c in held} & {c.query.lower() for c in tuning}
    assert suite_settings(PARTS["held-out"]).part == "held-out"


def test_want_list_adds_run_with_writes_allowed_and_follow_ups_carry_history():
    for part in PARTS:
        for c in _cases(part):
            if "wantlist_add" in c.fact or "feedback" in c.fact:
                assert c.context.get("allowWrites") is True, c.key
            if c.kind == "follow-up":
                assert c.history, c.key


# ------------------------------------------------------------------ the judge, on a tiny catalog
def _index() -> NameIndex:
    idx = NameIndex()
    for name, seg, rel in [("Charizard", "Pokemon", "Base Set"), ("Going, Going, Gone", "Baseball", "1991 Score"),
                           ("Auto Leather", "Baseball", "2024 Topps Allen & Ginter"),
                           ("Ken Griffey Jr.", "Baseball", "1989 Upper Deck Baseball"),
                           ("Shohei Ohtani", "Baseball", "2024 Topps Chrome Baseball"),
                           ("Buck Martinez", "Baseball", "1981 Donruss Baseball"), ("Pikachu", "Pokemon", "Base Set")]:
        idx.add(name, seg, rel, "Base Set")
    idx.not_cards = ["base set", "1989 upper deck baseball", "1981 donruss baseball"]
    idx.releases = {"base set": "Pokemon", "1981 donruss baseball": "Baseball", "1989 upper deck baseball": "Baseball"}
    return idx


GRIFFEY = Identity("Ken Griffey Jr.", "1", "1989 Upper Deck Baseball", "1989", "Low Series")


def _judge(exp: Expect, answer: str, *, trap: bool = False, called: list[str] | None = None):
    return judge(exp, answer, called or [], index=_index(), writes={"collection_delete"}, trap=trap)


def test_a_right_answer_names_the_card_in_full_with_the_figure():
    exp = Expect(card=GRIFFEY, figures=[("money", 84.5)])
    assert _judge(exp, "Ken Griffey, Jr. - 1989 Upper Deck #1: PSA 9 about $84.50.").verdict == RIGHT
    assert _judge(exp, "Ken Griffey Jr. 1989 Upper Deck #1 sells for $120.").verdict == UNHELPFUL  # wrong figure
    assert _judge(exp, "Ken Griffey Jr. sells for $84.50.").verdict == UNHELPFUL  # no number, no release


def test_another_card_is_a_wrong_card_and_a_trap_may_name_none():
    exp = Expect(card=GRIFFEY)
    v = _judge(exp, "There isn't enough sales history for 1991 Score Going, Going, Gone #4 to show a trend.")
    assert v.verdict == WRONG_CARD and "Going, Going, Gone" in v.named
    assert _judge(exp, "Ken Griffey Jr. 1990 Upper Deck #156").verdict == WRONG_CARD  # same player, other card
    assert _judge(Expect(says=[["autograph"]]), "Auto Leather #GTI-2 has 0 parallels.", trap=True).verdict == WRONG_CARD
    prices_going_up = "Prices going up overall: I can show trends for a card you name."
    assert _judge(Expect(says=[["i can"]], no_card=True), prices_going_up, trap=True).verdict == RIGHT


def test_a_trap_that_calls_a_write_tool_is_not_right():
    v = _judge(Expect(says=[["i can"]], no_card=True), "Done, I can do more.", trap=True, called=["collection_delete"])
    assert v.verdict != RIGHT


def test_asking_back_is_unhelpful_not_wrong_and_quoted_examples_are_not_claims():
    exp = Expect(card=GRIFFEY)
    ask = "I found several: Ken Griffey Jr. 1989 Upper Deck #1; Buck Martinez #444. Which one do you mean?"
    assert _judge(exp, ask).verdict == UNHELPFUL
    help_text = 'I can find cards and prices. Try "2024 Topps Chrome Shohei Ohtani #1".'
    assert _judge(Expect(says=[["i can"]], no_card=True), help_text).verdict == RIGHT


def test_a_random_pull_must_come_from_the_asked_segment():
    exp = Expect(scope_cards={"charizard", "pikachu"}, need_any_card=True)
    assert _judge(exp, "Here is a random card: Base Set Pikachu #58.").verdict == RIGHT
    assert _judge(exp, "Here is a random card: 1981 Donruss Baseball Buck Martinez #444.").verdict == WRONG_CARD
    by_release = Expect(scope_cards={"charizard", "pikachu"}, scope_releases={"base set"}, need_any_card=True)
    team_logo = "Here is a random card: 1981 Donruss Baseball Minnesota Twins Logo (Team Stickers)."
    assert _judge(by_release, team_logo).verdict == WRONG_CARD


def test_no_data_is_not_zero_and_dates_and_money_read_as_written():
    from evals.facts import NO_DATA

    exp = Expect(card=GRIFFEY, says=[NO_DATA], not_says=["0 graded", "population of 0"])
    assert _judge(exp, "Ken Griffey Jr. 1989 Upper Deck #1 has a population of 0.").verdict == UNHELPFUL
    assert _judge(exp, "No population data for Ken Griffey Jr. (1989 Upper Deck #1).").verdict == RIGHT
    assert _judge(Expect(figures=[("date", date(1999, 1, 9))]), "Base Set came out January 9, 1999.").verdict == RIGHT
    assert money("about $36.1k, or 12 bucks, or $1,234.50") == [36100.0, 1234.5, 12.0]


# ------------------------------------------------------------------ the parts on the real catalog
async def test_the_earlier_parts_on_the_real_catalog(real_fixture, tmp_path, capsys):
    await run_parts(EARLY, real_fixture, tmp_path, capsys)


def test_short_words_are_read_whole():
    from evals.judge import says

    assert says("up", "prices are up 12%") and not says("up", "1989 upper deck")
    assert says("no", "no, it is not in your collection") and not says("no", "it is not there")
    assert says("increas", "prices increased")
