"""Real answers of the catalog, collection, pricing and identify routes match the schemas /openapi.json
publishes: each is validated against its JSON schema and parsed by the pydantic models that
datamodel-code-generator writes from the document (a generated client)."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
import uuid
import warnings
from datetime import date, timedelta

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from store.models import PriceRecord
from store.reference import grades as ref
from tests.factories import seed_catalog
from tests.vision.helpers import photo

DOC_URI = "urn:cardwise:openapi"


def generated_models(doc: dict, directory) -> object:
    """The module datamodel-code-generator writes from the document's schemas, imported."""
    codegen = pytest.importorskip("datamodel_code_generator")
    out = directory / "cardwise_client_models.py"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notices about future default options
        codegen.generate(json.dumps(doc), input_file_type=codegen.InputFileType.OpenAPI, output=out,
                         output_model_type=codegen.DataModelType.PydanticV2BaseModel,
                         openapi_scopes=[codegen.OpenAPIScope.Schemas])
    spec = importlib.util.spec_from_file_location("cardwise_client_models", out)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(spec.name, None)
    return module


@pytest.fixture
async def cat(sessions):
    cat = await seed_catalog(sessions)
    async with sessions() as s, s.begin():
        for i in range(3):
            s.add(PriceRecord(id=uuid.uuid4(), card_id=cat.cards["ohtani"].id, grade_id=ref.grade_id("PSA", "Card", "10"),
                              title=f"2024 Topps Chrome Shohei Ohtani #1 PSA 10 sale {i}", price_cents=1000 * (i + 1),
                              date=date.today() - timedelta(days=i + 1), listing_type="auction", source="eBay"))
    return cat


class Checker:
    def __init__(self, client, auth, doc, models):
        self.client, self.auth, self.doc, self.models = client, auth, doc, models
        self.registry = Registry().with_resource(DOC_URI, Resource.from_contents(doc, default_specification=DRAFT202012))
        self.checked: list[str] = []

    def _operation(self, method: str, path: str) -> tuple[str, dict]:
        bare = path.split("?")[0]
        for template, ops in self.doc["paths"].items():
            pattern = re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template))
            if method in ops and re.fullmatch(pattern, bare):
                return template, ops[method]
        raise AssertionError(f"{method} {bare} is not in the document")

    async def call(self, method: str, path: str, **kw) -> dict:
        resp = await self.client.request(method.upper(), path, headers={**self.auth, **kw.pop("headers", {})}, **kw)
        body = await resp.json()
        assert resp.status < 300, (path, resp.status, body)
        template, op = self._operation(method, path)
        schema = op["responses"][str(resp.status)]["content"]["application/json"]["schema"]
        pointer = schema["$ref"].replace("#", DOC_URI + "#", 1) if "$ref" in schema else None
        validator = Draft202012Validator({"$ref": pointer} if pointer else schema, registry=self.registry)
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(body)]
        assert errors == [], f"{method} {path}: {errors[:5]}"
        model = getattr(self.models, pointer.rsplit("/", 1)[1]) if pointer else None
        if model is not None:  # the generated client's model for this answer parses it
            parsed = model.model_validate(body)
            assert parsed.model_dump(by_alias=True, exclude_unset=True).keys() == body.keys()
        self.checked.append(f"{method} {template}")
        return body


async def test_real_answers_match_the_published_schemas(client, auth, cat, tmp_path):
    doc = await (await client.get("/openapi.json")).json()
    c = Checker(client, auth, doc, generated_models(doc, tmp_path))
    ohtani, chrome = cat.cards["ohtani"].id, cat.sets["chrome"]
    # catalog
    await c.call("get", "/v1/catalog/cards?take=5")
    await c.call("get", f"/v1/catalog/cards/{ohtani}")
    await c.call("get", "/v1/catalog/search?q=ohtani")
    await c.call("get", f"/v1/catalog/sets/{chrome.id}")
    await c.call("get", f"/v1/catalog/releases/{chrome.release_id}")
    await c.call("get", f"/v1/catalog/sets/{chrome.id}/cards")
    await c.call("get", "/v1/catalog/parallels")
    await c.call("get", "/v1/catalog/statistics")
    await c.call("get", "/v1/autocomplete/cards?q=oh")
    await c.call("get", "/v1/grades/companies")
    # collection
    collector = await c.call("post", "/v1/collectors/", json={"name": "Ana"})
    coll = await c.call("post", "/v1/collection/", json={"collectorId": collector["id"], "name": "Main"})
    await c.call("post", f"/v1/collection/{coll['id']}/cards", json={"cardId": str(ohtani), "buyPrice": "12.50"})
    await c.call("get", f"/v1/collection/{coll['id']}/cards")
    await c.call("get", f"/v1/collection/{coll['id']}/analytics")
    await c.call("get", f"/v1/collection/{coll['id']}/breakdown?groupBy=release")
    # pricing
    await c.call("get", f"/v1/pricing/{ohtani}")
    await c.call("get", "/v1/pricing/search?q=ohtani")
    # identify
    data = photo(cat, ["ohtani"], seed=2)
    await c.call("post", "/v1/identify/card", data=io.BytesIO(data), headers={"Content-Type": "image/jpeg"})
    await c.call("post", "/v1/detect/card", data=io.BytesIO(data), headers={"Content-Type": "image/jpeg"})
    assert len(c.checked) == 20
    # and the check can fail: a card without its required fields does not pass
    card = Draft202012Validator({"$ref": DOC_URI + "#/components/schemas/CardDetail"}, registry=c.registry)
    assert not card.is_valid({"id": str(ohtani)})
    with pytest.raises(ValueError):
        c.models.CardDetail.model_validate({"id": str(ohtani)})
