"""Entities in a question: card name words, number, year, grade, release/set words, dimensions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields

COMPANIES = {"psa": "PSA", "bgs": "BGS", "beckett": "BGS", "sgc": "SGC", "cgc": "CGC", "tag": "TAG",
             "hga": "HGA", "csg": "CSG", "isa": "ISA"}
# words that name products, sets and parallels rather than the card's subject
RELEASE_WORDS = {
    "topps", "chrome", "bowman", "panini", "prizm", "select", "optic", "donruss", "fleer", "upper", "deck", "score",
    "heritage", "finest", "mosaic", "stadium", "club", "update", "series", "base", "set", "pokemon", "pokémon",
    "wizards", "coast", "jungle", "fossil", "gallery", "sapphire", "draft", "national", "treasures", "contenders",
    "ud", "o-pee-chee", "opc", "leaf", "skybox", "hoops", "bowman's", "edition", "1st", "first", "unlimited",
    "shadowless", "holo", "promo", "rookie", "rc", "magic", "gathering", "yu-gi-oh", "star", "wars", "collection",
}
PARALLEL_WORDS = {"refractor", "gold", "superfractor", "red", "lava", "blue", "green", "orange", "purple", "black",
                  "silver", "wave", "shimmer", "xfractor", "atomic", "sepia", "pink", "aqua", "1st", "edition",
                  "shadowless", "reverse", "holo"}
STOP = set("""
a an the of for and or in on at to is are was were be been it its it's this that these those what what's which who
whose how many much does do did have has had i me my mine we our you your show tell give find get list search look
up about please can could would should will any all there their them with by from as per me card cards copies copy
graded grade grades value worth price prices priced cost costs selling sell sold sale listings listed listing
population pop report parallels parallel variants variant versions version details info information number numbered
year trend trends history over time recent recently current currently market marketplace available buy ebay
most top best highest collection collections owned own set sets release releases complete completion progress missing
breakdown broken down group grouped by player manufacturer feedback report wrong incorrect error typo
psa bgs sgc cgc tag hga csg isa beckett gem mint exist exists existing total overall right now today
again also just only some more other else than then too very same new old day days week weeks month months
catalog catalogue statistics stats segments segment categories category sports sport random upcoming calendar
company companies grading types type scale scales checklist
use uses used give gives given know knows need want like see looking think any anything something much
where when why sure now let lets pls thanks thank hi hello hey ok okay yes no not
break down compare explain describe check pull bring display return fetch count calculate summarize summarise
tell show list sort rank order help exactly roughly approximately about around
""".split())
ORDINALS = {"first": 1, "second": 2, "third": 3}


@dataclass
class Entities:
    name: str | None = None          # subject words, e.g. "Shohei Ohtani"
    number: str | None = None        # card number, e.g. "1", "RA-PS"
    year: str | None = None
    release_words: list[str] = field(default_factory=list)
    company: str | None = None       # grading company abbreviation, e.g. "PSA"
    grade: str | None = None         # grade value, e.g. "10", "9.5"
    parallel: str | None = None      # e.g. "Gold Refractor"
    group_by: str | None = None      # breakdown dimension
    proper: bool = False             # the name looks like a proper noun (capitalised)
    period: str | None = None        # e.g. "30d"
    text: str = ""

    def merged_with(self, older: "Entities") -> "Entities":
        """Fill the card-identifying gaps from an earlier question (a follow-up)."""
        out = Entities(**{f.name: getattr(self, f.name) for f in fields(self)})
        if not self.name:
            out.name = older.name
            out.number = self.number or older.number
            out.year = self.year or older.year
            out.release_words = self.release_words or older.release_words
            out.parallel = self.parallel or older.parallel
            if not self.company and not self.grade:
                out.company, out.grade = older.company, older.grade
            elif self.grade and not self.company:
                out.company = older.company
        return out

    @property
    def card_query(self) -> str:
        parts = [self.year or "", " ".join(w.title() for w in self.release_words), self.name or "",
                 f"#{self.number}" if self.number else ""]
        return " ".join(p for p in parts if p).strip()


_GRADE = re.compile(r"\b(psa|bgs|beckett|sgc|cgc|tag|hga|csg|isa)\s*-?\s*(10|[1-9](?:\.5)?)\b", re.I)
_COMPANY = re.compile(r"\b(psa|bgs|beckett|sgc|cgc|tag|hga|csg|isa)\b", re.I)
_YEAR = re.compile(r"\b(19[5-9]\d|20[0-4]\d)\b")
_NUMBER = re.compile(r"(?:#|\bno\.?\s*|\bnumber\s+)([A-Za-z]{0,4}-?\d+[A-Za-z]?|[A-Za-z]{1,4}-[A-Za-z0-9]{1,5})\b", re.I)
_PERIOD = re.compile(r"\b(?:last|past)\s+(\d+)?\s*(day|week|month|year)s?\b", re.I)
_GROUP = {"year": "year", "years": "year", "release": "release", "releases": "release", "grade": "grade",
          "grades": "grade", "player": "player", "players": "player", "manufacturer": "manufacturer",
          "manufacturers": "manufacturer", "brand": "manufacturer", "brands": "manufacturer"}
_WORD = re.compile(r"[A-Za-z][A-Za-z'.\-]*")


def singular(word: str) -> str:
    low = word.lower()
    if low.endswith("'s"):
        return word[:-2]
    if len(low) > 4 and low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def parse(text: str) -> Entities:
    e = Entities(text=text)
    rest = text
    m = _GRADE.search(rest)
    if m:
        e.company, e.grade = COMPANIES[m.group(1).lower()], m.group(2)
        rest = rest[:m.start()] + " " + rest[m.end():]
    else:
        c = _COMPANY.search(rest)
        if c:
            e.company = COMPANIES[c.group(1).lower()]
    m = _NUMBER.search(rest)
    if m:
        e.number = m.group(1)
        rest = rest[:m.start()] + " " + rest[m.end():]
    m = _YEAR.search(rest)
    if m:
        e.year = m.group(1)
        rest = rest[:m.start()] + " " + rest[m.end():]
    m = _PERIOD.search(text)
    if m:
        n = int(m.group(1) or 1)
        e.period = f"{n * {'day': 1, 'week': 7, 'month': 30, 'year': 365}[m.group(2).lower()]}d"
    g = re.search(r"\bby\s+(\w+)", text, re.I)
    if g and g.group(1).lower() in _GROUP:
        e.group_by = _GROUP[g.group(1).lower()]
    words = _WORD.findall(rest)
    name_words: list[str] = []
    par_words: list[str] = []
    for w in words:
        low = w.lower().strip(".'")
        if low in PARALLEL_WORDS and low not in ("1st", "edition", "holo", "shadowless"):
            par_words.append(w)
        elif low in RELEASE_WORDS:
            e.release_words.append(low)
            if low in ("shadowless", "1st", "edition", "holo"):
                par_words.append(w)
        elif low in STOP or len(low) < 2:
            continue
        else:
            name_words.append(w.strip(".?!,"))
    # a subject is usually capitalised; keep lowercase words only when nothing else is left
    caps = [w for w in name_words if w[:1].isupper()]
    chosen = caps or name_words
    if chosen:
        e.name = " ".join(chosen)
        e.proper = bool(caps)
    if par_words:
        e.parallel = " ".join(par_words)
    return e
