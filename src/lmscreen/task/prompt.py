"""The prompt: one system prompt shared by every row, and a user message that fences the report as data.

Why it is built this way:
- The system prompt is a constant (no code, name or date in it), so every row starts with the same tokens
  and engines reuse its KV cache (prefix caching); the row's own data lives only in the user message.
- Report text is untrusted: it is put between fence lines and told to be data, never instructions. Anything
  inside it that looks like a fence, a chat-template token (`<|im_end|>`, `[INST]`) or a tag is rewritten
  first, so a report cannot close the fence or open a new turn (lesson A9 in the research notes). The
  verdict does not depend on the model anyway: rules decide it, the model only proposes figures that
  grounding then checks.
- The text is NFKC-folded and its whitespace squeezed: full-width digits and runs of blanks cost a small
  model many tokens and help nothing. Grounding still reads the original text.
"""

from __future__ import annotations

import re
import unicodedata

FENCE_BEGIN = "<<<REPORT_BEGIN>>>"
FENCE_END = "<<<REPORT_END>>>"

NAME_MAX_CHARS = 40
CODE_MAX_CHARS = 20

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_ANGLE_RUN_RE = re.compile(r"<{2,}|>{2,}")
_TEMPLATE_TOKEN_RE = re.compile(r"<\|?(/?[A-Za-z_!|][^<>\n]{0,60}?)\|?>")
_PIPE_RE = re.compile(r"<\||\|>")
_INST_RE = re.compile(r"\[(/?)(INST|SYS)\]", re.IGNORECASE)
_FENCE_WORD_RE = re.compile(r"report[\s_\-]*(begin|end)", re.IGNORECASE)
_BLANKS_RE = re.compile(r"[ \t\u3000]+")
_NEWLINES_RE = re.compile(r"\n{3,}")


def _neutralise(text: str) -> str:
    """Rewrite anything that could pass for a fence, a chat-template token or a role tag."""
    text = _ANGLE_RUN_RE.sub(lambda m: ("‹" if m.group(0)[0] == "<" else "›") * len(m.group(0)), text)
    text = _TEMPLATE_TOKEN_RE.sub(lambda m: f"‹{m.group(1)}›", text)
    text = _PIPE_RE.sub(lambda m: "‹|" if m.group(0) == "<|" else "|›", text)
    text = _INST_RE.sub(lambda m: f"⟦{m.group(1)}{m.group(2)}⟧", text)
    return _FENCE_WORD_RE.sub(lambda m: f"report·{m.group(1)}", text)


def clean_report_text(text: str) -> str:
    """The report text as the model sees it: folded, squeezed and unable to break out of its fence.

    Idempotent, so the runner may call it before `fit_text` (to budget the text the model will really get)
    and `build_messages` calls it again harmlessly.
    """
    text = unicodedata.normalize("NFKC", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = _CONTROL_RE.sub("", text)
    text = _neutralise(text)
    text = _BLANKS_RE.sub(" ", text)
    text = "\n".join(line.strip() for line in text.split("\n"))
    return _NEWLINES_RE.sub("\n\n", text).strip()


def _one_line(value: str, limit: int) -> str:
    value = unicodedata.normalize("NFKC", value)
    value = _neutralise(_CONTROL_RE.sub("", value))
    return " ".join(value.split())[:limit]
