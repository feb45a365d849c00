"""From scores to an answer: text and picture fused per candidate, the best card, its tier, and the
rules that keep a guess from being High (no I/O here)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from identification import scoring as sc
from identification.evidence import Evidence
from identification.lookup import Candidates, Row
from identification.names import line_fit, name_similarity
from identification.numbers import number_read, prefixed_number_read, stray_number
from identification.thresholds import THRESHOLDS as T
from identification.thresholds import tier

log = logging.getLogger("cardwise.vision")


@dataclass(frozen=True)
class Match:
    """A card's answer: the best candidate, its tier and fused confidence, and the alternatives worth
    suggesting (best first)."""

    best: Row
    tier: str
    confidence: float
    alternatives: tuple[Row, ...] = ()


def decide(ev: Evidence, cands: Candidates, visual: dict[Any, float], foil: bool | None = None) -> Match | None:
    """The best card of ``cands`` by text (``ev``) and picture (``visual``: card id -> likeness to its
    reference image), or None when nothing reaches the Low cut. ``foil``: whether the card looks foil
    (``T.foil_sheen``), a tie-break between namesakes of a foil set and others (None: not known)."""
    # a card without a reference image gets a neutral prior when the photo looks like some reference
    # image (so an imaged twin that matches wins); otherwise its text score stands alone
    looks_known = max(visual.values(), default=0.0) >= T.looks_known
    lead_id, lead = visual_lead(visual)
    leads = namesake_leads(visual, cands)  # card id -> its picture's lead over its namesakes' pictures
    if lead_id is not None:
        leads[lead_id] = lead
    led = False  # the best card's lead over every other card's picture lifted it (unless it looks known)
    lifted: dict[Any, float] = {}  # cards a lead over their namesakes or a picture only ahead lifted: score before
    # a picture ahead of every other card's keeps its likeness as its score while no other name is read:
    # clearly (``T.clearly_read``) for a sure picture, at ``T.clear_name`` for one only ahead (a loose fit of
    # garbled print, "Airlin" for Kirlia, names no card; a re-save is 0.4-0.7 like its own scan)
    sure = lead_id is not None and visual[lead_id] >= T.same_picture
    pictured = lead_id is not None and not rival_read(ev, cands, lead_id, T.clearly_read if sure else T.clear_name)
    scored = []
    shared = sc.shared_context(cands.values())  # words a name's cards all print tell none of them apart
    for cid, c in cands.items():
        t = sc.text_score(ev, c, shared.get(c["card"].name, frozenset()))
        if cid in visual and ev.text.lines:
            v = visual[cid]
            f = max(0.5 * t + 0.5 * v, 0.8 * t)  # a poor crop (glare, slab window) must not sink good text
            if t >= T.agree_text and v >= T.agree_picture:  # text and image agree: independent evidence compounds
                f = max(f, 1 - (1 - t) * (1 - v))
            f0 = f
            if cid in leads and t + T.visual_lead_weight * leads[cid] > f:  # the picture tells it from its namesakes
                f = min(1.0, t + T.visual_lead_weight * leads[cid])
                if cid == lead_id:
                    led = not looks_known
                else:
                    lifted[cid] = f0
            if cid == lead_id and pictured and v > f:  # print that names no other card does not sink the picture
                f = v
                if not sure:
                    lifted[cid] = f0
        elif cid in visual:
            f = visual[cid]
        elif looks_known:
            f = 0.5 * t + T.unimaged_prior
        else:
            f = t
        scored.append((f, cid))
    # at a tie the namesake whose number the blur fits best (``ev.spotted.likeliest_number``), then the one
    # of a foil set (``scoring.foil_named``) if the card looks foil, else one of another set (a hologram and
    # the player's base cards print the same name), and the base card before its image variations,
    # whatever order the database returned them in
    scored.sort(key=lambda x: (-x[0], cands[x[1]]["card"].number != ev.spotted.likeliest_number,
                               foil is not None and sc.foil_named(cands[x[1]]) != foil,
                               cands[x[1]]["card"].variation_of is not None))
    if not scored:
        return None
    top = scored[0][1]  # a loosely read name (no sure picture of it) lifted by a number over a name read clearly
    loose = name_similarity(ev, cands[top]["card"].name) < T.clear_name and visual.get(top, 0.0) < T.sure_picture
    clear = [x for x in scored if name_similarity(ev, cands[x[1]]["card"].name) >= T.clearly_read] if loose else []
    if clear:  # comes after the cards of the name read clearly
        scored = [*clear, *(x for x in scored if x not in clear)]
    whole = [] if clear else whole_line_first(ev, cands, scored, visual)
    if whole:  # a name matched by one word of a name line comes after the name that is the whole line
        scored = [*whole, *(x for x in scored if x not in whole)]
    spotted = [] if clear or whole else spotted_first(ev, cands, scored, visual)
    if spotted:  # a loosely read name comes after a name spotted nearly as like the print
        scored = [*spotted, *(x for x in scored if x not in spotted)]
    best_f, best_id = scored[0]
    # lifted over the rest by its picture alone (its score before it does not lead): never High
    by_picture = best_id in lifted and lifted[best_id] <= max((f for f, _ in scored[1:]), default=0.0)
    best = cands[best_id]
    runner = next((f for f, cid in scored[1:] if cands[cid]["card"].name != best["card"].name
                   or cands[cid]["card"].number != best["card"].number), 0.0)
    conf = sc.confidence(best_f, best_f - runner)
    level = tier(conf)
    if level is None:
        return None
    log.debug("match scores %s", [(round(f, 3), str(c), round(visual.get(c, -1), 3)) for f, c in scored[:3]])
    others = [cands[c] for _, c in scored[1:]]
    tied = next((f for f, cid in scored[1:] if f > best_f - T.tie), None)  # e.g. a variation with the same text
    num = number_read(ev, best["card"].number)
    if level == "High" and (clear or best_f - runner < T.high_margin or tied is not None
                            or (num > 0 and confusable_number(best, others[:5]))  # a number read decided it
                            or (0 < num < 1  # a stray character guessed, a number spotted
                                and not (best_id == lead_id and visual[best_id] >= T.same_picture))
                            or stray_pick(ev, best, others)
                            or best_id in ev.spotted.context  # its release spotted among its namesakes
                            or (sc.nameless_read(ev, best) > 0  # a checklist named by its set's words alone
                                and name_similarity(ev, best["card"].name) < T.name_read)
                            or by_picture or (led and best_id == lead_id)):  # a picture ahead, not alike
        level = "Medium"
    if level != "Low" and (twin_ties(best, [(f, cands[cid]) for f, cid in scored[1:]], best_f)
                           or name_read_better(ev, best, others) or whole or spotted
                           or (name_similarity(ev, best["card"].name) < T.name_read  # a loose name in the class its
                               and prefixed_number_read(ev, best["card"].number))  # number's prefix names: unsure
                           or (guessed_name(ev, best) and visual.get(best_id, 0.0) < T.same_picture)):
        level = "Low"
    alternatives = tuple(cands[cid] for f, cid in scored[1:1 + T.suggestions] if f >= T.suggestion_min)
    return Match(best=best, tier=level, confidence=conf, alternatives=alternatives)


def whole_line_first(ev: Evidence, cands: Candidates, scored: list, visual: dict[Any, float]) -> list:
    """The cards of another name that fits a whole line read (``names.line_fit``, ``T.name_read``) where the
    best card's name, read clearly word by word (not as is) and without a sure picture, fits none but one
    word of it: read nearly as well (within ``T.line_rival``), they come first ("thrie thelios": Shellos 0.91
    by one word, 0.60 as a line; Chris Chelios 0.85, 0.77). Else none."""
    top = scored[0][1]
    best = cands[top]["card"].name
    sim = name_similarity(ev, best)
    if (not T.clear_name <= sim < 0.95 or line_fit(ev, best) >= T.name_read or visual.get(top, 0.0) >= T.sure_picture
            or ev.spotted.names.get(best, 0.0) >= sim):
        return []  # (0.95: read as is, or with confusable letters; under ``T.clear_name``: every name is loose;
        # spotted: the recogniser's output fits it better than every other catalog name, the line's rival too)
    rivals = [n for n in {cands[cid]["card"].name for _, cid in scored} - {best}
              if name_similarity(ev, n) >= max(T.name_read, sim - T.line_rival) and line_fit(ev, n) >= T.name_read]
    if not rivals:
        return []
    name = max(sorted(rivals), key=lambda n: (line_fit(ev, n), name_similarity(ev, n)))
    return [x for x in scored if cands[x[1]]["card"].name == name]


def spotted_first(ev: Evidence, cands: Candidates, scored: list, visual: dict[Any, float]) -> list:
    """The cards of a spotted name (the recogniser's output of some line fits it better than every other
    catalog name: ``Spotted.names``) where the best card's name, spotted on no line and without a sure picture,
    was read only loosely (under ``T.clearly_read``) and at most ``T.line_rival`` better: the spotted name
    comes first (spotting weighed the rival's spelling against the same print and found it worse), Low. Else none."""
    top = scored[0][1]
    best = cands[top]["card"].name
    sim = name_similarity(ev, best)
    if best in ev.spotted.names or sim >= T.clearly_read or visual.get(top, 0.0) >= T.sure_picture:
        return []
    rivals = [n for n in {cands[cid]["card"].name for _, cid in scored} - {best}
              if ev.spotted.names.get(n, 0.0) >= max(T.name_read, sim - T.line_rival)]
    if not rivals:
        return []
    name = max(sorted(rivals), key=lambda n: ev.spotted.names[n])
    return [x for x in scored if cands[x[1]]["card"].name == name]


def guessed_name(ev: Evidence, best: Row) -> bool:
    """The best card's name was found by the letter pairs it shares with a garbled line alone
    (``Evidence.near``) and is not read clearly (``T.clear_name``): a guess ("Klue Seat" found Kyle Seager,
    and a "11" read beside it made him High for Brett Hull), Low unless the photo is its reference image."""
    name = best["card"].name
    return name in ev.near and name_similarity(ev, name) < T.clear_name


def rival_read(ev: Evidence, cands: Candidates, cid: Any, cut: float = T.clear_name) -> bool:
    """Some candidate of another name than card ``cid``'s has its name read at ``cut`` or better."""
    name = cands[cid]["card"].name if cid in cands else None
    return any(c["card"].name != name and name_similarity(ev, c["card"].name) >= cut for c in cands.values())


def visual_lead(visual: dict) -> tuple[Any, float]:
    """The card whose reference image the photo is most like, and by how much more than any other card's
    (``T.visual_lead`` or more, at ``T.visual_lead_min`` or more; else ``(None, 0.0)``): a scan re-saved
    smaller, turned and recompressed is only 0.4-0.6 like its own scan, but every other card's is 0.1-0.3,
    which tells a card from its namesakes without images (the same player's cards of other sets)."""
    ranked = sorted(visual.items(), key=lambda kv: -kv[1])
    if not ranked or ranked[0][1] < T.visual_lead_min:
        return None, 0.0
    lead = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0.0)
    return (ranked[0][0], lead) if lead >= T.visual_lead else (None, 0.0)


