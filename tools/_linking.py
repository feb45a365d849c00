"""The words of a collector's question read as constraints (no database): year or season, card
number, attributes, grading company and grade, money bounds, ordering, time window, segment.

``read(text)`` returns the constraints and the tokens left over; ``tools.catalog_link`` then asks
the catalog which of the leftover runs are names. Question and intent words are never names
(``NEVER_NAMES``); domain words (``DOMAIN_WORDS``) may only be part of a release, set or parallel
name, never a player's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
import unicodedata
from functools import lru_cache
from pathlib import Path

from pydantic import Field

from tools._models import CamelOut

COMPANIES = {"psa": "PSA", "pas": "PSA", "bgs": "BGS", "beckett": "BGS", "sgc": "SGC", "cgc": "CGC", "tag": "TAG",
             "hga": "HGA", "csg": "CSG", "isa": "ISA", "becket": "BGS", "bekett": "BGS", "beckit": "BGS"}
# makers spelled right and no everyday word: one said rules out a card of another maker ("my topps griffey")
MAKERS = {"topps", "bowman", "fleer", "donruss", "leaf", "panini", "pinnacle", "skybox", "hoops", "ultra", "finest",
          "prizm", "heritage", "pacific", "sportflics", "upper"}
# every word of a maker or product line, with everyday words ("score", "select") and typos ("tops", "flerr")
BRANDS = MAKERS | {"ud", "score", "stadium", "chrome", "pokemon", "opc", "o-pee-chee", "select", "classic", "mothers",
                   "tops", "topp", "toppps", "flerr", "fler", "donrus", "donross", "bowmen", "upperdeck", "deck", "prism"}
SEGMENT_WORDS = {"baseball": "Baseball", "basketball": "Basketball", "football": "Football", "hockey": "Hockey",
                 "pokemon": "Pokemon", "pokémon": "Pokemon", "tcg": "Pokemon", "nba": "Basketball",
                 "nfl": "Football", "mlb": "Baseball", "nhl": "Hockey"}
ATTRIBUTES = {"rookie": "RC", "rookies": "RC", "rc": "RC", "rcs": "RC", "auto": "AU", "autos": "AU",
              "autograph": "AU", "autographs": "AU", "autographed": "AU", "signed": "AU", "au": "AU",
              "sp": "SP", "ssp": "SSP"}
ORDERS = [(r"\b(cheapest|least expensive|lowest[- ]priced?|cheaper)\b", "cheapest"),
          (r"\b(most valuable|most expensive|priciest|highest[- ](value|valued|priced)|worth the most|"
           r"best card|top card|biggest)\b", "most_valuable"),
          (r"\b(rarest|most rare|scarcest|lowest (print run|population|pop|numbered|serial)|hardest (one |parallel |card )?"
           r"to (pull|find|get)|hardest parallel|smallest print run|least (copies|printed))\b", "rarest"),
          (r"\b(newest|latest|most recent)\b", "newest"),
          (r"\b(oldest|earliest)\b", "oldest")]
# words that carry the question, never the subject
NEVER_NAMES = set("""
a an the of for and or in on at to is are was were be been being it its it's this that these those what what's
whats which who whose how many much does do did have has had i i'm im me my mine we our you your show tell give
find get got list search look lookup about please can could would should will any all there their them they
with by from as per card cards copies copy graded grade grades grading value values worth price prices priced
pricing cost costs costing selling sell sells sold sale sales listing listings listed population pop pops report
reports parallel parallels variant variants version versions details detail info information number numbered
numbers year years trend trends trending history historical over time recent recently current currently market
marketplace available availability buy buying bought ebay auction auctions most top best highest lowest least
collection collections owned own owning complete completion completed completing progress missing breakdown
broken group grouped grouping player players manufacturer manufacturers feedback wrong incorrect error errors typo
gem mint exist exists existing total overall right now today again also just only some more other else than then
too very same new old day days week weeks month months catalog catalogue statistics stats segments segment
categories category sports sport random upcoming calendar company companies types type scale scales checklist use
uses used know knows need want wants like see looking think anything something where when why sure let lets pls
plz thanks thank hi hello hey ok okay yes no not break down compare explain describe check pull pulls pulling
bring display return fetch count calculate summarize summarise sort rank order help exactly roughly approximately
around cheapest cheaper expensive priciest valuable rarest rare scarce rarer newest latest oldest earliest under
below less more over above between bucks dollars dollar usd going up gone go goes went rising rise falling fall
dropping dropped drop increase increasing decrease decreasing climbing climb gain gains gaining lose losing loss
profit roi invested investment invest return returns paid pay spent spend close closer closest finish finishing
finished far away left need needed needs wish wishlist want-list wantlist list lists add added adding put save
tracking track keep many much big large size sized long when released release-date came out come comes date dated
pack packs box boxes hobby odds one ones thing things guy guys him his her hers he she them stuff kind kinds sort
sorts difference differ diff versus vs between worth. either whether if else instead rather really actually
cards? card? much? worth? difference? should i'd i've ive we're ya ur u r y yo whats what's who's whos
fair good great nice cool awesome favorite favourite value? currently? anymore surprise something anything
raw ungraded don't dont doesn't isn't haven't didn't won't can't wasn't aren't i've
what's whats how's someone everything pick picks choose grab deal worthwhile grading graded? ad put
qualified qualifier qualifiers half am i'll i'd we've you're it's that's there's here here's
tho though maybe please? card's cards' someone somebody anyone anybody
near excellent poor mint? graded? slab slabs slabbed comps comp going
made make makes printed produced condition conditions mean means meaning called
wat wats wut waht hw hwo teh thx ty collector collectors collecting start started beginner newbie
gap moved moving movement changed change changes hunting track tracking
binder binders sleeve sleeves sleeved toploader toploaders top-loader storage storing stored shipping shipped
mail mailed mailman package packages weekend tonight tomorrow yesterday dinner lunch joke weather
so yet somewhere another pulled wishlisted wantlisted
""".split())
# domain words: part of a release, set or parallel name, never a player's name alone
DOMAIN_WORDS = {"set", "sets", "base", "edition", "1st", "first", "unlimited", "shadowless", "holo", "reverse",
                "refractor", "refractors", "chrome", "update", "series", "traded", "promo", "promos", "gold",
                "silver", "black", "red", "blue", "green", "orange", "purple", "pink", "prizm", "release",
                "releases", "insert", "inserts", "foil", "tiffany", "glossy", "draft", "rated", "white", "yellow",
                "aqua", "teal", "bronze", "platinum", "sepia", "lime", "neon", "camo", "wave", "mojo", "shimmer",
                "speckle", "lava", "sapphire", "ruby", "emerald", "magenta", "fuchsia", "pearl"}
ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
            "5th": 5, "last": -1}

_GRADE = re.compile(r"\b(psa|pas|bgs|beckett|becket|bekett|beckit|sgc|cgc|tag|hga|csg|isa)\s*-?\s*(10|[1-9](?:\.5)?)(?:'?s)?\b", re.I)
_GEM = re.compile(r"\b(gem[- ]?mint|gem|gem mt)\b( 10)?", re.I)
_BARE_GRADE = re.compile(r"\b(?:grade[ds]?|a|an|the)\s+(10|[1-9](?:\.5)?)(?:'?s)?\b", re.I)
_NOT_GRADE = (r"(?!\s*(?:cards?|sets?|years?|yrs?|days?|weeks?|months?|%|/|\.\d|,\d|-\d|x\b|k\b|"
              r"of\b(?!\s+(?:that|this|the|it|his|her|them|those|these)\b)))")   # "1 of 1" is a count, "a 10 of it" a grade
# a grade without its company ("in a 9", "how many 10s", "graded 8", "tens", "pop 10"): PSA, the scale most meant
_LONE_GRADE = re.compile(r"\b(?:in|at|as|get|got|gets|getting|grades?|graded|perfect|gem|mint|slabbed|pops?)\s+(?:an?\s+)?"
                         r"(10|[1-9](?:\.5)?)(?:'?s)?\b" + _NOT_GRADE + r"|\ban?\s+(10|[1-9](?:\.5)?)\b" + _NOT_GRADE +
                         r"|\b(10|[1-9]\.5|[1-9])'?s\b|\b(tens|nines|eights|sevens)\b", re.I)
_GRADE_PAIR = re.compile(r"\b(?:the|a|an)\s+(10|[1-9](?:\.5)?)\s+(?:and|or|vs\.?|versus|&)\s+(?:the|a|an)\s+"
                         r"(10|[1-9](?:\.5)?)\b" + _NOT_GRADE, re.I)
# "9 to 10 jump in price", "8 vs 9 gap": two bare grades before a word of their price gap, never a card number
_GRADE_STEP = re.compile(r"\b(10|[1-9](?:\.5)?)\s+(?:to|vs\.?|versus|or|and|-)\s+(10|[1-9](?:\.5)?)\s+"
                         r"(?=(?:price\s+)?(?:jump|gap|diff|difference|premium|spread|bump|upgrade|increase|multiplier)s?\b)", re.I)
# label qualifiers (PSA's OC, ST, PD, OF, MK, MC), only beside grading words; "of" and "st" only in capitals
# or asked the meaning of ("what does st mean on a psa label")
_QUALIFIER = re.compile(r"\b(OC|ST|PD|OF|MK|MC|oc|pd|mk|mc|(?:st|of)(?=\s+(?:mean|means|stand|stands)\b))\b")
_GRADING_CONTEXT = re.compile(r"\b(psa|bgs|sgc|cgc|label|slab|qualifier|qualifiers|qualified|grade|graded)\b", re.I)
_GRADE_WORDS = {"tens": "10", "nines": "9", "eights": "8", "sevens": "7"}
_COMPANY = re.compile(r"\b(psa|pas|bgs|beckett|becket|bekett|beckit|sgc|cgc|tag|hga|csg|isa)(?:'?s)?\b", re.I)
_SEASON = re.compile(r"\b((?:19|20)\d\d)\s*[-/]\s*(\d\d)\b")
_SHORT_SEASON = re.compile(r"(?<![#/\w])'?(\d\d)\s*[-/]\s*(\d\d)\b(?!\s*/)")
_YEAR = re.compile(r"\b(19[0-9]\d|20[0-4]\d)(?:'?s)?\b")
# "95 sp baseball": Upper Deck's SP line is a brand after a year too
_SHORT_YEAR = re.compile(r"(?:'|\u2019)(\d\d)\b|\b(\d\d)\s+(?=(?:" + "|".join(sorted(BRANDS | {"sp", "spx"})) + r")\b)",
                         re.I)
_DECADE = re.compile(r"\b(?:the\s+)?(?:19)?([5-9]0)'?s\b(?!-\d)", re.I)   # never a number ("50S-17")
_NUM_OF = re.compile(r"#?\b([A-Za-z]{0,4}\d{1,4}[a-z]?)\s*/\s*(\d{1,4})\b")
_NUMBER = re.compile(r"(?:#\s*|\bno\.\s*|\bnumber\s+|\bcard\s+#?)([A-Za-z]{0,5}-?\d{1,4}(?:[A-Za-z]{1,4}-\d{1,3}|[A-Za-z])?)\b",
                     re.I)
# CPA-JT, GOGA-CR as typed in capitals; 76RO-JB and 76ro-jb (a digit: never a hyphenated word such as "ho-oh")
_CODE = re.compile(r"\b([A-Z]{1,5}-[A-Z0-9]{1,5}|\d{1,3}[A-Za-z]{1,4}-(?:[A-Za-z]{1,4}\d{0,3}|\d{1,3}))\b")
# RBI5, TB6, H88, rr-19; 100T and 45T (Traded), never 10k or 5s
_MIXED = re.compile(r"\b([A-Za-z]{1,5}\d{1,4}[A-Za-z]?|[A-Za-z]{1,4}-[A-Za-z]{0,4}\d{1,4}|\d{1,4}(?:[A-JL-RT-WYZ]|t))\b")
_SERIAL = re.compile(r"(?:/|numbered to |serial(?:ly)? numbered to )(\d{1,4})\b", re.I)
# an amount written in words ("ten bucks", "twenty dollars", "a hundred", "fifty"): collectors type them so
_TENS = r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
_AMOUNT_WORDS = (r"(?:an?\s+)?(?:fiver|tenner|grand|hundred|" + _TENS + r"(?:[- ](?:one|two|three|four|five|six|seven|"
                 r"eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen)\b")
_MONEY = re.compile(r"\b(under|below|less than|cheaper than|at most|max(?:imum)?|up to|no more than|"
                    r"over|above|more than|at least|min(?:imum)?)\s*\$?\s*(\d[\d,]*(?:\.\d+)?|(?:an?\s+)?(?:fiver|tenner)\b|"
                    r"" + _AMOUNT_WORDS + r"(?=\s*(?:bucks|dollars|usd)\b|\s*[?!.,]*\s*$|\s+(?:for|on|in|and|or|each|"
                    r"listed|for sale|right now|rn|please|pls)\b)|(?:a\s+)?(?:hundred|grand)\b)"
                    r"\s*(k\b|grand\b)?\s*"
                    r"(?:bucks|dollars|usd)?", re.I)
# a price the caller thinks of paying ("should i pay 50 for X", "is 300 too much for X", "would you pay $20 for"):
# an amount, never a year or a card number
_OFFER = re.compile(r"\b(?:pay|paying|spend|spending|offer|offering|give|giving|drop|dropping)\s+(?:like\s+|about\s+|"
                    r"around\s+|only\s+)?\$?\s*\d[\d,]*(?:\.\d+)?\s*(?:bucks|dollars|usd)?(?=\s+(?:for|on)\b)|"
                    r"(?:^|(?<=\bis\s)|(?<=\bwas\s))\$?\s*\d[\d,]*(?:\.\d+)?\s*(?:bucks|dollars|usd)?(?=\s+(?:too much|too high|"
                    r"too steep|a (?:good|fair|decent|solid) (?:price|deal)|fair|reasonable|a steal|overpriced|ok)\b)", re.I)
_BETWEEN = re.compile(r"\bbetween\s*\$?\s*(\d[\d,]*(?:\.\d+)?)\s*(?:and|-|to)\s*\$?\s*(\d[\d,]*(?:\.\d+)?)", re.I)
_DOLLARS = re.compile(r"\$\s*(\d[\d,]*(?:\.\d+)?)")
_BUCKS = re.compile(r"\b(\d[\d,]*(?:\.\d+)?|" + _AMOUNT_WORDS + r")\s*(?:bucks|dollars|usd)\b", re.I)
_PERIOD = re.compile(r"\b(?:last|past|previous|in the last|over the last)\s+(\d+|a|one|two|three|six|twelve)?\s*"
                     r"(day|week|month|year)s?\b|\bthis (year|month)\b|\b(ytd|year to date)\b", re.I)
_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "six": 6, "twelve": 12}
TOKEN = re.compile(r"[A-Za-z0-9\u00C0-\u024F][A-Za-z0-9\u00C0-\u024F'.\-&]*")


# collectors' spellings of catalog words ("lite arcanine", "zard"), read as the catalog writes them
SPELLINGS = {"lite": "light", "nite": "night", "zard": "charizard", "zards": "charizard", "mew2": "mewtwo",
             "pika": "pikachu", "refactor": "refractor", "refactors": "refractors"}


@lru_cache(maxsize=1)
def _nicknames() -> tuple[re.Pattern[str], dict[str, str], re.Pattern[str], dict[str, str]]:
    """``nicknames.txt``: one pattern for every nickname (words joined by a space, a hyphen or nothing),
    and one for the everyday phrases ("~="), read as a name only beside a year or a brand."""
    table: dict[str, str] = {}
    guarded: dict[str, str] = {}
    for line in (Path(__file__).with_name("nicknames.txt")).read_text(encoding="utf-8").splitlines():
        line = re.split(r"\s{2,}#", line, maxsplit=1)[0]   # the source follows two spaces and a "#"
        if "~=" in line and not line.startswith("#"):
            nick, name = (x.strip() for x in line.split("~=", 1))
            guarded[nick.lower()] = name   # "the kid": "the" is part of it
        elif "=" in line and not line.startswith("#"):
            nick, name = (x.strip() for x in line.split("=", 1))
            table[re.sub(r"^the\s+", "", nick.lower())] = name
    return _nick_pattern(table, r"(?:the\s+)?"), table, _nick_pattern(guarded, ""), guarded


def _nick_pattern(table: dict[str, str], lead: str) -> re.Pattern[str]:
    words = sorted(table, key=len, reverse=True) or ["(?!)"]
    alts = "|".join(r"\.?[\s-]?".join(re.escape(w) for w in re.split(r"[\s-]+", n)) if n != "(?!)" else n
                    for n in words)
    # a possessive is dropped with it: "the big unit's rookie" is Randy Johnson's
    return re.compile(rf"(?<![\w-]){lead}({alts})\.?(?:['\u2019]s\b)?(?![\w-])", re.I)


# a year ("89", "'92", "1989"), a brand or "rookie" right beside an everyday phrase that is a collector's
# nickname ("prime time's 89 topps traded"): the phrase names the player
_CARD_CONTEXT = re.compile(r"(?<![\w#/$.])(?:19|20)\d\d\b|(?<![\w#/$.])\d\d\s*[-/]\s*\d\d\b|(?<![\w#/$.])['\u2019]\d\d\b|\b(?:rookie|rc)\b|\b("
                           + "|".join(sorted(BRANDS)) + r")\b", re.I)


def nicknamed(text: str) -> str:
    """A collector's nickname for a player or card written as the catalog's name ("a-rod": Alex Rodriguez)."""
    pattern, table, guarded_pattern, guarded = _nicknames()

    def _name(tab: dict[str, str], near: bool = False) -> Callable[[re.Match[str]], str]:
        def name(m: re.Match[str]) -> str:
            if near and not _CARD_CONTEXT.search(m.string[max(0, m.start() - 10):m.end() + 10]):
                return m.group(0)
            key = re.sub(r"[\s.-]+", "", m.group(1).lower())
            return next((v for k, v in tab.items() if re.sub(r"[\s-]+", "", k) == key), m.group(0))
        return name

    said = text
    text = pattern.sub(_name(table), text)
    text = guarded_pattern.sub(_name(guarded, near=True), text) if guarded else text
    if text != said:   # "raffy palmeiro": the surname said after the nickname is said once
        text = re.sub(r"\b(\w+)((?:[.,]? (?:jr|sr)\.?)?) \1\b", r"\1\2", text, flags=re.I)
    return text


def fold(text: str) -> str:
    """Lowercase, no diacritics, punctuation to spaces: the form names are compared in."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = re.sub(r"[^a-z0-9]+", " ", text)
    return " ".join(text.split())


