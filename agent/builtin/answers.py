"""Answers written from tool results, one function per intent (shapes as in the interface spec)."""

from __future__ import annotations

from statistics import median
from typing import TYPE_CHECKING, Any

from agent.builtin.compose import card_label, g, is_error, usd

if TYPE_CHECKING:  # pragma: no cover
    from agent.builtin.planner import State


def _card(st: State) -> dict[str, Any]:
    detail = st.ok("catalog_card")
    if detail:
        return detail
    cid = next((c for c in st.candidates if c), None)
    return cid or {"name": st.ent.name}


def parallels(st: State) -> str | None:
    c = st.ok("catalog_card")
    if not c:
        return None
    pars = g(c, "parallels", default=[])
    if not pars:
        return f"{card_label(c)} has no parallels in the catalog."
    items = []
    for p in pars:
        n = p.get("name", "?")
        if p.get("numberedTo"):
            n += f" /{p['numberedTo']}"
        if p.get("isPartial"):
            n += " (partial)"
        items.append(n)
    return f"{card_label(c)} has {len(pars)} parallel{'s' if len(pars) != 1 else ''}: " + ", ".join(items) + "."


def details(st: State) -> str | None:
    c = st.ok("catalog_card")
    if not c:
        return None
    bits = [f"{card_label(c)}"]
    if g(c, "description"):
        bits.append(f"{c['description']}")
    if g(c, "attributes"):
        bits.append("attributes: " + ", ".join(map(str, c["attributes"])))
    if g(c, "numberedTo"):
        bits.append(f"numbered to {c['numberedTo']}")
    n = g(c, "parallelCount", default=len(g(c, "parallels", default=[])))
    bits.append(f"{n} parallel{'s' if n != 1 else ''}")
    prices = g(c, "prices", default={})
    if prices:
        bits.append("prices: " + ", ".join(f"{k} {usd(v)}" for k, v in prices.items()))
    return "; ".join(bits) + "."


def find(st: State) -> str | None:
    cards = st.candidates or [c for k in ("cards", "cards_retry") for c in g(st.ok(k), "cards", default=[])]
    if not cards:
        if st.ok("cards") is None:
            return None
        return f"No cards in the catalog match \"{st.ent.card_query or st.ent.name}\"."
    total = g(st.ok("cards_retry") or st.ok("cards"), "total_count", default=len(cards))
    shown = "; ".join(card_label(c) for c in cards[:8])
    return f"I found {total} card{'s' if total != 1 else ''}: {shown}" + ("; ..." if total > 8 else "") + "."


def _company_keys(st: State) -> set[str]:
    """Ids and names that identify the asked-for grading company in population results."""
    keys = {st.ent.company.upper()} if st.ent.company else set()
    for c in g(st.ok("grades_companies"), "companies", default=[]):
        if st.ent.company and (c.get("abbreviation") or "").upper() == st.ent.company:
            keys |= {str(c.get("id")).upper(), (c.get("name") or "").upper(), (c.get("fullName") or "").upper()}
    return keys


def _grade_counts(companies: list[dict[str, Any]], company: set[str] | None, grade: str | None) -> tuple[int, list[str]]:
    total, lines = 0, []
    for comp in companies:
        cname = g(comp, "name", default="?")
        ids = {cname.upper(), str(comp.get("id")).upper(), (g(comp, "abbreviation") or "").upper()}
        if company and not (company & ids) and not any(k in cname.upper().split() for k in company):
            continue
        if grade is None:
            n = int(g(comp, "total_population", default=0))
            total += n
            lines.append(f"{cname} {n:,}")
            continue
        for gt in g(comp, "grading_types", default=[]):
            for entry in g(gt, "grades", default=[]):
                if str(entry.get("grade")) == grade or str(entry.get("grade")).startswith(grade + " "):
                    n = int(entry.get("population") or 0) + int(entry.get("qualified_population") or 0)
                    total += n
    return total, lines


def _mentions_synthetic(node: Any) -> bool:
    if isinstance(node, dict):
        return node.get("synthetic") is True or any(_mentions_synthetic(v) for v in node.values())
    if isinstance(node, list):
        return any(_mentions_synthetic(v) for v in node)
    return False


def population(st: State) -> str | None:
    """The population answer; says so when the counts come from the synthetic generator."""
    text = _population(st)
    if text and _mentions_synthetic(st.ok("population_card")):
        text += " Note: these counts are synthetic (generated; no public population source exists)."
    return text


