"""Answers about prices, price trends, comparisons, marketplace listings and graded populations."""

from __future__ import annotations

import re
from datetime import date, timedelta
from statistics import median
from typing import Any

from agent.builtin.answers import collection
from agent.builtin.answers.collection import owned_value
from agent.builtin.answers.common import card_label, g, plural, the_card, usd
from agent.builtin.state import State

SYNTHETIC_NOTE = " Note: these figures are synthetic (generated; no public source exists for them)."


def _mentions_synthetic(node: Any) -> bool:
    if isinstance(node, dict):
        return node.get("synthetic") is True or any(_mentions_synthetic(v) for v in node.values())
    if isinstance(node, list):
        return any(_mentions_synthetic(v) for v in node)
    return False


def _records_summary(records: list[dict[str, Any]]) -> tuple[str, float] | None:
    prices = [float(r["price"]) for r in records if isinstance(r, dict) and r.get("price") is not None]
    if not prices:
        return None
    m = median(prices)
    return (f"{plural(len(prices), 'sale')}, median {usd(m)} (range {usd(min(prices))} to {usd(max(prices))})", m)


def _price_label(key: str) -> str:
    company, _, grade = key.partition("-")
    return f"{company.upper()} {grade}" if grade else key


def _grades_asked(st: State) -> list[str]:
    """Every grade the question names ("PSA 10 vs 9" -> ["10", "9"]); one of another company than the first
    carries it ("psa 10 vs bgs 9.5" -> ["10", "BGS 9.5"])."""
    found = []
    if st.ent.grade:
        found.append(st.ent.grade)
    if st.ent.company:
        for m in re.finditer(r"\b(?:vs\.?|versus|or|and|than|to|a|an)\s+(?:the\s+)?(?:(psa|bgs|beckett|sgc|cgc)\s*)?"
                             r"(10|[1-9](?:\.5)?)\b",
                             st.ent.text, re.I):
            other = (m.group(1) or "").upper().replace("BECKETT", "BGS")
            gr = f"{other} {m.group(2)}" if other and other != st.ent.company.upper() else m.group(2)
            if gr not in found:
                found.append(gr)
    return found


def _company_is(name: str, company: str) -> bool:
    """Whether a tool's ``company_name`` (the short name, "PSA", since every market answer gives it) is ``company``."""
    return company.upper() in (name or "").upper().split()


def _catalog_price(st: State, key: str) -> float | None:
    """The catalog's price for ``key`` (raw, psa-10, bgs-9.5...): the linked card's, else its details'."""
    card = the_card(st)
    for source in (g(card, "gradePrices", default={}), g(st.ok("catalog_card"), "prices", default={})):
        if isinstance(source, dict) and source.get(key) is not None:
            return float(source[key])
    from agent.builtin.linking import chosen_card

    linked = chosen_card(st.ok("link"), st.ent, priced=True) or {}
    v = g(linked, "gradePrices", default={}).get(key)
    return float(v) if v is not None else None


def _graded_price(st: State, grade: str) -> tuple[str, float] | None:
    pr = st.ok("pricing_card")
    company = st.ent.company or "PSA"
    if " " in grade:   # "BGS 9.5": a grade of another company than the first named
        company, grade = grade.split(" ", 1)
    catalog = _catalog_price(st, f"{company.lower()}-{grade}")
    if catalog is not None:
        return f"{usd(catalog)}", catalog
    for comp in g(pr, "graded", default=[]) if pr else []:
        if not _company_is(g(comp, "company_name", default=""), company):
            continue
        for gr in g(comp, "grades", default=[]):
            if str(gr.get("grade_value")) == grade:
                s = _records_summary(g(gr, "records", default=[]))
                if s:
                    return s
    return None


# "how much more would my zard be worth as a psa 10": the grade asked against my copy as it is
MORE_AS_GRADE = re.compile(r"\bhow much (more|extra|higher|less)\b|\b(difference|gap|jump|upgrade|premium)\b", re.I)


