"""Reference data authored by the project (not imported from a third party)."""
