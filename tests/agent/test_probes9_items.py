"""Wordings the probes9 round answered with another card: a name the catalog lacks said beside a word that
begins or ends other cards' names ("fossil blastoise" -> Mysterious Fossil, "shining blastoise" -> Shining
Celebi). The name said outright wins: no card of it fits, so the card is not in the catalog."""

from __future__ import annotations

from tests.realdata import tcgdex_subset


async def _link_pokemon(ctx, sessions, tmp_path, *texts: str) -> list[dict]:
    from store.importers import tcgdex
    from tools._registry import invoke

    await tcgdex.run(sessions, str(tcgdex_subset(tmp_path / "tcgdex", ("Base Set", "Fossil", "Neo Destiny"))))
    return [await invoke("catalog_link", {"text": t, "take": 5}, ctx) for t in texts]


def _best(link: dict) -> dict | None:
    return next((c for c in link["cards"] if c["id"] == link.get("best")), None)


async def test_a_name_no_card_of_the_release_carries_is_not_another_name(ctx, sessions, tmp_path):
    fossil, shining, light = await _link_pokemon(ctx, sessions, tmp_path, "fossil blastoise holo",
                                                 "shining blastoise neo destiny psa 9",
                                                 "light charizard neo destiny value")
    for link in (fossil, shining, light):
        assert link.get("best") is None and not link.get("ambiguous") and "name" in link.get("differences", []), link["cards"][:2]


async def test_the_name_said_with_its_release_is_still_found(ctx, sessions, tmp_path):
    gengar, zard, blastoise, arcanine = await _link_pokemon(ctx, sessions, tmp_path, "fossil gengar 5",
                                                            "shining charizard neo destiny",
                                                            "base set blastoise 2", "light arcanine neo destiny")
    assert (_best(gengar) or {}).get("name") == "Gengar"
    assert (_best(zard) or {}).get("name") == "Shining Charizard"
    assert (_best(blastoise) or {}).get("name") == "Blastoise"
    assert (_best(arcanine) or {}).get("name") == "Light Arcanine"


def test_a_question_word_with_its_apostrophe_names_no_one():
    """ "how's my 86 topps ozzie": "how's" folds to "how s", which read as a name found Steve Howe, and a
    follow-up ("what about his 83 topps") then carried Howe instead of Ozzie Smith."""
    from tools._linking import read, runs

    for q in ("how's my 86 topps ozzie", "that's the 1983 topps ozzie smith", "how\u2019s my griffey"):
        words = {w.lower().replace("\u2019", "'") for run in runs(read(q)) for w in run}
        assert not words & {"how's", "that's"}, (q, words)