def _population(st: State) -> str | None:
    r = st.ok("population_card")
    if not r:
        return None
    name = card_label(_card(st)) if st.candidates else g(r, "card_name", default="this card")
    e = st.ent
    companies = list(g(g(r, "base", default={}), "grading_companies", default=[]))
    par = None
    if e.parallel:
        par = next((p for p in g(r, "parallels", default=[]) if e.parallel.lower() in
                    (p.get("parallel_name") or "").lower()), None)
        if par:
            companies = g(par, "grading_companies", default=[])
            name += f" {par.get('parallel_name')}"
    keys = _company_keys(st) or None
    if e.grade:
        n, _ = _grade_counts(companies, keys, e.grade)
        return f"There are {n:,} {e.company or 'graded'} {e.grade} copies of {name} (population report)."
    if e.company:
        n, _ = _grade_counts(companies, keys, None)
        return f"{name} has a {e.company} population of {n:,}."
    total = g(r, "total_population", default=0)
    _, lines = _grade_counts(companies, None, None)
    by = f" Base card by company: {', '.join(lines)}." if lines else ""
    return f"{name} has a total graded population of {total:,} (base and parallels, all companies).{by}"


def _records_summary(records: list[dict[str, Any]]) -> str | None:
    prices = [float(r["price"]) for r in records if isinstance(r, dict) and r.get("price") is not None]
    if not prices:
        return None
    return (f"{len(prices)} sale{'s' if len(prices) != 1 else ''}, median {usd(median(prices))} "
            f"(range {usd(min(prices))} to {usd(max(prices))})")


def _price_label(key: str) -> str:
    """``psa-10`` -> ``PSA 10``; ``raw`` stays ``raw``."""
    company, _, grade = key.partition("-")
    return f"{company.upper()} {grade}" if grade else key


def price(st: State) -> str | None:
    e = st.ent
    c = _card(st)
    label = card_label(c)
    pr = st.ok("pricing_card")
    out = []
    if pr:
        if e.grade:
            for comp in g(pr, "graded", default=[]):
                if e.company and e.company.upper() not in (g(comp, "company_name", default="")).upper():
                    continue
                for gr in g(comp, "grades", default=[]):
                    if str(gr.get("grade_value")) == e.grade:
                        s = _records_summary(g(gr, "records", default=[]))
                        if s:
                            out.append(f"{e.company or ''} {e.grade}: {s}".strip())
        else:
            s = _records_summary(g(g(pr, "raw", default={}), "records", default=[]))
            if s:
                out.append(f"raw: {s}")
    prices = g(st.ok("catalog_card"), "prices", default={})
    if not out and prices:
        key = f"{e.company.lower()}-{e.grade}" if e.company and e.grade else "raw"
        if key in prices:
            out.append(f"{_price_label(key)}: {usd(prices[key])}")
        else:
            have = ", ".join(f"{_price_label(k)} {usd(v)}" for k, v in prices.items())
            return f"I have no {e.company or ''} {e.grade or 'raw'} price for {label}; the catalog has {have}.".replace(
                "no  ", "no ")
    if not out:
        if pr is None and st.ok("catalog_card") is None:
            return None
        return f"I have no price data for {label}" + (f" in {e.company} {e.grade}" if e.grade else "") + "."
    return f"Prices for {label}: " + "; ".join(out) + "."


def _candle_value(candle: dict[str, Any]) -> float | None:
    types = g(candle, "types", default=None)
    if isinstance(types, dict) and types:
        stats = types.get("auction") or types.get("both") or next(iter(types.values()))
        return g(stats, "median", "mean", "close")
    return g(candle, "median", "mean", "close", "price")


def trend(st: State) -> str | None:
    r = st.ok("pricing_timeseries")
    if not r:
        return None
    label = card_label(_card(st))
    raw = g(r, "raw", default={})
    candles = g(raw, "candles", default=[]) if isinstance(raw, dict) else raw
    vals = [float(v) for v in (_candle_value(c) for c in candles if isinstance(c, dict)) if v is not None]
    if len(vals) < 2:
        return f"There isn't enough sales history for {label} to show a trend."
    change = (vals[-1] - vals[0]) / vals[0] * 100 if vals[0] else 0.0
    word = "up" if change > 1 else "down" if change < -1 else "flat"
    interval = g(g(r, "query", default={}), "interval", default="")
    unit = {"daily": "days", "weekly": "weeks", "monthly": "months"}.get(interval, "periods")
    return (f"{label} is trending {word}: median {usd(vals[0])} in the first period and {usd(vals[-1])} in the "
            f"latest ({change:+.1f}%) over {len(vals)} {unit} with sales.")


