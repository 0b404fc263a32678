"""What `lmscreen doctor` found: one line per check, a fix where there is one, as text or one JSON object."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Status(str, Enum):
    PASS = "pass"
    WARN = "warn"
    """Works, but not as well as it could (e.g. no streaming): does not fail the run."""
    FAIL = "fail"
    SKIP = "skip"
    """Not run because an earlier check failed."""


@dataclass
class Check:
    name: str
    status: Status
    summary: str
    fix: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "status": self.status.value,
            "summary": self.summary,
            "fix": self.fix,
            "details": self.details,
        }


@dataclass
class DoctorReport:
    base_url: str
    """Display form: no user:password part."""
    requested_model: str | None
    model: str | None
    """The name the generation checks used (the requested one, or the only served one)."""
    served_models: list[str]
    server: str
    server_version: str | None
    api_key_set: bool
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(c.status is Status.FAIL for c in self.checks)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.status is Status.FAIL]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "base_url": self.base_url,
            "requested_model": self.requested_model,
            "model": self.model,
            "served_models": self.served_models,
            "server": self.server,
            "server_version": self.server_version,
            "api_key_set": self.api_key_set,
            "checks": [c.to_dict() for c in self.checks],
        }

    def render_text(self) -> str:
        version = f" {self.server_version}" if self.server_version else ""
        lines = [f"lmscreen doctor: {self.base_url} ({self.server}{version})"]
        width = max((len(c.name) for c in self.checks), default=0)
        for check in self.checks:
            lines.append(f"  {check.status.value.upper():<4}  {check.name:<{width}}  {check.summary}")
            if check.fix:
                lines.append(f"        {'':<{width}}  fix: {check.fix}")
        failed = self.failed
        lines.append(
            "all checks passed"
            if not failed
            else f"{len(failed)} check(s) failed: {', '.join(c.name for c in failed)}"
        )
        return "\n".join(lines)