def _owned_upgrade(st: State, card: dict[str, Any] | None) -> str | None:
    """My copy's value now against the grade asked, when the question asks how much more that grade is."""
    if not (card and st.ent.grade and MORE_AS_GRADE.search(st.ent.text) and st.ok("owned")):
        return None
    mine = collection.named_owned(st)
    asked = _graded_price(st, st.ent.grade)
    if not mine or mine.get("cardId") != card.get("id") or g(mine, "currentValue") is None or not asked:
        return None
    now = float(mine["currentValue"])
    diff = asked[1] - now
    grade = f"{st.ent.company or 'PSA'} {st.ent.grade}"
    return (f"Your {card_label(card)} is worth {usd(now)} now; a {grade} copy is {asked[0]}, "
            f"{usd(abs(diff))} {'more' if diff >= 0 else 'less'}.")


def price(st: State) -> str | None:
    e = st.ent
    c = the_card(st)
    two_grades = len(_grades_asked(st)) >= 2 or bool(re.search(r"\braw\b", e.text, re.I) and e.grade)
    mine = None if two_grades else _owned_upgrade(st, c) or owned_value(st, c)   # "psa 10 vs 9 on my X": the gap
    if mine:
        return mine
    label = card_label(c)
    pr = st.ok("pricing_card")
    detail = st.ok("catalog_card")
    if pr is None and detail is None:
        return None
    synthetic = SYNTHETIC_NOTE if _mentions_synthetic(pr) else ""
    grades = _grades_asked(st)
    company = e.company or "PSA"
    if re.search(r"\braw\b", e.text, re.I) and e.grade and len(grades) == 1:
        grades = [grades[0], "raw"]
    if len(grades) >= 2:
        def one(gr: str) -> tuple[str, float] | None:
            if gr == "raw":
                v = _catalog_price(st, "raw")
                return (usd(v), v) if v is not None else None
            return _graded_price(st, gr)

        def named(gr: str) -> str:
            return "raw" if gr == "raw" else gr if " " in gr else f"{company} {gr}"

        got = [(gr, one(gr)) for gr in grades[:2]]
        have = [(gr, s) for gr, s in got if s]
        if len(have) == 2:
            (g1, (t1, v1)), (g2, (t2, v2)) = have
            diff = v1 - v2
            return (f"{label}: {named(g1)} {t1}; {named(g2)} {t2}. The difference is {usd(abs(diff))} "
                    f"({named(g1) if diff >= 0 else named(g2)} is higher).{synthetic}")
        missing = ", ".join(named(gr) for gr, s in got if not s)
        return f"I have no price data for {label} in {missing}, so I can't compare those grades.{synthetic}"
    out = []
    if e.grade:
        s = _graded_price(st, e.grade)
        if s:
            out.append(f"{company} {e.grade}: {s[0]}")
    else:
        raw = _catalog_price(st, "raw")
        s = _records_summary(g(g(pr, "raw", default={}), "records", default=[])) if pr else None
        if raw is not None:
            out.append(f"raw {usd(raw)}" + (f" (recent sales: {s[0]})" if s else ""))
        elif s:
            out.append(f"raw: {s[0]}")
    prices = g(detail, "prices", default={})
    if not out and prices:
        if not e.grade and "raw" in prices:
            out.append(f"raw: {usd(prices['raw'])} (catalog price)")
        else:
            known = ", ".join(f"{_price_label(k)} {usd(v)}" for k, v in prices.items())
            asked = f"{company} {e.grade}" if e.grade else "raw"
            return f"I have no {asked} price for {label}; the catalog has {known}.{synthetic}"
    if not out:
        return f"I have no price data for {label}" + (f" in {company} {e.grade}" if e.grade else "") + \
            " (no sales recorded; that is not the same as a price of $0)."
    return f"Prices for {label}: " + "; ".join(out) + "." + synthetic


def compare(st: State) -> str | None:
    cards = [c for c in st.many.get("compared", []) if isinstance(c, dict) and c.get("id")]
    if len(cards) < 2:
        return None
    key = f"{st.ent.company.lower()}-{st.ent.grade}" if st.ent.company and st.ent.grade else "raw"
    mine = {str(c.get("cardId")): c for c in collection.owned_cards(st)} if st.mine and not st.ent.grade else {}
    if mine and all(c["id"] in mine for c in cards):
        return _compare_owned(cards, mine)
    rows = []
    for c in cards:
        v = g(c, "prices", default={}).get(key)
        rows.append((c, float(v) if v is not None else None))
    priced = [(c, v) for c, v in rows if v is not None]
    what = _price_label(key)
    listing = "; ".join(f"{card_label(c)}: {usd(v) if v is not None else 'no ' + what + ' price'}" for c, v in rows)
    if len(priced) < 2:
        return f"I can't compare them: {listing}."
    top = max(priced, key=lambda t: t[1])
    return f"{card_label(top[0])} is worth more ({what}). {listing}."


