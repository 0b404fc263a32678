"""llama.cpp's and Ollama's side of the plan: KV cells shared by slots, and what spills to CPU RAM.

llama-server's `-c` is the total number of KV cells, shared by the `-np` slots (per-slot context = c / np) and
padded to 256; sliding-window layers hold `window × np + ubatch` cells; linear-attention layers keep an f32
recurrent state per slot; the input embedding stays in host memory. What does not fit goes to CPU RAM: for
MoE models the experts of `--n-cpu-moe` layers (dense weights stay on the GPU, as llama.cpp's --fit prefers),
otherwise whole layers (`-ngl`). Ollama runs llama.cpp with `num_ctx × num_parallel` cells, KV types
f16/q8_0/q4_0 and a 457 MiB minimum per device.
"""

from __future__ import annotations

from dataclasses import dataclass

from lmscreen.model.memory import overhead
from lmscreen.model.memory.common import (
    ENGINE_VERSIONS,
    GIB,
    MIN_USEFUL_CONTEXT,
    OLLAMA_DEFAULT_QUANT,
    Component,
    ContextRow,
    Plan,
    PlanInputs,
    cdiv,
    largest,
    layout_notes,
    round_context,
    table_contexts,
)
from lmscreen.model.memory.kv import KVLayout, kv_layout
from lmscreen.model.memory.weights import expert_bytes_per_layer, is_gguf, normalize_quantization, weights
from lmscreen.model.spec import ModelSpec


def _pad(cells: int, to: int = 256) -> int:
    return cdiv(cells, to) * to


@dataclass(frozen=True)
class _LlamaCore:
    engine: str
    quant: str
    layout: KVLayout
    weights_gpu_bytes: int
    weights_host_bytes: int
    weights_detail: str
    compute_gib: float
    reserve_gib: float
    usable_gib: float
    """All GPUs together, before weights."""

    def kv_bytes(self, context: int, slots: int) -> float:
        cells = _pad(context * slots)
        lay = self.layout
        total = lay.bytes_per_token * cells
        if lay.swa_layers:
            total += lay.swa_bytes_per_token * min(
                cells, _pad((lay.sliding_window or cells) * slots + overhead.LLAMACPP_UBATCH)
            )
        return total + lay.state_bytes_per_seq * slots

    @property
    def available_gib(self) -> float:
        return self.usable_gib - self.weights_gpu_bytes / GIB

    def fits(self, context: int, slots: int) -> bool:
        return self.kv_bytes(context, slots) <= self.available_gib * GIB

    def max_context(self, slots: int, cap: int) -> int:
        if self.available_gib <= 0:
            return 0
        return largest(lambda n: self.fits(n, slots), cap)


def _llama_quant(spec: ModelSpec, engine: str) -> tuple[str, str | None]:
    """The GGUF type llama.cpp/Ollama would load, and a note when it is not the spec's own format."""
    own = normalize_quantization(spec.quantization)
    if is_gguf(own) or (own in ("bf16", "fp32") and engine == "llamacpp"):
        return (own if own != "fp32" else "f32"), None
    if own == "bf16" and engine == "ollama":
        return OLLAMA_DEFAULT_QUANT, "Ollama library tags without a quantization suffix are Q4_K_M"
    eight_bit = own in ("fp8", "int8", "w8a8", "mlx8") or spec.quantization_bits == 8
    substitute = "mxfp4_moe" if own == "mxfp4" else "q8_0" if eight_bit else "q4_k_m"
    return substitute, f"{engine} needs a GGUF: planned with {substitute.upper()} in place of {own.upper()}"


def _llama_core(
    spec: ModelSpec, engine: str, total_gib: float, gpus: int, kv_type: str, apple: bool, quant: str
) -> _LlamaCore:
    w = weights(spec, tp=1, pp=1, engine=engine, quantization=quant)
    cache = "f16" if kv_type == "auto" else kv_type
    layout = kv_layout(spec, cache, 1, 1, engine)
    compute = overhead.llamacpp_compute_gib(spec)
    reserve = overhead.llamacpp_reserve_gib(engine, apple)
    usable = gpus * (total_gib - reserve - compute)
    return _LlamaCore(
        engine=engine,
        quant=quant,
        layout=layout,
        weights_gpu_bytes=w.per_gpu_bytes,
        weights_host_bytes=w.host_bytes,
        weights_detail=w.detail,
        compute_gib=compute,
        reserve_gib=reserve,
        usable_gib=usable,
    )


