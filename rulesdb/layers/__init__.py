"""Layers computed over stored documents; each writes its own tables and can be rebuilt alone."""
