"""The index's fields: one document per card, one per release, set and parallel, and one
per distinct name (player, release, set, parallel, maker), in three indexes of the same fields."""

from __future__ import annotations

import tantivy

NAME_KINDS = ("name", "release", "set", "parallel", "manufacturer")
# sub-folders of the indexes beside the cards' (same fields): the distinct names (autocomplete walks only
# their postings) and the releases, sets and parallels (``e_*``: so a card query needs no kind filter)
NAMES, ENTITIES = "names", "entities"
START_LETTERS = 6  # a name word's first 1..6 letters are terms of ``name_start``: a typed prefix that long is one term
SCHEMA_VERSION = 12  # raised when the fields or their meaning change: older index folders are rebuilt


def build_schema() -> tantivy.Schema:
    b = tantivy.SchemaBuilder()
    b.add_text_field("kind", stored=True, tokenizer_name="raw", index_option="basic")
    b.add_text_field("id", stored=True, tokenizer_name="raw", index_option="basic")
    b.add_text_field("name", tokenizer_name="default")  # folded words of the name
    b.add_text_field("name_key", tokenizer_name="raw", index_option="basic")  # the folded name whole
    b.add_text_field("name_start", tokenizer_name="default", index_option="basic")  # first 1-6 letters of its words
    b.add_text_field("name_bag", tokenizer_name="raw", index_option="basic")  # its words sorted
    b.add_text_field("text", tokenizer_name="default")  # every word a card answers to
    b.add_text_field("context", tokenizer_name="raw", index_option="basic")  # release and set names, whole
    b.add_text_field("number", tokenizer_name="raw", index_option="basic")
    b.add_text_field("season", tokenizer_name="raw", index_option="basic")
    b.add_integer_field("year", indexed=True, fast=True)
    b.add_text_field("segment", tokenizer_name="raw", index_option="basic")  # folded name and id
    b.add_text_field("manufacturer", tokenizer_name="raw", index_option="basic")
    b.add_text_field("release_id", tokenizer_name="raw", index_option="basic")
    b.add_text_field("set_id", tokenizer_name="raw", index_option="basic")
    b.add_integer_field("base", indexed=True)
    b.add_float_field("weight", fast=True)  # ties: newer / base cards, more common names first
    # name documents only
    b.add_text_field("label", stored=True, tokenizer_name="raw", index_option="basic")
    b.add_unsigned_field("ord", fast=True)  # a card's entry in the pages beside the index (store/search/pages.py)
    b.add_text_field("ids", stored=True, tokenizer_name="raw", index_option="basic")
    b.add_integer_field("count", stored=True)
    b.add_text_field("year_label", stored=True, tokenizer_name="raw", index_option="basic")
    b.add_text_field("segment_label", stored=True, tokenizer_name="raw", index_option="basic")
    return b.build()
