"""What a right answer must hold, computed from the real-catalog fixture when a case runs (never
copied from an agent's output): the card it must name and the figures or words it must state.

A case's ``fact`` is a one-key mapping, e.g. ``{price: PSA 9}`` or ``{set_size: {release: ...}}``;
``FACTS`` maps each key to the function that computes its expectation. A card's price in a grade is
the catalog's stored market value (``CardPrice``, what ``catalog_cards`` shows and collections are
valued at); a population figure is the plain count, qualified copies apart.
"""

from __future__ import annotations

import statistics
import uuid
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sqlalchemy import func, select

from evals.names import norm
from store.models import (
    Card,
    CardPrice,
    CardSet,
    WantListCard,
    Grade,
    GradingCompany,
    GradeQualifier,
    GradingType,
    MarketplaceListing,
    Parallel,
    PopulationCount,
    PriceRecord,
    Release,
    Segment,
)
from tools._registry import invoke

UP = ["up", "rising", "rose", "increas", "gain", "higher", "climb"]
DOWN = ["down", "falling", "fell", "decreas", "drop", "lower", "declin", "lost"]
FLAT = ["flat", "steady", "stable", "unchanged", "holding", "little change", "sideways"]
NO_DATA = ["no population", "no data", "not available", "no graded", "no pop", "don't have", "do not have",
           "no report", "isn't available", "no counts", "not tracked", "unknown", "no record"]
NOT_FOUND = ["not in the catalog", "couldn't find", "could not find", "no card", "not find", "isn't in",
             "no match", "not found", "don't have", "do not have", "no results", "nothing"]
NO_LISTINGS = ["no listing", "no active", "no current", "not listed", "none listed", "nobody", "no one", "no copies",
               "nothing for sale", "isn't listed", "not for sale", "no current listing", "no marketplace", "no open",
               "0 listings", "zero listings", "couldn't find any listing", "no listings"]
NO_PRICE = ["no price", "no sales", "no recent sale", "no value", "not valued", "no market", "no pricing", "no data",
            "unknown", "can't value", "cannot value", "couldn't value", "not priced", "no current value"]
WANT_LIST_WORDS = ["want list", "wantlist", "wish list", "wishlist", "wants"]
CAN_DO = ["i can", "i can help", "ask me", "i answer", "i help", "try asking", "you can ask", "questions about"]


@dataclass
class Identity:
    name: str
    number: str | None
    release: str
    year: str | None
    set_name: str
    card_id: Any = None

    def label(self) -> str:
        return f"{self.name} {self.release} #{self.number}"


@dataclass
class Expect:
    card: Identity | None = None                        # the card the answer must name, in full
    figures: list[tuple[str, Any]] = field(default_factory=list)   # (money|int|percent|date, value), all required
    says: list[list[str]] = field(default_factory=list)  # groups of alternatives; each group must appear
    not_says: list[str] = field(default_factory=list)    # phrases a right answer never holds
    allowed: set[str] = field(default_factory=set)       # other card names the answer may mention (normalised)
    scope: tuple[str, str] | None = None                 # (segment|release|set, name): every card named is in it
    scope_cards: set[str] | None = None                  # normalised names the answer's cards must come from
    scope_releases: set[str] | None = None               # normalised releases a random pull may name
    need_any_card: bool = False                          # the answer must name some card (random pulls...)
    no_card: bool = False                                # the answer must name no card (traps, out of scope)
    tools_any: list[str] = field(default_factory=list)   # one of these tools must be called
    on_list: Identity | None = None                      # this card must be on the want list afterwards
    off_list: Identity | None = None                     # this card must not be on the want list afterwards
    asks_ok: bool = False                                # asking which card is meant is right (several fit)


@dataclass
class Env:
    """What facts read: the eval key's tool context, its collection and want list, resolved cards."""
    ctx: Any
    sessions: Any
    values: dict[str, Any]
    cards: dict[str, Identity] = field(default_factory=dict)


async def identity(env: Env, ref: dict[str, Any] | str, entities: dict[str, Any]) -> Identity:
    spec = entities[ref] if isinstance(ref, str) else ref
    key = repr(sorted(spec.items()))
    if key not in env.cards:
        async with env.sessions() as s:
            rows = (await s.execute(
                select(Card, Release, CardSet).join(Release, Release.id == Card.release_id)
                .join(CardSet, CardSet.id == Card.set_id)
                .where(Card.name == spec["name"], Card.number == str(spec["number"]), Release.name == spec["release"],
                       Card.variation_of.is_(None)))).all()
        if len(rows) != 1:
            raise LookupError(f"entity {spec}: {len(rows)} catalog cards")
        card, rel, cset = rows[0]
        env.cards[key] = Identity(card.name, card.number, rel.name, rel.year, cset.name, card.id)
    return env.cards[key]


