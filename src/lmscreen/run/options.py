"""Everything `lmscreen screen` was asked to do, in one value the runner and run.json share."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class ScreenOptions:
    pool: Path
    out: Path
    reports: Path | None = None
    rules: Path | None = None
    engine: str = "embedded"
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    concurrency: int = 4
    threads: int | None = None
    """llama.cpp threads (embedded engine); None: idle usable cores, see engines/threads.py."""
    chat_template_kwargs: dict[str, Any] | None = None
    """Passed to OpenAI-compatible servers as-is, e.g. {"enable_thinking": false}."""
    no_llm: bool = False
    jsonl: bool = False
    """Write results.jsonl on a rules-only run too (--no-llm, or no row has a filing); a run with the LLM
    step always writes it."""
    fresh: bool = False
    limit: int | None = None
    annualize_roe: bool = False
    """Scale partial-year ROE (Q1 x4, H1 x2, Q1-Q3 x4/3) before the rules; recorded per row."""
    max_age_days: int = 3
    """--max-age: a market field older than this many trading days, or a report field of a period due
    longer ago than this, is flagged `stale:<field>` (pool/freshness.py)."""
    as_of: str | None = None
    """--as-of (YYYY-MM-DD): the date freshness is judged against; None: today."""
    n_ctx: int = 4096
    report_token_budget: int = 1536
    """Report-text tokens sent per row; longer texts keep their head and tail (recorded as `truncated`)."""
    max_tokens: int = 192
    """Room for the longest schema-valid answer: five candidate ids and a reason
    (task.choice.longest_choice_completion: 148 tokens on SmolLM2). The free-form question needed 448."""
    progress: bool = True
    lang: str = "zh"
    """Language of report.html / report.md: zh (default) or en."""
    # --engine vllm / ray (unset: what `lmscreen model fit` plans for the visible GPU, or Ray's resources)
    gpu_memory_utilization: float | None = None
    max_model_len: int | None = None
    tp: int | None = None
    ray_address: str | None = None
    workers: int | None = None

    def public(self) -> dict[str, Any]:
        """Settings as recorded in run.json: paths as strings, the API key never."""
        data = asdict(self)
        data["api_key"] = "set" if self.api_key else None
        if self.base_url:
            from lmscreen.engines.openai_endpoint import safe_url

            data["base_url"] = safe_url(self.base_url)
        return {k: str(v) if isinstance(v, Path) else v for k, v in data.items()}