def _ollama_default_context(total_gib: float) -> int:
    """OLLAMA_CONTEXT_LENGTH=0 (automatic): 4k below 24 GiB, 32k up to 48 GiB, 256k above."""
    if total_gib < 24:
        return 4096
    return 32768 if total_gib < 48 else 262144


def _llama_context(inp: PlanInputs, core: _LlamaCore, engine: str, slots: int) -> tuple[int, list[str]]:
    """Per-slot context when the user gave none, the way llama-server --fit / Ollama would choose it."""
    if inp.context is not None:
        return inp.context, []
    reach = core.max_context(slots, inp.native)
    floor_ctx = min(inp.native, MIN_USEFUL_CONTEXT)
    if engine == "ollama":
        apple = bool(inp.gpu and inp.gpu.unified_memory)
        marketed = inp.gpu.memory_gib if inp.gpu is not None and not apple else inp.total_gib
        context = min(inp.native, _ollama_default_context(marketed))
        if floor_ctx <= reach < context:
            return round_context(reach), [f"num_ctx lowered to {round_context(reach):,} to stay on the GPU"]
        return context, []
    if reach >= inp.native:
        return inp.native, []
    context = max(round_context(reach), floor_ctx) if reach else floor_ctx
    return context, [f"context lowered from the model's {inp.native:,} to {context:,} tokens per slot"]


@dataclass(frozen=True)
class _Offload:
    gpu_layers: int | None
    n_cpu_moe: int | None
    cpu_ram_bytes: float
    notes: list[str]