def namesake_leads(visual: dict, cands: Candidates) -> dict[Any, float]:
    """Per name with several candidates: the card whose reference image the photo is most like, ahead of
    its namesakes' (``visual_lead`` among them), with that lead. A hologram re-saved small is 0.42 like its
    own scan and 0.30 like the other holograms (no lead over every card), but 0.2 like the player's
    other cards, which it is to be told from once the name is read."""
    names: dict[str, int] = {}
    for c in cands.values():
        names[c["card"].name] = names.get(c["card"].name, 0) + 1
    groups: dict[str, dict[Any, float]] = {}
    for cid, v in visual.items():
        if cid in cands and names[cands[cid]["card"].name] > 1:
            groups.setdefault(cands[cid]["card"].name, {})[cid] = v
    out = {}
    for group in groups.values():
        cid, lead = visual_lead(group)
        if cid is not None:
            out[cid] = lead
    return out


def stray_pick(ev: Evidence, best: Row, others: list[Row]) -> bool:
    """The number that picked the best card among its namesakes was read only as a line of one
    character (``numbers.stray_number``): Meganium #001 of some twenty Meganium came back High for
    Meganium #9 on a "1" read in the artwork. A name with one card needs no number."""
    card = best["card"]
    return stray_number(ev, card.number) and any(o["card"].name == card.name and not sc.same_print(o["card"], card)
                                                 for o in others)