def _compare_owned(cards: list[dict[str, Any]], mine: dict[str, dict[str, Any]]) -> str:
    """My copies compared at what each is worth as I hold it (its own grade), one without a price said so."""
    rows = [(c, mine[c["id"]].get("currentValue")) for c in cards]
    priced = [(c, float(v)) for c, v in rows if v is not None]
    unpriced = " and ".join(f"your {card_label(c)}" for c, v in rows if v is None)
    if not priced:
        return f"I can't compare them: there is no price data for {unpriced}."
    top = max(priced, key=lambda t: t[1])
    if len(priced) < 2:
        return f"Your {card_label(top[0])} is worth {usd(top[1])}; there is no price data for {unpriced}, so I can't " \
               "compare the two."
    listing = "; ".join(f"your {card_label(c)} {usd(v)}" for c, v in priced)
    return f"Your {card_label(top[0])} is worth more, as you hold them: {listing}."


def _candle_value(candle: dict[str, Any]) -> float | None:
    types = g(candle, "types", default=None)
    if isinstance(types, dict) and types:
        stats = types.get("auction") or types.get("both") or next(iter(types.values()))
        return g(stats, "median", "mean", "close")
    return g(candle, "median", "mean", "close", "price")


RECENT_DAYS = 182   # "lately": the last six months of sales, set against all the sales before them
FLAT_BAND = 5.0     # a move under 5% either way is no trend


def _split_means(candles: list[dict[str, Any]], as_of: str) -> tuple[float, int, float, int] | None:
    """Sale-weighted mean price of the buckets of the last six months and of those before, with their
    sales counts; None when either side has no sale (a first-against-last reading is used then)."""
    try:
        cut = (date.fromisoformat(as_of[:10]) - timedelta(days=RECENT_DAYS)).isoformat()
    except ValueError:
        return None
    sums = {True: [0.0, 0], False: [0.0, 0]}
    for c in candles:
        types = g(c, "types", default=None)
        if not isinstance(types, dict) or not isinstance(c.get("period_start"), str):
            continue
        side = sums[c["period_start"] >= cut]
        for stats in types.values():
            if isinstance(stats, dict) and g(stats, "mean") is not None and g(stats, "count"):
                side[0] += float(stats["mean"]) * int(stats["count"])
                side[1] += int(stats["count"])
    (new_sum, new_n), (old_sum, old_n) = sums[True], sums[False]
    if not new_n or not old_n:
        return None
    return old_sum / old_n, int(old_n), new_sum / new_n, int(new_n)


def trend(st: State) -> str | None:
    r = st.ok("pricing_timeseries")
    if not r:
        return None
    label = card_label(the_card(st))
    raw = g(r, "raw", default={})
    candles = [c for c in (g(raw, "candles", default=[]) if isinstance(raw, dict) else raw) if isinstance(c, dict)]
    vals = [float(v) for v in (_candle_value(c) for c in candles) if v is not None]
    synthetic = SYNTHETIC_NOTE if _mentions_synthetic(r) else ""
    query = g(r, "query", default={})
    split = _split_means(candles, str(g(query, "as_of_date", default="") or ""))
    if split is not None:
        before, n_before, recent, n_recent = split
        change = (recent - before) / before * 100 if before else 0.0
        word = "trending up" if change > FLAT_BAND else "trending down" if change < -FLAT_BAND else \
            "holding steady (flat)"
        return (f"{label} is {word}: an average of {usd(recent)} over the last six months "
                f"({plural(n_recent, 'sale')}) against {usd(before)} before ({plural(n_before, 'sale')}), "
                f"{change:+.1f}%.{synthetic}")
    if len(vals) < 2:
        return f"There isn't enough sales history for {label} to show a trend (no data, not a flat price)."
    change = (vals[-1] - vals[0]) / vals[0] * 100 if vals[0] else 0.0
    word = "up" if change > 1 else "down" if change < -1 else "flat"
    interval = g(query, "interval", default="")
    unit = {"daily": "days", "weekly": "weeks", "monthly": "months"}.get(interval, "periods")
    return (f"{label} is trending {word}: median {usd(vals[0])} in the first period and {usd(vals[-1])} in the "
            f"latest ({change:+.1f}%) over {len(vals)} {unit} with sales.{synthetic}")


