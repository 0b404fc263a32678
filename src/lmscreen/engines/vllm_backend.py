"""The only module that imports vLLM (and torch): the real implementation of the engine's seam.

Kept tiny on purpose: everything that can be decided without a GPU lives in vllm_engine.py and is tested
there; this file turns plain-data sampling settings into vLLM objects, makes one `LLM.chat` call and reads
the token counts back (`len(prompt_token_ids)`, `num_cached_tokens`, `len(outputs[0].token_ids)`).
"""

from __future__ import annotations

from typing import Any

from lmscreen.engines.vllm_seam import ChatOutput
from lmscreen.errors import InputError

EXTRA_HINT = "pip install 'lmscreen[vllm]'"


def _import_vllm() -> Any:
    try:
        import vllm
    except ImportError as exc:
        raise InputError(f"--engine vllm needs the optional extra vllm ({EXTRA_HINT}): {exc}") from None
    return vllm


def visible_gpus() -> tuple[int, float]:
    """(CUDA devices visible, GiB of the first): raises the one-line InputError when there is none."""
    _import_vllm()
    import torch

    if not torch.cuda.is_available() or torch.cuda.device_count() < 1:
        raise InputError(
            "--engine vllm needs an NVIDIA GPU with CUDA, and none is visible here "
            "(torch.cuda.is_available() is False); use --engine embedded on a CPU"
        )
    total = torch.cuda.get_device_properties(0).total_memory
    return torch.cuda.device_count(), total / 2**30


class RealVllm:
    """`vllm.LLM` behind the VllmCalls seam."""

    def __init__(self, llm_kwargs: dict[str, Any]) -> None:
        vllm = _import_vllm()
        self._vllm = vllm
        try:
            self._llm = vllm.LLM(**llm_kwargs)
        except RuntimeError as exc:
            if "infer device type" in str(exc):
                raise InputError(
                    "--engine vllm needs an NVIDIA GPU with CUDA; vLLM found no device "
                    f"(a CPU-only machine, or the wrong vllm build): {exc}"
                ) from None
            raise
        self._tokenizer = self._llm.get_tokenizer()
        self._version = str(getattr(vllm, "__version__", "unknown"))

    def chat(
        self,
        conversations: list[list[dict[str, str]]],
        sampling: list[dict[str, Any]],
        chat_template_kwargs: dict[str, Any] | None,
    ) -> list[ChatOutput]:
        params = [self._sampling_params(sp) for sp in sampling]
        outputs = self._llm.chat(
            conversations, params, use_tqdm=False, chat_template_kwargs=chat_template_kwargs
        )
        result = []
        for out in outputs:
            first = out.outputs[0] if out.outputs else None
            result.append(
                ChatOutput(
                    text=first.text if first is not None else None,
                    finish_reason=first.finish_reason if first is not None else None,
                    prompt_tokens=len(out.prompt_token_ids or []),
                    completion_tokens=len(first.token_ids) if first is not None else 0,
                    cached_tokens=int(out.num_cached_tokens or 0),
                )
            )
        return result

    def _sampling_params(self, sp: dict[str, Any]) -> Any:
        from vllm.sampling_params import StructuredOutputsParams

        fields = dict(sp)
        structured = fields.pop("structured_outputs", None)
        if structured is not None:
            fields["structured_outputs"] = StructuredOutputsParams(**structured)
        return self._vllm.SamplingParams(**fields)

    def count_tokens(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False))

    def describe(self) -> dict[str, Any]:
        return {"vllm": self._version}

    def close(self) -> None:
        llm, self._llm = getattr(self, "_llm", None), None
        if llm is not None:
            del llm
            try:
                import torch

                torch.cuda.empty_cache()
            except Exception:  # noqa: BLE001 - best effort on the way out
                pass


def load_vllm(llm_kwargs: dict[str, Any]) -> RealVllm:
    """`vllm.LLM(**llm_kwargs)` behind the seam (VllmSettings.llm_kwargs says every setting explicitly)."""
    return RealVllm(llm_kwargs)
