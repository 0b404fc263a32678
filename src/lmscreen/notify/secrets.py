"""A notification URL is a secret: its host, path, user, password and query carry bot keys and tokens
(`wecombot://BOTKEY`, `tgram://BOT_TOKEN/CHAT`, `mailto://user:PASSWORD@host`).

Only `redact(url)` ever goes into a file, a log line, run.json or a message: the scheme and a short hash
(the same URL gives the same name, so a user can tell two targets apart without either token showing).
`scrub(text, urls)` removes every piece of the URLs from a library's error text before it is kept.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit

_MIN_PIECE = 3


def redact(url: str) -> str:
    """`wecombot://BOTKEY` -> `wecombot://…#3f9a1c`."""
    scheme = url.split("://", 1)[0] if "://" in url else "url"
    digest = hashlib.sha256(url.encode("utf-8")).hexdigest()[:6]
    return f"{scheme}://…#{digest}"


def pieces(url: str) -> list[str]:
    """Every part of a URL that may be a token: user, password, host, path segments, query values."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return [url]
    found = [url, parts.netloc, parts.username or "", parts.password or "", parts.hostname or ""]
    found += [s for s in parts.path.split("/") if s]
    found += [v for _, _, v in (kv.partition("=") for kv in parts.query.split("&"))]
    found += [unquote(p) for p in list(found)]
    return sorted({p for p in found if len(p) >= _MIN_PIECE}, key=len, reverse=True)


def scrub(text: str, urls: Iterable[str]) -> str:
    """`text` with every piece of `urls` replaced by `…`, and any other URL by its redacted name."""
    for url in urls:
        for piece in pieces(url):
            text = text.replace(piece, "…")
    return re.sub(r"\b[a-z][a-z0-9+.-]*://\S+", lambda m: redact(m.group(0)), text)
