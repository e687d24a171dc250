"""The corpus rulesdb ships, installed as the package `rulesdb.data` (rulesdb.places.shipped
reads it)."""