class Constraints(CamelOut):
    """What a question says besides names (the ``constraints`` of ``catalog_link``'s answer)."""

    year: str | None = Field(None, description="A year named ('1989'; '89' and '1986-87' are read too)")
    season: str | None = Field(None, description="The season when written as one ('1986-87')")
    min_year: int | None = Field(None, description="First year of a span ('the 90s')")
    max_year: int | None = Field(None, description="Last year of a span")
    number: str | None = Field(None, description="Card number ('57', 'RC-12')")
    set_total: int | None = Field(None, description="The 102 of '57/102'")
    numbered_to: int | None = Field(None, description="Print run asked ('/99'); 0 = serial-numbered, any run")
    attributes: list[str] = Field(default_factory=list, description="RC, AU, SP or SSP")
    company: str | None = Field(None, description="Grading company (PSA, BGS, SGC, CGC...)")
    grade: str | None = Field(None, description="Grade asked ('10', '9.5')")
    min_price: float | None = Field(None, description="Lower price bound, USD")
    max_price: float | None = Field(None, description="Upper price bound, USD")
    order: str | None = Field(None, description="cheapest, most_valuable, rarest, newest or oldest")
    period_days: int | None = Field(None, description="Time window asked, in days ('last year' = 365)")
    segment: str | None = Field(None, description="Segment named or given (Baseball, Pokemon...)")
    ordinal: int | None = Field(None, description="'the second one' = 2; 'the last one' = -1")
    qualifier: str | None = Field(None, description="A label qualifier asked about ('OC' in 'psa 8 OC')")


