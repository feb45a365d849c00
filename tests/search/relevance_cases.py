"""Queries as collectors type them, with the catalog entry each must find in its top 3 (real catalog:
JunkWax + TCGdex). Hand-written cases plus, for a list of well-known names, the same name typed in
lower case without punctuation, in another word order, with one typo, and half-typed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    query: str
    kind: str  # "name", "release", "set", "parallel", or "card" (then ``expect`` is the card's name)
    expect: str
    release: str | None = None  # for "card": the release the card must be in
    prefix: bool = False  # typed so far (autocomplete)
    why: str = ""


PLAYERS = [
    "Frank Thomas", "Barry Bonds", "Ken Griffey Jr.", "Mark McGwire", "Mike Piazza", "Alex Rodriguez", "Greg Maddux",
    "Nolan Ryan", "Jeff Bagwell", "Rickey Henderson", "Tony Gwynn", "Roger Clemens", "Randy Johnson", "Kirby Puckett",
    "George Brett", "Ryne Sandberg", "Paul Molitor", "Sammy Sosa", "Wade Boggs", "Ivan Rodriguez", "Rafael Palmeiro",
    "Roberto Alomar", "Gary Sheffield", "Ozzie Smith", "Mickey Mantle", "Don Mattingly", "Chipper Jones",
    "Andres Galarraga", "Jose Canseco", "Aaron Judge", "Tom Glavine", "Barry Larkin", "Dennis Eckersley", "Mike Trout",
    "Fred McGriff", "Elly De La Cruz", "Shohei Ohtani", "Jackson Holliday", "Derek Jeter", "Bobby Witt Jr.",
    "Juan Soto", "Albert Pujols", "Bryce Harper", "Pete Crow-Armstrong", "Vladimir Guerrero Jr.",
    "Fernando Tatis Jr.", "Mookie Betts", "Fernando Valenzuela", "Darryl Strawberry", "Dwight Gooden",
    "Hank Aaron", "Willie Mays", "Babe Ruth", "Roberto Clemente", "Julio Rodríguez", "Gunnar Henderson",
    "Paul Skenes", "Corbin Carroll", "Adley Rutschman", "Michael Jordan", "Joe Montana", "Walter Payton",
]
POKEMON = [
    "Charizard", "Pikachu", "Mewtwo", "Blastoise", "Venusaur", "Lugia", "Umbreon", "Rayquaza", "Gengar",
    "Dragonite", "Gardevoir", "Greninja", "Sylveon", "Mimikyu", "Lucario", "Snorlax", "Gyarados", "Jigglypuff",
    "Bulbasaur", "Squirtle", "Charmander", "Magikarp", "Eevee", "Arcanine",
]
RELEASES = [
    "1989 Upper Deck Baseball", "1986-87 Fleer Basketball", "1979-80 Topps Hockey", "1981 Topps Football",
    "1987 Topps Baseball", "1984 Fleer Update Baseball", "1991 Stadium Club Baseball", "1993 Finest Baseball",
    "1992 Bowman Baseball", "1988 Score Rookie & Traded Baseball", "1990 Leaf Baseball",
    "1993 O-Pee-Chee Premier Baseball", "Base Set", "Jungle", "Fossil", "Team Rocket", "Neo Genesis",
    "Evolving Skies", "Hidden Fates", "Paldean Fates", "Crown Zenith", "Ruby & Sapphire", "HeartGold SoulSilver",
    "Diamond & Pearl", "Black & White",
]

HAND = [
    # punctuation, initials, diacritics
    Case("griffey jr", "name", "Ken Griffey Jr.", why="punctuation"),
    Case("ken griffey, jr.", "name", "Ken Griffey Jr."),
    Case("jt snow", "name", "J.T. Snow", why="initials"),
    Case("j.t. snow", "name", "J.T. Snow"),
    Case("j t realmuto", "name", "J.T. Realmuto"),
    Case("aj puk", "name", "A.J. Puk"),
    Case("paul oneill", "name", "Paul O'Neill"),
    Case("kebryan hayes", "name", "Ke'Bryan Hayes"),
    Case("mr mime", "name", "Mr. Mime"),
    Case("farfetchd", "name", "Farfetch'd"),
    Case("ho oh", "name", "Ho-Oh"),
    Case("porygon z", "name", "Porygon-Z"),
    Case("ronald acuna jr", "name", "Ronald Acuña Jr.", why="diacritics"),
    Case("acuna", "name", "Ronald Acuña Jr."),
    Case("jose ramirez", "name", "José Ramírez"),
    Case("jeremy pena", "name", "Jeremy Peña"),
    Case("julio rodriguez", "name", "Julio Rodríguez"),
    Case("poke ball", "name", "Poké Ball"),
    Case("pete crow armstrong", "name", "Pete Crow-Armstrong"),
    Case("cal ripken jr", "name", "Cal Ripken Jr."),
    # one famous surname
    Case("jeter", "name", "Derek Jeter", why="surname"),
    Case("griffey", "name", "Ken Griffey Jr."),
    Case("ohtani", "name", "Shohei Ohtani"),
    Case("mantle", "name", "Mickey Mantle"),
    Case("trout", "name", "Mike Trout"),
    Case("ichiro", "name", "Ichiro"),
    Case("mcgwire", "name", "Mark McGwire"),
    Case("skenes", "name", "Paul Skenes"),
    Case("gretzky", "name", "Wayne Gretzky"),
    # typos beyond the generated ones
    Case("ken grifey jr", "name", "Ken Griffey Jr.", why="typo"),
    Case("derek jeeter", "name", "Derek Jeter"),
    Case("charzard", "name", "Charizard"),
    Case("pikachuu", "name", "Pikachu"),
    Case("mewtow", "name", "Mewtwo"),
    Case("micky mantle", "name", "Mickey Mantle"),
    Case("shohei otani", "name", "Shohei Ohtani"),
    Case("nolan rayn", "name", "Nolan Ryan"),
    Case("sammy sossa", "name", "Sammy Sosa"),
    Case("barry bnods", "name", "Barry Bonds"),
    # seasons and years
    Case("1986 fleer", "release", "1986-87 Fleer Basketball", why="season"),
    Case("86-87 fleer", "release", "1986-87 Fleer Basketball"),
    Case("1986-87 fleer basketball", "release", "1986-87 Fleer Basketball"),
    Case("1979 topps hockey", "release", "1979-80 Topps Hockey"),
    Case("topps hockey 1980", "release", "1979-80 Topps Hockey"),
    Case("89 upper deck", "release", "1989 Upper Deck Baseball"),
    Case("upper deck 1989", "release", "1989 Upper Deck Baseball"),
    Case("1993 opc premier", "release", "1993 O-Pee-Chee Premier Baseball"),
    Case("o-pee-chee premier 1993", "release", "1993 O-Pee-Chee Premier Baseball"),
    Case("1988 score rookie traded", "release", "1988 Score Rookie & Traded Baseball"),
    Case("ruby and sapphire", "release", "Ruby & Sapphire"),
    Case("heartgold soulsilver", "release", "HeartGold SoulSilver"),
    Case("evolving skys", "release", "Evolving Skies", why="typo in a release"),
    Case("team rocket", "release", "Team Rocket"),
    Case("neo genisis", "release", "Neo Genesis"),
    Case("paldean", "release", "Paldean Fates", prefix=True),
    Case("hidden fa", "release", "Hidden Fates", prefix=True),
    Case("1991 stadium", "release", "1991 Stadium Club Baseball", prefix=True),
    # cards: a name with its release, in any order
    Case("griffey 1989 upper deck", "card", "Ken Griffey Jr.", release="1989 Upper Deck Baseball"),
    Case("1989 upper deck griffey", "card", "Ken Griffey Jr.", release="1989 Upper Deck Baseball"),
    Case("jordan 1986 fleer", "card", "Michael Jordan", release="1986-87 Fleer Basketball"),
    Case("michael jordan fleer 86", "card", "Michael Jordan", release="1986-87 Fleer Basketball"),
    Case("charizard base set", "card", "Charizard", release="Base Set"),
    Case("base set charizard", "card", "Charizard", release="Base Set"),
    Case("pikachu jungle", "card", "Pikachu", release="Jungle"),
    Case("umbreon vmax evolving skies", "card", "Umbreon VMAX", release="Evolving Skies"),
    Case("gretzky 1979 topps", "card", "Wayne Gretzky", release="1979-80 Topps Hockey"),
    Case("montana 1981 topps", "card", "Joe Montana", release="1981 Topps Football"),
    Case("mcgwire 1987 topps", "card", "Mark McGwire", release="1987 Topps Baseball"),
    Case("bonds 1986 fleer update", "card", "Barry Bonds", release="1986 Fleer Update Baseball"),
    Case("frank thomas 1990 leaf", "card", "Frank Thomas", release="1990 Leaf Baseball"),
    Case("jeter 1993 upper deck", "card", "Derek Jeter", release="1993 Upper Deck Baseball"),
    Case("chipper jones 1991 bowman", "card", "Chipper Jones", release="1991 Bowman Baseball"),
    Case("ohtani 2024 topps chrome", "card", "Shohei Ohtani", release="2024 Topps Chrome Baseball"),
    Case("skenes 2024 topps update", "card", "Paul Skenes", release="2024 Topps Update Baseball"),
    Case("griffey jr upper deck 89", "card", "Ken Griffey Jr.", release="1989 Upper Deck Baseball"),
    # sets and parallels
    Case("refractor", "parallel", "Refractor"),
    Case("gold refractor", "parallel", "Gold Refractor"),
    Case("superfractor", "parallel", "Superfractor"),
    Case("1st edition", "parallel", "1st Edition"),
    Case("shadowless holo", "parallel", "Shadowless Holo"),
    Case("reverse holo", "parallel", "Reverse Holo"),
    Case("base set", "set", "Base Set"),
]


def _lower_plain(name: str) -> str:
    """What someone types: lower case, punctuation left out (accents kept: folding is what is tested)."""
    return " ".join("".join(c if c.isalnum() else " " for c in name.lower()).split())


def _typo(name: str) -> str | None:
    """One edit in the longest word of 5+ letters: two middle letters swapped (or one dropped when they match)."""
    words = name.split()
    i = max(range(len(words)), key=lambda k: len(words[k]))
    w = words[i]
    if len(w) < 5 or not w.isalpha():
        return None
    m = len(w) // 2
    words[i] = w[:m - 1] + w[m] + w[m - 1] + w[m + 1:] if w[m - 1] != w[m] else w[:m] + w[m + 1:]
    return " ".join(words)


def generated() -> list[Case]:
    out: list[Case] = []
    for name in PLAYERS + POKEMON:
        plain = _lower_plain(name)
        out.append(Case(plain, "name", name, why="as typed"))
        words = plain.split()
        if len(words) > 1:
            out.append(Case(" ".join(reversed(words)), "name", name, why="reordered"))
        typo = _typo(plain)
        if typo:
            out.append(Case(typo, "name", name, why="typo"))
        half = " ".join(words[:-1] + [words[-1][:max(4, len(words[-1]) - 3)]])  # all but the last 3 letters
        if half != plain:
            out.append(Case(half, "name", name, prefix=True, why="half-typed"))
    for rel in RELEASES:
        out.append(Case(_lower_plain(rel), "release", rel, why="release"))
        words = _lower_plain(rel).split()
        if len(words) > 2:
            out.append(Case(" ".join(words[1:] + words[:1]), "release", rel, why="release reordered"))
    return out


def all_cases() -> list[Case]:
    return HAND + generated()
