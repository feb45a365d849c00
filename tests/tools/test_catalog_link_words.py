"""How the linker reads a collector's words before the catalog is asked: nicknames, card numbers
such as 100T, a year said beside a number, release names made of question words, "Griffey, Jr.",
and an everyday word in a verb's place."""

from __future__ import annotations

from store.search.index import NameHit
from tools._linking import nicknamed, read, runs
from tools.catalog_link import _drop_verbs, _named_with_question_words


def _hit(kind: str, name: str, year: str | None = None) -> NameHit:
    return NameHit(kind=kind, name=name, score=20.0, exact=False, distance=0, count=100, ids=(name,), year=year)


class Names:
    """A name index holding a few releases and sets; ``names`` returns those sharing a word with the phrase."""

    def __init__(self, *hits: NameHit) -> None:
        self.hits = hits

    def names(self, phrase: str, kinds=None, limit: int = 10, **_: object) -> list[NameHit]:
        words = set(phrase.lower().split())
        return [h for h in self.hits if (kinds is None or h.kind in kinds)
                and words & set(h.name.lower().replace("'", " ").split())][:limit]


def test_a_players_nickname_is_read_as_the_name_on_his_cards():
    assert nicknamed("big unit 89 upper deck rookie") == "Randy Johnson 89 upper deck rookie"
    assert nicknamed("throw the 94 fleer update a-rod on my list") == "throw the 94 fleer update Alex Rodriguez on my list"
    assert nicknamed("arod 94 fleer") == "Alex Rodriguez 94 fleer"
    assert nicknamed("The Big Hurt 1990 leaf") == "Frank Thomas 1990 leaf"
    # a word that only starts like a nickname is left alone
    assert nicknamed("big union card") == "big union card"


def test_a_cards_nickname_brings_its_number():
    r = read("moonbreon psa 10 pop")
    assert r.number == "215" and r.grade == "10"


def test_traded_numbers_and_a_year_beside_the_number():
    assert read("ken griffey jr 1989 score rookie & traded 100T").number == "100T"
    assert read("bob dernier 45t raw").number == "45t"
    r = read("listings for pete schourek 95 collectors choice 423")
    assert (r.year, r.number) == ("1995", "423")
    # amounts and ordinals are not card numbers
    assert read("anything under 10k").number is None
    assert read("charizard 4").number == "4"


def test_the_two_grades_compared_are_grades_not_card_numbers():
    r = read("what's the difference between the 10 and the 9 on that")
    assert (r.company, r.grade, r.number) == ("PSA", "10", None)


def test_a_name_suffix_after_a_comma_stays_with_the_name():
    assert runs(read("1989 Bowman Ken Griffey, Jr.")) == [["Bowman", "Ken", "Griffey", "Jr"]]
    assert runs(read("griffey, bonds")) == [["griffey"], ["bonds"]]


def test_release_names_holding_question_words_link_as_releases():
    index = Names(_hit("release", "Legendary Collection", "2002"), _hit("release", "Legendary Treasures", "2013"),
                  _hit("release", "POP Series 1", "2004"), _hit("release", "1995 Collectors Choice Baseball", "1995"),
                  _hit("release", "1989 Score Rookie & Traded Baseball", "1989"),
                  _hit("release", "2024 Panini Boys of Summer Baseball", "2024"))

    def linked(text: str) -> tuple[list[str], object]:
        r = read(text)
        return [e.name for e in _named_with_question_words(index, r, None)], r

    assert linked("how many cards are in legendary collection")[0] == ["Legendary Collection"]
    assert linked("legendry collection release date")[0] == ["Legendary Collection"]   # a typo too
    names, r = linked("tyranitar ex pop series 1 psa 9 population")
    assert names == ["POP Series 1"] and r.number is None   # the 1 is the release's, not a card number
    assert [w for _, w in r.tokens] == ["tyranitar", "ex", "population"]
    names, r = linked("ken griffey jr 1989 score rookie & traded 100T")
    assert names == ["1989 Score Rookie & Traded Baseball"] and r.attributes == []   # not a rookie card asked
    assert linked("rod carew 2024 boys of summer")[0] == ["2024 Panini Boys of Summer Baseball"]
    # a release of another year than the one asked is not it
    assert linked("1996 collectors choice")[0] == []
    # question words alone name nothing
    assert linked("how many cards are in my collection")[0] == []


def test_an_everyday_word_in_a_verbs_place_is_not_a_card_name():
    r = read("don't judge me but i just like shiny cards")
    _drop_verbs(r)
    assert "judge" not in [w for _, w in r.tokens]
    r = read("what's a judge full art worth")
    _drop_verbs(r)
    assert "judge" in [w for _, w in r.tokens]