class Reading(Constraints):
    """The constraints with the question's text, the words left over and the spans read."""

    text: str = Field(exclude=True)
    tokens: list[tuple[int, str]] = Field(default_factory=list, exclude=True)  # leftover words, positions
    cuts: list[tuple[int, int]] = Field(default_factory=list, exclude=True)    # spans read as constraints
    named: list[tuple[int, int]] = Field(default_factory=list, exclude=True)   # spans linked as a release or set
    # the bare two digits read as the year ("evan white 89 prizm"): the card number when no card has the year
    year_digits: str | None = Field(None, exclude=True)

    @property
    def years(self) -> tuple[int, int] | None:
        if self.year:
            return int(self.year), int(self.year)
        if self.min_year or self.max_year:
            return self.min_year or 1800, self.max_year or 2100
        return None

    def constraints(self, **changes: object) -> Constraints:
        return Constraints.model_validate({**self.model_dump(include=set(Constraints.model_fields)), **changes})


def _blank(text: str, m: re.Match[str], cuts: list[tuple[int, int]]) -> str:
    cuts.append((m.start(), m.end()))
    return text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]


SLANG_AMOUNTS = {"fiver": 5.0, "tenner": 10.0, "grand": 1000.0, "hundred": 100.0}   # "under a fiver": five dollars
_UNITS = {w: float(i) for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}
_UNITS["fifteen"] = 15.0
_TENS_VALUE = {w: 20.0 + 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}


