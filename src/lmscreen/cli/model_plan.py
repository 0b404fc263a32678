"""`lmscreen model fit`, `lmscreen model launch`, `lmscreen model recommend`.

Heavy or slow modules are imported inside the commands: `model fit` must answer in well under a second, and
nothing here ever imports torch, vLLM or Transformers.
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from typing import TYPE_CHECKING

import click

from lmscreen.errors import InputError

if TYPE_CHECKING:
    from lmscreen.model.hardware import GPU
    from lmscreen.model.memory import Plan
    from lmscreen.model.spec import ModelSpec


def resolve_model(
    model: str, config: str | None = None, allow_name_only: bool = False
) -> tuple[ModelSpec, str, str | None]:
    """(spec, what the engine should load, Ollama tag) for a path, catalog name, HF id or Ollama tag.

    See lmscreen.model.resolve: a config.json / folder, the local HF cache, the catalog, else an estimate
    from the name with every estimated field marked.
    """
    from lmscreen.model.resolve import resolve

    found = resolve(model, config=config, allow_name_only=allow_name_only)
    return found.spec, found.model_ref, found.ollama_tag


def _estimate_warning(spec: ModelSpec) -> str | None:
    """One line naming what was estimated, or None when every fact came from a file or the catalog."""
    from lmscreen.model.arch.estimate import estimated_fields

    fields = estimated_fields(spec)
    if not fields:
        return None
    like = next((v for v in spec.sources.values() if str(v).startswith("estimate")), "")
    return (
        f"{spec.name}: no config.json found and not in the catalog; {len(fields)} architecture fields "
        f"estimated ({like}); pass --config PATH (config.json or model folder) for exact numbers"
    )


def _gpu(name: str | None) -> GPU | None:
    if name is None:
        return None
    from lmscreen.model.hardware import gpu

    return gpu(name)


def _batch(spec, gpu_name, result, workload, rows, prompt_tokens, output_tokens, prefix_tokens) -> dict:
    """The --workload screen estimate as a dict (one JSON field; rendered by _render_batch)."""
    from lmscreen.model.recommend.workload import Workload, estimate

    if workload != "screen":
        raise InputError(f"--workload {workload!r}: use screen")
    if rows is None or prompt_tokens is None or output_tokens is None:
        raise InputError("--workload screen needs --rows, --prompt-tokens and --output-tokens")
    if gpu_name is None:
        raise InputError("--workload screen needs --gpu (bandwidth and FLOPs of the card)")
    if result.engine != "vllm":
        raise InputError("--workload screen models vLLM batching: use --engine vllm")
    job = Workload(rows, prompt_tokens, output_tokens, prefix_tokens)
    out = estimate(spec, _gpu(gpu_name), result, job, kv_cache_dtype=result.kv_cache_dtype)
    return {
        "rows": rows,
        "prompt_tokens": prompt_tokens,
        "prefix_tokens": prefix_tokens,
        "output_tokens": output_tokens,
        "concurrency": out.concurrency,
        "prefill_tokens_per_s": round(out.prefill_tokens_per_s, 1)
        if out.prefill_tokens_per_s != float("inf")
        else None,
        "decode_tokens_per_s": round(out.decode_tokens_per_s, 1),
        "rows_per_hour": round(out.rows_per_hour, 1),
        "hours": round(out.hours, 3),
        "bound": out.bound,
        "notes": out.notes,
    }


def _render_batch(batch: dict) -> None:
    print(
        f"screen workload: {batch['rows']:,} rows × {batch['prompt_tokens']:,} prompt tokens "
        f"({batch['prefix_tokens']:,} shared) + {batch['output_tokens']:,} output tokens"
    )
    print(
        f"  {batch['concurrency']} rows in parallel; prefill "
        + (
            f"{batch['prefill_tokens_per_s']:,.0f} tok/s, "
            if batch["prefill_tokens_per_s"]
            else "not counted, "
        )
        + f"decode {batch['decode_tokens_per_s']:,.0f} tok/s ({batch['bound']}-bound)"
    )
    print(f"  {batch['rows_per_hour']:,.0f} rows/hour → {batch['hours']:.2f} h for {batch['rows']:,} rows")
    for note in batch["notes"]:
        print(f"  • {note}")


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
    if plan.engine == "vllm":
        console.print(f"planned for {plan.engine_version_modelled}")
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


def register(app: click.Group) -> None:
    @app.command("fit")
    @click.argument("model")
    @click.option("--gpu", help='GPU name from the catalog ("RTX 3090", "H100").')
    @click.option("--vram-gib", type=float, help="Memory per GPU in GiB, for any other card.")
    @click.option("--gpus", type=int, default=1, help="Number of GPUs.")
    @click.option("--tp", type=int, help="Tensor parallel size (default: --gpus / --pp).")
    @click.option(
        "--pp", type=int, help="vLLM pipeline stages (--gpus = --tp × --pp; --pp 2 alone: two GPUs)."
    )
    @click.option(
        "--vllm-version", help="vLLM release to plan for, e.g. 0.11 (default: the newest modelled)."
    )
    @click.option("--context", type=int, help="Context per request (default: longest that fits).")
    @click.option("--concurrency", type=int, help="Parallel requests to plan for.")
    @click.option(
        "--gpu-memory-utilization",
        type=float,
        help="vLLM fraction of total GPU memory (default: the release's, 0.92 on 0.21+, 0.90 before).",
    )
    @click.option("--kv-cache-dtype", default="auto", help="auto | fp8 | q8_0 | q4_0 …")
    @click.option("--engine", default="vllm", help="vllm | llamacpp | ollama")
    @click.option(
        "--enable-expert-parallel",
        "expert_parallel",
        is_flag=True,
        help="vLLM expert parallel: MoE ranks hold whole experts (a dense model ignores it, said so).",
    )
    @click.option(
        "--speculative-mtp",
        "mtp_draft",
        is_flag=True,
        help="vLLM --speculative-config method mtp: count the checkpoint's MTP draft layers (16-bit).",
    )
    @click.option(
        "--language-model-only",
        is_flag=True,
        help="vLLM --language-model-only: a multimodal checkpoint without its vision tower.",
    )
    @click.option(
        "--mamba-ssm-cache-dtype",
        help="vLLM --mamba-ssm-cache-dtype (gated-delta / Mamba state): auto | float32 | float16 | bfloat16.",
    )
    @click.option(
        "--limit-mm-per-prompt",
        "limit_mm",
        help="vLLM --limit-mm-per-prompt (image=1,video=0 or JSON): sizes the encoder's start-up profile; "
        "image=0,video=0 is text-only (no encoder profile).",
    )
    @click.option(
        "--mm-processor-kwargs",
        "mm_processor_kwargs",
        help="""vLLM --mm-processor-kwargs (JSON); its max_pixels ('{"max_pixels": 1003520}') sizes the """
        "encoder's dummy image.",
    )
    @click.option(
        "--skip-mm-profiling",
        is_flag=True,
        help="vLLM --skip-mm-profiling: the start-up profile runs no vision encoder (tower still loaded).",
    )
    @click.option("--workload", help="screen: rows/hour for a batch with a shared prefix (needs --rows …).")
    @click.option("--rows", type=int, help="Workload: rows to screen.")
    @click.option("--prompt-tokens", type=int, help="Workload: prompt tokens per row.")
    @click.option("--output-tokens", type=int, help="Workload: output tokens per row.")
    @click.option(
        "--prefix-tokens", type=int, default=0, help="Workload: prompt tokens every row shares (cached once)."
    )
    @click.option("--config", help="config.json or model folder to read the architecture from (no download).")
    @click.option("--json", "json_out", is_flag=True, help="Print one JSON object.")
    def fit(
        model: str,
        gpu: str | None,
        vram_gib: float | None,
        gpus: int,
        tp: int | None,
        pp: int | None,
        vllm_version: str | None,
        context: int | None,
        concurrency: int | None,
        gpu_memory_utilization: float | None,
        kv_cache_dtype: str,
        engine: str,
        expert_parallel: bool,
        mtp_draft: bool,
        language_model_only: bool,
        mamba_ssm_cache_dtype: str | None,
        limit_mm: str | None,
        mm_processor_kwargs: str | None,
        skip_mm_profiling: bool,
        workload: str | None,
        rows: int | None,
        prompt_tokens: int | None,
        output_tokens: int | None,
        prefix_tokens: int,
        config: str | None,
        json_out: bool,
    ) -> None:
        """Plan GPU memory: weights, KV cache, overhead, max context and concurrency, knobs to turn."""
        from lmscreen.model.memory import plan
        from lmscreen.model.memory.flags import with_vllm_flags
        from lmscreen.model.memory.multimodal import parse_limits, parse_max_pixels

        _need_gpu(gpu, vram_gib)
        spec, _, _ = resolve_model(model, config)
        spec = with_vllm_flags(
            spec,
            language_model_only=language_model_only,
            mamba_ssm_cache_dtype=mamba_ssm_cache_dtype,
            limit_mm_per_prompt=parse_limits(limit_mm),
            skip_mm_profiling=skip_mm_profiling,
            mm_max_pixels=parse_max_pixels(mm_processor_kwargs),
        )
        warning = _estimate_warning(spec)
        if warning and not json_out:
            print(f"warning: {warning}", file=sys.stderr)
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
            pp=pp,
            vllm_version=vllm_version,
            expert_parallel=expert_parallel,
            mtp_draft=mtp_draft,
        )
        if warning:
            result.notes.insert(0, f"estimate: {warning}")
        batch = None
        if workload is not None:
            batch = _batch(spec, gpu, result, workload, rows, prompt_tokens, output_tokens, prefix_tokens)
        if json_out:
            out = asdict(result)
            if batch is not None:
                out["workload"] = batch
            _print_json(out)
        else:
            _render_plan(result)
            if batch is not None:
                _render_batch(batch)

    @app.command("launch")
    @click.argument("model")
    @click.option("--engine", required=True, help="vllm | sglang | llamacpp | ollama | transformers")
    @click.option("--gpu", help="GPU to size the command for.")
    @click.option("--host", default="127.0.0.1", help="Address to bind (0.0.0.0 adds an API key).")
    @click.option("--port", type=click.IntRange(1, 65535), help="Port (engine default when omitted).")
    @click.option("--vram-gib", type=float, help="Memory per GPU in GiB, for any other card.")
    @click.option("--gpus", type=click.IntRange(min=1), default=1, help="Number of GPUs (tensor parallel).")
    @click.option("--pp", type=int, help="vLLM pipeline stages (--gpus = TP × PP).")
    @click.option(
        "--vllm-version", help="vLLM release to size the command for (default: the newest modelled)."
    )
    @click.option("--context", type=int, help="Context per request.")
    @click.option("--concurrency", type=int, help="Parallel requests.")
    @click.option("--kv-cache-dtype", default="auto", help="auto | fp8 | q8_0 | q4_0 …")
    @click.option("--task", default="text", help="text | vision | agent (sampling preset).")
    @click.option(
        "--enable-expert-parallel",
        "expert_parallel",
        is_flag=True,
        help="vLLM expert parallel: MoE ranks hold whole experts (a dense model ignores it, said so).",
    )
    @click.option("--config", help="config.json or model folder to read the architecture from (no download).")
    @click.option("--json", "json_out", is_flag=True, help="Print one JSON object.")
    def launch(
        model: str,
        engine: str,
        gpu: str | None,
        host: str,
        port: int | None,
        vram_gib: float | None,
        gpus: int,
        pp: int | None,
        vllm_version: str | None,
        context: int | None,
        concurrency: int | None,
        kv_cache_dtype: str,
        task: str,
        expert_parallel: bool,
        config: str | None,
        json_out: bool,
    ) -> None:
        """Print a launch command whose every flag exists in the engine version it names."""
        from lmscreen.model.launch import ENGINES, launch_command
        from lmscreen.model.memory import plan

        eng = engine.lower().replace(".", "").replace("-", "")
        if eng not in ENGINES:
            raise InputError(f"--engine {engine!r}: use one of {', '.join(ENGINES)}")
        wants_plan = (gpu is not None or vram_gib is not None) and eng != "transformers"
        spec, model_ref, ollama_tag = resolve_model(model, config, allow_name_only=not wants_plan)
        the_plan = None
        if wants_plan:
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
                pp=pp if plan_engine == "vllm" else None,
                vllm_version=vllm_version,
                expert_parallel=expert_parallel and plan_engine == "vllm",
                table=False,
            )
        cmd = launch_command(
            spec,
            eng,
            the_plan,
            model_ref=model_ref,
            host=host,
            port=port,
            task=task,
            ollama_tag=ollama_tag,
            expert_parallel=expert_parallel,
        )
        warning = _estimate_warning(spec)
        if warning:
            cmd.warnings.insert(0, warning)
        if ollama_tag and eng in ("vllm", "sglang", "transformers") and model_ref == model:
            cmd.warnings.insert(
                0,
                f"{model!r} is an Ollama tag, not a Hugging Face id or path: {eng} cannot load it; "
                "pass the model's Hugging Face id",
            )
        if json_out:
            _print_json(
                {
                    "command": cmd.shell(),
                    **asdict(cmd),
                    "plan": {k: v for k, v in asdict(the_plan).items() if k != "table"} if the_plan else None,
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
    @click.option("--gpu", help="GPU name from the catalog.")
    @click.option("--vram-gib", type=float, help="Memory per GPU in GiB.")
    @click.option("--task", default="text", help="text | vision | agent | screen")
    @click.option("--gpus", type=int, default=1, help="Number of GPUs.")
    @click.option("--limit", type=click.IntRange(min=1), default=15, help="Show at most this many models.")
    @click.option(
        "--model",
        "models",
        multiple=True,
        help="Also rank this model (any name, path or config; repeatable).",
    )
    @click.option(
        "--within",
        default="8h",
        help="Time budget for the job: 8h (one night, the default), 90m, 1.5 (hours).",
    )
    @click.option(
        "--vllm-version", help="vLLM release to plan for, e.g. 0.11 (default: the newest modelled)."
    )
    @click.option("--rows", type=int, default=5500, help="Workload: rows to screen.")
    @click.option("--prompt-tokens", type=int, default=2000, help="Workload: prompt tokens per row.")
    @click.option("--output-tokens", type=int, default=300, help="Workload: output tokens per row.")
    @click.option(
        "--prefix-tokens",
        type=int,
        default=1000,
        help="Workload: prompt tokens every row shares (cached once).",
    )
    @click.option("--json", "json_out", is_flag=True, help="Print one JSON object.")
    def recommend(
        gpu: str | None,
        vram_gib: float | None,
        task: str,
        gpus: int,
        limit: int,
        models: tuple[str, ...],
        within: str,
        vllm_version: str | None,
        rows: int,
        prompt_tokens: int,
        output_tokens: int,
        prefix_tokens: int,
        json_out: bool,
    ) -> None:
        """Models that fit the card with a 32k context and finish the job in time, by expected quality.


        Quality is a published benchmark score from the catalog (C-Eval / CMMLU preferred for --task screen
        where enough models publish them, else MMLU-Pro), an estimate where a model publishes none (said so).
        The job (--rows, --prompt-tokens, --prefix-tokens, --output-tokens; defaults are the screening pass)
        must finish within --within on vLLM.
        """
        from lmscreen.model.recommend import MIN_CONTEXT
        from lmscreen.model.recommend import rank as rank_models
        from lmscreen.model.recommend.workload import Workload, parse_hours

        _need_gpu(gpu, vram_gib)
        card = _gpu(gpu)
        job = Workload(rows, prompt_tokens, output_tokens, prefix_tokens)
        budget = parse_hours(within)
        candidates = None
        if models:
            from lmscreen.model.recommend.rank import Candidate, catalog_candidates

            extra = []
            for name in models:
                spec, _, _ = resolve_model(name)
                warning = _estimate_warning(spec)
                if warning:
                    print(f"warning: {warning}", file=sys.stderr)
                tasks = ("text", "agent", "vision") if spec.is_vision else ("text", "agent")
                extra.append(Candidate(id=name, tasks=tasks, spec=spec))
            known = {c.id for c in extra}
            candidates = extra + [c for c in catalog_candidates() if c.id not in known]
        found = rank_models(
            card,
            vram_gib,
            task=task,
            gpus=gpus,
            limit=limit,
            job=job,
            candidates=candidates,
            within_hours=budget,
            vllm_version=vllm_version,
        )
        if json_out:
            _print_json(
                {
                    "gpu": card.name if card else None,
                    "vram_gib": vram_gib,
                    "gpus": gpus,
                    "task": task,
                    "min_context": MIN_CONTEXT,
                    "workload": job.__dict__,
                    "within_hours": budget,
                    "vllm_version": vllm_version,
                    "ranked_by": {"benchmark": found.benchmark, "why": found.benchmark_why},
                    "models": [asdict(r) for r in found.models],
                    "too_slow": [asdict(r) for r in found.too_slow],
                    "notes": found.notes,
                }
            )
            return
        _render_ranking(found, f"{gpus} × {card.name if card else f'{vram_gib:g} GiB'}", MIN_CONTEXT)


def _short_tokens(n: int) -> str:
    """131072 → '128k', 1048576 → '1M' (a context column that fits 80 columns)."""
    if n >= 1 << 20:
        return f"{n / (1 << 20):.0f}M"
    return f"{n // 1024}k"


def _render_ranking(found, where: str, min_context: int) -> None:
    """The ranking as an 80-column table (short names, no wrapping) and one 'why' line per row under it."""
    import shutil
    import textwrap

    from rich import box
    from rich.console import Console
    from rich.table import Table

    width = shutil.get_terminal_size((80, 24)).columns
    console = Console(width=width)
    job = found.job
    if not found.models:
        console.print(
            f"no catalog model for task {found.task!r} fits {where} with a {min_context:,}-token context"
            + (f" and finishes {job.rows:,} rows within {found.within_hours:g} h" if found.too_slow else "")
        )
    else:
        head = f"{found.task} on {where}, ≥ {min_context // 1024}k context: best expected quality first"
        if found.finished:
            head += f" of the {found.finished} that finish {job.rows:,} rows within {found.within_hours:g} h"
        console.print(head)
        table = Table(box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False)
        cells = []
        for i, r in enumerate(found.models, 1):
            fmt = r.quantization.upper() if r.engine == "vllm" else f"{r.quantization.upper()}·cpp"
            quality = f"{r.score:.1f}" if r.quality_basis == "published" else f"~{r.score:.0f}"
            cells.append(
                (
                    str(i),
                    r.model.split("/")[-1],
                    fmt,
                    quality if r.quality_basis != "unknown" else "?",
                    f"{r.hours:.1f}" if r.hours is not None else "?",
                    f"{r.decode_tokens_per_s:.0f}" if r.decode_tokens_per_s else "?",
                    _short_tokens(r.max_context),
                )
            )
        columns = (
            ("#", "right"),
            ("model", "left"),
            ("format", "left"),
            (found.benchmark, "right"),
            ("hours", "right"),
            ("tok/s", "right"),
            ("ctx", "right"),
        )
        # Only the model name gives way on a narrow terminal (shortened with …); a number is never cut.
        widths = [max(len(col), *(len(c[k]) for c in cells)) for k, (col, _) in enumerate(columns)]
        # Rich lays SIMPLE_HEAD out without edge padding in 3 characters a column, less 2, beside the cells.
        others = sum(w for k, w in enumerate(widths) if k != 1) + 3 * len(columns) - 2
        widths[1] = max(8, min(widths[1], width - others))
        for (col, just), w in zip(columns, widths, strict=True):
            table.add_column(col, justify=just, no_wrap=True, overflow="ellipsis", min_width=w, max_width=w)
        for row in cells:
            table.add_row(*row)
        console.print(table)
        console.print("why:")
        for i, r in enumerate(found.models, 1):
            text = f"{i}. {r.model.split('/')[-1]}: {r.reason}"
            kept = [n for n in r.notes if not n.startswith(("as ", "concurrency "))]
            if kept:
                text += "; " + "; ".join(kept)
            console.print(
                textwrap.fill(text, width=width - 1, subsequent_indent="   "), markup=False, highlight=False
            )
    if found.too_slow:
        slow = ", ".join(f"{r.model.split('/')[-1]} ({r.hours:.1f} h)" for r in found.too_slow[:6])
        more = f" and {len(found.too_slow) - 6} more" if len(found.too_slow) > 6 else ""
        console.print(
            textwrap.fill(f"fit but need more than {found.within_hours:g} h: {slow}{more}", width=width - 1),
            markup=False,
            highlight=False,
        )
    lines = [
        f"ranked by {found.benchmark_why}; ~ marks an estimate (why says from what)",
        f"job: {job.rows:,} rows × {job.prompt_tokens:,} prompt tokens ({job.prefix_tokens:,} shared) + "
        f"{job.output_tokens:,} output tokens on vLLM (recommend/workload.py); ·cpp rows run on llama.cpp, "
        "time not modelled",
        "tok/s: one request at a 4k context, bandwidth × 0.70 / bytes read per token",
        *found.notes,
    ]
    for line in lines:
        console.print(textwrap.fill(line, width=width - 1), markup=False, highlight=False)
