"""engines package."""