def _money(v: str, k: str | None = None) -> float:
    words = re.split(r"[\s-]+", v.strip().lower())
    slang = SLANG_AMOUNTS.get(words[-1])
    if slang is not None:
        return slang
    if words[-1] in _UNITS or words[-1] in _TENS_VALUE:   # "ten", "twenty", "twenty five"
        tens = _TENS_VALUE.get(words[-2], 0.0) if len(words) > 1 else 0.0
        if tens:
            return tens + _UNITS.get(words[-1], 0.0)
        return _TENS_VALUE.get(words[-1], _UNITS.get(words[-1], 0.0))
    n = float(v.replace(",", ""))
    return n * 1000 if k else n


def _surname(text: str, m: re.Match[str]) -> bool:
    """A company word that is a player's surname ("josh beckett"): the word before it may be a name."""
    if m.group(1).lower() not in ("beckett", "becket"):
        return False
    before = re.findall(r"[A-Za-z']+", text[:m.start()])
    return bool(before) and before[-1].lower() not in NEVER_NAMES and before[-1].lower() not in COMPANIES


def read(text: str) -> Reading:
    """Constraints in ``text`` (spans used up are blanked, so positions of leftover words hold)."""
    text = nicknamed(text)
    r = Reading(text=text)
    cuts: list[tuple[int, int]] = []

    def _cut(rest: str, m: re.Match[str]) -> str:
        return _blank(rest, m, cuts)

    rest = text
    m: re.Match[str] | None
    for i, m in enumerate(list(_GRADE.finditer(rest))):   # "psa 10 vs psa 9": the first is the grade asked
        if i == 0:
            r.company, r.grade = COMPANIES[m.group(1).lower()], m.group(2)
        rest = _cut(rest, m)
    for m in list(re.finditer(r"\b(?:than|vs\.?|versus|or|and|to)\s+(?:an?\s+)?(10|[1-9](?:\.5)?)(?:'?s)?\b", rest)):
        if r.grade:
            rest = _cut(rest, m)
    m = _GEM.search(rest)
    gem = bool(m and r.grade is None)
    if m and r.grade is None:
        r.grade = "10"
        rest = _cut(rest, m)
    if r.company is None:
        m = next((m for m in _COMPANY.finditer(rest) if not _surname(rest, m)), None)
        if m:
            r.company = COMPANIES[m.group(1).lower()]
            rest = _cut(rest, m)
    if gem and r.company is None:
        r.company = "PSA"   # "gem mint" with no company named: the PSA 10 collectors usually mean
    if r.grade is None and r.company:
        m = _BARE_GRADE.search(rest)
        if m:
            r.grade = m.group(1)
            rest = _cut(rest, m)
    if r.grade is None:
        m = _GRADE_PAIR.search(rest)   # "the 10 and the 9": two grades compared, the first asked
        if m:
            r.grade, r.company = m.group(1), r.company or "PSA"
            rest = _cut(rest, m)
    if r.grade is None:
        m = _GRADE_STEP.search(rest)
        if m:
            r.grade, r.company = m.group(1), r.company or "PSA"
            rest = _cut(rest, m)
    if r.grade is None:
        m = _LONE_GRADE.search(rest)
        if m:
            g = next(x for x in m.groups() if x)
            r.grade = _GRADE_WORDS.get(g.lower(), g)
            r.company = r.company or "PSA"
            rest = _cut(rest, m)
    if r.grade:   # the grade said again ("psa 10 vs 9, how much more is the 10"): never a card number
        for m in list(re.finditer(r"\b(?:the|a|an|in|at)\s+(10|[1-9](?:\.5)?)\b" + _NOT_GRADE, rest, re.I)):
            rest = _cut(rest, m)
    for m in list(_QUALIFIER.finditer(rest)) if _GRADING_CONTEXT.search(text) else []:
        if m.group(1).upper() == (r.qualifier or m.group(1).upper()):   # "psa 8 MC - what's the MC for?"
            r.qualifier = m.group(1).upper()
            rest = _cut(rest, m)
    for m in list(_OFFER.finditer(rest)):
        rest = _cut(rest, m)   # "should i pay 50 for X": what the caller might pay, never a year or a number
    m = _BETWEEN.search(rest)
    if m:
        r.min_price, r.max_price = _money(m.group(1)), _money(m.group(2))
        rest = _cut(rest, m)
    for m in list(_MONEY.finditer(rest)):
        word, value = m.group(1).lower(), _money(m.group(2), m.group(3))
        negated = re.search(r"\b(not|no|never|nothing)\b(\s+\S+){0,2}\s*$", rest[:m.start()], re.I)   # "not a penny over $10"
        if word in ("over", "above", "more than", "at least", "min", "minimum") and not negated:
            r.min_price = value
        else:
            r.max_price = value
        rest = _cut(rest, m)
    m = _DOLLARS.search(rest) or _BUCKS.search(rest)
    if m and r.max_price is None and r.min_price is None:
        r.max_price = _money(m.group(1))   # "$5", "budget is 25 bucks": the most the caller will pay
        rest = _cut(rest, m)
    m = _PERIOD.search(rest)
    if m:
        if m.group(4):
            r.period_days = 365
        elif m.group(3):
            r.period_days = 365 if m.group(3).lower() == "year" else 30
        else:
            n = m.group(1)
            count = _WORDS.get(n.lower(), 1) if n and not n.isdigit() else int(n or 1)
            r.period_days = count * {"day": 1, "week": 7, "month": 30, "year": 365}[m.group(2).lower()]
        rest = _cut(rest, m)
    m = _NUM_OF.search(rest)
    if m and not _YEAR.fullmatch(m.group(1)):
        r.number, r.set_total = m.group(1), int(m.group(2))
        rest = _cut(rest, m)
    if r.number is None:
        m = _NUMBER.search(rest)
        if m:
            r.number = m.group(1)
            rest = _cut(rest, m)
    if r.number is None:
        m = _CODE.search(rest)
        if m and not _SEASON.fullmatch(m.group(1)):
            r.number = m.group(1)
            rest = _cut(rest, m)
    if r.number is None:
        m = _MIXED.search(rest)   # RBI5, TB6, H88, rr-19 (letters and digits: not a word, not a year)
        if m and not re.fullmatch(r"(?i)(psa|bgs|sgc|cgc|tag|top|no)\d+", m.group(1)):
            r.number = m.group(1)
            rest = _cut(rest, m)
    m = _SERIAL.search(rest)
    if m:
        r.numbered_to = int(m.group(1))
        rest = _cut(rest, m)
    m = _SEASON.search(rest) or next((x for x in _SHORT_SEASON.finditer(rest)
                                      if int(x.group(2)) == (int(x.group(1)) + 1) % 100), None)
    if m and len(m.group(1)) == 2:   # "79-80": the 1979-80 season
        yy = int(m.group(1))
        first = 1900 + yy if yy >= 30 else 2000 + yy
        r.year, r.season = str(first), f"{first}-{m.group(2)}"
        rest = _cut(rest, m)
    elif m:
        r.year, r.season = m.group(1), f"{m.group(1)}-{m.group(2)}"
        rest = _cut(rest, m)
    else:
        m = _YEAR.search(rest)
        if m:
            r.year = m.group(1)
            rest = _cut(rest, m)
        else:
            m = _SHORT_YEAR.search(rest)
            if m:
                yy = int(m.group(1) or m.group(2))
                r.year = str(1900 + yy if yy >= 50 else 2000 + yy)
                r.year_digits = m.group(2)   # "'89" is a year for sure; "89 prizm" may be card #89
                rest = _cut(rest, m)
            else:
                m = _DECADE.search(rest)
                if m:
                    r.min_year = 1900 + int(m.group(1))
                    r.max_year = r.min_year + 9
                    rest = _cut(rest, m)
    low = rest.lower()
    for pattern, order in ORDERS:
        if re.search(pattern, low):
            r.order = order
            break
    segments: set[str] = set()
    for m in TOKEN.finditer(rest):
        word = m.group(0).strip(".'-")
        lw = word.lower()
        if not lw:
            continue
        if lw in ATTRIBUTES:
            if ATTRIBUTES[lw] not in r.attributes and not (lw == "au" and len(word) == 2 and word.islower()):
                r.attributes.append(ATTRIBUTES[lw])
            continue
        if lw in ("numbered", "serial") and re.search(r"\b(serial[- ]?)?numbered\b", low) and r.numbered_to is None:
            r.numbered_to = 0  # numbered, any print run
            continue
        if lw in SEGMENT_WORDS:
            if segments and SEGMENT_WORDS[lw] not in segments:
                r.segment = None   # "my buddy's the pokemon collector, i do baseball": no one segment meant
            elif not segments:
                r.segment = SEGMENT_WORDS[lw]
            segments.add(SEGMENT_WORDS[lw])
            if lw not in ("pokemon", "pokémon"):
                continue
        if lw in ORDINALS and re.search(rf"\b{re.escape(lw)}\s+(one|card|option|result)\b|^\s*(the\s+)?{re.escape(lw)}\b",
                                        low):
            r.ordinal = ORDINALS[lw]
            continue
        if re.search(r"\w{3}['\u2019]s$", lw) and lw not in NEVER_NAMES and fold(word) not in NEVER_NAMES and \
                not {fold(lw[:-2]), fold(lw[:-2]) + "s"} & (BRANDS | DOMAIN_WORDS):
            word, lw = word[:-2], lw[:-2]   # "orel hershiser's 88 topps": the player's card ("bowman's best" kept)
        r.tokens.append((m.start(), SPELLINGS.get(lw, word)))
    r.cuts = cuts
    _drop_places(r)
    bare = [(pos, w) for pos, w in r.tokens if w.isdigit() and len(w) <= 4]
    if r.number is None and r.years is None and len(bare) >= 2 and any(len(w) == 2 for _, w in bare):
        # two bare numbers ("schourek 95 collectors choice 423"): the two-digit one is the year
        pos, word = next(t for t in bare if len(t[1]) == 2)
        yy = int(word)
        r.year, r.year_digits = str(1900 + yy if yy >= 30 else 2000 + yy), word
        r.tokens.remove((pos, word))
    _year_before_name(r, bare)
    if r.number is None:
        # a bare number left over ("charizard 4", "the 1999 one, 4") is a card number
        for pos, word in list(r.tokens):
            if word == r.year:   # the year said again ("carlton fisk 1981 ... the 1981 topps one")
                r.tokens.remove((pos, word))
                continue
            if word.isdigit() and len(word) <= 4 and not (r.ordinal and word in ("1", "2", "3")):
                r.number = word
                r.tokens.remove((pos, word))
                break
    return r