def _llama_offload(spec: ModelSpec, core: _LlamaCore, kv_bytes: float) -> _Offload:
    """What goes to CPU RAM when weights + KV exceed the GPUs: MoE experts first (--n-cpu-moe), else layers.

    Mirrors llama.cpp --fit, which keeps dense weights on the GPU and moves experts out first.
    """
    host = float(core.weights_host_bytes)
    over = core.weights_gpu_bytes + kv_bytes - core.usable_gib * GIB
    if over <= 0:
        return _Offload(spec.num_layers, None, host, [])
    advice = (
        "does not fit in GPU memory at this context: lower the context, quantize further (Q4_K_M, IQ4_XS) "
        "or use a quantized KV cache (-ctk q8_0 -ctv q8_0)"
    )
    layers = spec.num_layers or 1
    experts = expert_bytes_per_layer(spec, core.quant)
    if experts and over <= experts * layers:
        n = min(layers, cdiv(int(over), experts))
        note = (
            f"--n-cpu-moe {n}: experts of {n} layers in CPU RAM ({n * experts / GIB:.1f} GiB), "
            "attention and dense weights on the GPU"
        )
        return _Offload(spec.num_layers, n, host + n * experts, [note, advice])
    per_layer = (core.weights_gpu_bytes + kv_bytes) / layers
    on_gpu = max(0, min(layers, int(core.usable_gib * GIB // per_layer)))
    rest = (layers - on_gpu) * per_layer
    note = (
        f"-ngl {on_gpu}: {on_gpu} of {layers} layers on the GPU, the rest ({rest / GIB:.1f} GiB) in CPU RAM: "
        "much slower decode"
    )
    return _Offload(on_gpu, None, host + rest, [note, advice])


def _llama_breakdown(
    inp: PlanInputs, core: _LlamaCore, engine: str, kv_bytes: float, cells: int
) -> list[Component]:
    apple = " (GPU-wirable share of unified memory)" if inp.gpu and inp.gpu.unified_memory else ""
    return [
        Component(
            name="GPU memory",
            gib=inp.total_gib * inp.gpus,
            source=f"{inp.gpus} × {inp.total_gib:.2f} GiB{apple}",
        ),
        Component(name="weights on GPU", gib=core.weights_gpu_bytes / GIB, source=core.weights_detail),
        Component(
            name="input embedding (host RAM)",
            gib=core.weights_host_bytes / GIB,
            source="llama.cpp keeps token_embd in host memory",
        ),
        Component(
            name="compute buffer",
            gib=core.compute_gib * inp.gpus,
            source=f"logits of a {overhead.LLAMACPP_UBATCH}-token micro-batch + activations, per device",
        ),
        Component(
            name="fixed reserve",
            gib=core.reserve_gib * inp.gpus,
            source="CUDA/Metal context" + (" + Ollama minimum 457 MiB" if engine == "ollama" else ""),
        ),
        Component(
            name="KV cache",
            gib=kv_bytes / GIB,
            source=f"{cells:,} cells × {core.layout.bytes_per_token:,.0f} B"
            + (" + recurrent state" if core.layout.linear_layers else ""),
        ),
    ]


def _llama_table(core: _LlamaCore, native: int) -> list[ContextRow]:
    rows = []
    for ctx in table_contexts(native):
        one = core.kv_bytes(ctx, 1)
        conc = core.available_gib * GIB / one if one else 0.0
        rows.append(
            ContextRow(
                context=ctx, max_concurrency=round(conc, 2), kv_gib_per_request=one / GIB, fits=conc >= 1
            )
        )
    return rows


def plan_llama(inp: PlanInputs, engine: str, with_table: bool) -> Plan:
    spec = inp.spec
    quant, quant_note = _llama_quant(spec, engine)
    apple = bool(inp.gpu and inp.gpu.unified_memory)
    core = _llama_core(spec, engine, inp.total_gib, inp.gpus, inp.kv_cache_dtype, apple, quant)
    slots = inp.concurrency or 1
    context, notes = _llama_context(inp, core, engine, slots)
    if quant_note:
        notes.insert(0, quant_note)
    kv = core.kv_bytes(context, slots)
    cells = _pad(context * slots)
    offload = _llama_offload(spec, core, kv)
    fits = not offload.notes and not (inp.context is None and context < min(inp.native, MIN_USEFUL_CONTEXT))
    notes.extend(offload.notes)
    per_seq = core.kv_bytes(context, 1)
    kv_type = "f16" if inp.kv_cache_dtype == "auto" else inp.kv_cache_dtype
    if kv_type not in ("f16", "bf16", "f32"):
        notes.append("a quantized V cache needs flash attention (-fa on; Ollama: OLLAMA_FLASH_ATTENTION=1)")
    notes.extend(layout_notes(spec, core.layout, context))
    if slots > 1:
        notes.append(f"{cells:,} cells shared by {slots} slots ({context:,} tokens each)")
    if engine == "ollama":
        notes.append(
            f"Ollama: KV = num_ctx × OLLAMA_NUM_PARALLEL = {context:,} × {slots}; "
            "OLLAMA_CONTEXT_LENGTH default is 4k below 24 GiB, 32k below 48 GiB, 256k above"
        )
    return Plan(
        model=spec.name,
        gpu=inp.gpu.name if inp.gpu else None,
        gpu_total_gib=inp.total_gib,
        gpus=inp.gpus,
        tp=1,
        pp=inp.gpus,
        engine=engine,
        engine_version_modelled=ENGINE_VERSIONS[engine],
        quantization=quant,
        kv_cache_dtype=kv_type,
        context=context,
        concurrency=slots,
        gpu_memory_utilization=None,
        weights_gib=core.weights_gpu_bytes / GIB / inp.gpus,
        kv_bytes_per_token=round(core.layout.bytes_per_token),
        kv_state_bytes_per_seq=core.layout.state_bytes_per_seq
        + round(core.layout.swa_bytes_per_seq(context)),
        overhead_gib=core.compute_gib + core.reserve_gib,
        available_kv_gib=core.available_gib / inp.gpus,
        kv_cache_tokens=cells,
        max_concurrency=round(max(core.available_gib * GIB, 0) / per_seq, 2) if per_seq else 0.0,
        max_context=core.max_context(1, inp.native),
        fits=fits,
        notes=notes,
        gpu_layers=offload.gpu_layers,
        n_cpu_moe=offload.n_cpu_moe,
        cpu_ram_gib=offload.cpu_ram_bytes / GIB,
        breakdown=_llama_breakdown(inp, core, engine, kv, cells),
        table=_llama_table(core, inp.native) if with_table and core.available_gib > 0 else [],
    )
