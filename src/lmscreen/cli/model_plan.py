"""`lmscreen model fit`, `lmscreen model launch`, `lmscreen model recommend`.

Heavy or slow modules are imported inside the commands: `model fit` must answer in well under a second, and
nothing here ever imports torch, vLLM or Transformers.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from lmscreen.errors import InputError

if TYPE_CHECKING:
    from lmscreen.model.hardware import GPU
    from lmscreen.model.memory import Plan
    from lmscreen.model.spec import ModelSpec


def resolve_model(model: str) -> tuple[ModelSpec, str, str | None]:
    """(spec, what the engine should load, Ollama tag) for a path, catalog name, HF id or Ollama tag.

    A local path is inspected (config.json / safetensors / GGUF headers); otherwise the built-in catalog
    answers, and a quantization the name states (…-AWQ, :q4_K_M) is applied to the catalog's architecture.
    """
    from lmscreen.model import catalog

    path = Path(model).expanduser()
    if path.exists():
        from lmscreen.model import arch

        return arch.inspect(str(path)), str(path), None
    try:
        spec = catalog.spec_for(model)
    except InputError as missing:
        from lmscreen.model import arch

        try:
            spec = arch.inspect(model)
        except InputError:
            raise missing from None
    quant = _name_quantization(model)
    if quant and not spec.quantization:
        spec = spec.model_copy(
            update={"quantization": quant, "sources": {**spec.sources, "quantization": "name"}}
        )
    ollama_tag = model if ":" in model and "/" not in model else None
    model_ref = model if "/" in model else spec.name
    return spec, model_ref, ollama_tag


def _name_quantization(model: str) -> str | None:
    from lmscreen.model import names

    try:
        return names.decode(model).quantization
    except (InputError, NotImplementedError):
        return None


def _gpu(name: str | None) -> GPU | None:
    if name is None:
        return None
    from lmscreen.model.hardware import gpu

    return gpu(name)


def _need_gpu(gpu_name: str | None, vram_gib: float | None) -> None:
    if gpu_name is None and vram_gib is None:
        raise InputError("say which GPU: --gpu NAME or --vram-gib X")


def _print_json(obj: object) -> None:
    """Exactly one JSON object on stdout."""
    import json

    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _render_plan(plan: Plan) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    where = plan.gpu or "custom GPU"
    par = f", TP {plan.tp}" + (f" × PP {plan.pp}" if plan.pp > 1 else "") if plan.engine == "vllm" else ""
    console.print(
        f"[bold]{plan.model}[/] on {plan.gpus} × {where} ({plan.gpu_total_gib:.1f} GiB){par} — "
        f"{plan.engine}, {plan.quantization}, KV {plan.kv_cache_dtype}"
    )
    verdict = "[green]fits[/]" if plan.fits else "[red]does not fit[/]"
    console.print(
        f"{verdict}: context {plan.context:,} × {plan.concurrency} request(s); "
        f"longest single request {plan.max_context:,} tokens"
    )
    parts = Table(title="memory per GPU", show_header=True, header_style="bold")
    parts.add_column("part")
    parts.add_column("GiB", justify="right")
    parts.add_column("source")
    for c in plan.breakdown:
        parts.add_row(c.name, f"{c.gib:.2f}", c.source)
    console.print(parts)
    console.print(
        f"KV per token {plan.kv_bytes_per_token:,} B ({plan.kv_bytes_per_token / 1024:.1f} KiB) per GPU; "
        f"fixed per sequence {plan.kv_state_bytes_per_seq / 2**20:.1f} MiB; "
        f"cache {plan.kv_cache_tokens:,} tokens; max concurrency at {plan.context:,}: "
        f"{plan.max_concurrency:.2f}"
    )
    if plan.engine == "vllm" and plan.num_blocks is not None:
        console.print(
            f"vLLM blocks: {plan.num_blocks:,} of {plan.block_size} tokens, {plan.blocks_per_request:,} "
            f"per max-length request"
        )
    if plan.engine != "vllm" and plan.cpu_ram_gib:
        console.print(
            f"CPU RAM: {plan.cpu_ram_gib:.1f} GiB; -ngl {plan.gpu_layers}"
            + (f", --n-cpu-moe {plan.n_cpu_moe}" if plan.n_cpu_moe else "")
        )
    if plan.table:
        levels = (1, 2, 4, 8, 16, 32, 64)
        grid = Table(title="context × concurrency", header_style="bold")
        grid.add_column("context", justify="right")
        grid.add_column("KV GiB/request", justify="right")
        grid.add_column("max", justify="right")
        for n in levels:
            grid.add_column(str(n), justify="center")
        for row in plan.table:
            marks = ["[green]✓[/]" if row.max_concurrency >= n else "[dim]·[/]" for n in levels]
            grid.add_row(
                f"{row.context:,}", f"{row.kv_gib_per_request:.2f}", f"{row.max_concurrency:.2f}", *marks
            )
        console.print(grid)
    for note in plan.notes:
        console.print(f"• {note}")


def register(app: typer.Typer) -> None:
    @app.command("fit")
    def fit(
        model: str = typer.Argument(..., help="Catalog name, HF id, Ollama tag, model folder or .gguf file."),
        gpu: str | None = typer.Option(None, "--gpu", help='GPU name from the catalog ("RTX 3090", "H100").'),
        vram_gib: float | None = typer.Option(
            None, "--vram-gib", help="Memory per GPU in GiB, for any other card."
        ),
        gpus: int = typer.Option(1, "--gpus", help="Number of GPUs."),
        tp: int | None = typer.Option(None, "--tp", help="Tensor parallel size (default: --gpus)."),
        context: int | None = typer.Option(
            None, "--context", help="Context per request (default: longest that fits)."
        ),
        concurrency: int | None = typer.Option(None, "--concurrency", help="Parallel requests to plan for."),
        gpu_memory_utilization: float | None = typer.Option(
            None, "--gpu-memory-utilization", help="vLLM fraction of total GPU memory (default 0.92)."
        ),
        kv_cache_dtype: str = typer.Option("auto", "--kv-cache-dtype", help="auto | fp8 | q8_0 | q4_0 …"),
        engine: str = typer.Option("vllm", "--engine", help="vllm | llamacpp | ollama"),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Plan GPU memory: weights, KV cache, overhead, max context and concurrency, knobs to turn."""
        from lmscreen.model.memory import plan

        _need_gpu(gpu, vram_gib)
        spec, _, _ = resolve_model(model)
        result = plan(
            spec,
            _gpu(gpu),
            vram_gib,
            gpus=gpus,
            tp=tp,
            context=context,
            concurrency=concurrency,
            gpu_memory_utilization=gpu_memory_utilization,
            kv_cache_dtype=kv_cache_dtype,
            engine=engine,
        )
        if json_out:
            _print_json(result.model_dump(mode="json"))
        else:
            _render_plan(result)

    @app.command("launch")
    def launch(
        model: str = typer.Argument(..., help="Catalog name, HF id, Ollama tag, model folder or .gguf file."),
        engine: str = typer.Option(..., "--engine", help="vllm | sglang | llamacpp | ollama | transformers"),
        gpu: str | None = typer.Option(None, "--gpu", help="GPU to size the command for."),
        host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (0.0.0.0 adds an API key)."),
        port: int | None = typer.Option(
            None, "--port", min=1, max=65535, help="Port (engine default when omitted)."
        ),
        vram_gib: float | None = typer.Option(
            None, "--vram-gib", help="Memory per GPU in GiB, for any other card."
        ),
        gpus: int = typer.Option(1, "--gpus", min=1, help="Number of GPUs (tensor parallel)."),
        context: int | None = typer.Option(None, "--context", help="Context per request."),
        concurrency: int | None = typer.Option(None, "--concurrency", help="Parallel requests."),
        kv_cache_dtype: str = typer.Option("auto", "--kv-cache-dtype", help="auto | fp8 | q8_0 | q4_0 …"),
        task: str = typer.Option("text", "--task", help="text | vision | agent (sampling preset)."),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Print a launch command whose every flag exists in the engine version it names."""
        from lmscreen.model.launch import ENGINES, launch_command
        from lmscreen.model.memory import plan

        eng = engine.lower().replace(".", "").replace("-", "")
        if eng not in ENGINES:
            raise InputError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
        spec, model_ref, ollama_tag = resolve_model(model)
        the_plan = None
        if (gpu is not None or vram_gib is not None) and eng != "transformers":
            plan_engine = "vllm" if eng == "sglang" else eng
            the_plan = plan(
                spec,
                _gpu(gpu),
                vram_gib,
                gpus=gpus,
                context=context,
                concurrency=concurrency,
                kv_cache_dtype=kv_cache_dtype,
                engine=plan_engine,
                table=False,
            )
        cmd = launch_command(
            spec, eng, the_plan, model_ref=model_ref, host=host, port=port, task=task, ollama_tag=ollama_tag
        )
        if json_out:
            _print_json(
                {
                    "command": cmd.shell(),
                    **cmd.model_dump(mode="json"),
                    "plan": the_plan.model_dump(mode="json", exclude={"table"}) if the_plan else None,
                }
            )
            return
        for warning in cmd.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        print(f"# {cmd.engine_version}; clients use model name {cmd.served_model_name!r}")
        if cmd.api_key:
            print(f"# API key: {cmd.api_key}")
        if cmd.sampling:
            print(f"# sampling ({task}): " + ", ".join(f"{k}={v:g}" for k, v in cmd.sampling.items()))
        for note in cmd.notes:
            print(f"# {note}")
        print(cmd.shell())

    @app.command("recommend")
    def recommend(
        gpu: str | None = typer.Option(None, "--gpu", help="GPU name from the catalog."),
        vram_gib: float | None = typer.Option(None, "--vram-gib", help="Memory per GPU in GiB."),
        task: str = typer.Option("text", "--task", help="text | vision | agent"),
        gpus: int = typer.Option(1, "--gpus", help="Number of GPUs."),
        limit: int = typer.Option(15, "--limit", min=1, help="Show at most this many models."),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Catalog models that fit this card with at least a 32k context, best first, with decode speed."""
        from lmscreen.model.recommend import MIN_CONTEXT
        from lmscreen.model.recommend import recommend as rank

        _need_gpu(gpu, vram_gib)
        card = _gpu(gpu)
        found = rank(card, vram_gib, task=task, gpus=gpus, limit=limit)
        if json_out:
            _print_json(
                {
                    "gpu": card.name if card else None,
                    "vram_gib": vram_gib,
                    "gpus": gpus,
                    "task": task,
                    "min_context": MIN_CONTEXT,
                    "models": [r.model_dump(mode="json") for r in found],
                }
            )
            return
        from rich.console import Console
        from rich.table import Table

        console = Console()
        if not found:
            console.print(f"no catalog model fits with a {MIN_CONTEXT:,}-token context for task {task!r}")
            return
        table = Table(
            title=f"{task} models for {gpus} × {card.name if card else f'{vram_gib} GiB'} "
            f"(≥ {MIN_CONTEXT:,} tokens)",
            header_style="bold",
        )
        for col, just in (
            ("#", "right"),
            ("model", "left"),
            ("format", "left"),
            ("engine", "left"),
            ("weights GiB", "right"),
            ("max context", "right"),
            ("tok/s", "right"),
        ):
            table.add_column(col, justify=just, overflow="fold")
        for i, r in enumerate(found, 1):
            table.add_row(
                str(i),
                r.model,
                r.quantization,
                r.engine,
                f"{r.weights_gib:.1f}",
                f"{r.max_context:,}",
                f"{r.decode_tokens_per_s:.0f}" if r.decode_tokens_per_s else "?",
            )
        console.print(table)
        console.print("tok/s: single request at a 4k context, bandwidth × 0.6 / bytes read per token")