@lru_cache(maxsize=1)
def places() -> frozenset[str]:
    """Countries and US states (``places.txt``)."""
    text = (Path(__file__).with_name("places.txt")).read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines() if not line.startswith("#") for w in line.split())


PLACE_CUES = {"in", "to", "from", "at", "near", "visiting", "visit", "around", "across", "outside"}


def _drop_places(r: Reading) -> None:
    """A country or state standing alone where someone goes ("headed to a show in colorado"), or with no year,
    number or brand in the question ("germany or france for a vacation"), is a place, not a card so named."""
    carded = bool(r.years or r.number) or any(fold(w) in BRANDS for _, w in r.tokens)
    keep: list[tuple[int, str]] = []
    for pos, word in r.tokens:
        before = fold(keep[-1][1]) if keep else ""
        alone = not before or before in NEVER_NAMES or before in PLACE_CUES
        if fold(word) in places() and alone and (not carded or before in PLACE_CUES):
            r.named.append((pos, pos + len(word)))
            continue
        keep.append((pos, word))
    r.tokens = keep


def _year_before_name(r: Reading, bare: list[tuple[int, str]]) -> None:
    """"89 griffey upper deck", "the 87 mcgwire topps": a lone two-digit number said right before a name,
    with a maker named too, is the year ("griffey 89" stays a card number; "top 10 ..." is no year)."""
    if r.number is not None or r.years is not None or len(bare) != 1 or len(bare[0][1]) != 2:
        return
    pos, word = bare[0]
    after = [(p, w) for p, w in r.tokens if p > pos]
    before = re.findall(r"[#\w]+", r.text[:pos].lower())
    if not after or not after[0][1].isalpha() or (before and (before[-1] in ("top", "no", "number", "card", "#")
                                                              or before[-1].startswith("#"))):
        return
    nxt = fold(after[0][1])
    if nxt in BRANDS or nxt in DOMAIN_WORDS or nxt in NEVER_NAMES:
        return
    yy = int(word)
    if not any(fold(w) in BRANDS for _, w in after[1:]):
        # "is the 89 griffey on my list", "my 86 jordan": a vintage year said of the name, with no maker; the
        # linker reads the digits as the card's number instead when no card of the name has that year
        if yy < 50 or not (before and before[-1] in ("the", "my", "his", "that", "this", "is", "of")):
            return
        r.year_digits = word
    r.year = str(1900 + yy if yy >= 30 else 2000 + yy)
    r.tokens.remove((pos, word))


def runs(reading: Reading) -> list[list[str]]:
    """Consecutive leftover words that may form a name (split at words that never are one)."""
    out: list[list[str]] = []
    current: list[str] = []
    last_end = -2
    text = reading.text
    for pos, word in reading.tokens:
        gap = text[last_end:pos] if last_end >= 0 else ""
        suffix = gap.strip() == "," and fold(word) in ("jr", "sr", "ii", "iii", "iv")   # "Ken Griffey, Jr."
        breaks = bool(re.search(r"[,;:?!()]|\s(or|and|vs\.?|versus)\s", gap)) and not suffix if current else False
        breaks = breaks or any(last_end <= a and b <= pos for a, b in reading.cuts + reading.named)
        # "how's", "that's": the word as typed too (folded, its apostrophe is a space: "how s")
        if fold(word) in NEVER_NAMES or fold(word).replace(" ", "") in NEVER_NAMES or \
                word.lower().replace("\u2019", "'") in NEVER_NAMES or word.isdigit():
            if current:
                out.append(current)
            current = []
        else:
            if breaks and current:
                out.append(current)
                current = []
            current.append(word)
        last_end = pos + len(word)
    if current:
        out.append(current)
    return out
