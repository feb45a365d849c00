"""Names misspelt by a letter or two link to the catalog's one nearest name ("frank tomas", "gyradose"),
everyday words and longer given names do not, and a two-digit number before a name is its year."""

from __future__ import annotations

from store.search.fold import edit_distance, fold, max_edits
from store.search.index import NameHit
from tools._linking import read
from tools.catalog_link import LinkedEntity, _longer_name, _misspelt_words, _put_right, _spelt_out_name, _two_letter_slip


def _hit(name: str, kind: str = "name", distance: int = 0) -> NameHit:
    return NameHit(kind=kind, name=name, score=20.0, exact=False, distance=distance, count=10, ids=(name,))


class Names:
    """A name index over a few names: every word said is in the name (the last may begin one with
    ``prefix``); a word the index holds nowhere matches within its typo budget, as the real one does."""

    def __init__(self, *names: str) -> None:
        self.all = names
        self.words = {w for n in names for w in fold(n).split()}

    def _fits(self, word: str, name_words: list[str], last: bool, prefix: bool) -> bool:
        if word in name_words or (last and prefix and any(t.startswith(word) for t in name_words)):
            return True
        return word not in self.words and any(edit_distance(word, t) <= max_edits(word) for t in name_words)

    def names(self, phrase: str, kinds=None, limit: int = 10, prefix: bool = False, **_: object) -> list[NameHit]:
        words = fold(phrase).split()
        out = []
        for n in self.all:
            nw = fold(n).split()
            if all(self._fits(w, nw, i == len(words) - 1, prefix) for i, w in enumerate(words)):
                d = sum(min(edit_distance(w, t) for t in nw) for w in words if w not in nw and not prefix)
                out.append(_hit(n, distance=d))
        return out[:limit]


PLAYERS = Names("Frank Thomas", "Tomas Perez", "Frank Tanana", "Bo Jackson", "Jakson Reetz", "BO",
                "Walter Payton", "Peyton Manning", "Gyarados", "Gyarados EX", "Dark Gyarados", "Pat Mahomes")


def test_a_name_misspelt_in_its_first_letters_links_beside_the_other_word():
    assert [h.name for h in _misspelt_words(PLAYERS, ["frank", "tomas"])] == ["Frank Thomas"]
    assert [h.name for h in _misspelt_words(PLAYERS, ["bo", "jakson"])] == ["Bo Jackson"]
    assert [h.name for h in _misspelt_words(PLAYERS, ["walter", "peyton"])] == ["Walter Payton"]
    # words that no name holds within a letter or two of each stay unlinked
    assert _misspelt_words(PLAYERS, ["frank", "toast"]) == []


def test_a_long_word_two_letters_off_one_name_word_links_to_it():
    found = _two_letter_slip(PLAYERS, "gyradose", None)
    assert {h.name for h in found} == {"Gyarados", "Gyarados EX", "Dark Gyarados"}
    assert all(h.distance == 2 for h in found)
    # a short word gets no second letter; an everyday word never is a name
    assert _two_letter_slip(PLAYERS, "gyrado", None) == []
    assert _two_letter_slip(Names("Collection Agent"), "collectoin", None) == []


def test_two_name_words_as_near_leave_a_long_word_unread():
    index = Names("Sandberg Alpha", "Sandburg Beta")
    assert _two_letter_slip(index, "sandbrgg", None) == []


def test_a_longer_given_name_is_another_person_not_a_slip():
    assert _longer_name("patrik", "pat")
    assert not _longer_name("ozzy", "ozzie")
    assert not _longer_name("rickie", "rickey")


def test_a_two_digit_number_before_a_name_with_a_maker_said_is_the_year():
    r = read("89 griffey upper deck rookie")
    assert (r.year, r.number) == ("1989", None)
    r = read("the 87 mcgwire topps")
    assert (r.year, r.number) == ("1987", None)
    # after the name, without a maker, or after "#" it stays a card number
    assert read("griffey 89").number == "89"
    assert read("89 griffey").number == "89"
    assert read("#89 griffey topps").number == "89"
    assert read("top 10 griffey topps cards").year is None


def _entity(name: str, phrase: str, exact: bool = False) -> LinkedEntity:
    return LinkedEntity(kind="name", name=name, phrase=phrase, score=20.0, exact=exact, count=1, ids=[name])


def test_a_misspelt_name_read_as_several_names_is_the_one_it_spells():
    top = [_hit("Jirachi", distance=1), _hit("Jirachi-EX", distance=1), _hit("Shining Jirachi", distance=1),
           _hit("Deoxys", kind="release")]
    assert [h.name for h in _spelt_out_name(top, ["jirachii"])] == ["Jirachi", "Deoxys"]
    # two names the words spell equally well: all kept (the cards decide)
    top = [_hit("Rickey Henderson", distance=1), _hit("Ricky Henderon", distance=1)]
    assert len(_spelt_out_name(top, ["rickey", "henderon"])) == 2


def test_a_whole_name_put_right_counts_as_said_outright():
    assert _put_right(_entity("Jirachi", "jirachii"))
    assert _put_right(_entity("Frank Thomas", "frank tomas"))
    # part of a longer name is not ("fossil": Mysterious Fossil)
    assert not _put_right(_entity("Mysterious Fossil", "fossil"))