NEAR_MOST = 4   # twins of the picked card whose listings are read


def unlisted(r: Any) -> bool:
    """A marketplace result with no listing at all."""
    return isinstance(r, dict) and not g(g(r, "raw", default={}), "count", default=0) and not any(
        g(gr, "count", default=0) for comp in g(r, "graded", default=[]) for gr in g(comp, "grades", default=[]))


def near_cards(st: State, chosen: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Cards the question fits exactly as well as the one picked, apart only by a number it did not say:
    the linked candidates of the same name and release that matched the same words."""
    link = st.ok("link") or {}
    if chosen is None or st.ent.number or link.get("ambiguous"):
        return []
    said = set(chosen.get("matched") or [])
    out = [c for c in link.get("cards") or [] if isinstance(c, dict) and c.get("id") != chosen.get("id")
           and not c.get("variationOf") and c.get("name") == chosen.get("name")
           and c.get("releaseName") == chosen.get("releaseName") and set(c.get("matched") or []) == said]
    return out[:NEAR_MOST]


def _listed_twin(st: State) -> tuple[dict[str, Any], dict[str, Any], int] | None:
    """The one twin of an unlisted pick that is for sale (its card, listings and how many twins were read);
    None when none or several are."""
    results = [x for x in st.many.get("near_market", []) if isinstance(x, dict) and not unlisted(x)]
    if len(results) != 1:
        return None
    cid = str(g(g(results[0], "card", default={}), "card_id", default=""))
    twins = near_cards(st, the_card(st))
    card = next((c for c in twins if str(c.get("id")) == cid), None)
    return (card, results[0], len(twins)) if card else None


def marketplace(st: State) -> str | None:
    r = st.ok("marketplace_card")
    if not r:
        return None
    twin = _listed_twin(st) if unlisted(r) else None
    if twin is not None:   # the pick has no listing, one card told from it only by number has: that one
        card, r, others = twin
        st.results["marketplace_card"] = r
        return _listings(st, r, card_label(card)) + (
            f" Of the {others + 1} {card.get('name')} cards of {card.get('releaseName')} your words fit, it is the "
            "only one listed; give the card number to ask about another.")
    return _listings(st, r, card_label(the_card(st)))


def _listings(st: State, r: dict[str, Any], label: str) -> str:
    e = st.ent
    raw = g(r, "raw", default={})
    records = [x for x in g(raw, "records", default=[]) if x.get("price") is not None]
    graded_records = [dict(x, _grade=f"{g(comp, 'company_name', default='')} {g(gr, 'grade_value', default='')}")
                      for comp in g(r, "graded", default=[]) for gr in g(comp, "grades", default=[])
                      for x in g(gr, "records", default=[]) if x.get("price") is not None]
    synthetic = SYNTHETIC_NOTE if _mentions_synthetic(r) else ""
    pool = records
    if e.grade:
        pool = [x for x in graded_records if x["_grade"].split()[-1] == e.grade and
                (not e.company or e.company.upper() in x["_grade"].upper())]
    elif e.company:
        pool = [x for x in graded_records if e.company.upper() in x["_grade"].upper()]
    if e.max_price is not None:
        pool = [x for x in pool if float(x["price"]) <= e.max_price]
    if e.min_price is not None:
        pool = [x for x in pool if float(x["price"]) >= e.min_price]
    total = len(records) + len(graded_records)
    if not e.grade and not e.company:
        pool = records + graded_records
        if e.max_price is not None:
            pool = [x for x in pool if float(x["price"]) <= e.max_price]
        if e.min_price is not None:
            pool = [x for x in pool if float(x["price"]) >= e.min_price]
    if not total:
        return f"There are no active marketplace listings for {label} right now.{synthetic}"
    what = f"{e.company or ''} {e.grade or ''}".strip() or ("raw" if (e.grade or e.company) else "")
    bound = ""
    if e.max_price is not None:
        bound = f" under {usd(e.max_price)}"
    if e.min_price is not None:
        bound += f" over {usd(e.min_price)}"
    text = f"{label} has {plural(total, 'active listing')} ({len(records)} raw, {len(graded_records)} graded)."
    if not pool:
        return text + f" None is {what or 'listed'}{bound}.{synthetic}"
    pool.sort(key=lambda x: float(x["price"]))
    shown = "; ".join(f"{usd(x['price'])} on {x.get('source', 'a marketplace')}" +
                      (f" ({x['_grade'].strip()})" if x.get("_grade") else "") for x in pool[:3])
    kind = f"{what} listing" if what else "listing"
    return text + f" {plural(len(pool), kind)}{bound}, cheapest first: {shown}.{synthetic}"


def _company_pop(st: State, companies: list[dict[str, Any]], company: str | None) -> list[dict[str, Any]]:
    """The population entries of the asked-for company (matched by id or name via grades_companies)."""
    if not company:
        return companies
    keys = {company.upper()}
    for c in g(st.ok("grades_companies"), "companies", default=[]):
        if (c.get("abbreviation") or "").upper() == company.upper():
            keys |= {str(c.get("id")).upper(), (c.get("name") or "").upper(), (c.get("fullName") or "").upper()}
    if company.upper() == "BGS":
        keys.add("BECKETT GRADING SERVICES")
    if company.upper() == "PSA":
        keys.add("PROFESSIONAL SPORTS AUTHENTICATOR")
    return [c for c in companies if {str(c.get("id")).upper(), (g(c, "name", default="")).upper(),
                                     (g(c, "abbreviation", default="") or "").upper()} & keys or
            company.upper() in (g(c, "name", default="")).upper().split()]


def population(st: State) -> str | None:
    r = st.ok("population_card")
    if not r:
        return None
    c = the_card(st)
    name = card_label(c) if c.get("id") else g(r, "card_name", default="this card")
    e = st.ent
    companies = list(g(g(r, "base", default={}), "grading_companies", default=[]))
    synthetic = SYNTHETIC_NOTE if _mentions_synthetic(r) else ""
    if not companies and not g(r, "total_population"):
        return (f"There is no population data for {name}: no grading company's report covers it, so the "
                "count is unknown (no data is not the same as none graded).")
    chosen = _company_pop(st, companies, e.company)
    if e.company and not chosen:
        return f"There is no {e.company} population data for {name}: the count is unknown, not none.{synthetic}"
    if e.grade:
        plain = qualified = 0
        seen = False
        for comp in chosen:
            for gt in g(comp, "grading_types", default=[]):
                for entry in g(gt, "grades", default=[]):
                    grade = str(entry.get("grade"))
                    if grade == e.grade or grade.split()[0] == e.grade:
                        seen = True
                        plain += int(entry.get("population") or 0)
                        qualified += int(entry.get("qualified_population") or 0)
        who = e.company or "graded"
        if not seen:
            return f"The {who} report for {name} has no {e.grade} entry (no data).{synthetic}"
        asked = re.search(r"\b(oc|qualifiers?|qualified)\b", e.text, re.I) is not None
        q = f", plus {qualified:,} qualified (with a qualifier such as OC or ST, counted apart)" \
            if qualified or asked else ""
        are, copies = ("is", "copy") if plain == 1 else ("are", "copies")
        return f"There {are} {plain:,} {who} {e.grade} {copies} of {name}{q} (population report).{synthetic}"
    if e.company:
        n = sum(int(g(x, "total_population", default=0)) for x in chosen)
        return f"{name} has a {e.company} population of {n:,} graded copies (all grades).{synthetic}"
    total = g(r, "total_population", default=0)
    lines = [f"{g(x, 'name', default='?')} {int(g(x, 'total_population', default=0)):,}" for x in companies]
    by = f" Base card by company: {', '.join(lines)}." if lines else ""
    scope = "base and parallels" if g(r, "parallels", default=[]) else "base card"
    return f"{name} has a total graded population of {total:,} ({scope}, all companies).{by}{synthetic}"
