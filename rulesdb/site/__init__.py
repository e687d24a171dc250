"""The rules site: a Datasette plugin with its pages and HTML helpers."""
