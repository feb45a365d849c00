"""The README's agent example on a catalog holding both the demo data and real data (the real 2024
Topps Chrome Baseball release, where Shohei Ohtani #1 exists too): answered about one card."""

from __future__ import annotations

from store.importers import demo, junkwax
from tests.conftest import shared_data


async def test_readme_question_is_answered_about_one_card_with_demo_and_real_data(client, auth, sessions):
    release = shared_data("junkwax", "categories", "baseball", "2024", "2024-Topps-Chrome.json")
    await demo.run(sessions, None)
    await junkwax.run(sessions, str(release))
    resp = await client.post("/v1/ai/query", headers=auth,
                             json={"query": "What parallels does 2024 Topps Chrome Shohei Ohtani #1 have?"})
    body = await resp.json()
    answer = body["answer"]
    assert "Which one" not in answer, answer
    assert "Shohei Ohtani #1" in answer and "parallel" in answer
    assert body["toolsUsed"] == ["catalog_link", "catalog_card"]
