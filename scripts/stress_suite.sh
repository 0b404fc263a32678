#!/usr/bin/env bash
# The whole test suite under load: README's test command, twice in a row, while every core is kept busy.
#
#   scripts/stress_suite.sh [RUNS] [-- PYTEST_ARGS...]
#
# Starts a busy loop on every core this process may use (stress-ng when it is installed, e.g.
# `apt-get install stress-ng`; otherwise one Python busy process per core), then runs
# `.venv/bin/python -m pytest -q` RUNS times (default 2) one after the other and prints, for each run, its
# wall time, its pytest summary line and PASS/FAIL. The busy loop is killed on every way out (end, Ctrl-C,
# error). Exit status: 0 when every run passed, 1 otherwise. Each run's full output is kept in a log whose
# path is printed. Extra arguments after `--` go to pytest (e.g. `-- tests/test_openai_engine.py -x`).
#
#   scripts/stress_suite.sh 0
#
# RUNS = 0 is the idle measurement: no busy loop, one run, its wall time, the 15 slowest tests and the 15
# test files that cost the most (setup + call + teardown of their tests; the suite's budget on an idle
# 2-core machine is 4 minutes).
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs=2
if [[ $# -gt 0 && "$1" != "--" ]]; then
    runs="$1"
    shift
fi
[[ $# -gt 0 && "$1" == "--" ]] && shift
python="$root/.venv/bin/python"
if [[ ! -x "$python" ]]; then
    echo "stress_suite: $python is missing: create the venv as README says first" >&2
    exit 2
fi
cores="$(nproc)"
logs="$(mktemp -d "${TMPDIR:-/tmp}/stress-suite-XXXXXX")"

busy_pid=""
test_pid=""
stop_busy() {
    if [[ -n "$test_pid" ]]; then
        kill -TERM "$test_pid" 2>/dev/null
        wait "$test_pid" 2>/dev/null
    fi
    if [[ -n "$busy_pid" ]]; then
        kill -TERM -- "-$busy_pid" 2>/dev/null
        sleep 0.5
        kill -KILL -- "-$busy_pid" 2>/dev/null
        wait "$busy_pid" 2>/dev/null
        busy_pid=""
    fi
}
trap stop_busy EXIT
trap 'exit 130' INT TERM

idle=0
if [[ "$runs" == "0" ]]; then
    idle=1
    runs=1
    set -- --durations=0 "$@"
fi

# The busy loop runs in its own session (setsid), so one kill of its process group ends all its workers.
if [[ $idle -eq 1 ]]; then
    echo "idle run: no busy loop; logs in $logs"
elif command -v stress-ng >/dev/null 2>&1; then
    load_by="stress-ng --cpu $cores"
    setsid stress-ng --cpu "$cores" --timeout 0 --quiet &
else
    load_by="python busy loop, $cores processes"
    setsid "$python" -c '
import multiprocessing as mp, sys
def spin():
    while True:
        pass
procs = [mp.Process(target=spin, daemon=True) for _ in range(int(sys.argv[1]))]
for p in procs:
    p.start()
for p in procs:
    p.join()
' "$cores" &
fi
if [[ $idle -eq 0 ]]; then
    busy_pid=$!
    sleep 2
    if ! kill -0 "$busy_pid" 2>/dev/null; then
        echo "stress_suite: the busy loop ($load_by) did not start" >&2
        exit 1
    fi
    echo "busy loop: $load_by (pid $busy_pid); logs in $logs"
fi

failed=0
for ((i = 1; i <= runs; i++)); do
    log="$logs/run$i.log"
    load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
    start=$(date +%s)
    # In the background and waited for, so that a signal to this script runs the trap at once.
    "$python" -m pytest -q "$@" >"$log" 2>&1 &
    test_pid=$!
    wait "$test_pid"
    rc=$?
    test_pid=""
    wall=$(($(date +%s) - start))
    summary="$(grep -E '^(=+ )?[0-9]+ (passed|failed|error)|(passed|failed|error).* in [0-9.]+s' "$log" | tail -n 1)"
    verdict=PASS
    if [[ $rc -ne 0 ]]; then
        verdict=FAIL
        failed=1
    fi
    printf 'run %d: %s in %dm%02ds (pytest exit %d; load at start %s): %s\n    log %s\n' \
        "$i" "$verdict" $((wall / 60)) $((wall % 60)) "$rc" "$load_before" "${summary:-no summary line}" "$log"
    if [[ $idle -eq 1 ]]; then
        durations="$(sed -n '/slowest durations/,/^$/p' "$log" | grep -E '^[0-9.]+s (setup|call|teardown) ')"
        echo "    slowest 15 tests:"
        head -n 15 <<<"$durations" | sed 's/^/      /'
        echo "    costliest 15 files (seconds):"
        awk '{ sub(/s$/, "", $1); split($3, id, "::"); total[id[1]] += $1 }
             END { for (f in total) printf "%8.1f %s\n", total[f], f }' <<<"$durations" |
            sort -rn | head -n 15 | sed 's/^/    /'
    fi
done
exit "$failed"
