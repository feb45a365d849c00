"""Want-list questions the probes16 round missed, and last round's misses: the list asked of in words with no
list name ("do i still need a base set venusaur?", "dont need the venusaur anymore", "remove the mewtwo" after
the list was read), which wanted cards are for sale, amounts written in words, a price the caller might pay
(never a year or a card number), "lc" for Legendary Collection, and a card picked from a list we gave."""

from __future__ import annotations

from agent.builtin import planner
from agent.builtin.answers.collection import asks_for_sale, wantlist
from agent.builtin.conversation import from_messages
from agent.builtin.linking import link_text, parse
from tests.agent.test_builtin import ALL, specs, understand
from tools._linking import nicknamed, read

WANTS_READ = "Your want list has 2 cards: Venusaur, Base Set #15 and Mewtwo, Base Set #10."
MY_CARDS = ("You have 8 cards: Charizard, Base Set #4 (PSA 8); Blastoise, Base Set #2; Shining Charizard, Neo Destiny "
            "#107 (PSA 9); Ozzie Smith, 1986 Topps Baseball #704; Rickey Henderson, 1995 Pinnacle Baseball #201.")


def after(answer: str, question: str, earlier: str = "whats on my want list"):
    """The planner's reading of ``question`` asked right after our ``answer`` to ``earlier``."""
    msgs = [{"role": "user", "content": earlier}, {"role": "assistant", "content": answer},
            {"role": "user", "content": question}]
    return planner.understand(from_messages(msgs, specs(*ALL, "list_card_remove", "list_cards_add")))


def test_amounts_in_words_are_prices():
    assert read("anything under ten bucks").max_price == 10
    assert read("rod carew boys of summer under twenty dollars").max_price == 20
    assert read("nolan ryan 2023 select 5 under a hundred").max_price == 100
    assert read("under twenty five dollars").max_price == 25
    assert read("base set charizard under 1 grand").max_price == 1000
    assert read("ozzie 86 topps 704 under five dollars").number == "704"


def test_a_price_the_caller_might_pay_is_never_a_year_or_a_card_number():
    r = read("should i pay 50 for a psa 9 shining charizard")
    assert (r.year, r.number, r.grade) == (None, None, "9")
    assert read("is 300 too much for a psa 8 shining charizard").number is None
    r = read("would you pay 20 for a psa 10 86 topps ozzie")
    assert (r.year, r.number) == ("1986", None)
    assert read("card 20 of 2003 topps helton").number == "20"   # a number said as one stays one


def test_lc_is_legendary_collection():
    assert "Legendary Collection venusaur" in nicknamed("is the lc venusaur on my wants")
    assert nicknamed("legendary coll mewtwo on my wishlist?").startswith("Legendary Collection mewtwo")
    assert nicknamed("legendary collection pikachu") == "legendary collection pikachu"
    assert nicknamed("calc the value") == "calc the value"


def test_a_card_still_needed_is_asked_of_the_want_list():
    assert understand("do i still need a base set venusaur?").intent.name == "wantlist"
    assert understand("do i need a base set mewtwo").intent.name == "wantlist"
    assert understand("what cards do i still need to buy").intent.name == "wantlist"
    assert understand("am i looking for a base set mewtwo").intent.name == "wantlist"
    assert understand("base set venusaur wanted?").intent.name == "wantlist"
    assert after(WANTS_READ, "is venusaur 15 on there").intent.name == "wantlist"
    assert understand("how much to buy everything i want").intent.name == "wantlist"
    # a set to finish is the set's progress, not the want list; "wanted" of no card is no want-list question
    assert understand("what do i still need to finish base set").intent.name != "wantlist"
    assert understand("whos wanted?").intent.name != "wantlist"


def test_a_card_no_longer_wanted_is_taken_off_the_list():
    assert understand("dont need the venusaur anymore").intent.name == "wantlist_remove"
    assert understand("got the base set venusaur! cross it off").intent.name == "wantlist_remove"
    assert understand("mewtwo base set no longer needed").intent.name == "wantlist_remove"
    assert after(WANTS_READ, "remove the mewtwo").intent.name == "wantlist_remove"
    assert after(WANTS_READ, "delete the first one").intent.name == "wantlist_remove"
    # a removal verb about something else, after another answer, is no want-list write
    assert after("Ozzie Smith, 1986 Topps Baseball #704.", "remove the psa 10 filter", "ozzie 86 topps").intent.name != \
        "wantlist_remove"


