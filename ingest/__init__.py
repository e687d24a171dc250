"""Parsers, one module per source format: bytes in, `Document` out; no database."""
