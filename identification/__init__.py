"""Card identification: which catalog card a located card is (``vision`` locates and reads it).

The engine knows nothing of HTTP or of the database: the catalog reaches it through
``lookup.CandidateLookup`` (the store implements it), the reference images as a ``vision.features.HashIndex``.
Layout: ``evidence`` (what the print says, frozen), ``thresholds`` (every cut, one object), ``names``,
``numbers`` and ``scoring`` (text against a candidate), ``namesakes`` (cards sharing a name),
``catalog_names`` (spotting names in small print), ``closer`` (the closer reads, a list of steps),
``decide`` (fusion and tiers), ``parallels``, ``engine`` (one card end to end), ``worker`` (the image
thread and the time budget).
"""

from identification.decide import Match
from identification.engine import match
from identification.lookup import CandidateLookup

__all__ = ["CandidateLookup", "Match", "match"]