def twin_ties(best: Row, others: list[tuple[float, Row]], best_f: float) -> bool:
    """A card of the best one's name and number in another set (Ampharos #1 of seven Pokemon sets)
    scores the same (within ``T.tie``): the name and number are sure, which set is a guess, as likely
    wrong as right, so the answer is Low whatever its confidence (the other sets' cards are among the
    suggestions). An image variation, in the same set, is the same card and does not count."""
    card = best["card"]
    return any(f > best_f - T.tie and (o["card"].name, o["card"].number) == (card.name, card.number)
               and not sc.same_print(o["card"], card) for f, o in others)


def name_read_better(ev: Evidence, best: Row, others: list[Row]) -> bool:
    """Another name was read clearly (``T.clearly_read``) where the best card's name was only a loose fit
    (under ``T.clear_name``): a number read in a later, noisier read lifted a misread name over the one
    the card prints ("KARIYA" / "PAUL" read, then "41": Hariyama #41 came back High for Paul Kariya #1)."""
    if name_similarity(ev, best["card"].name) >= T.clear_name:
        return False
    return any(o["card"].name != best["card"].name and name_similarity(ev, o["card"].name) >= T.clearly_read
               for o in others)


def confusable_number(best: Row, others: list[Row]) -> bool:
    """Another card of the same name whose number contains the best one's, or the reverse (#3 / #39)."""
    b = (best["card"].number or "").lower()
    for o in others:
        n = (o["card"].number or "").lower()
        if o["card"].name == best["card"].name and n != b and b and n and (b in n or n in b):
            return True
    return False
