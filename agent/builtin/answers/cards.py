"""Answers about the catalog: card details, parallels, search results, releases and sets, random
pulls, grading scales, catalog facts, feedback."""

from __future__ import annotations

import re
from typing import Any

from agent.builtin.answers.common import CAPABILITIES, card_label, g, is_error, plural, the_card, usd
from agent.builtin.linking import chosen_card
from agent.builtin.state import State
from tools._linking import fold


def _parallel_item(p: dict[str, Any]) -> str:
    n = p.get("name", "?")
    if p.get("numberedTo"):
        n += f" /{p['numberedTo']}"
    if p.get("isPartial"):
        n += " (partial)"
    return n


def set_parallels(st: State) -> str | None:
    """Parallels of a set (no card named): print runs, the one asked about, the rarest."""
    sset = st.ok("catalog_set")
    if not sset:
        return None
    pars = g(sset, "parallels", default=[])
    name = f"{g(sset, 'releaseName', default='')} {g(sset, 'name', default='')}".strip()
    inserts = [x for x in st.many.get("insert_pars", []) if isinstance(x, dict) and g(x, "parallels")]
    p = asked_parallel(st, pars) if pars else None
    if p is not None:
        return _one_parallel(p, name)
    if inserts:
        return _release_parallels(st, g(sset, "releaseName", default=name), [sset, *inserts])
    if not pars:
        return f"{name} has no parallels in the catalog."
    text = st.ent.text.lower()
    if st.ent.order == "rarest" or "rare" in text:
        rarest = _rarest(name, pars)
        if rarest:
            return rarest
    return f"{name} has {plural(len(pars), 'parallel')}: " + ", ".join(_parallel_item(p) for p in pars) + "."


def _release_parallels(st: State, release: str, sets: list[dict[str, Any]]) -> str:
    """A release's parallels across its sets (the base set's first), each named with its set."""
    pars = [{**p, "of": g(x, "name", default="")} for x in sets for p in g(x, "parallels", default=[])]
    p = asked_parallel(st, pars)
    if p is not None and not LISTS_ALL.search(st.ent.text):
        return _one_parallel(p, f"{release} {p['of']}")
    if st.ent.order == "rarest" or "rare" in st.ent.text.lower():
        rarest = _rarest(release, pars)
        if rarest:
            return rarest
    shown = ", ".join(f"{_parallel_item(p)} ({p['of']})" for p in pars[:30]) + ("; ..." if len(pars) > 30 else "")
    return f"{release} has {plural(len(pars), 'parallel')} across {plural(len(sets), 'set')}: {shown}."


