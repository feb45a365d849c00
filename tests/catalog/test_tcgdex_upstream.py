"""``cardwise import tcgdex`` reads the tcgdex/cards-database repository archive itself (its TypeScript
sources, parsed, never run) and gives the same catalog as its JSON export in ../shared/data."""

from __future__ import annotations

import io
import json
import re
import tarfile
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import select

from store.db import create_engine, sessionmaker
from store.importers import tcgdex
from store.importers._tsliteral import Ref, imports, module_value
from store.models import Card, FieldValue, Parallel, ParallelCard
from tests.conftest import shared_data
from tests.realdata import catalog_dump, tcgdex_subset

FIXTURES = Path(__file__).parent / "tcgdex_upstream"
TOP = "cards-database-master"
# fixture file -> its path in the repository
UPSTREAM = {
    "series_base.ts": "data/Base.ts",
    "base_set.ts": "data/Base/Base Set.ts",
    "base_set_88.ts": "data/Base/Base Set/88.ts",
    "base_set_102.ts": "data/Base/Base Set/102.ts",
    "series_swsh.ts": "data/Sword & Shield.ts",
    "champions_path.ts": "data/Sword & Shield/Champion's Path.ts",
    "champions_path_1.ts": "data/Sword & Shield/Champion's Path/1.ts",
    "series_tcgp.ts": "data/Pokémon TCG Pocket.ts",
    "celestial_guardians.ts": "data/Pokémon TCG Pocket/Celestial Guardians.ts",
    "celestial_guardians_002.ts": "data/Pokémon TCG Pocket/Celestial Guardians/002.ts",
}


def _add(t: tarfile.TarFile, name: str, text: str) -> None:
    data = text.encode("utf-8")
    info = tarfile.TarInfo(f"{TOP}/{name}")
    info.size = len(data)
    t.addfile(info, io.BytesIO(data))


def _archive(dest: Path, files: dict[str, str]) -> Path:
    """A repository archive as GitHub serves it (one top folder), with README and other files beside data/."""
    if dest.name.endswith(".zip"):
        with zipfile.ZipFile(dest, "w") as z:
            z.writestr(f"{TOP}/README.md", "# cards-database")
            for name, text in files.items():
                z.writestr(f"{TOP}/{name}", text)
        return dest
    with tarfile.open(dest, "w:gz") as t:
        _add(t, "README.md", "# cards-database")
        _add(t, "data-asia/PMCG/PMCG1.ts", "not read")
        for name, text in files.items():
            _add(t, name, text)
    return dest


def _real_files() -> dict[str, str]:
    return {UPSTREAM[f]: (FIXTURES / f).read_text(encoding="utf-8") for f in UPSTREAM}


def test_the_reader_takes_the_real_format_and_refuses_code():
    card = module_value((FIXTURES / "champions_path_1.ts").read_text(encoding="utf-8"))
    assert card["name"]["en"] == "Venusaur V" and card["set"] == Ref("Set") and card["dexId"] == [3]
    assert card["variants"] == {"normal": False, "reverse": False, "holo": True, "firstEdition": False}
    assert imports((FIXTURES / "champions_path_1.ts").read_text(encoding="utf-8"))["Set"] == "../Champion's Path"
    guardians = module_value((FIXTURES / "celestial_guardians.ts").read_text(encoding="utf-8"))
    assert guardians["name"] == {"en": "Celestial Guardians"}  # the commented-out names stay out
    series = module_value((FIXTURES / "series_tcgp.ts").read_text(encoding="utf-8"))
    assert series["name"]["pt-br"] == "Pokémon Estampas Ilustradas Pocket"
    for code in ("const c = { name: fetch('x') }", "const c = { ...other }", "const c = { n: `a${b}` }",
                 "const c = { n: 1 + 2 }", "const c = { n: 'open }", "export default card"):
        with pytest.raises(ValueError):
            module_value(code)


async def _cards(sessions, numbers: dict[str, str]) -> dict[str, tuple]:
    """set name + number -> (card row, its fields, the parallels it comes in)."""
    out = {}
    async with sessions() as s:
        for key, number in numbers.items():
            card = (await s.execute(select(Card).where(Card.number == number, Card.name == key))).scalars().one()
            fields = sorted((await s.execute(select(FieldValue.field_id, FieldValue.value)
                                             .where(FieldValue.entity_id == card.id))).all())
            pars = (await s.execute(select(Parallel).where(Parallel.set_id == card.set_id))).scalars().all()
            linked = set((await s.execute(select(ParallelCard.parallel_id)
                                          .where(ParallelCard.card_id == card.id))).scalars())
            out[key] = ((card.id, card.set_id, card.release_id, card.name, card.number, card.rarity, card.description),
                        fields, sorted(p.name for p in pars if not p.is_partial or p.id in linked))
    return out


