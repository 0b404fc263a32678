"""One filing (a row's input document): an inline text or a `.txt` / `.md` / `.pdf` file, read once per run.

A run asks a filing for its text three times: for the checkpoint key (`digest`), for the prompt (`read`) and
when the answer is turned into the row's result (`read`, `pdf`, `long`). The first ask reads and decodes the
document (a PDF through the disk cache, filings/pdf.py, so it is extracted at most once ever per file
version) and keeps both the digest and the text on the object; the later asks use them.

Memory: the digest (64 characters) is kept for the object's life, the text only while it fits. Every
filing's text counts against one budget, `HELD_CHARS` characters for the whole process (about twice that in
bytes for Chinese text, so ~16 MB); past it the least recently used filing's text is dropped and read again
if it is asked for once more (a PDF again from the disk cache, never extracted again). So a run whose
filings fit (the example pool's fourteen, a thousand summaries of a few KB, a few dozen annual reports)
reads each once, and a big pool of long filings costs at most the budget, never its whole text at once.
A short inline text is the pool's own cell, which the row holds anyway: it is not counted. `release()`
drops a filing's text at once, for a caller that knows it is done with it. The budget holds its filings
weakly: a filing no longer referenced frees its text whatever the budget says.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from lmscreen.errors import InputError
from lmscreen.filings.encoding import decode_text, read_streamed, text_chunks, text_sha256
from lmscreen.filings.long_text import LONG_TEXT_CHARS, LongText, shorten_hashed
from lmscreen.filings.pdf import PdfText, read_pdf

HELD_CHARS = 8_000_000
"""Characters of filing text kept in memory across all filings (see the module's memory note)."""

Content = str | LongText | PdfText
"""What a filing reads as: its whole text, the kept parts of a long text, or an extracted PDF."""


@dataclass(eq=False)
class _State:
    """What a filing has read so far; mutable behind the frozen Filing."""

    content: Content | None = None
    digest: str | None = None
    error: InputError | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Held:
    """The process-wide budget of held filing texts, least recently used dropped first."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._lock = threading.Lock()
        self._order: OrderedDict[int, tuple[weakref.ref[_State], int]] = OrderedDict()
        self._total = 0
        self._dead: list[int] = []  # ids of collected states; appended by weakref callbacks, lock-free

    def keep(self, state: _State, chars: int) -> None:
        with self._lock:
            self._sweep()
            self._pop(state)
            key = id(state)
            self._order[key] = (weakref.ref(state, lambda _ref, key=key: self._dead.append(key)), chars)
            self._total += chars
            while self._total > self.budget and len(self._order) > 1:
                _, (ref, size) = self._order.popitem(last=False)
                self._total -= size
                victim = ref()
                if victim is not None:
                    victim.content = None  # a reader that already has it keeps its own reference

    def touch(self, state: _State) -> None:
        with self._lock:
            entry = self._order.get(id(state))
            if entry is not None and entry[0]() is state:
                self._order.move_to_end(id(state))

    def drop(self, state: _State) -> None:
        with self._lock:
            self._pop(state)

    def held_chars(self) -> int:
        with self._lock:
            self._sweep()
            return self._total

    def _pop(self, state: _State) -> None:
        entry = self._order.get(id(state))
        if entry is not None and entry[0]() is state:
            del self._order[id(state)]
            self._total -= entry[1]

    def _sweep(self) -> None:
        while self._dead:
            key = self._dead.pop()
            entry = self._order.get(key)
            if entry is not None and entry[0]() is None:
                del self._order[key]
                self._total -= entry[1]


_HELD = _Held(HELD_CHARS)


@dataclass(frozen=True)
class Filing:
    """A row's filing: inline text or a file path (never both). Equal filings name the same document."""

    text: str | None = None
    path: Path | None = None
    _state: _State = field(default_factory=_State, init=False, compare=False, repr=False)

    @property
    def is_pdf(self) -> bool:
        return self.path is not None and self.path.suffix.lower() == ".pdf"

    def read(self) -> str:
        """The text the task reads: the whole filing, a long text's kept parts (`long()`), or a PDF's
        extracted text (`pdf()`)."""
        content = self._load()
        return content if isinstance(content, str) else content.text

    def digest(self) -> str:
        """SHA-256 of the whole filing's text (UTF-8): for a PDF its extracted text, for a long text the
        whole text, not only the kept parts (streamed, never held at once)."""
        digest = self._state.digest
        if digest is None:
            self._load()
            digest = self._state.digest
            assert digest is not None
        return digest

    def pdf(self) -> PdfText | None:
        """The extracted PDF, or None for a text filing."""
        if not self.is_pdf:
            return None
        content = self._load()
        assert isinstance(content, PdfText)
        return content

    def long(self) -> LongText | None:
        """The kept parts of a text filing too long to read whole, or None."""
        if self.is_pdf or self._short():  # a short text is not read just to answer None
            return None
        content = self._load()
        return content if isinstance(content, LongText) else None

    def quote_text(self) -> str | None:
        """The whole text a figure's sentence is quoted from (evidence offsets refer to it), or None where
        the evidence context is shown instead: a PDF or a text too long to hold (`long()`)."""
        if self.text is not None:
            return self.text
        if self.path is None or self.path.suffix.lower() not in (".txt", ".md"):
            return None
        content = self._load()
        return content if isinstance(content, str) else None

    def size_bytes(self) -> int:
        """Bytes of the filing (UTF-8 for an inline text, encoded a slice at a time), without reading a
        file: what a runner sorts prompts by."""
        if self.text is not None:
            return sum(len(chunk.encode("utf-8")) for chunk in text_chunks(self.text))
        return self.path.stat().st_size if self.path is not None else 0

    def release(self) -> None:
        """Drop the held text now (the digest stays); asked for again, it is read again."""
        state = self._state
        with state.lock:
            state.content = None
            _HELD.drop(state)

    def _short(self) -> bool:
        """Certainly read whole, told without reading: a text file's bytes are at least its characters in
        every encoding read, so a file this small is never a long text (a larger one may still be)."""
        if self.text is not None:
            return len(self.text) <= LONG_TEXT_CHARS
        assert self.path is not None
        return self.path.stat().st_size <= LONG_TEXT_CHARS

    def _load(self) -> Content:
        state = self._state
        with state.lock:
            content = state.content
            if content is not None:
                _HELD.touch(state)
                return content
            if state.error is not None:
                raise state.error
            try:
                content, digest = self._read_now()
            except InputError as exc:  # the same file read again fails the same way: said once, kept
                state.error = exc
                raise
            state.content, state.digest = content, digest
            if content is not self.text:  # a short inline text is the row's own cell: nothing more held
                _HELD.keep(state, len(content if isinstance(content, str) else content.text))
            return content

    def _read_now(self) -> tuple[Content, str]:
        if self.text is not None:
            if self._short():
                return self.text, text_sha256(text_chunks(self.text))
            return shorten_hashed(text_chunks(self.text))
        assert self.path is not None, "a Filing needs a text or a path"
        if self.is_pdf:
            pdf = read_pdf(self.path)
            return pdf, hashlib.sha256(pdf.text.encode("utf-8")).hexdigest()
        if self._short():
            whole = decode_text(self.path.read_bytes(), self.path)
            return whole, hashlib.sha256(whole.encode("utf-8")).hexdigest()
        return read_streamed(self.path, shorten_hashed)


def held_chars() -> int:
    """Characters of filing text held in memory now (for tests and benches of the budget)."""
    return _HELD.held_chars()
