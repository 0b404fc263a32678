"""`lmscreen model decode` and `lmscreen model inspect`.

Both print a readable table by default and exactly one JSON object on stdout with --json. The model modules
are imported inside the commands so that the CLI starts fast (no gguf / numpy unless a GGUF is inspected).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import click


def _print_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _table(title: str, rows: list[tuple[str, Any, str]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title, show_header=True, header_style="bold")
    table.add_column("field")
    table.add_column("value")
    table.add_column("source", style="dim")
    for field, value, source in rows:
        table.add_row(field, _fmt(value), source)
    Console().print(table)


def _decode_rows(decoded: Any) -> list[tuple[str, Any, str]]:
    fields = [
        "org",
        "family",
        "version",
        "total_params_b",
        "active_params_b",
        "experts",
        "variant",
        "quantization",
        "dtype",
        "modality",
        "context_hint",
        "catalog_id",
    ]
    rows = [
        (f, getattr(decoded, f), decoded.source.get(f, ""))
        for f in fields
        if getattr(decoded, f) not in (None, []) or f in decoded.unknown
    ]
    rows.append(("unknown", decoded.unknown, ""))
    return rows


def _gib(n: int | None) -> str | None:
    return None if n is None else f"{n / 2**30:.2f} GiB ({n:,} B)"


def _inspect_rows(spec: Any) -> list[tuple[str, Any, str]]:
    src = spec.sources
    rows: list[tuple[str, Any, str]] = []
    for field in (
        "architecture",
        "model_type",
        "num_layers",
        "hidden_size",
        "intermediate_size",
        "num_attention_heads",
        "num_kv_heads",
        "head_dim",
        "vocab_size",
        "tie_word_embeddings",
        "max_position_embeddings",
        "full_attention_layers",
        "sliding_window_layers",
        "sliding_window",
        "num_experts",
        "num_experts_per_tok",
        "num_shared_experts",
        "moe_intermediate_size",
        "mtp_layers",
        "torch_dtype",
        "quantization",
        "quantization_bits",
        "quantization_group_size",
        "is_vision",
    ):
        value = getattr(spec, field)
        if value not in (None, 0, False) or field in ("full_attention_layers", "quantization"):
            rows.append((field, value, src.get(field, "")))
    if spec.linear_attention:
        la = spec.linear_attention
        rows.append(
            (
                "linear_attention",
                f"{la.num_layers} layers, K {la.num_key_heads}x{la.key_head_dim}, "
                f"V {la.num_value_heads}x{la.value_head_dim}, conv {la.conv_kernel}",
                src.get("num_layers", ""),
            )
        )
    if spec.mla:
        rows.append(
            (
                "mla",
                f"kv_lora_rank {spec.mla.kv_lora_rank} + rope {spec.mla.qk_rope_head_dim}",
                src.get("num_layers", ""),
            )
        )
    for field in ("total_params", "active_params", "embedding_params"):
        value = getattr(spec, field)
        if value:
            rows.append((field, f"{value / 1e9:.3f} B ({value:,})", src.get(field, "")))
    if spec.weights_bytes:
        rows.append(("weights_bytes", _gib(spec.weights_bytes), src.get("weights_bytes", "")))
        for dtype, nbytes in spec.bytes_by_dtype.items():
            rows.append((f"  {dtype}", _gib(nbytes), src.get("bytes_by_dtype", "")))
    for note in spec.notes:
        rows.append(("note", note, ""))
    return rows


def register(app: click.Group) -> None:
    @app.command("decode")
    @click.argument("name")
    @click.option("--json", "json_out", is_flag=True, help="One JSON object on stdout.")
    def decode(name: str, json_out: bool) -> None:
        """What a model name says: family, size, active params, variant, quantization."""
        from lmscreen.model.names import decode as decode_name

        decoded = decode_name(name)
        if json_out:
            _print_json(asdict(decoded))
        else:
            _table(f"model decode: {decoded.name}", _decode_rows(decoded))

    @app.command("inspect")
    @click.argument("path_or_id")
    @click.option("--json", "json_out", is_flag=True, help="One JSON object on stdout.")
    def inspect(path_or_id: str, json_out: bool) -> None:
        """The real architecture from config.json, safetensors headers or a GGUF header."""
        from lmscreen.model.arch import inspect as inspect_model

        spec = inspect_model(path_or_id)
        if json_out:
            _print_json(asdict(spec))
        else:
            _table(f"model inspect: {spec.name}", _inspect_rows(spec))
