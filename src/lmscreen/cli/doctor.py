"""`lmscreen doctor`: checks a running OpenAI-compatible endpoint (issue 4).

Exit codes: 0 every check passed (warnings allowed), 1 a check failed, 2 unusable arguments (one line).
"""

from __future__ import annotations

import json

import click


def register(app: click.Group) -> None:
    @app.command("doctor")
    @click.option("--base-url", help="Server URL, e.g. http://127.0.0.1:8000/v1 (default: $OPENAI_BASE_URL).")
    @click.option("--model", help="Model name the client will request.")
    @click.option("--api-key", help="API key (default: $OPENAI_API_KEY). Never printed.", show_default=False)
    @click.option("--timeout", type=float, default=60.0, help="Seconds to wait for each request.")
    @click.option("--json", "json_out", is_flag=True, help="Print one JSON object.")
    @click.option(
        "--log", help="A vLLM / SGLang / llama.cpp start-up or crash log: name the cause and the fix."
    )
    @click.option("--gpu", help="With --log: the GPU, when the log does not say.")
    def doctor(
        base_url: str | None,
        model: str | None,
        api_key: str | None,
        timeout: float,
        json_out: bool,
        log: str | None,
        gpu: str | None,
    ) -> None:
        """Tell why an OpenAI-compatible endpoint does or does not work, or (--log) why a server failed.

        Checks: reachable, model name served, chat template, JSON-schema output really enforced, time to
        first token and decode speed. Exit 0 when all pass, 1 when a check fails, 2 for bad arguments.
        """
        if log is not None:
            from lmscreen.doctor.logs import diagnose_file

            found = diagnose_file(log, gpu)
            click.echo(json.dumps(found.to_dict(), ensure_ascii=False) if json_out else found.render_text())
            raise SystemExit(1 if found.cause else 0)
        from lmscreen.doctor import run_doctor

        report = run_doctor(base_url, model, api_key, timeout)
        if json_out:
            click.echo(json.dumps(report.to_dict(), ensure_ascii=False))
        else:
            click.echo(report.render_text())
        # SystemExit, not click's Exit: with standalone_mode=False click returns an Exit's code, not exits.
        raise SystemExit(0 if report.ok else 1)
