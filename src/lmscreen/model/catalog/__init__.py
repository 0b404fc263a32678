"""Built-in catalog of open models, each entry sourced from its own config files."""

from lmscreen.model.catalog.models import CatalogEntry, all_models, close_matches, lookup, spec_for

__all__ = ["CatalogEntry", "all_models", "close_matches", "lookup", "spec_for"]
