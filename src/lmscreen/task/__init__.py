"""task package."""