def test_which_wanted_cards_are_for_sale():
    for q in ("which of my wants are for sale", "any of my wishlist cards listed rn",
              "anything on my want list under $20", "wants for sale under twenty dollars"):
        st = understand(q)
        assert st.intent.name == "wantlist" and asks_for_sale(st), q
    st = after(WANTS_READ, "any for sale?")
    assert st.intent.name == "wantlist" and asks_for_sale(st)
    assert not asks_for_sale(understand("whats on my want list"))
    assert not asks_for_sale(understand("what would it cost to buy everything on my wants"))   # the cost
    assert after(WANTS_READ, "and how much would both cost").intent.name == "wantlist"
    assert after(WANTS_READ, "how many is that").intent.name == "wantlist"


def _wanted(number: str, name: str) -> dict:
    return {"id": f"id-{number}", "name": name, "number": number, "releaseName": "Base Set", "releaseYear": "1999"}


def test_the_wanted_cards_listings_are_read_out_or_none_said():
    st = understand("anything on my want list under $20")
    st.results.update({"lists_list": {"lists": [{"id": "l", "name": "Want list"}]},
                       "list_cards_list": {"cards": [{"cardId": "id-15"}, {"cardId": "id-10"}], "total_count": 2}})
    st.many["wanted"] = [_wanted("15", "Venusaur"), _wanted("10", "Mewtwo")]
    listed = {"card": {"card_id": "id-15"}, "raw": {"records": [{"price": 35.0}, {"price": 12.5}]}, "graded": []}
    st.many["wanted_market"] = [listed, {"card": {"card_id": "id-10"}, "raw": {"records": []}, "graded": []}]
    text = wantlist(st)
    assert "Venusaur" in text and "$12.50" in text and "$35" not in text and "Mewtwo" not in text, text
    st.many["wanted_market"] = [dict(listed, raw={"records": [{"price": 35.0}]}), st.many["wanted_market"][1]]
    text = wantlist(st)
    assert text.startswith("No active listings under $20") and "Venusaur" in text and "Mewtwo" in text, text


def test_a_follow_up_picks_one_card_of_the_list_we_gave():
    def linked(answer: str, q: str, answers: tuple[str, ...] = ()) -> str:
        from agent.builtin.intents import card_words

        return link_text(parse(q, ["x"], answer), ["x"], answer, card_words(q), [*answers, answer])

    assert linked(WANTS_READ, "remove the mewtwo") == "Mewtwo Base Set #10"
    assert linked(WANTS_READ, "delete the first one") == "Venusaur Base Set #15"
    assert linked(WANTS_READ, "how many psa 10s of the mewtwo exist") == "Mewtwo Base Set #10"
    assert linked(MY_CARDS, "the shining one - whats it worth") == "Shining Charizard Neo Destiny #107"
    # two listed cards fit ("charizard"), a name not listed, or a year of its own: the question's own words
    assert linked(MY_CARDS, "and the charizard?") == "and the charizard?"
    assert linked(MY_CARDS, "what about jungle charizard") == "what about jungle charizard"
    assert linked(MY_CARDS, "and his 1990 card") == "and his 1990 card"
    # the list one answer further back ("and the ozzie?" after the shining one's price)
    assert linked("Shining Charizard, Neo Destiny #107 (PSA 9): about $510.50.", "and the ozzie?",
                  (MY_CARDS,)) == "Ozzie Smith 1986 Topps Baseball #704"


def test_a_vintage_year_said_of_a_name_without_a_maker():
    r = read("is the 89 griffey on my list")
    assert (r.year, r.number) == ("1989", None)
    assert read("my 86 jordan worth").year == "1986"
    assert read("griffey 89").number == "89" and read("58 pikachu base set").number == "58"
    assert read("what is the 15 venusaur").number == "15"   # no vintage year: a card number


def test_amount_and_removal_words_typed_a_letter_off():
    from agent.builtin.conversation import respell

    assert respell("wants for sale under twenyy dollars") == "wants for sale under twenty dollars"
    assert respell("nolan ryan select 5 under a hundrrd").endswith("under a hundred")
    assert respell("scrtch the mewtwo off my list").startswith("scratch the mewtwo")
    assert respell("kenny rogers 2003 topps") == "kenny rogers 2003 topps"   # names stay as typed


def test_a_card_asked_with_a_question_mark_and_what_the_list_will_take():
    from agent.builtin.answers.collection import asks_cost, asks_membership

    assert asks_membership(understand("wishlist check: base set mewtwo?"))
    assert not asks_membership(understand("my wants?"))
    st = understand("whats it gonna take to buy all my wants")
    assert st.intent.name == "wantlist" and asks_cost(st) and not asks_for_sale(st)