@pytest.mark.parametrize("kind", ["tar.gz", "zip"])
async def test_real_upstream_files_give_the_cards_of_the_json_export(sessions, second_db, tmp_path, kind):
    archive = _archive(tmp_path / f"cards-database-master.{kind}", _real_files())
    counts = await tcgdex.run(sessions, str(archive))
    assert (counts["releases"], counts["cards"], counts["bad_records"], counts["skipped_digital"]) == (2, 3, 0, 1)
    assert [e["file"] for e in counts["skipped"]] == ["data/Pokémon TCG Pocket/Celestial Guardians.ts"]
    again = await tcgdex.run(sessions, str(archive))  # idempotent
    assert again == counts

    engine = create_engine(second_db)
    try:
        by_json = sessionmaker(engine)
        await tcgdex.run(by_json, str(tcgdex_subset(tmp_path / "json", ("Base Set", "Champion's Path"))))
        want = {"Professor Oak": "88", "Water Energy": "102", "Venusaur V": "1"}
        mine, theirs = await _cards(sessions, want), await _cards(by_json, want)
    finally:
        await engine.dispose()
    assert mine == theirs
    assert mine["Professor Oak"][2] == ["1999 2000 Copyright Normal", "1st Edition Shadowless Normal",
                                        "Shadowless Normal"]
    assert mine["Venusaur V"][2] == []  # holo only: the base card


def test_a_bad_file_is_reported_and_the_rest_imported(tmp_path):
    files = _real_files()
    files["data/Base/Base Set/4.ts"] = "import Set from '../Base Set'\nconst card: Card = { name: { en: 'Charizard' }, ...x }"
    files["data/Base/Base Set/5.ts"] = "export const helper = () => 1\n"
    root = tmp_path / "checkout"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    sets = list(tcgdex.upstream.sets(root))
    cards = list(tcgdex.upstream.cards(root, tcgdex.DIGITAL_SERIES))
    assert [r["_file"] for _, _, r in sets] == ["Base/Base Set.ts", "Pokémon TCG Pocket/Celestial Guardians.ts",
                                                "Sword & Shield/Champion's Path.ts"]
    bad = {p.name: str(r) for p, _, r in cards if isinstance(r, Exception)}
    assert set(bad) == {"4.ts", "5.ts"} and "spread" in bad["4.ts"] and "line 2" in bad["4.ts"]
    assert [r["localId"] for _, _, r in cards if not isinstance(r, Exception)] == ["102", "88", "002", "1"]


def _ts(value, indent: int = 1) -> str:
    """A JSON value written as tcgdex writes its TypeScript (bare keys, tabs, trailing commas)."""
    pad = "\t" * indent
    if isinstance(value, Ref):
        return value.name
    if isinstance(value, dict):
        if not value:
            return "{}"
        keys = [k if re.fullmatch(r"[A-Za-z_$][\w$]*", k) else "'" + k.replace("'", "\\'") + "'" for k in value]
        body = "".join(f"{pad}{k}: {_ts(v, indent + 1)},\n" for k, v in zip(keys, value.values(), strict=True))
        return "{\n" + body + "\t" * (indent - 1) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_ts(v, indent + 1) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _upstream_layout(folder: Path) -> dict[str, str]:
    """The records of a tcgdex JSON folder written back as the repository's data/**.ts files."""
    sets = json.loads((folder / "sets.json").read_text())
    cards = json.loads((folder / "cards.json").read_text())
    files: dict[str, str] = {}
    for serie in {s["serie"] for s in sets}:
        files[f"data/{serie}.ts"] = f"const serie: Serie = {_ts({'id': serie.lower(), 'name': {'en': serie}})}\n\n" \
                                    "export default serie\n"
    for st in sets:
        body = {k: v for k, v in st.items() if k != "_file"} | {"serie": Ref("serie")}
        serie = st["_file"].split("/")[0]
        files[f"data/{st['_file']}"] = (f"import {{ Set }} from '../../interfaces'\nimport serie from '../{serie}'\n\n"
                                        f"const set: Set = {_ts(body)}\n\nexport default set\n")
    for c in cards:
        body = {k: v for k, v in c.items() if k not in ("serieDir", "set", "localId")} | {"set": Ref("Set")}
        files[f"data/{c['serieDir']}/{c['set']}/{c['localId']}.ts"] = (
            f"import {{ Card }} from '../../../interfaces'\nimport Set from '../{c['set']}'\n\n"
            f"const card: Card = {_ts(body)}\n\nexport default card\n")
    return files


async def test_the_json_export_written_back_as_the_repository_imports_to_an_equal_catalog(
        sessions, second_db, tmp_path):
    names = ("Base Set", "Base Set 2", "Neo Destiny", "Champion's Path", "Genetic Apex", "Surging Sparks")
    folder = tcgdex_subset(tmp_path / "json", names)
    assert shared_data("tcgdex")
    archive = _archive(tmp_path / "cards-database-master.tar.gz", _upstream_layout(folder))
    counts = await tcgdex.run(sessions, str(archive))
    engine = create_engine(second_db)
    try:
        by_json = sessionmaker(engine)
        expected = await tcgdex.run(by_json, str(folder))
        assert counts["cards"] == expected["cards"] > 500 and counts["skipped_digital"] == 1
        assert counts["bad_records"] == 0 and counts["parallels"] == expected["parallels"]
        assert await catalog_dump(sessions) == await catalog_dump(by_json)
    finally:
        await engine.dispose()
