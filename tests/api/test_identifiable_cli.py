"""``cardwise identifiable on|off``: an operator chooses the sets photo identification matches."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest

from cli import main as cli
from tests.factories import seed_catalog
from tests.vision.helpers import photo
from tools._models import Upload
from tools.identify import CheckSetIn, IdentifyIn, ListSetsIn, identify_card, identify_check_set, identify_list_sets


@pytest.fixture
async def cat(sessions, settings, monkeypatch):
    monkeypatch.setattr(cli, "load_settings", lambda: settings)
    return await seed_catalog(sessions)


async def _run(argv: list[str]) -> int:
    return await asyncio.to_thread(cli.main, argv)


async def _listed(ctx) -> set[str]:
    return {s.set_id for s in (await identify_list_sets(ctx, ListSetsIn())).items}


async def _named(ctx, cat, key: str, seed: int) -> list[str | None]:
    upload = Upload(data=photo(cat, [key], seed=seed), content_type="image/jpeg")
    res = await identify_card(ctx, IdentifyIn(image=upload))
    return [d.card.name for d in res.detections]


async def test_a_release_turned_off_is_neither_listed_nor_identified_until_turned_on(ctx, cat, capsys):
    chrome = str(cat.sets["chrome"].id)
    assert "Aaron Judge" in await _named(ctx, cat, "judge", 4)
    assert await _run(["identifiable", "off", "--release", str(cat.releases["chrome"].id)]) == 0
    # the release's two sets were named; one of them (Base) was identifiable
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == {"identifiable": False, "sets": 2,
                                                                           "changed": 1}
    assert chrome not in await _listed(ctx)
    assert (await identify_check_set(ctx, CheckSetIn(set_id=chrome))).is_identifiable is False
    assert "Aaron Judge" not in await _named(ctx, cat, "judge", 4)
    assert await _run(["identifiable", "on", "--set", chrome]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["changed"] == 1
    assert chrome in await _listed(ctx)
    assert "Aaron Judge" in await _named(ctx, cat, "judge", 4)


async def test_a_segment_by_its_short_code_turns_every_set_of_it_on(ctx, cat, capsys):
    assert await _run(["identifiable", "on", "--segment", "mlb"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out == {"identifiable": True, "sets": 3, "changed": 2}  # Rookie Autographs and 1989 Topps Base
    assert await _listed(ctx) == {str(s.id) for s in cat.sets.values()}


async def test_an_unknown_set_release_or_segment_changes_nothing(ctx, cat, capsys):
    before = await _listed(ctx)
    for argv in (["--set", str(uuid.uuid4())], ["--release", "not-an-id"], ["--segment", "cricket"],
                 ["--set", str(cat.sets["chrome"].id), "--segment", "cricket"], []):
        assert await _run(["identifiable", "off", *argv]) == 2, argv
        assert "cardwise identifiable" in capsys.readouterr().err
    assert await _listed(ctx) == before
