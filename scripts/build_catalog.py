"""Regenerate the built-in model catalog (src/lmscreen/model/data/models.yaml) from a folder of configs.

Each model is one folder, `catalog/models/<org>--<name>/`, holding

- `config.json`: the model's config.json as published (the whole file, or the keys a memory plan needs);
- `entry.yaml`: identity and provenance: `id` and `source` (the URL or file the config was read from) are
  required; `aliases`, `quantized_releases` (the publisher's AWQ/GPTQ/FP8 releases),
  `ollama`, `org`, `family`, `version`, `release`, `thinking`, `total_params_b`,
  `active_params_b` (publisher headline counts), `tasks`, `license`, `generation_source` are optional;
  `scores` (optional) lists published benchmark results, each `benchmark`, `value`, `source` (where the
  figure is published) and optionally `via` (where it was read) and `note` — `model recommend` ranks by them;
- `generation_config.json` (optional): the release's sampling defaults (temperature, top_p, top_k, min_p,
  repetition_penalty), used as its sampling preset;
- `hf_quant_config.json` (optional): a ModelOpt checkpoint's quantization file (`quant_source` names where it
  was read). vLLM reads it when config.json has no `quantization_config`; so does the catalog, as
  `quantization_config: {quant_method: modelopt, …}`.

What entry.yaml leaves out is derived and said so: family/version from the name, parameter counts from the
config (`params_source: config`), tasks text+agent (+ vision when the config has a vision_config). A folder
without a `source` is refused: the catalog holds no fact whose origin is not recorded.

    python scripts/build_catalog.py                 # catalog/models → src/lmscreen/model/data/models.yaml
    python scripts/build_catalog.py --check         # exit 1 when models.yaml is not what the folder gives
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "catalog" / "models"
OUT = ROOT / "src" / "lmscreen" / "model" / "data" / "models.yaml"

# config.json keys no plan reads (token ids, training settings): dropped to keep models.yaml readable.
DROP = {
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "transformers_version",
    "initializer_range",
    "attention_dropout",
    "use_cache",
    "output_router_logits",
    "router_aux_loss_coef",
    "id2label",
    "label2id",
    "auto_map",
    "image_token_id",
    "video_token_id",
    "vision_start_token_id",
    "vision_end_token_id",
}
GENERATION_KEYS = ("temperature", "top_p", "top_k", "min_p", "repetition_penalty", "presence_penalty")
ORDER = (
    "id",
    "aliases",
    "quantized_releases",
    "ollama",
    "org",
    "family",
    "version",
    "release",
    "thinking",
    "total_params_b",
    "active_params_b",
    "params_source",
    "tasks",
    "license",
    "source",
    "generation",
    "generation_source",
    "quant_source",
    "vision_source",
    "scores",
    "config",
)


def _slim(config: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in config.items() if k not in DROP}
    for key in ("text_config", "llm_config", "language_config"):
        if isinstance(out.get(key), dict):
            out[key] = _slim(out[key])
    return out


def _has_quantization(config: dict[str, Any]) -> bool:
    return "quantization_config" in config or "quantization_config" in (config.get("text_config") or {})


def _compact_quantization(config: dict[str, Any]) -> None:
    """A ModelOpt MIXED_PRECISION file lists every layer (22,422 for MiniMax-M3): the catalog keeps the
    format that sizes the weights (arch.config.modelopt_algo) and the count of layers per format."""
    from lmscreen.model.arch.config import modelopt_algo

    for holder in (config, config.get("text_config") or {}):
        q = holder.get("quantization_config")
        if isinstance(q, dict) and isinstance(q.get("quantized_layers"), dict):
            layers = q.pop("quantized_layers")
            counts: dict[str, int] = {}
            for layer in layers.values():
                algo = str((layer or {}).get("quant_algo") or "")
                counts[algo] = counts.get(algo, 0) + 1
            q["quant_algo"] = modelopt_algo(q | {"quantized_layers": layers})
            q["mixed_precision_layers"] = counts
            for group in (q.get("config_groups") or {}).values():
                if isinstance(group, dict) and isinstance(group.get("targets"), list):
                    group["targets"] = len(group["targets"])


def entry_from_folder(folder: Path) -> dict[str, Any]:
    """One catalog entry from a model folder; ValueError naming the folder when a required part is missing."""
    sys.path.insert(0, str(ROOT / "src"))
    from lmscreen.model.arch.config import spec_from_config
    from lmscreen.model.names import decode

    meta_path, config_path = folder / "entry.yaml", folder / "config.json"
    if not meta_path.is_file() or not config_path.is_file():
        raise ValueError(f"{folder}: needs entry.yaml and config.json")
    meta = yaml.safe_load(meta_path.read_text(encoding="utf-8")) or {}
    if not meta.get("id") or not meta.get("source"):
        raise ValueError(f"{meta_path}: `id` and `source` are required (no fact without its origin)")
    for i, score in enumerate(meta.get("scores") or []):
        if not all(score.get(k) not in (None, "") for k in ("benchmark", "value", "source")):
            raise ValueError(f"{meta_path}: scores[{i}] needs benchmark, value and source")
    config = json.loads(config_path.read_text(encoding="utf-8"))
    quant_path = folder / "hf_quant_config.json"
    if quant_path.is_file() and not _has_quantization(config):
        if not meta.get("quant_source"):
            raise ValueError(f"{meta_path}: hf_quant_config.json present but no `quant_source`")
        modelopt = json.loads(quant_path.read_text(encoding="utf-8")).get("quantization") or {}
        config["quantization_config"] = {"quant_method": "modelopt"} | modelopt
    _compact_quantization(config)
    entry: dict[str, Any] = dict(meta)
    entry["config"] = _slim(config)
    name = meta["id"]
    decoded = decode(name)
    entry.setdefault("org", name.split("/")[0])
    entry.setdefault(
        "family", "-".join(x for x in (decoded.family, decoded.version) if x) or name.split("/")[-1]
    )
    entry.setdefault("version", decoded.version)
    if entry.get("total_params_b") is None or entry.get("active_params_b") is None:
        spec = spec_from_config(config, name)
        if not spec.total_params:
            raise ValueError(
                f"{folder}: no parameter count in entry.yaml and none derivable from config.json"
            )
        entry.setdefault("total_params_b", round(spec.total_params / 1e9, 2))
        entry.setdefault("active_params_b", round((spec.active_params or spec.total_params) / 1e9, 2))
        entry.setdefault("params_source", "config")
        stated = decoded.total_params_b  # Llama-4 style names state the active count ("17B-16E")
        derived = (entry["total_params_b"], entry["active_params_b"])
        if stated and not any(0.75 <= n / stated <= 1.33 for n in derived):
            raise ValueError(
                f"{folder}: the config gives {entry['total_params_b']} B parameters where the name says "
                f"{stated:g} B: the parameter counter does not understand this architecture "
                "(state total_params_b / active_params_b in entry.yaml from the model card)"
            )
    entry.setdefault("tasks", ["text", "agent"] + (["vision"] if config.get("vision_config") else []))
    gen_path = folder / "generation_config.json"
    if gen_path.is_file():
        gen = json.loads(gen_path.read_text(encoding="utf-8"))
        picked = {k: gen[k] for k in GENERATION_KEYS if isinstance(gen.get(k), int | float)}
        if picked:
            if not meta.get("generation_source"):
                raise ValueError(f"{meta_path}: generation_config.json present but no `generation_source`")
            entry["generation"] = picked
    return {k: entry[k] for k in ORDER if entry.get(k) not in (None, [], {})} | {
        k: v for k, v in entry.items() if k not in ORDER
    }


def build(folder: Path = FOLDER) -> list[dict[str, Any]]:
    entries = [entry_from_folder(p) for p in sorted(folder.iterdir()) if p.is_dir()]
    order = {e["id"]: i for i, e in enumerate(entries)}
    return sorted(entries, key=lambda e: (e.get("family", ""), e.get("total_params_b", 0), order[e["id"]]))


def render(entries: list[dict[str, Any]]) -> str:
    head = (
        "# GENERATED by scripts/build_catalog.py from catalog/models/<org>--<name>/ (config.json,\n"
        "# entry.yaml, generation_config.json): do not edit here, edit the folder and regenerate.\n"
        "# `config` is the model's config.json (token ids and training settings dropped); `source` is\n"
        "# where that config was read from.\n"
    )
    return head + yaml.safe_dump({"models": entries}, sort_keys=False, allow_unicode=True, width=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="folder", type=Path, default=FOLDER)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="exit 1 when --out differs from the folder")
    args = parser.parse_args(argv)
    try:
        text = render(build(args.folder))
    except ValueError as exc:
        print(f"build_catalog: error: {exc}", file=sys.stderr)
        return 2
    if args.check:
        same = args.out.is_file() and args.out.read_text(encoding="utf-8") == text
        print("catalog up to date" if same else f"{args.out} differs from {args.folder}: regenerate")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {text.count(chr(10) + '- id:')} models to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
