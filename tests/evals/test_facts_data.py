"""Expectations drawn from the real catalog's data where the data has nothing to show: an owned card with no
sale to value it by, and a card whose only raw copies for sale are parallels (needs ../shared/data)."""

from __future__ import annotations

from evals.facts import FACTS, NO_LISTINGS, NO_PRICE, Env, _listings, identity


async def test_unpriced_owned_card_expects_no_price_and_raw_parallel_is_the_cheapest_raw(real_fixture, tmp_path):
    from config import Settings
    from evals.collector import real_catalog
    from evals.realdata import OWNED
    from tools._registry import invoke

    fixture, _ = real_fixture
    async with real_catalog(fixture, tmp_path, Settings(), echo=lambda line: None) as (ctx, values, judging):
        env: Env = judging.env
        out = await invoke("collection_breakdown", {"collection_id": values["collection"], "group_by": "player",
                                                    "take": 100}, ctx)
        unpriced = {c["cardName"] for g in out["groups"] for c in g["topCards"] if not c.get("currentValue")}
        priced = {c["cardName"] for g in out["groups"] for c in g["topCards"] if c.get("currentValue")}
        assert unpriced and priced
        for owned in OWNED:
            card = await identity(env, {k: owned[k] for k in ("name", "number", "release")}, {})
            exp = await FACTS["card_gain"](env, card, None, {})
            if owned["name"] in unpriced:
                assert exp.says == [NO_PRICE] and not exp.figures, owned["name"]
            else:
                assert exp.figures and exp.figures[0][0] == "money", owned["name"]

        # 2004 Topps Danny Graves #51: no raw base copy is listed, raw parallels are
        card = await identity(env, {"name": "Danny Graves", "number": "51", "release": "2004 Topps Baseball"}, {})
        rows = await _listings(env, card)
        raw = [cents for cents, r in rows if r.grade_id is None]
        assert raw and all(r.parallel_id is not None for _, r in rows if r.grade_id is None)
        exp = await FACTS["cheapest_listing"](env, card, "raw", {})
        assert exp.figures == [("money", min(raw) / 100)]
        assert min(raw) > min(cents for cents, _ in rows)  # a graded copy is cheaper: "raw" must not take it
        assert NO_LISTINGS not in exp.says


async def test_a_pokemon_card_named_like_a_type_line_is_spotted(real_fixture, tmp_path):
    """A random pull of "Lightning Energy #5" names a card; a sports card's team line names none."""
    from config import Settings
    from evals.collector import real_catalog

    fixture, _ = real_fixture
    async with real_catalog(fixture, tmp_path, Settings(), echo=lambda line: None) as (ctx, values, judging):
        spots = judging.index.spots
        assert [s.name for s in spots("Here is a random card: 2024 Trainer Kit Lightning Energy #5.")] == \
            ["Lightning Energy"]
        assert "Boston Red Sox" not in [s.name for s in spots("1989 Topps Baseball Wade Boggs #600, Boston Red Sox.")]
