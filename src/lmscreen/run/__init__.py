"""run package."""
