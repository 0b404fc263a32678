"""Reliability, measured: kills, server restarts, parallel runs, hostile files, bad model headers, memory.

One command, one summary line per family with the cases tried and the cases failed (all must be 0):

  kill-embedded   SIGKILL `screen` (embedded engine) at random moments, rerun to completion, compare with an
                  uninterrupted run: rows lost, duplicated, differing (every column of results.csv).
  kill-openai     the same with `--engine openai` against a local llama_cpp.server (tests/servers.py).
  server-restart  the server (not lmscreen) SIGKILLed at a random moment and restarted; the run goes on,
                  then a rerun resumes the rows that failed. Same three counts.
  concurrency     rows/s of one embedded run alone vs each of two runs at once on other OUT folders
                  (measured side by side: solo, pair, solo again); each ratio must be >= 0.4.
  hostile-pools   generated hostile pool files through `load_pool` in a worker pool (plus a sample through
                  the real CLI): each must end in rows, row errors or one line with exit 2; tracebacks 0.
  model-inspect   corrupted config.json / GGUF / safetensors headers through `model inspect` (same rule).
  memory          peak RSS of `screen` on a small pool vs a 20 MB report text and vs a 1,000,000-row pool
                  with reports for 1,000 rows (LLM side: a canned loopback server, so only lmscreen's own
                  memory is measured); each within 20% of the small case. The big pool is also run with
                  --no-llm (reported, not a target) to show how much of its peak the LLM step adds.

For the kill families the kill moment is drawn in rows (answers already stored) plus a random part of a
row's time, so each case interrupts a live run. "differing" compares whole rows for the embedded engine
(its answers do not depend on order). llama_cpp.server reuses the previous request's prompt prefix, so its
answer to a row can depend on which row came before; for the openai families a row differs when its
verdict differs from the uninterrupted run or when an answer already in the checkpoint at kill time changed
afterwards.

Usage: python bench/reliability.py [--quick] [--only FAMILY ...] [--kills N] [--hostile N] [--corrupt N]
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing as mp
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # servers.py and model_files.py: the test suite's real servers/files
EXAMPLES = ROOT / "examples"
POOL = EXAMPLES / "pool.csv"
REPORTS = EXAMPLES / "reports"
ALIAS = "reliability"
VERDICT = ("code", "name", "risk_level", "score", "rules_fired", "is_st")
FAMILIES = (
    "kill-embedded",
    "kill-openai",
    "server-restart",
    "concurrency",
    "hostile-pools",
    "model-inspect",
    "memory",
)


@dataclass
class Result:
    name: str
    tried: int = 0
    failed: int = 0
    detail: str = ""
    extra: dict = field(default_factory=dict)

    def line(self) -> str:
        return f"{self.name:<15} tried {self.tried:>5}  failed {self.failed:>3}  {self.detail}"


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}


def screen_argv(out: Path, limit: int, *extra: str) -> list[str]:
    argv = [sys.executable, "-m", "lmscreen", "screen", str(POOL), "--reports", str(REPORTS)]
    return [*argv, "--out", str(out), "--limit", str(limit), "--quiet", *extra]


def read_rows(out: Path) -> list[dict[str, str]]:
    path = out / "results.csv"
    if not path.is_file():
        return []
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def stored_answers(out: Path) -> dict[str, str | None]:
    db = out / "checkpoint.sqlite"
    if not db.is_file():
        return {}
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return dict(con.execute("SELECT key, text FROM llm_results WHERE error IS NULL"))
    except sqlite3.Error:
        return {}


def compare(ref: list[dict[str, str]], rows: list[dict[str, str]], whole: bool) -> tuple[int, int, int]:
    """(lost, duplicated, differing) of `rows` against the uninterrupted run `ref`."""
    by_code = {r["code"]: r for r in ref}
    codes = [r["code"] for r in rows]
    lost = len(set(by_code) - set(codes))
    duplicated = len(codes) - len(set(codes))
    differing = 0
    for r in rows:
        want = by_code.get(r["code"])
        if want is None:
            differing += 1
        elif whole and r != want:
            differing += 1
        elif not whole and (
            tuple(r[k] for k in VERDICT) != tuple(want[k] for k in VERDICT)
            or r["status"].startswith("llm_error")
        ):
            differing += 1
    return lost, duplicated, differing


def _wait_for_answers(proc: subprocess.Popen, out: Path, rows: int) -> None:
    """Return once `rows` answers are stored or the run has ended."""
    while rows and proc.poll() is None and len(stored_answers(out)) < rows:
        time.sleep(0.05)


def stray_temps(out: Path) -> int:
    return len([p for p in out.glob(".*.tmp")])


# ------------------------------------------------------------------------------------------- kill families


def kill_family(
    name: str, kills: int, limit: int, extra: list[str], rng: random.Random, work: Path, server=None
) -> Result:
    """SIGKILL lmscreen (or, with `server`, the server) at random moments; rerun; compare.

    Whole rows are compared only for the embedded engine: llama_cpp.server reuses the previous request's
    prompt prefix, so its reason and token counts for a row can differ from the reference run's even with
    no kill at all (seen: `"]["` vs `"][" `), and only verdicts and answers already stored can be held
    equal. A kill moment is drawn in rows, not seconds: wait until a random number of answers (0 to
    limit-1) is in the checkpoint, then a random part of one row's time, so every case is a real kill
    whatever the load does to the run's speed.
    """
    whole = not extra  # the embedded engine: no --engine option
    env = clean_env()
    ref_out = work / f"{name}-ref"
    t0 = time.perf_counter()
    ref_proc = subprocess.run(screen_argv(ref_out, limit, *extra), capture_output=True, text=True, env=env)
    t_ref = time.perf_counter() - t0
    if ref_proc.returncode != 0:
        return Result(name, 0, 1, f"uninterrupted run failed: {ref_proc.stderr.strip()[-300:]}")
    ref = read_rows(ref_out)
    totals = Counter()
    mid_run = 0
    for i in range(kills):
        out = work / f"{name}-{i}"
        rows_before = rng.randrange(0, max(1, limit))
        part_of_row = rng.uniform(0.02, 1.0) * t_ref / max(1, limit)
        proc = subprocess.Popen(
            screen_argv(out, limit, *extra),
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        before: dict[str, str | None] = {}
        prior_mid = mid_run
        try:
            _wait_for_answers(proc, out, rows_before)
            proc.wait(timeout=part_of_row)
        except subprocess.TimeoutExpired:
            mid_run += 1
            if server is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            else:
                before = stored_answers(out)
                server.kill()
                server.start()
                proc.wait()
        proc.stderr.close()  # type: ignore[union-attr]
        if server is None:
            before = stored_answers(out)
        rerun = subprocess.run(screen_argv(out, limit, *extra), capture_output=True, text=True, env=env)
        if rerun.returncode != 0:
            totals["rerun_failed"] += 1
            totals["rerun_error:" + rerun.stderr.strip()[-200:]] += 1
        lost, dup, diff = compare(ref, read_rows(out), whole)
        after = stored_answers(out)
        changed = sum(1 for k, v in before.items() if k in after and after[k] != v)
        if not whole:
            diff += changed
        totals["lost"] += lost
        totals["duplicated"] += dup
        totals["differing"] += diff
        totals["stray_temp_files"] += stray_temps(out)
        if lost or dup or diff or rerun.returncode != 0 or stray_temps(out):
            totals["failed"] += 1
        when = "killed mid-run" if mid_run > prior_mid else "finished first"
        errors_left = sum(r["status"].startswith("llm_error") for r in read_rows(out))
        print(  # progress on stderr: a long run cut short still shows the cases it finished
            f"  {name} {i + 1}/{kills}: lost {lost}, duplicated {dup}, differing {diff} (stored answers "
            f"changed {changed}, rows left with llm_error {errors_left}), rerun exit {rerun.returncode} "
            f"({when}; {out})",
            file=sys.stderr,
            flush=True,
        )
    detail = (
        f"rows lost {totals['lost']}, duplicated {totals['duplicated']}, differing {totals['differing']}; "
        f"{mid_run} killed mid-run, {kills - mid_run} finished first; "
        f"reruns failed {totals['rerun_failed']}; "
        f"stray temp files {totals['stray_temp_files']} (uninterrupted run {t_ref:.0f} s, {len(ref)} rows)"
    )
    errors = [k for k in totals if k.startswith("rerun_error:")]
    if errors:
        detail += f"; first rerun error: {errors[0][12:]}"
    return Result(name, kills, totals["failed"], detail)


# ------------------------------------------------------------------------------------------- concurrency


def _rows_per_s(out: Path) -> float:
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    return float(run["llm"]["rows_per_s_this_run"] or 0.0)


def concurrency_family(limit: int, work: Path) -> Result:
    env = clean_env()

    def solo(tag: str) -> float:
        out = work / f"conc-solo-{tag}"
        subprocess.run(screen_argv(out, limit), env=env, capture_output=True, check=True)
        return _rows_per_s(out)

    first = solo("a")
    outs = [work / "conc-pair-0", work / "conc-pair-1"]
    procs = [
        subprocess.Popen(screen_argv(o, limit), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for o in outs
    ]
    for p in procs:
        _, err = p.communicate()
        if p.returncode != 0:
            return Result("concurrency", 2, 2, f"a paired run failed: {err.decode()[-300:]}")
    pair = [_rows_per_s(o) for o in outs]
    second = solo("b")
    base = (first + second) / 2
    ratios = [r / base if base else 0.0 for r in pair]
    threads = [
        json.loads((o / "run.json").read_text(encoding="utf-8"))["llm"]["engine"].get("n_threads")
        for o in outs
    ]
    detail = (
        f"solo {first:.3f}/{second:.3f} rows/s, two at once {pair[0]:.3f} and {pair[1]:.3f} rows/s → "
        f"ratios {ratios[0]:.2f}, {ratios[1]:.2f} (target >= 0.4; threads chosen {threads}; "
        f"load {os.getloadavg()[0]:.1f})"
    )
    return Result("concurrency", 2, sum(r < 0.4 for r in ratios), detail, {"ratios": ratios})


# ----------------------------------------------------------------------------------------- hostile pools

HEADER = "代码,名称,所属行业,市盈率(TTM),净资产收益率(%),每股收益\n"
ROWS = [
    "600519,贵州茅台,白酒,20.5,36.02,68.64",
    "000001,平安银行,银行,4.8,10.08%,2.15",
    "300750,宁德时代,电池,18.2,22.7,11.5",
    "*ST宏达,*ST宏达,化工,亏损,-3.1,-0.2",
]
FORMULAS = ["=1+1", "+2", "-3", "@SUM(A1:A2)", '=HYPERLINK("http://x","y")', "=cmd|' /C calc'!A0", "\t=1"]
HEAVY = {"big_cell": 3, "wide": 3, "empty_lines": 3}


def _valid(rng: random.Random, encoding: str = "utf-8") -> bytes:
    rows = [rng.choice(ROWS) for _ in range(rng.randint(1, 12))]
    return (HEADER + "\n".join(rows) + "\n").encode(encoding, errors="replace")


def _xlsx_bytes() -> bytes:
    import io

    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(HEADER.strip().split(","))
    for r in ROWS:
        ws.append(r.split(","))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def make_hostile(kind: str, rng: random.Random, folder: Path, i: int, xlsx: bytes) -> Path:
    ext = ".csv"
    if kind == "random_bytes":
        data = rng.randbytes(rng.randint(0, 8192))
        ext = rng.choice([".csv", ".tsv", ".xlsx", ".xls", ".txt"])
    elif kind == "truncated_gbk":
        data = _valid(rng, "gb18030")
        data = data[: rng.randint(1, len(data) - 1)]
        if rng.random() < 0.5:  # cut in the middle of a two-byte character
            data = data + b"\xb9"
    elif kind == "garbled_gbk":
        data = bytearray(_valid(rng, "gb18030"))
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(0x80, 0x100)
        data = bytes(data)
    elif kind == "nul_runs":
        data = bytearray(_valid(rng))
        for _ in range(rng.randint(1, 6)):
            pos = rng.randrange(len(data))
            data[pos:pos] = b"\0" * rng.randint(1, 5000)
        data = bytes(data)
    elif kind == "formulas":
        rows = []
        for r in ROWS:
            cells = r.split(",")
            cells[rng.randrange(len(cells))] = rng.choice(FORMULAS)
            rows.append(",".join(f'"{c}"' if "," in c or '"' in c else c for c in cells))
        data = (HEADER + "\n".join(rows) + "\n").encode()
    elif kind == "html":
        cells = "".join(f"<td>{h}</td>" for h in HEADER.strip().split(","))
        body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r.split(",")) + "</tr>" for r in ROWS)
        choice = rng.random()
        if choice < 0.4:
            data = f"<html><body><table><tr>{cells}</tr>{body}</table></body></html>".encode("gb18030")
        elif choice < 0.7:
            data = f"<script>alert(1)</script><table><tr>{cells}</tr>".encode()
        else:
            data = (HEADER + '600519,"<img src=x onerror=alert(1)>",白酒,20,30,1\n').encode()
        ext = rng.choice([".xls", ".csv", ".txt"])
    elif kind == "quotes":
        data = (
            HEADER + '600519,"贵州茅台,白酒,20.5,36.02,68.64\n000001,"平安""银行,银行,4.8,10,2\n'
        ).encode()
        data = data[: rng.randint(len(HEADER.encode()), len(data))]
    elif kind == "odd_layout":
        junk = "".join(f"导出时间,{rng.randint(0, 9999)}\n" for _ in range(rng.randint(0, 4)))
        sep = rng.choice([",", "\t", ";", "|"])
        text = junk + HEADER.replace(",", sep) + "\n".join(r.replace(",", sep) for r in ROWS)
        text = text.replace("\n", rng.choice(["\n", "\r\n", "\r"]))
        data = rng.choice([b"", b"\xef\xbb\xbf", b"\xff\xfe"]) + text.encode()
        ext = ".tsv" if sep == "\t" and rng.random() < 0.5 else ".csv"
    elif kind == "numbers":
        weird = [
            "1e309",
            "nan",
            "-0",
            "１２．５",
            "9" * 400,
            "--",
            "亏损",
            "3.5万",
            "1,234.5",
            "∞",
            "0x1F",
            "",
        ]
        rows = [
            f"{rng.choice(['600519', 'sh600519', '1', '0000001', 'SH.600519', '６００５１９', 'XSHG'])},名称,"
            f"行业,{rng.choice(weird)},{rng.choice(weird)},{rng.choice(weird)}"
            for _ in range(rng.randint(1, 10))
        ]
        data = (HEADER + "\n".join(rows) + "\n").encode()
    elif kind == "header_only":
        data = rng.choice([HEADER.encode(), b"", b"\xef\xbb\xbf", b"\n\n\n", HEADER.encode("gb18030")])
    elif kind == "xlsx_damaged":
        buf = bytearray(xlsx)
        if rng.random() < 0.5:
            buf = buf[: rng.randint(0, len(buf) - 1)]
        else:
            for _ in range(rng.randint(1, 30)):
                buf[rng.randrange(len(buf))] = rng.randrange(256)
        data = bytes(buf)
        ext = ".xlsx"
    elif kind == "big_cell":
        data = (HEADER + "600519,贵州茅台,白酒,20.5,36.02," + "9" * (10 << 20) + "\n").encode()
    elif kind == "wide":
        data = (HEADER.strip() + "," + ",".join(f"c{j}" for j in range(50_000)) + "\n").encode()
        data += (ROWS[0] + "," * 50_000 + "\n").encode()
    elif kind == "empty_lines":
        data = HEADER.encode() + (ROWS[0] + "\n").encode() + b"\n" * 1_000_000 + (ROWS[1] + "\n").encode()
    else:
        raise ValueError(kind)
    path = folder / f"h{i:05d}-{kind}{ext}"
    path.write_bytes(data)
    return path


def _load_one(path: str) -> tuple[str, str, str]:
    from lmscreen.errors import InputError
    from lmscreen.pool.load import load_pool

    try:
        pool = load_pool(path)
    except InputError as exc:
        message = str(exc)
        return path, ("exit2" if "\n" not in message and message.strip() else "bad_message"), message[:300]
    except Exception:  # noqa: BLE001 - that is what we count
        return path, "traceback", traceback.format_exc()[-800:]
    return path, ("row_errors" if pool.error_frame.height else "rows"), ""


def _pool_map(func, paths: list[str], workers: int) -> list[tuple[str, str, str]]:
    ctx = mp.get_context("spawn")
    with ctx.Pool(workers, maxtasksperchild=100) as pool:
        return list(pool.imap_unordered(func, paths, chunksize=4))


def _cli(argv: list[str]) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "lmscreen", *argv],
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=600,
    )
    return proc.returncode, proc.stderr


def _cli_ok(rc: int, stderr: str) -> bool:
    lines = [x for x in stderr.splitlines() if x.strip()]
    if "Traceback" in stderr or "internal error" in stderr:
        return False
    if rc == 2:
        return len(lines) == 1
    return rc == 0


def hostile_family(n: int, sample: int, rng: random.Random, work: Path, workers: int) -> Result:
    folder = work / "hostile"
    folder.mkdir()
    xlsx = _xlsx_bytes()
    light = [
        "random_bytes",
        "truncated_gbk",
        "garbled_gbk",
        "nul_runs",
        "formulas",
        "html",
        "quotes",
        "odd_layout",
        "numbers",
        "header_only",
        "xlsx_damaged",
    ]
    kinds = [k for k, count in HEAVY.items() for _ in range(count)]
    kinds += [light[i % len(light)] for i in range(max(0, n - len(kinds)))]
    paths = [str(make_hostile(k, rng, folder, i, xlsx)) for i, k in enumerate(kinds)]
    results = _pool_map(_load_one, paths, workers)
    outcome = Counter(kind for _, kind, _ in results)
    bad = [(p, kind, msg) for p, kind, msg in results if kind in ("traceback", "bad_message")]
    unnamed = [p for p, kind, msg in results if kind == "exit2" and Path(p).name not in msg]
    cli_fail = []
    for path in rng.sample(paths, min(sample, len(paths))):
        rc, err = _cli(
            ["screen", path, "--no-llm", "--out", str(work / "hostile-out" / Path(path).stem), "--quiet"]
        )
        if not _cli_ok(rc, err):
            cli_fail.append((path, rc, err[-400:]))
    detail = (
        f"rows {outcome['rows']}, row errors {outcome['row_errors']}, exit 2 {outcome['exit2']}, "
        f"tracebacks {outcome['traceback']}, multi-line/empty messages {outcome['bad_message']}; "
        f"exit-2 lines not naming the file {len(unnamed)}; CLI sample {sample}: failed {len(cli_fail)}"
    )
    for p, kind, msg in (bad + [(p, rc, e) for p, rc, e in cli_fail])[:3]:
        detail += f"\n    {Path(p).name}: {kind}: {msg.strip().splitlines()[-1] if msg.strip() else ''}"
    return Result(
        "hostile-pools", len(paths) + sample, len(bad) + len(cli_fail), detail, {"outcome": outcome}
    )


# ----------------------------------------------------------------------------------------- model inspect

_JUNK_VALUES = [None, -1, 0, 1e308, float("nan"), "x", "", [], {}, True, 2**64, [1, 2], {"a": 1}, -(2**63)]


def _mutate_json(obj, rng: random.Random):
    if isinstance(obj, dict) and obj and rng.random() < 0.85:
        key = rng.choice(list(obj))
        choice = rng.random()
        if choice < 0.3:
            del obj[key]
        elif choice < 0.8:
            obj[key] = rng.choice(_JUNK_VALUES)
        else:
            obj[key] = _mutate_json(obj[key], rng)
        return obj
    if isinstance(obj, list) and obj:
        obj[rng.randrange(len(obj))] = rng.choice(_JUNK_VALUES)
        return obj
    return rng.choice(_JUNK_VALUES)


def _flip(data: bytes, rng: random.Random, span: int) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randint(1, 12)):
        buf[rng.randrange(min(span, len(buf)))] = rng.randrange(256)
    return bytes(buf)


def make_corrupt(kind: str, rng: random.Random, folder: Path, i: int, bases: dict) -> Path:
    import struct

    target = folder / f"m{i:04d}-{kind}"
    target.mkdir()
    if kind == "config":
        text = rng.choice(bases["configs"])
        choice = rng.random()
        if choice < 0.55:
            obj = json.loads(text)
            for _ in range(rng.randint(1, 4)):
                obj = _mutate_json(obj, rng) if isinstance(obj, (dict, list)) else obj
            text = json.dumps(obj, allow_nan=True)
        elif choice < 0.75:
            text = text[: rng.randint(0, len(text) - 1)]
        else:
            text = _flip(text.encode(), rng, len(text)).decode("utf-8", errors="replace")
        (target / "config.json").write_text(text, encoding="utf-8")
        return target if rng.random() < 0.5 else target / "config.json"
    if kind == "gguf":
        data = bases["gguf"]
        choice = rng.random()
        if choice < 0.35:
            data = data[: rng.randint(0, len(data) - 1)]
        elif choice < 0.7:
            data = _flip(data, rng, min(len(data), 4096))
        else:  # a huge count or length at one of the header's uint64 fields
            buf = bytearray(data)
            offset = rng.choice([8, 16, 24, 32, 40])
            buf[offset : offset + 8] = struct.pack("<Q", rng.choice([2**63, 2**40, 0xFFFFFFFFFFFFFFFF, 0]))
            data = bytes(buf)
        path = target / "model.gguf"
        path.write_bytes(data)
        return path
    # safetensors: a model folder whose shard header is corrupted
    (target / "config.json").write_text(bases["st_config"], encoding="utf-8")
    header_len, header, body_len = bases["st"]
    choice = rng.random()
    if choice < 0.3:
        obj = json.loads(header)
        for _ in range(rng.randint(1, 3)):
            obj = _mutate_json(obj, rng) if isinstance(obj, dict) else obj
        blob = json.dumps(obj, allow_nan=True).encode()
        prefix = struct.pack("<Q", len(blob))
    elif choice < 0.55:
        blob = header.encode()
        prefix = struct.pack("<Q", rng.choice([0, 2**63, len(blob) * 1000, len(blob) + 1, 7]))
    elif choice < 0.8:
        blob = _flip(header.encode(), rng, len(header))
        prefix = struct.pack("<Q", len(blob))
    else:
        blob = header.encode()[: rng.randint(0, len(header))]
        prefix = struct.pack("<Q", header_len)
    path = target / "model.safetensors"
    path.write_bytes(prefix + blob)
    if rng.random() < 0.5:
        os.truncate(path, len(prefix) + len(blob) + body_len)
    return target


def _inspect_one(path: str) -> tuple[str, str, str]:
    from lmscreen.errors import InputError
    from lmscreen.model.arch import inspect

    try:
        inspect(path)
    except InputError as exc:
        message = str(exc)
        return path, ("exit2" if "\n" not in message and message.strip() else "bad_message"), message[:300]
    except Exception:  # noqa: BLE001 - that is what we count
        return path, "traceback", traceback.format_exc()[-800:]
    return path, "ok", ""


def inspect_family(n: int, sample: int, rng: random.Random, work: Path, workers: int) -> Result:
    from model_files import write_sparse_gguf, write_sparse_safetensors

    folder = work / "inspect"
    folder.mkdir()
    gguf_path = work / "base.gguf"
    write_sparse_gguf(gguf_path, big_tensor_bytes=1 << 16)
    with gguf_path.open("rb") as fh:
        gguf_head = fh.read(64 << 10)
    st = work / "base.safetensors"
    write_sparse_safetensors(
        st,
        {
            "model.embed_tokens.weight": ("BF16", [1024, 64], 1024 * 64 * 2),
            "lm_head.weight": ("F16", [8], 16),
        },
    )
    raw = st.read_bytes()
    header_len = int.from_bytes(raw[:8], "little")
    configs = [
        p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests/data/configs").glob("*/config.json"))
    ]
    bases = {
        "configs": configs,
        "gguf": gguf_head,
        "st": (header_len, raw[8 : 8 + header_len].decode(), len(raw) - 8 - header_len),
        "st_config": configs[0],
    }
    kinds = [("config", "gguf", "safetensors")[i % 3] for i in range(n)]
    paths = [str(make_corrupt(k, rng, folder, i, bases)) for i, k in enumerate(kinds)]
    results = _pool_map(_inspect_one, paths, workers)
    outcome = Counter(kind for _, kind, _ in results)
    bad = [(p, kind, msg) for p, kind, msg in results if kind in ("traceback", "bad_message")]
    cli_fail = []
    for path in rng.sample(paths, min(sample, len(paths))):
        rc, err = _cli(["model", "inspect", path, "--json"])
        if not _cli_ok(rc, err):
            cli_fail.append((path, rc, err[-400:]))
    detail = (
        f"inspected {outcome['ok']}, exit 2 {outcome['exit2']}, tracebacks {outcome['traceback']}, "
        f"multi-line/empty messages {outcome['bad_message']}; CLI sample {sample}: failed {len(cli_fail)}"
    )
    for p, kind, msg in (bad + [(p, rc, e) for p, rc, e in cli_fail])[:3]:
        detail += f"\n    {Path(p).name}: {kind}: {msg.strip().splitlines()[-1] if msg.strip() else ''}"
    return Result(
        "model-inspect", len(paths) + sample, len(bad) + len(cli_fail), detail, {"outcome": outcome}
    )


# ----------------------------------------------------------------------------------------------- memory

_RSS_PROBE = (
    "import sys; from lmscreen.cli import main\n"
    "try:\n    main(sys.argv[1:])\nexcept SystemExit as e:\n    rc = e.code\n"
    "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
    "print('MAXRSS', hwm.split()[1], rc)\n"
)


def _exchange(number: int) -> str:
    code = f"{number:06d}"
    if code.startswith("92") or code[0] in "48":
        return "BJ"
    return "SZ" if code[0] in "0123" else "SH"


def _memory_case(
    folder: Path, rows: int, reports: int, big_report_mib: int, base_url: str, no_llm: bool = False
) -> float:
    folder.mkdir()
    texts = sorted(REPORTS.glob("*.txt"))
    (folder / "reports").mkdir()
    with (folder / "pool.csv").open("w", encoding="utf-8", newline="") as fh:
        fh.write("代码,名称,市盈率TTM,ROE\n")
        for i in range(rows):
            fh.write(f"{i:06d}.{_exchange(i)},样本{i},20.5,12.3\n")
    step = max(1, rows // reports)
    for j in range(reports):
        i = j * step
        text = texts[j % len(texts)].read_text(encoding="utf-8")
        if j == 0 and big_report_mib:
            unit = text.encode("utf-8")
            text = text * ((big_report_mib << 20) // len(unit) + 1)
        (folder / "reports" / f"{i:06d}.{_exchange(i)}.txt").write_text(text, encoding="utf-8")
    argv = [
        "screen",
        str(folder / "pool.csv"),
        "--reports",
        str(folder / "reports"),
        "--out",
        str(folder / "out"),
        "--engine",
        "openai",
        "--base-url",
        base_url,
        "--quiet",
    ] + (["--no-llm"] if no_llm else [])
    proc = subprocess.run(
        [sys.executable, "-c", _RSS_PROBE, *argv],
        capture_output=True,
        text=True,
        env=clean_env(),
        timeout=3600,
    )
    line = [x for x in proc.stdout.splitlines() if x.startswith("MAXRSS")]
    if not line or line[0].split()[2] != "0":
        raise RuntimeError(f"memory case failed: {proc.stderr[-500:]}")
    return int(line[0].split()[1]) / 1024


def memory_family(work: Path, quick: bool) -> Result:
    from servers import FakeServerProcess

    big_rows = 100_000 if quick else 1_000_000
    with FakeServerProcess(latency=0.0) as fake:
        small = _memory_case(work / "mem-small", 100, 10, 0, fake.base_url)
        big_text = _memory_case(work / "mem-20mb", 100, 10, 20, fake.base_url)
        big_pool = _memory_case(work / "mem-rows", big_rows, 1000, 0, fake.base_url)
        # Not a target, where the rest goes: the same pool without the LLM step (load, rules, outputs).
        no_llm = _memory_case(work / "mem-rows-no-llm", big_rows, 1000, 0, fake.base_url, no_llm=True)
    ratios = [big_text / small, big_pool / small]
    detail = (
        f"peak RSS small {small:.0f} MiB; 20 MB report {big_text:.0f} MiB ({ratios[0]:.2f}x); "
        f"{big_rows:,} rows + 1,000 reports {big_pool:.0f} MiB ({ratios[1]:.2f}x) (target <= 1.20x); "
        f"same pool --no-llm {no_llm:.0f} MiB ({no_llm / small:.2f}x)"
    )
    extra = {"ratios": ratios, "no_llm_ratio": no_llm / small}
    return Result("memory", 2, sum(r > 1.2 for r in ratios), detail, extra)


# ------------------------------------------------------------------------------------------------- main


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--quick", action="store_true", help="fewer cases (a few minutes on two busy cores)")
    ap.add_argument("--only", nargs="*", choices=FAMILIES, help="run only these families")
    ap.add_argument("--kills", type=int, help="kills per kill family (default 20; --quick 4)")
    ap.add_argument("--limit", type=int, default=2, help="pool rows per screened run in the kill families")
    ap.add_argument("--hostile", type=int, help="hostile pool files (default 2000; --quick 300)")
    ap.add_argument("--corrupt", type=int, help="corrupted model headers (default 500; --quick 150)")
    ap.add_argument("--sample", type=int, default=20, help="files also run through the real CLI, per family")
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--json", action="store_true", help="also print one JSON object at the end")
    ap.add_argument("--work", type=Path, help="keep every run's folder here (default: a temporary folder)")
    args = ap.parse_args()
    kills = args.kills or (4 if args.quick else 20)
    hostile = args.hostile or (300 if args.quick else 2000)
    corrupt = args.corrupt or (150 if args.quick else 500)
    families = args.only or list(FAMILIES)
    rng = random.Random(args.seed)
    workers = max(1, min(2, len(os.sched_getaffinity(0))))
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="lmscreen-reliability-") as tmp:
        work = Path(tmp)
        if args.work:
            work = args.work
            work.mkdir(parents=True, exist_ok=True)
        for family in families:
            t = time.perf_counter()
            if family == "kill-embedded":
                res = kill_family(family, kills, args.limit, [], rng, work)
            elif family in ("kill-openai", "server-restart"):
                from servers import LlamaServer

                with LlamaServer(ALIAS, n_ctx=4096) as server:
                    extra = ["--engine", "openai", "--base-url", server.base_url, "--model", ALIAS]
                    extra += ["--concurrency", "1"]
                    res = kill_family(
                        family,
                        kills,
                        args.limit,
                        extra,
                        rng,
                        work,
                        server if family == "server-restart" else None,
                    )
            elif family == "concurrency":
                res = concurrency_family(max(2, args.limit), work)
            elif family == "hostile-pools":
                res = hostile_family(hostile, args.sample, rng, work, workers)
            elif family == "model-inspect":
                res = inspect_family(corrupt, args.sample, rng, work, workers)
            else:
                res = memory_family(work, args.quick)
            res.detail += f" [{time.perf_counter() - t:.0f} s]"
            results.append(res)
            print(res.line(), flush=True)
    failed = sum(r.failed for r in results)
    print(f"{'total':<15} tried {sum(r.tried for r in results):>5}  failed {failed:>3}")
    if args.json:
        print(
            json.dumps(
                {r.name: {"tried": r.tried, "failed": r.failed, **r.extra} for r in results}, default=str
            )
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