def _grade_key(grade: str | None) -> str:
    if not grade or grade.lower() == "raw":
        return "raw"
    company, value = grade.split()
    return f"{company.lower()}-{value.lower()}"


async def _price(env: Env, card: Identity, grade: str | None) -> float:
    async with env.sessions() as s:
        cents = await s.scalar(select(CardPrice.value_cents).where(
            CardPrice.card_id == card.card_id, CardPrice.parallel_id.is_(None), CardPrice.price_key == _grade_key(grade)))
    if cents is None:
        raise LookupError(f"no {grade or 'raw'} price for {card.label()}")
    return cents / 100


async def f_price(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    return Expect(card=card, figures=[("money", await _price(env, card, arg))])


async def f_price_diff(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    a, b = arg
    return Expect(card=card, figures=[("money", round(await _price(env, card, a) - await _price(env, card, b), 2))])


async def f_more_valuable(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    other = await identity(env, arg["other"], ents)
    grade = arg.get("grade")
    mine, theirs = await _price(env, card, grade), await _price(env, other, grade)
    win = card if mine >= theirs else other
    return Expect(card=win, figures=[("money", max(mine, theirs))], allowed={norm(card.name), norm(other.name)})


async def f_trend(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    today = date.today()
    async with env.sessions() as s:
        rows = (await s.execute(select(PriceRecord.date, PriceRecord.price_cents).where(
            PriceRecord.card_id == card.card_id, PriceRecord.parallel_id.is_(None),
            PriceRecord.grade_id.is_(None)))).all()
    recent = [c for d, c in rows if d and d >= today - timedelta(days=182)]
    before = [c for d, c in rows if d and d < today - timedelta(days=182)]
    if len(recent) < 3 or len(before) < 3:
        raise LookupError(f"no trend data for {card.label()}")
    change = statistics.fmean(recent) / statistics.fmean(before) - 1
    words = UP if change > 0.05 else DOWN if change < -0.05 else FLAT
    wrong = [w for w in (UP + DOWN + FLAT) if w not in words and w not in ("lower", "higher", "lost")]
    return Expect(card=card, says=[words], not_says=[w for w in wrong if w in ("rising", "falling", "increasing",
                                                                              "decreasing", "trending up",
                                                                              "trending down")])


async def _pop(env: Env, card: Identity, company: str) -> dict[str, tuple[int, int]]:
    async with env.sessions() as s:
        rows = (await s.execute(
            select(Grade.value, PopulationCount.population, PopulationCount.qualified_population)
            .join(Grade, Grade.id == PopulationCount.grade_id).join(GradingType, GradingType.id == Grade.type_id)
            .join(GradingCompany, GradingCompany.id == GradingType.company_id)
            .where(PopulationCount.card_id == card.card_id, PopulationCount.parallel_id.is_(None),
                   GradingCompany.abbreviation == company))).all()
    return {g: (p, q) for g, p, q in rows}


async def f_population(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    company, grade = arg.split()
    pop = await _pop(env, card, company)
    if not pop:
        raise LookupError(f"no {company} population for {card.label()}")
    return Expect(card=card, figures=[("int", pop.get(grade, (0, 0))[0])])


async def f_population_total(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    pop = await _pop(env, card, arg)
    if not pop:
        raise LookupError(f"no {arg} population for {card.label()}")
    return Expect(card=card, figures=[("int", sum(p + q for p, q in pop.values()))])


async def f_population_qualified(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    company, grade = arg.split()
    plain, qualified = (await _pop(env, card, company)).get(grade, (0, 0))
    return Expect(card=card, figures=[("int", plain), ("int", qualified)], says=[["qualif", "oc", "qualifier"]])


async def f_no_population(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    async with env.sessions() as s:
        n = await s.scalar(select(func.count()).select_from(PopulationCount).where(
            PopulationCount.card_id == card.card_id))
    if n:
        raise LookupError(f"{card.label()} has population data; the case expects none")
    return Expect(card=card, says=[NO_DATA], not_says=[" 0 copies", "population of 0", "population is 0",
                                                         "0 graded", "zero copies", "0 psa"])


async def _release(env: Env, name: str) -> Release:
    async with env.sessions() as s:
        rel = (await s.scalars(select(Release).where(Release.name == name))).one()
    return rel


async def f_set_size(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    rel = await _release(env, arg["release"])
    async with env.sessions() as s:
        base = select(func.count()).select_from(Card).where(Card.release_id == rel.id, Card.variation_of.is_(None))
        whole = await s.scalar(base)
        sizes = [whole]
        if arg.get("set"):
            sizes = [await s.scalar(base.join(CardSet, CardSet.id == Card.set_id).where(CardSet.name == arg["set"]))]
    return Expect(figures=[("int_any", sizes)], says=[[rel.name, norm(rel.name), rel.year or rel.name]])


async def f_release_date(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    rel = await _release(env, arg)
    if rel.release_date is None:
        raise LookupError(f"{arg} has no release date")
    return Expect(figures=[("date", rel.release_date)])


async def f_release_sets(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    rel = await _release(env, arg)
    async with env.sessions() as s:
        names = sorted(set((await s.scalars(select(CardSet.name).where(CardSet.release_id == rel.id))).all()))
    if len(names) <= 6:
        return Expect(says=[[n] for n in names])
    return Expect(figures=[("int", len(names))])


async def _parallels(env: Env, release: str, set_name: str | None) -> list[Parallel]:
    rel = await _release(env, release)
    async with env.sessions() as s:
        q = select(Parallel).join(CardSet, CardSet.id == Parallel.set_id).where(CardSet.release_id == rel.id)
        if set_name:
            q = q.where(CardSet.name == set_name)
        return list((await s.scalars(q)).all())


async def f_parallels(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    pars = await _parallels(env, arg["release"], arg.get("set"))
    names = sorted({p.name for p in pars})
    if not names:
        raise LookupError(f"no parallels in {arg}")
    if len(names) <= 4:
        return Expect(says=[[n] for n in names])
    return Expect(says=[names], figures=[])  # a long list: naming real ones is what counts; check 1 here


async def f_print_run(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    runs = {p.numbered_to for p in await _parallels(env, arg["release"], arg.get("set")) if p.name == arg["parallel"]}
    runs.discard(None)
    if len(runs) != 1:
        raise LookupError(f"{arg}: print runs {runs}")
    return Expect(figures=[("int", runs.pop())])


async def f_rarest_parallel(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    runs = [(p.numbered_to, p.name) for p in await _parallels(env, arg["release"], arg.get("set")) if p.numbered_to]
    if not runs:
        raise LookupError(f"no numbered parallels in {arg}")
    low = min(n for n, _ in runs)
    return Expect(says=[sorted({name for n, name in runs if n == low})], figures=[("int", low)])


async def _listings(env: Env, card: Identity, grade: str | None = None) -> list[tuple[int, MarketplaceListing]]:
    """The card's priced listings as (price in cents, listing); ``grade`` ("PSA 10") keeps that grade's only."""
    async with env.sessions() as s:
        q = select(MarketplaceListing).where(MarketplaceListing.card_id == card.card_id,
                                             MarketplaceListing.price_cents.is_not(None))
        if grade:
            company, value = grade.split()
            q = (q.join(Grade, Grade.id == MarketplaceListing.grade_id).join(GradingType, GradingType.id == Grade.type_id)
                 .join(GradingCompany, GradingCompany.id == GradingType.company_id)
                 .where(GradingCompany.abbreviation == company, Grade.value == value))
        rows = (await s.scalars(q)).all()
    return [(r.price_cents, r) for r in rows if r.price_cents is not None]


async def f_listings(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    """The card's listings (``arg``: a grade such as "PSA 10", or null for all): one of their prices."""
    rows = await _listings(env, card, arg)
    if not rows:
        raise LookupError(f"no {arg or ''} listings for {card.label()}")
    return Expect(card=card, figures=[("money_any", sorted({cents / 100 for cents, _ in rows}))])


async def f_cheapest_listing(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    """The lowest asking price (``arg``: "raw", a grade such as "PSA 10", or null for any copy)."""
    rows = await _listings(env, card, arg if arg and arg != "raw" else None)
    if arg == "raw":
        raw = [(cents, r) for cents, r in rows if r.grade_id is None]
        rows = [(cents, r) for cents, r in raw if r.parallel_id is None] or raw  # else a raw parallel is the cheapest
    if not rows:  # none of the kind asked for is listed: the answer says so
        return Expect(card=card, says=[NO_LISTINGS])
    return Expect(card=card, figures=[("money", min(cents for cents, _ in rows) / 100)])


async def f_under_price(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    prices = [cents for cents, _ in await _listings(env, card) if cents <= float(arg) * 100]
    if not prices:
        raise LookupError(f"no listings under {arg} for {card.label()}")
    return Expect(card=card, figures=[("money_any", sorted({cents / 100 for cents in prices})),
                                      ("money_max", float(arg))])


async def f_no_listings(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    """Nobody lists the card: say so, naming it (an unlisted namesake answered instead is a wrong card)."""
    if card and await _listings(env, card):
        raise LookupError(f"{card.label()} has listings")
    return Expect(card=card, says=[NO_LISTINGS])


async def f_random(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    (kind, name), = arg.items()
    async with env.sessions() as s:
        q = select(Card.name).join(Release, Release.id == Card.release_id)
        if kind == "segment":
            q = q.join(Segment, Segment.id == Release.segment_id).where(Segment.name == name)
        elif kind == "release":
            q = q.where(Release.name == name)
        else:
            q = q.join(CardSet, CardSet.id == Card.set_id).where(CardSet.name == name[1], Release.name == name[0])
        names = {norm(n) for n in (await s.scalars(q.distinct())).all()}
        rels = {norm(n) for n in (await s.scalars(q.with_only_columns(Release.name).distinct())).all()}
    return Expect(scope_cards=names, need_any_card=True, scope=(kind, str(name)), scope_releases=rels)


async def _grades(env: Env, company: str) -> list[dict[str, Any]]:
    comps = (await invoke("grades_companies", {}, env.ctx))["companies"]
    cid = next(c["id"] for c in comps if c.get("abbreviation") == company)
    types = (await invoke("grades_types", {"company_id": cid}, env.ctx))["types"]
    tid = next(t["id"] for t in types if t["name"] == "Card")
    return (await invoke("grades_grades", {"company_id": cid, "type_id": tid}, env.ctx))["grades"]


def _num(g: dict[str, Any]) -> float:
    try:
        return float(g["grade"])
    except (TypeError, ValueError):
        return -1.0


async def f_lowest_grade(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    grades = [g for g in await _grades(env, arg) if _num(g) > 0]
    low = min(grades, key=_num)
    return Expect(says=[[f"{low['grade']}"], [low["condition"] or low["grade"]]])


async def f_grade_scale(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    grades = [g for g in await _grades(env, arg) if _num(g) > 0]
    top = max(grades, key=_num)
    return Expect(says=[[top["condition"] or "10"], ["1"]])


async def f_grade_meaning(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    company, value = arg.split()
    names = [g["condition"] for g in await _grades(env, company) if g["grade"] == value and g["condition"]]
    if not names:
        raise LookupError(f"{arg}: no such grade")
    return Expect(says=[names])


async def f_qualifier(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    """What a grading company's qualifier code on a slab means ("PSA OC" -> Off Center)."""
    company, code = arg.split()
    async with env.sessions() as s:
        name = await s.scalar(select(GradeQualifier.name).join(
            GradingCompany, GradingCompany.id == GradeQualifier.company_id).where(
            GradingCompany.abbreviation == company, GradeQualifier.code == code))
    if name is None:
        raise LookupError(f"{arg}: no such qualifier")
    return Expect(says=[[name]])


async def f_companies(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    return Expect(says=[["PSA"], ["BGS", "Beckett"], ["SGC"], ["CGC"]])


async def _analytics(env: Env) -> dict[str, Any]:
    return await invoke("collection_analytics", {"collection_id": env.values["collection"]}, env.ctx)


async def _owned_ids(env: Env) -> list[str]:
    """The owned cards' ids: owning a Charizard is not owning every Charizard."""
    out = await invoke("collection_cards_list", {"collection_id": env.values["collection"], "take": 100}, env.ctx)
    return [c["cardId"] for c in out.get("cards", [])]


async def _owned(env: Env) -> set[str]:
    return await _names(env, await _owned_ids(env))


async def _names(env: Env, ids: list[str]) -> set[str]:
    async with env.sessions() as s:
        return {norm(n) for n in (await s.scalars(select(Card.name).where(Card.id.in_([uuid.UUID(i) for i in ids]))))}


async def f_collection_value(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    a = await _analytics(env)
    return Expect(figures=[("money", float(a["financials"]["currentMarketValue"]))], allowed=await _owned(env))


async def f_collection_invested(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    a = await _analytics(env)
    return Expect(figures=[("money", float(a["financials"]["totalInvested"]))], allowed=await _owned(env))


async def f_collection_count(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    a = await _analytics(env)
    return Expect(figures=[("int", a["overview"]["totalQuantity"])], allowed=await _owned(env))


async def f_best_card(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    top = (await _analytics(env))["performance"]["topValue"]
    return Expect(says=[[top["cardName"]]], figures=[("money", float(top["currentValue"]))], allowed=await _owned(env))


async def f_roi(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    f = (await _analytics(env))["financials"]
    gain = float(f["totalUnrealizedGains"])
    return Expect(figures=[("money_or_percent", (gain, float(f["overallROI"])))],
                  says=[UP if gain > 0 else DOWN], allowed=await _owned(env))


async def f_card_gain(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    out = await invoke("collection_breakdown", {"collection_id": env.values["collection"], "group_by": "player",
                                                "take": 100}, env.ctx)
    mine = [c for g in out["groups"] for c in g["topCards"] if norm(c["cardName"]) == norm(card.name)]
    if not mine:
        raise LookupError(f"{card.label()} is not in the collection")
    valued = [c for c in mine if c.get("currentValue")]
    if not valued:  # owned, but no sale to value it by: the answer says so rather than inventing a gain
        return Expect(card=card, says=[NO_PRICE], allowed=await _owned(env))
    gain = float(valued[0]["currentValue"]) - float(valued[0]["buyPrice"])
    return Expect(card=card, says=[UP if gain > 0 else DOWN], figures=[("money", float(valued[0]["currentValue"]))],
                  allowed=await _owned(env))


async def f_gainers(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    out = await invoke("collection_breakdown", {"collection_id": env.values["collection"], "group_by": "player",
                                                "take": 100}, env.ctx)
    cards = [c for g in out["groups"] for c in g["topCards"] if c.get("currentValue")]
    up = sorted({c["cardName"] for c in cards if float(c["currentValue"]) > float(c["buyPrice"])})
    down = sorted({c["cardName"] for c in cards if float(c["currentValue"]) < float(c["buyPrice"])})
    return Expect(says=[up], not_says=down, allowed=await _owned(env))


async def f_breakdown(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    out = await invoke("collection_breakdown", {"collection_id": env.values["collection"], "group_by": arg,
                                                "take": 100}, env.ctx)
    keys = [g["groupKey"] for g in out["groups"]]
    return Expect(says=[[k] for k in keys[:4]], allowed=await _owned(env))


async def f_set_completion(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    out = await invoke("collection_set_progress", {"collection_id": env.values["collection"], "take": 100}, env.ctx)
    s = next(s for s in out["sets"] if s["releaseName"] == arg)
    rel = await _release(env, arg)
    async with env.sessions() as db:  # the set's own cards (what is still missing) are on topic
        in_set = {norm(n) for n in (await db.scalars(select(Card.name).where(Card.release_id == rel.id))).all()}
    return Expect(says=[[s["releaseName"]]], figures=[("percent_or_count", (s["completionPercentage"], s["ownedCards"],
                                                                            s["totalCards"]))],
                  allowed=await _owned(env) | in_set)


async def f_missing(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    rel = await _release(env, arg)
    owned = await _owned(env)
    async with env.sessions() as s:
        names = {norm(n) for n in (await s.scalars(select(Card.name).where(Card.release_id == rel.id))).all()}
    return Expect(scope_cards=names - owned, need_any_card=True, scope=("release", arg))


async def f_owns(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    ids = await _owned_ids(env)
    owned = await _names(env, ids)
    yes = _hex(card.card_id) in {_hex(i) for i in ids}
    return Expect(card=card, says=[["yes", "you have", "you own", "in your collection"] if yes else
                                   ["no", "not in your collection", "don't have", "do not have", "don't own"]],
                  allowed=owned)


async def _wanted_ids(env: Env) -> list[str]:
    out = await invoke("list_cards_list", {"list_id": env.values["wantlist"], "take": 100}, env.ctx)
    return [c["cardId"] for c in out.get("cards", [])]


async def _wanted(env: Env) -> set[str]:
    return await _names(env, await _wanted_ids(env))


def _hex(card_id: Any) -> str:
    return card_id.hex if isinstance(card_id, uuid.UUID) else uuid.UUID(str(card_id)).hex


async def f_wantlist(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    from evals.realdata import WANTED

    wanted = {norm(w["name"]) for w in WANTED}
    return Expect(says=[[w["name"]] for w in WANTED], allowed=wanted | await _wanted(env))


async def f_on_wantlist(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    """Is this card on the caller's want list: a plain yes or no, naming the card."""
    ids = await _wanted_ids(env)
    yes = _hex(card.card_id) in {_hex(i) for i in ids}
    return Expect(card=card, says=[["yes", "is on your", "already on", "it's on", "it is on"] if yes else
                                   ["no", "not on", "isn't on", "is not on"], WANT_LIST_WORDS],
                  not_says=["not on", "isn't on", "is not on"] if yes else [], allowed=await _names(env, ids))


async def f_wantlist_add(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    return Expect(card=card, tools_any=["list_cards_add"], on_list=card, allowed=await _wanted(env))


async def f_wantlist_remove(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    """The card is on the want list when asked to take it off (put there first: each write case starts from the
    seeded list and is put back after it)."""
    async with env.sessions() as s, s.begin():
        list_id = uuid.UUID(str(env.values["wantlist"]))
        if await s.scalar(select(WantListCard.id).where(WantListCard.list_id == list_id,
                                                        WantListCard.card_id == card.card_id)) is None:
            s.add(WantListCard(list_id=list_id, card_id=card.card_id))
    return Expect(card=card, tools_any=["list_card_remove"], off_list=card, allowed=await _wanted(env))


async def f_wantlist_cost(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    """What buying the want list would cost: the total of the wanted cards' raw values where known, and
    plainly which have no price (never a total that silently counts them as $0)."""
    ids = [uuid.UUID(str(i)) for i in await _wanted_ids(env)]
    async with env.sessions() as s:
        cents = (await s.execute(select(CardPrice.card_id, CardPrice.value_cents).where(
            CardPrice.card_id.in_(ids), CardPrice.parallel_id.is_(None), CardPrice.price_key == "raw"))).all()
    priced = {c: v for c, v in cents}
    exp = Expect(says=[WANT_LIST_WORDS], allowed=await _wanted(env))
    if priced:
        exp.figures.append(("money", sum(priced.values()) / 100))
    if len(priced) < len(ids):
        exp.says.append(["no price", "no value", "not priced", "unpriced", "no market", "unknown", "no data",
                         "without a price", "no recorded"])
    return exp


async def f_wantlist_count(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    """How many cards the want list holds: the count, said of the want list."""
    ids = await _wanted_ids(env)
    return Expect(figures=[("int", len(ids))], says=[WANT_LIST_WORDS], allowed=await _names(env, ids))


async def f_wantlist_listings(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    """Which wanted cards are for sale (``arg``: a price cap in dollars, or null): a listed price of one of
    them (none above the cap), or plainly that none is listed."""
    ids = await _wanted_ids(env)
    async with env.sessions() as s:
        cents = (await s.scalars(select(MarketplaceListing.price_cents).where(
            MarketplaceListing.card_id.in_([uuid.UUID(str(i)) for i in ids]),
            MarketplaceListing.price_cents.is_not(None)))).all()
    prices = sorted({c / 100 for c in cents if c is not None and (arg is None or c <= float(arg) * 100)})
    exp = Expect(allowed=await _names(env, ids))
    if prices:
        exp.figures.append(("money_any", prices))
        if arg is not None:
            exp.figures.append(("money_max", float(arg)))
    else:
        exp.says.append(NO_LISTINGS + ["none of", "no listings"])
    return exp


async def f_among(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    """Several of my cards fit the words ("my psa 9", "my charizards"): a right answer names each of
    them with its number (asking which, or answering for all), never one picked silently."""
    cards = [await identity(env, ref, ents) for ref in arg]
    names = {norm(c.name) for c in cards}
    return Expect(says=[[c.name] for c in cards] + [[f"#{c.number}"] for c in cards],
                  allowed=names | await _owned(env) | await _wanted(env), asks_ok=True)


async def f_feedback(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    return Expect(tools_any=["feedback_general", "feedback_submit"],
                  says=[["thank", "feedback", "recorded", "sent", "passed", "noted", "received"]])


async def f_out_of_scope(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    return Expect(says=[CAN_DO], no_card=True)


async def f_not_in_catalog(env: Env, card: Identity | None, arg: Any, ents: dict) -> Expect:
    return Expect(says=[NOT_FOUND], no_card=True)


async def f_lookup(env: Env, card: Identity, arg: Any, ents: dict) -> Expect:
    # "I couldn't find Adrian Beltre #23 (2024)" repeats the card without finding it
    return Expect(card=card, not_says=["couldn't find", "could not find", "not in the catalog"])


FACTS = {name[2:]: fn for name, fn in globals().items() if name.startswith("f_") and callable(fn)}
