"""Misspelt words read as collectors mean them: words read together as another name that is not them whole
("kabutop fossil" -> Dome Fossil Kabuto, "fosil holo" -> Holo Foil) are read apart when each word names
something whole; a loose release reading from another segment than the player's ("94 flare": White Flare) does
not make his card "not in the catalog"; a misspelt name beside a misspelt release is answered, not refused."""

from __future__ import annotations

from tests.realdata import tcgdex_subset


async def _catalog(sessions, tmp_path) -> None:
    from store.importers import junkwax, tcgdex
    from tests.conftest import shared_data

    await tcgdex.run(sessions, str(tcgdex_subset(tmp_path / "tcgdex", ("Fossil", "Fates Collide", "Stormfront",
                                                                          "White Flare"))))
    for year, name in (("1994", "1994-Flair.json"), ("2025", "2025-Topps.json")):   # 2025 Topps: the Holo Foil parallel
        await junkwax.run(sessions, str(shared_data("junkwax", "categories", "baseball", year, name)))


def _best(link: dict) -> dict | None:
    return next((c for c in link["cards"] if c["id"] == link.get("best")), None)


async def test_misspelt_words_read_as_one_other_name_are_read_apart(ctx, sessions, tmp_path):
    from tools._registry import invoke

    await _catalog(sessions, tmp_path)
    for text, name, number in (("kabutop fossil holo 9", "Kabutops", "9"), ("genger fosil holo 5", "Gengar", "5")):
        link = await invoke("catalog_link", {"text": text, "take": 5}, ctx)
        best = _best(link) or {}
        assert (best.get("name"), best.get("releaseName"), best.get("number")) == (name, "Fossil", number), link["cards"][:2]


async def test_a_loose_release_of_another_segment_does_not_hide_the_players_card(ctx, sessions, tmp_path):
    from tools._registry import invoke

    await _catalog(sessions, tmp_path)
    link = await invoke("catalog_link", {"text": "charls nagy 94 flare 42", "take": 5}, ctx)
    best = _best(link) or {}
    assert (best.get("name"), best.get("releaseName"), best.get("number")) == ("Charles Nagy", "1994 Flair Baseball", "42")
    # a card the player does not have stays missing
    link = await invoke("catalog_link", {"text": "charles nagy 94 flair 999", "take": 5}, ctx)
    assert link.get("best") is None and "number" in link.get("differences", [])


async def test_a_misspelt_name_and_release_alone_are_answered(ctx, sessions, tmp_path):
    from agent.llm import make_llm
    from agent.loop import run_query

    await _catalog(sessions, tmp_path)
    answer = (await run_query(ctx, "kabutop fosil", make_llm(ctx.settings))).answer
    assert "Kabutops" in answer and "Fossil" in answer and "can't answer" not in answer, answer
    answer = (await run_query(ctx, "best way to store cards", make_llm(ctx.settings))).answer
    assert "Kabutops" not in answer and "Fossil" not in answer, answer
