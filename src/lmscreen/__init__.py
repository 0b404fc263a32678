"""lmscreen: screen an A-share stock pool with a local LLM, and plan which model fits your GPU."""

__version__ = "0.1.0"