def test_a_label_qualifier_beside_grading_words_is_read_not_linked():
    r = read("psa 8 MC - what's the MC for?")
    assert (r.qualifier, r.grade) == ("MC", "8") and "MC" not in [w for _, w in r.tokens]
    assert read("what does OC mean on a psa slab").qualifier == "OC"
    # without grading words, or "of" in lower case, it is no qualifier
    assert read("oc").qualifier is None
    assert read("psa 10 of base set charizard").qualifier is None
    # lower case "st" and "of" only when their meaning is asked ("st louis" is a place)
    assert read("waht does st mean on a psa lable").qualifier == "ST"
    assert read("what does of stand for on psa grades").qualifier == "OF"
    assert read("psa 9 st louis cardinals ozzie").qualifier is None


def test_a_bound_said_in_the_negative_is_an_upper_bound():
    r = read("not a penny over $10 - any walt weiss 96 donruss 203")
    assert (r.min_price, r.max_price) == (None, 10.0)
    assert read("nothing over 50 bucks please").max_price == 50.0
    assert read("griffey over $100").min_price == 100.0


def test_one_word_is_a_release_only_when_it_is_much_of_its_name():
    from tools.catalog_link import _small_part

    vault = _hit("release", "Shining Fates Shiny Vault", "2021")
    assert _small_part(vault, ["shiny"], year=False)           # one word of four: not that release
    assert not _small_part(vault, ["shiny"], year=True)        # with its year said, it may be
    assert not _small_part(_hit("release", "Legendary Collection"), ["legendary"], year=False)
    assert not _small_part(_hit("release", "1988 Fleer Baseball", "1988"), ["fleer"], year=False)


def _named(kind: str, name: str, phrase: str, exact: bool = False) -> object:
    from tools.catalog_link import LinkedEntity

    return LinkedEntity(kind=kind, name=name, phrase=phrase, score=10.0, exact=exact, count=1, ids=[name])


def test_two_sports_said_leave_the_segment_open():
    r = read("my buddy's the pokemon collector, i do baseball: 1988 topps marc sullivan 354 raw value?")
    assert r.segment is None and r.number == "354"
    assert read("random hockey card").segment == "Hockey"
    assert read("pokemon base set charizard").segment == "Pokemon"


def test_chatter_words_are_never_names():
    assert runs(read("another hockey one")) == []
    assert runs(read("have i wishlisted the 86 fleer jordan yet")) == [["fleer", "jordan"]]
    words = [w for run in runs(read("pulled a wave refractor from 2024 bowman chrome base")) for w in run]
    assert "pulled" not in words and "refractor" in words


def test_weaker_readings_yield_to_a_name_said_in_full_or_to_the_card_talked_about():
    from tools.catalog_link import _weaker_readings

    candy = _named("name", "Candy Maldonado", "candy")
    clemens = _named("name", "Roger Clemens", "roger clemens", exact=True)
    assert _weaker_readings([candy, clemens], referring=False) == [clemens]
    assert _weaker_readings([candy], referring=False) == [candy]   # alone, the catalog decides
    throw = _named("name", "Throw Smoke!", "throw")
    perfect = _named("release", "Perfect Order", "perfect")
    assert _weaker_readings([perfect, throw], referring=True) == []
    assert _weaker_readings([perfect, throw], referring=False) == [perfect, throw]


def test_a_releases_own_set_yields_to_another_set_named():
    from tools.catalog_link import _weaker_readings

    release = _named("release", "2023 Panini Chronicles Baseball", "chronicles")
    own = _named("set", "Chronicles", "chronicles")
    revolution = _named("set", "Revolution", "revolution")
    assert _weaker_readings([release, own, revolution], referring=False) == [release, revolution]
    assert _weaker_readings([release, own], referring=False) == [release, own]


def test_a_players_nickname_from_the_hobby():
    assert nicknamed("that wemby first pitch card") == "that Victor Wembanyama first pitch card"


def test_a_set_or_release_named_with_question_or_attribute_words():
    index = Names(_hit("set", "In the Name Relics", "2024"), _hit("release", "1994 SP Baseball", "1994"),
                  _hit("parallel", "Presidential Collection"))

    def linked(text: str) -> tuple[list[str], object]:
        r = read(text)
        return [e.name for e in _named_with_question_words(index, r, None)], r

    assert linked("randy arozarena 2024 topps in the name relic, rising or falling?")[0] == ["In the Name Relics"]
    assert linked("how many presidential collection parallels in 2020 donruss")[0] == ["Presidential Collection"]
    names, r = linked("which sets make up 1994 sp")
    assert names == ["1994 SP Baseball"] and r.attributes == []
    # beside a player's name the attribute is a short print asked for
    names, r = linked("1994 upper deck griffey sp")
    assert names == [] and r.attributes == ["SP"]