def asked_parallel(st: State, pars: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The one parallel the question names ("is the pink laser /what"), or None: the words said, the parallel
    the linker read (the set's own name may hold more words: "gold vinyl" -> Optic Gold Vinyl), or a
    follow-up's colour with the earlier question's words ("and the silver one?" -> Press Proof Silver)."""
    text = st.ent.text.lower()
    said = f" {fold(text)} "
    # the words said also as singulars ("orange refractors" asks for the Orange Refractor)
    one = " " + " ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in fold(text).split()) + " "

    def words(p: dict[str, Any]) -> list[str]:
        return fold(p.get("name") or "").split()

    asked = [p for p in pars if f" {fold(p.get('name') or '')} " in said or f" {fold(p.get('name') or '')} " in one] or \
        [p for p in pars if all(f" {w} " in said or f" {w} " in one for w in words(p))]
    linked = [set(fold(e.get("name") or "").split()) for e in (st.ok("link") or {}).get("entities") or []
              if e.get("kind") == "parallel" and not e.get("alternate")]
    longest = max((len(words(p)) for p in asked), default=0)
    # a parallel of two words or more the linker read ("gold vinyl"), never one word ("prizm") of many names
    holding = [p for p in pars if any(len(w) > max(1, longest) and w <= set(words(p)) for w in linked)]
    fewest = [p for p in holding if len(words(p)) == min(len(words(x)) for x in holding)]
    if len(fewest) == 1:   # one name holds it most closely; several ("press proof": bronze, gold...) say nothing
        return fewest[0]
    if not asked and st.conv.history:
        both = f" {fold(st.conv.history[-1])} {fold(text)} "
        asked = [p for p in pars if all(f" {w} " in both for w in words(p)) and any(f" {w} " in said for w in words(p))]
    return max(asked, key=lambda x: len(x.get("name") or "")) if asked else None


def _one_parallel(p: dict[str, Any], of: str) -> str:
    run = f"numbered to {p['numberedTo']}" if p.get("numberedTo") else "not serial-numbered"
    return f"The {p.get('name')} parallel of {of} is {run}."


def _rarest(name: str, pars: list[dict[str, Any]]) -> str | None:
    """The parallels with the smallest print run (only those: the question asked for the rarest)."""
    numbered = [p for p in pars if p.get("numberedTo")]
    if not numbered:
        return None
    run = min(p["numberedTo"] for p in numbered)
    low = list(dict.fromkeys(p.get("name") or "?" for p in numbered if p["numberedTo"] == run))
    each = "each " if len(low) > 1 else ""
    names = ", ".join(low[:-1]) + f" and {low[-1]}" if len(low) > 1 else low[0]
    verb = "parallels of {} are" if len(low) > 1 else "parallel of {} is"
    return (f"The rarest {verb.format(name)} {names}, {each}numbered to {run} (/{run}); "
            f"{name} has {plural(len(pars), 'parallel')} in all, {len(numbered)} serial-numbered.")


# words asking for every parallel, not the one named ("which refractors does it have", "list its parallels")
LISTS_ALL = re.compile(r"\b(parallels|variants|versions|colou?rs|refractors|prizms|all|list|which|rarest|rare)\b", re.I)


def parallels(st: State) -> str | None:
    if st.ok("catalog_set") and not st.ok("catalog_card"):
        return set_parallels(st)
    c = st.ok("catalog_card")
    if not c:
        return None
    pars = g(c, "parallels", default=[])
    if not pars:
        return f"{card_label(c)} has no parallels in the catalog."
    one = asked_parallel(st, pars)
    if one is not None and not LISTS_ALL.search(st.ent.text):   # "what's the gold refractor of his /": that one
        return _one_parallel(one, card_label(c))
    text = f"{card_label(c)} has {plural(len(pars), 'parallel')}: " + ", ".join(_parallel_item(p) for p in pars) + "."
    if st.ent.order == "rarest" or "rare" in st.ent.text.lower():
        rarest = _rarest(card_label(c), pars)
        if rarest:
            return rarest
        else:
            text = f"None of the parallels of {card_label(c)} is serial-numbered, so no print run tells which is rarest. " + text
    return text


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
    bits.append(f"{plural(n, 'parallel')}")
    prices = g(c, "prices", default={})
    if prices:
        bits.append("prices: " + ", ".join(f"{k} {usd(v)}" for k, v in prices.items()))
    return "; ".join(bits) + "."


def find(st: State) -> str | None:
    link = st.ok("link")
    if link is None:
        return None
    cards = [c for c in link.get("cards") or []]
    if not cards:
        from agent.builtin.answers.common import not_found
        return not_found(st)
    total = link.get("totalCandidates", len(cards))
    full = [c for c in cards if not c.get("missed")]
    if full and len(full) < len(cards) and any(c.get("missed") for c in cards):
        cards, total = full, len(full)
    shown = "; ".join(card_label(c) for c in cards[:8])
    more = "; ..." if total > 8 else ""
    return f"I found {plural(total, 'card')}: {shown}{more}."


# a release's date asked: "when did X drop", "X came out on what day", "release date of X"
ASKS_DATE = re.compile(r"\bwhen\b|\bdate\b|\bc[oa]me out\b|\breleased\b|\bwhat (year|day)\b", re.I)


def set_facts(st: State) -> str | None:
    r = st.ok("catalog_release")
    if not r:
        return None
    sets = g(r, "sets", default=[])
    name = g(r, "name", default="The release")
    total = sum(int(s.get("cardCount") or 0) for s in sets)
    text = st.ent.text.lower()
    year = g(r, "year")
    when = f" ({year})" if year and str(year) not in name else ""
    if ASKS_DATE.search(text):
        date = g(r, "releaseDate", "release_date")
        cal = st.ok("calendar") or {}
        for x in g(cal, "release_calendar", "releases", default=[]):
            if x.get("id") == r.get("id") or x.get("name") == name:
                date = g(x, "releaseDate", "release_date", "date", default=date)
        return f"{name}{when} came out {'on ' + str(date) if date else 'in ' + str(year) if year else '(no date in the catalog)'}" + \
            f"; it has {plural(len(sets), 'set')} and {total:,} cards."
    if "how many" in text or "how big" in text or "size" in text:
        main = max(sets, key=lambda s: int(s.get("cardCount") or 0), default=None)
        if len(sets) == 1 and main:
            return f"{name}{when} has {int(main.get('cardCount') or 0):,} cards."
        return (f"{name}{when} has {total:,} cards in total, in {plural(len(sets), 'set')}: " +
                ", ".join(f"{s.get('name')} ({s.get('cardCount', '?')})" for s in sets[:12]) + ".")
    return f"{name}{when} has {total:,} cards in {plural(len(sets), 'set')}: " + ", ".join(
        f"{s.get('name')} ({s.get('cardCount', '?')} cards)" for s in sets[:20]) + ("; ..." if len(sets) > 20 else "") + "."


def random_card(st: State) -> str | None:
    pulls = [p for p in st.many.get("random_in", []) if isinstance(p, dict) and "error" not in p]
    # the first of the releases pulled from that holds a card
    base = st.ok("random_base")   # the base set asked for, when the release has a set called so
    r = next((p for p in pulls if g(p, "cards")), pulls[0] if pulls else None) or \
        (base if g(base, "cards") else None) or st.ok("catalog_cards_random")
    cards = g(r, "cards", default=[]) if r else []
    if not cards:
        return "I found no card to pull with those filters." if r is not None else None
    return f"Here is a random card: {card_label(cards[0])}."


def _qualifier(st: State) -> str | None:
    """What a label qualifier stands for, from the company's list of them."""
    code = st.ent.qualifier
    comps = g(st.ok("grades_companies"), "companies", default=[])
    company = next((c for c in comps if (c.get("abbreviation") or c.get("name")) == (st.ent.company or "PSA")), None)
    if not code or company is None:
        return None
    who = company.get("abbreviation") or company.get("name")
    found = next((q for q in company.get("qualifiers") or [] if q.get("code") == code), None)
    if found is None:
        return f"{code} is not one of {who}'s label qualifiers in my grading data."
    others = ", ".join(f"{q['code']} {q['name']}" for q in company["qualifiers"] if q is not found)
    return (f"On a {who} label, {code} means {found['name']}: a qualifier for that flaw, printed after the grade "
            f"(qualified copies are counted apart from the plain grade in population reports). "
            f"{who}'s other qualifiers: {others}.")


def grades(st: State) -> str | None:
    if st.ent.qualifier:
        said = _qualifier(st)
        if said:
            return said
    gg = st.ok("grades_grades")
    if gg:
        entries = g(gg, "grades", default=[])
        items = [f"{x.get('grade')}" + (f" {x['condition']}" if x.get("condition") and x["condition"] != x.get("grade")
                                         else "") for x in entries]
        company = g(gg, "gradingCompany", default={})
        comp = g(company, "fullName", default=None) or g(company, "name", default=st.ent.company)
        text = st.ent.text.lower()
        if entries and any(w in text for w in ("lowest", "highest", "best", "top", "worst", "minimum", "maximum", "how low", "how high")):
            def val(x: dict[str, Any]) -> float:
                try:
                    return float(str(x.get("grade")).split()[0])
                except ValueError:
                    return -1.0
            ranked = sorted((x for x in entries if val(x) >= 0), key=val)
            pick = ranked[0] if any(w in text for w in ("lowest", "worst", "minimum", "how low")) else ranked[-1]
            word = "lowest" if pick is ranked[0] else "highest"
            return (f"The {word} {st.ent.company or comp} grade is {pick.get('grade')}"
                    f"{' (' + pick['condition'] + ')' if pick.get('condition') else ''}. "
                    f"Its scale: " + ", ".join(items) + ".")
        scale = f"{comp} grades ({g(g(gg, 'gradingType', default={}), 'name', default='Card')}): " + ", ".join(items) + "."
        named = _grade_named(st, entries)
        return f"{named} {scale}" if named else scale
    r = st.ok("grades_companies")
    if not r:
        return None
    comps = g(r, "companies", default=[])
    return f"Cards are graded by {len(comps)} companies: " + ", ".join(
        f"{c.get('abbreviation') or c.get('name')}" for c in comps) + "."


def _grade_named(st: State, entries: list[dict[str, Any]]) -> str | None:
    """The grade or condition the question names, on its own line before the scale ("A PSA 8 is Near
    Mint-Mint."; "Near Mint is a 7 at PSA.")."""
    abbr = st.ent.company or "PSA"
    if st.ent.grade:
        same = [x for x in entries if str(x.get("grade")) == st.ent.grade and x.get("condition")]
        if same:
            return f"A {abbr} {st.ent.grade} is {' or '.join(x['condition'] for x in same)}."
    text = fold(st.ent.text)
    named = [x for x in entries if x.get("condition") and f" {fold(x['condition'])} " in f" {text} "]
    if named:
        longest = max(len(fold(x["condition"])) for x in named)
        pick = [x for x in named if len(fold(x["condition"])) == longest]
        plain = [x for x in pick if x["condition"].lower() in st.ent.text.lower()]
        pick = plain or pick
        return f"{pick[0]['condition']} is {' or '.join(str(x.get('grade')) for x in pick)} at {abbr}."
    return None


def catalog_stats(st: State) -> str | None:
    r = st.ok("catalog_statistics")
    if not r:
        return None
    t = lambda k: g(g(r, k, default={}), "total", default=0)  # noqa: E731
    low = st.ent.text.lower()
    if re.search(r"\b(manufacturers?|brands?|makers?|companies|who makes)\b", low):
        makers = sorted(g(g(r, "manufacturers", default={}), "breakdown", default=[]),
                        key=lambda m: -int(g(m, "releaseCount", "release_count", default=0)))
        if makers:
            return (f"The catalog has cards from {plural(len(makers), 'manufacturer')}: " + ", ".join(
                f"{g(m, 'name', default='?')} ({plural(int(g(m, 'releaseCount', 'release_count', default=0)), 'release')})"
                for m in makers) + ".")
    if st.ent.segment:
        seg = next((x for x in g(g(r, "releases", default={}), "bySegment", "by_segment", default=[])
                    if fold(g(x, "segmentName", "segment_name", default="")) == fold(st.ent.segment)), None)
        if seg is not None:
            return (f"The catalog has {plural(int(g(seg, 'total', default=0)), f'{st.ent.segment} release')} "
                    f"(each release is a set, or holds a few); {t('releases'):,} releases in all.")
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


def feedback(st: State) -> str | None:
    r = st.ok("feedback_submit") or st.ok("feedback_general")
    err = st.result("feedback_submit") or st.result("feedback_general")
    if not r:
        return f"Your feedback was not recorded: {err['error']}" if is_error(err) else None
    rec = g(r, "data", default={})
    about = ""
    card = chosen_card(st.ok("link"), st.ent) if st.ok("feedback_submit") else None
    if card:
        about = f" about {card_label(card)}"
    return (f"Thanks, your feedback{about} was recorded (id {g(rec, 'unique_id', 'id', default='n/a')}, status "
            f"{g(rec, 'status', default='not_reviewed')}).")


def identify(st: State) -> str | None:
    return ("I can't see images in a text question. To identify a card from a photo, upload it to "
            "POST /v1/identify/card (or /v1/identify/card/{segment}).")


def glossary(st: State) -> str | None:
    r = st.ok("catalog_attributes")
    text = st.ent.text.lower()
    words = set(re.findall(r"[a-z0-9]+", text))
    for a in g(r, "attributes", default=[]) if r else []:
        short, name = (a.get("shortName") or "").lower(), (a.get("name") or "").lower()
        if short in words and short not in TERMS or (name and len(name) > 3 and re.search(rf"\b{re.escape(name)}\b", text)):
            desc = f": {a['description']}" if a.get("description") else ""
            return (f"{a.get('shortName')} means {a.get('name')}{desc}. The catalog marks "
                    f"{int(a.get('cardCount') or 0):,} cards with it. Ask me which cards have it.")
    for key, meaning in TERMS.items():
        if key in words:
            return f"{meaning} I can find such cards in the catalog: ask e.g. \"1989 Upper Deck rookies\"."
    from agent.builtin.answers.common import unanswerable

    return unanswerable(st)


# collectors' shorthand the catalog's attribute list may not spell out
_ROOKIE = "RC means rookie card: a player's first regular card from a major release."
_AUTO = "Auto (AU) means an autographed card: signed by the player, on card or on a sticker."
TERMS = {"rc": _ROOKIE, "rookie": _ROOKIE, "auto": _AUTO, "au": _AUTO, "autograph": _AUTO,
         "sp": "SP means short print: a card printed in smaller numbers than the rest of its set.",
         "ssp": "SSP means super short print: rarer still than a short print.",
         "refractor": "A refractor is a Topps Chrome/Bowman Chrome parallel with a rainbow-reflective finish.",
         "slab": "A slab is the sealed plastic holder a grading company returns a graded card in.",
         "raw": "Raw means ungraded: a card not in a grading company's slab."}


def help_(st: State) -> str | None:
    return "I can " + CAPABILITIES + ". Ask in your own words, e.g. \"how many PSA 10 Base Set Charizards are there?\""


__all__ = ["the_card"]
