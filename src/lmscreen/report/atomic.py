"""Moved to `lmscreen.outputs.atomic`; kept so existing imports keep working."""

from lmscreen.outputs.atomic import atomic_path, write_bytes, write_pieces, write_text, write_with

__all__ = ["atomic_path", "write_bytes", "write_pieces", "write_text", "write_with"]
