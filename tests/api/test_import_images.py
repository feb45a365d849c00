"""``cardwise import images DIR``: file-name and CSV mappings, features computed, bad files skipped."""

from __future__ import annotations

import json

from sqlalchemy import select

from cli import main as cli
from store.models import CardImage
from tests.factories import seed_catalog
from tests.vision.helpers import png, spec
from vision.render import render_card


async def test_import_images_by_uuid_name_and_csv(sessions, settings, tmp_path, monkeypatch, capsys):
    cat = await seed_catalog(sessions)
    d = tmp_path / "imgs"
    d.mkdir()
    (d / f"{cat.cards['judge'].id}.png").write_bytes(png(render_card(spec(cat, "judge"))))
    (d / f"{cat.cards['judge'].id}_back.png").write_bytes(png(render_card(spec(cat, "ohtani"))))
    (d / "00000000-0000-4000-8000-000000000000.png").write_bytes(png(render_card(spec(cat, "ohtani"))))
    (d / f"{cat.cards['skenes'].id}.jpg").write_bytes(b"not an image")
    monkeypatch.setenv("CARDWISE_DATABASE_URL", settings.database_url)
    monkeypatch.setattr(cli, "load_settings", lambda: settings)
    assert await _run(["import", "images", str(d), "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["images"] == 2 and out["skipped_images"] == 2 and len(out["skipped"]) == 2 and out["indexed"] == 2
    async with sessions() as s:
        rows = (await s.scalars(select(CardImage))).all()
    assert {(r.card_id, r.side) for r in rows} == {(cat.cards["judge"].id, "front"), (cat.cards["judge"].id, "back")}
    assert all(r.phash and len(r.phash) == 64 and r.features["color"] for r in rows)
    # a CSV mapping replaces the front image (idempotent per card and side)
    (d / "images.csv").write_text(f"card_id,file\n{cat.cards['judge'].id},{cat.cards['judge'].id}.png\n")
    assert await _run(["import", "images", str(d), "--quiet"]) == 0
    async with sessions() as s:
        assert len((await s.scalars(select(CardImage))).all()) == 2


async def _run(argv):
    import asyncio

    return await asyncio.to_thread(cli.main, argv)


async def test_vision_render_gives_cards_without_images_a_reference(sessions, settings, monkeypatch, capsys):
    cat = await seed_catalog(sessions)
    monkeypatch.setattr(cli, "load_settings", lambda: settings)
    assert await _run(["vision", "render"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == {"rendered": len(cat.cards)}
    assert await _run(["vision", "render"]) == 0  # idempotent: only cards without an image
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1]) == {"rendered": 0}
    async with sessions() as s:
        rows = (await s.scalars(select(CardImage))).all()
    assert len(rows) == len(cat.cards) and all(r.phash and r.source == "render" for r in rows)
