"""Prices of my cards in collectors' words (probes13): what I paid for a card named without "my", "is my zard
worth more than my blastoise" (my copies, each as I hold it), a grade gap asked of my card, and players
sharing a first name never chosen between by which one has market data."""

from __future__ import annotations

from types import SimpleNamespace

from agent.builtin import planner
from agent.builtin.answers import market
from agent.builtin.linking import chosen_card, parse
from tests.agent.test_builtin import understand

OWNED = [{"cardId": "z4", "cardName": "Charizard", "releaseName": "Base Set", "releaseYear": "1999",
          "currentValue": "5124.50", "buyPrice": "450.00"},
         {"cardId": "b2", "cardName": "Blastoise", "releaseName": "Base Set", "releaseYear": "1999",
          "currentValue": None, "buyPrice": "60.00"},
         {"cardId": "s84", "cardName": "Ryne Sandberg", "releaseName": "1984 Fleer Baseball", "releaseYear": "1984",
          "currentValue": "93.45", "buyPrice": "25.00"}]
ZARD = {"id": "z4", "name": "Charizard", "number": "4", "releaseName": "Base Set", "releaseYear": "1999",
        "prices": {"psa-8": "5124.50", "psa-9": "7000.00"}}
BLASTOISE = {"id": "b2", "name": "Blastoise", "number": "2", "releaseName": "Base Set", "releaseYear": "1999",
             "prices": {}}
SANDBERG = {"id": "s84", "name": "Ryne Sandberg", "number": "504", "releaseName": "1984 Fleer Baseball",
            "releaseYear": "1984", "gradePrices": {"psa-10": "236.30", "psa-9": "93.45", "raw": "58.41"}}


def _state(text: str, **results) -> SimpleNamespace:
    results = {"owned": {"groups": [{"topCards": OWNED}]}, **results}
    return SimpleNamespace(ent=parse(text), conv=SimpleNamespace(history=[], question=text), ok=results.get,
                           mine=True, many=results.pop("many", {}), results=results, intent=None)


def test_what_i_paid_for_a_card_is_about_my_copy_with_or_without_my():
    for q in ("how much did i pay for rickey henderson", "how much did i pay for rickey hendersn",
              "what did i buy my base set zard for"):
        st = understand(q)
        assert st.mine and st.intent.name == "collection_roi", (q, st.intent.name)
    assert understand("how much did i pay for everything").intent.name == "collection_value"


def test_worth_more_than_another_card_has_two_sides():
    st = SimpleNamespace(ent=parse("is my zard worth more than my blastoise"))
    assert [s.split()[-1] for s in planner._sides(st)] == ["zard", "blastoise"]


def test_my_cards_compared_as_i_hold_them():
    answer = market.compare(_state("is my zard worth more than my blastoise", many={"compared": [ZARD, BLASTOISE]}))
    assert "Charizard" in answer and "$5,124.50" in answer
    assert "no price data" in answer and "Blastoise" in answer and "can't compare" in answer


def test_a_grade_gap_asked_of_my_card_is_the_gap_not_my_copys_value():
    results = {"link": {"best": "s84", "cards": [SANDBERG]}, "catalog_card": {"id": "s84", "prices": SANDBERG["gradePrices"]}}
    answer = market.price(_state("psa 10 vs 9 difference on my sandberg", **results))
    assert "$142.85" in answer
    assert "$68.45" in market.price(_state("whats my sandberg worth", **results))   # one grade: my copy's gain


def test_players_sharing_a_first_name_are_not_chosen_by_market_data():
    cards = [{"id": "g", "name": "Ozzie Guillen", "number": "433", "rawPrice": "5.32"},
             {"id": "s", "name": "Ozzie Smith", "number": "80"},
             {"id": "v", "name": "Ozzie Virgil", "number": "111"}]
    link = {"ambiguous": True, "cards": cards, "entities": [{"kind": "name", "name": "Ozzie Smith", "phrase": "ozzie"}]}
    assert chosen_card(link, parse("ozzie 89 score psa 9"), priced=True) is None
    # one player's cards the words do not tell apart: the one with market data
    same = [dict(c, name="Ozzie Smith") for c in cards]
    assert chosen_card(dict(link, cards=same), parse("ozzie smith 89 score"), priced=True)["id"] == "g"


def test_the_not_found_reply_names_what_the_catalog_calls_the_card_not_the_typo():
    from agent.builtin.answers.common import not_found

    link = {"entities": [{"kind": "name", "name": "Charizard", "phrase": "charzard", "exact": False}],
            "constraints": {"year": "1987"}}
    answer = not_found(_state("charzard 1987 topps", link=link))
    assert '"Charizard"' in answer and "charzard" not in answer
    link = {"entities": [{"kind": "name", "name": "Ozzie Smith", "phrase": "ozzie", "exact": False}], "constraints": {}}
    assert '"ozzie"' in not_found(_state("ozzie 1975 topps", link=link))   # a part of the name stays as said


def test_a_card_code_beside_a_grade_asks_that_cards_price_not_the_grading_scale():
    assert understand("kumar rocker prv-kr bgs 9.5").intent.name == "price"
    assert understand("what does bgs 9.5 mean").intent.name == "grades"
