""""sun and moon base set": collectors call a release's first set its base set; the words before "base set"
name the release meant, not the 1999 Base Set."""

from __future__ import annotations

from tests.realdata import tcgdex_subset


async def test_a_release_named_before_base_set_is_the_one_meant(ctx, sessions, tmp_path):
    from agent.llm import make_llm
    from agent.loop import run_query
    from store.importers import tcgdex

    await tcgdex.run(sessions, str(tcgdex_subset(tmp_path / "tcgdex", ("Base Set", "Sun & Moon", "Pokémon GO"))))
    answer = (await run_query(ctx, "sun and moon base set release date", make_llm(ctx.settings))).answer
    assert "Sun & Moon" in answer and "2017" in answer and "1999" not in answer, answer
    answer = (await run_query(ctx, "base set release date", make_llm(ctx.settings))).answer
    assert "1999" in answer, answer
    # a segment word before "base set" is no release of its own ("pokemon" is not Pokemon GO)
    answer = (await run_query(ctx, "How many cards in pokemon base set", make_llm(ctx.settings))).answer
    assert "Base Set" in answer and "102" in answer and "GO" not in answer, answer
