"""What a model is made of: config.json, safetensors and GGUF headers → ModelSpec (headers only)."""

from lmscreen.model.arch.read import hf_cache_dirs, inspect, read_config, spec_from_config, spec_from_folder

__all__ = ["hf_cache_dirs", "inspect", "read_config", "spec_from_config", "spec_from_folder"]
