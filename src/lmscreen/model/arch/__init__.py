"""What a model is made of: config.json, safetensors and GGUF headers → ModelSpec (headers only)."""

from lmscreen.model.arch.read import (
    cached_snapshot,
    hf_cache_dirs,
    inspect,
    read_config,
    read_local,
    spec_from_config,
    spec_from_folder,
)

__all__ = [
    "cached_snapshot",
    "hf_cache_dirs",
    "inspect",
    "read_config",
    "read_local",
    "spec_from_config",
    "spec_from_folder",
]