def marketplace(st: State) -> str | None:
    r = st.ok("marketplace_card")
    if not r:
        return None
    label = card_label(_card(st))
    raw = g(r, "raw", default={})
    records = [x for x in g(raw, "records", default=[]) if x.get("price") is not None]
    graded = sum(int(gr.get("count") or 0) for comp in g(r, "graded", default=[]) for gr in g(comp, "grades", default=[]))
    total = g(g(r, "meta", default={}), "total_records", default=len(records) + graded)
    if not records and not graded:
        return f"There are no active marketplace listings for {label} right now."
    cheapest = min(records, key=lambda x: float(x["price"])) if records else None
    text = f"{label} has {total} active listing{'s' if total != 1 else ''} ({len(records)} raw priced, {graded} graded)."
    if cheapest:
        text += f" Cheapest raw: {usd(cheapest['price'])} on {cheapest.get('source', 'a marketplace')} ({cheapest.get('title', '')})."
    return text


def collection_value(st: State) -> str | None:
    r = st.ok("collection_analytics")
    if not r:
        return None
    ov, fin, perf = g(r, "overview", default={}), g(r, "financials", default={}), g(r, "performance", default={})
    text = (f"Your collection has {g(ov, 'totalCards', default=0)} cards ({g(ov, 'uniqueCards', default=0)} unique, "
            f"{g(ov, 'totalQuantity', default=0)} in total quantity).")
    if g(fin, "currentMarketValue") is not None:
        text += f" Its current market value is {usd(fin['currentMarketValue'])}"
        if g(fin, "totalInvested") is not None:
            text += f" against {usd(fin['totalInvested'])} invested"
        text += "."
    else:
        text += " There is no price data to value it yet."
    top = g(perf, "topValue")
    if top:
        text += f" Your top card is {_release_label(top, 'cardName')} at {usd(g(top, 'currentValue'))}."
    gain = g(perf, "topGainer")
    if gain:
        text += f" Top gainer: {g(gain, 'cardName', default='?')} ({usd(g(gain, 'gain'))})."
    return text


def _release_label(item: dict[str, Any], name_key: str) -> str:
    name, rel, year = g(item, name_key, default="?"), g(item, "releaseName", default=""), g(item, "releaseYear")
    if year and not str(rel).startswith(str(year)):
        rel = f"{year} {rel}".strip()
    return f"{name} ({rel})" if rel else name


