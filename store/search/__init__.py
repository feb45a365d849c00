"""The catalog search index (tantivy): derived from the database, rebuilt when the catalog changes.

``CatalogIndex.names`` finds distinct names (players, releases, sets, parallels, makers) and
``CatalogIndex.cards`` ranked cards with an exact total; see ``docs/search.md``.
"""

from store.search.index import CardFilters, CardHit, CatalogIndex, NameHit
from store.search.location import build, fingerprint, index_root, open_current

__all__ = ["CardFilters", "CardHit", "CatalogIndex", "NameHit", "build", "fingerprint", "index_root", "open_current"]
