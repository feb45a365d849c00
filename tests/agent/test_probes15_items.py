"""Follow-ups the probes15 round answered with the card talked about instead of the one asked: a maker said of
the player just asked about ("his donruss card that year", "and fleer?") is that maker's card of that year,
never the earlier release's; a maker with no such card says so; "a 10 of that card" is a grade."""

from __future__ import annotations

from tools._linking import read

EARLIER = ["89 upper deck griffey rookie"]


async def _links(ctx, sessions, *texts: str) -> list[dict]:
    from store.importers import junkwax
    from tests.conftest import shared_data
    from tools._registry import invoke

    for name in ("1989-Upper-Deck.json", "1989-Donruss.json", "1989-Fleer.json", "1989-Topps.json"):   # no Griffey in Topps
        await junkwax.run(sessions, str(shared_data("junkwax", "categories", "baseball", "1989", name)))
    return [await invoke("catalog_link", {"text": t, "history": EARLIER, "take": 5}, ctx) for t in texts]


def _best(link: dict) -> dict | None:
    return next((c for c in link["cards"] if c["id"] == link.get("best")), None)


async def test_a_maker_said_after_a_card_is_that_makers_card_of_the_year(ctx, sessions):
    donruss, fleer, fleer_bare = await _links(ctx, sessions, "his donruss card that year", "what about the fleer one",
                                              "and fleer?")
    assert (_best(donruss) or {}).get("releaseName") == "1989 Donruss Baseball", donruss["cards"][:2]
    for link in (fleer, fleer_bare):
        assert (_best(link) or {}).get("releaseName") == "1989 Fleer Baseball", link["cards"][:2]
        assert _best(link)["name"] == "Ken Griffey Jr."


async def test_a_maker_with_no_card_of_the_player_that_year_is_not_another_card(ctx, sessions):
    (topps,) = await _links(ctx, sessions, "what about topps")
    assert topps.get("best") is None and "manufacturer" in topps.get("differences", []), topps["cards"][:2]


def test_a_grade_of_that_card_is_a_grade_and_one_of_one_a_count():
    assert (read("how rare is a 10 of that card").grade, read("how rare is a 10 of that card").number) == ("10", None)
    assert (read("is there a 1 of 1").grade, read("is there a 1 of 1").number) == (None, "1")