def plural(n: Any, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def breakdown(st: State) -> str | None:
    r = st.ok("collection_breakdown")
    if not r:
        return None
    groups = g(r, "groups", default=[])
    by = g(g(r, "summary", default={}), "groupedBy", default=st.ent.group_by or "release")
    if not groups:
        return "Your collection is empty, so there is nothing to break down."
    items = []
    for grp in groups[:8]:
        s = f"{g(grp, 'groupKey', default='?')}: {plural(g(grp, 'cardCount', default=0), 'card')}"
        if g(grp, "totalCurrentValue") is not None:
            s += f", {usd(grp['totalCurrentValue'])}"
        items.append(s)
    return f"Your collection by {by}: " + "; ".join(items) + "."


def set_progress(st: State) -> str | None:
    r = st.ok("collection_set_progress")
    if not r:
        return None
    sets = g(r, "sets", default=[])
    summ = g(r, "summary", default={})
    if not sets:
        return "You don't have cards from any set in this collection yet."
    items = []
    for s in sets[:5]:
        name = g(s, "setName", "name", default="?")
        if g(s, "releaseName"):
            name = f"{s['releaseName']} {name}"
        pct = g(s, "completionPercentage", "completion", "percentage", default=None)
        owned, total = g(s, "ownedCards", "owned", default=None), g(s, "totalCards", "total", default=None)
        bit = name
        if pct is not None:
            bit += f" {float(pct):.0f}% complete"
        if owned is not None and total is not None:
            bit += f" ({owned}/{total})"
        items.append(bit)
    return (f"You are collecting {g(summ, 'totalSets', default=len(sets))} sets "
            f"({g(summ, 'fullyCompleteSets', default=0)} complete, {g(summ, 'nearCompleteSets', default=0)} over 80%). "
            "Closest to complete: " + "; ".join(items) + ".")


def collection_cards(st: State) -> str | None:
    r = st.ok("collection_cards_list")
    if not r:
        return None
    cards = g(r, "cards", default=[])
    total = g(r, "total_count", default=len(cards))
    if not cards:
        return "Your collection has no cards yet."
    text = f"Your collection has {total} card entr{'ies' if total != 1 else 'y'}"
    groups = g(st.ok("collection_breakdown"), "groups", default=[])
    if groups:
        names = "; ".join(f"{g(x, 'groupKey', default='?')} ({g(x, 'cardCount', default=0)})" for x in groups[:10])
        return text + f", by player: {names}" + ("; ..." if len(groups) > 10 else "") + "."
    return text + "."


def collections(st: State) -> str | None:
    r = st.ok("collections_list")
    if r is None:
        return None
    cols = g(r, "collections", default=[])
    if not cols:
        return "You don't have any collections yet."
    return f"You have {len(cols)} collection{'s' if len(cols) != 1 else ''}: " + "; ".join(
        g(c, "name", default="(unnamed)") for c in cols) + "."


def grades(st: State) -> str | None:
    gg = st.ok("grades_grades")
    if gg:
        items = [f"{x.get('grade')}" + (f" {x['condition']}" if x.get("condition") and x["condition"] != x.get("grade") else "") for x in g(gg, "grades", default=[])]
        company = g(gg, "gradingCompany", default={})
        comp = g(company, "fullName", default=None) or g(company, "name", default=st.ent.company)
        return f"{comp} grades ({g(g(gg, 'gradingType', default={}), 'name', default='Card')}): " + ", ".join(items) + "."
    r = st.ok("grades_companies")
    if not r:
        return None
    comps = g(r, "companies", default=[])
    return f"Cards are graded by {len(comps)} companies: " + ", ".join(
        f"{c.get('abbreviation') or c.get('name')}" for c in comps) + "."


def catalog_stats(st: State) -> str | None:
    r = st.ok("catalog_statistics")
    if not r:
        return None
    t = lambda k: g(g(r, k, default={}), "total", default=0)  # noqa: E731
    return (f"The catalog has {t('cards'):,} cards in {t('sets'):,} sets and {t('releases'):,} releases, from "
            f"{t('manufacturers'):,} manufacturers across {t('segments'):,} segments, with {t('parallels'):,} parallels.")


def segments(st: State) -> str | None:
    r = st.ok("catalog_segments")
    if not r:
        return None
    segs = g(r, "segments", default=[])
    if not segs:
        return "The catalog has no segments yet."
    return f"The catalog covers {len(segs)} segments: " + ", ".join(s.get("name", "?") for s in segs) + "."


def calendar(st: State) -> str | None:
    r = st.ok("release_calendar")
    if not r:
        return None
    items = g(r, "release_calendar", "releases", default=[])
    if not items:
        return "There are no upcoming releases in the calendar."
    return "Upcoming and recent releases: " + "; ".join(
        f"{g(x, 'name', default='?')} ({g(x, 'releaseDate', 'release_date', 'date', 'year', default='date n/a')})"
        for x in items[:8]) + "."


def random_card(st: State) -> str | None:
    r = st.ok("catalog_cards_random")
    cards = g(r, "cards", default=[]) if r else []
    return f"Here is a random card: {card_label(cards[0])}." if cards else None


def sets_of_release(st: State) -> str | None:
    r = st.ok("catalog_release")
    if not r:
        return None
    sets = g(r, "sets", default=[])
    return f"{g(r, 'name', default='The release')} has {len(sets)} set{'s' if len(sets) != 1 else ''}: " + ", ".join(
        f"{s.get('name')} ({s.get('cardCount', '?')} cards)" for s in sets) + "."


def feedback(st: State) -> str | None:
    r = st.ok("feedback_submit") or st.ok("feedback_general")
    err = st.result("feedback_submit") or st.result("feedback_general")
    if not r:
        return f"Your feedback was not recorded: {err['error']}" if is_error(err) else None
    rec = g(r, "data", default={})
    return (f"Thanks, your feedback was recorded (id {g(rec, 'unique_id', 'id', default='n/a')}, status "
            f"{g(rec, 'status', default='not_reviewed')}).")


def identify(st: State) -> str | None:
    return ("I can't see images in a text question. To identify a card from a photo, upload it to "
            "POST /v1/identify/card (or /v1/identify/card/{segment}).")


COMPOSERS = {
    "parallels": parallels, "details": details, "find": find, "population": population, "price": price,
    "trend": trend, "marketplace": marketplace, "collection_value": collection_value, "breakdown": breakdown,
    "set_progress": set_progress, "collection_cards": collection_cards, "collections": collections,
    "grades": grades, "catalog_stats": catalog_stats, "segments": segments, "calendar": calendar,
    "random": random_card, "sets_of_release": sets_of_release, "feedback": feedback, "identify": identify,
}
