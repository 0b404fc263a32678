"""The script a user would write instead of `lmscreen screen --no-llm`: the csv module, the default rules.

Reads a broker-style CSV (代码, 名称, 市盈率TTM, 净资产收益率, 净利润_<year> ...), applies DESIGN.md's default
rules row by row and writes code, risk, score. No encodings, aliases, code normalisation, row errors or
audit trail: just the rules, as short as a user would write them. `bench/rules_throughput.py` times it
beside `screen --no-llm` on the same file.

Usage: python bench/simple_screen.py POOL.csv OUT.csv
"""

import csv
import math
import sys


def number(cell):
    try:
        value = float(cell.strip().rstrip("%"))
    except ValueError:
        return None  # "", "--", "亏损"
    return value if math.isfinite(value) else None


def main(pool, out):
    with (
        open(pool, encoding="utf-8-sig", newline="") as src,
        open(out, "w", encoding="utf-8", newline="") as dst,
    ):
        rows = csv.reader(src)
        header = next(rows)
        code, name, pe_col, roe_col = (header.index(h) for h in ("代码", "名称", "市盈率TTM", "净资产收益率"))
        profits = [i for i, h in enumerate(header) if h.startswith("净利润")][-2:]
        writer = csv.writer(dst)
        writer.writerow(["code", "risk_level", "score"])
        for row in rows:
            pe, roe = number(row[pe_col]), number(row[roe_col])
            st = row[name].startswith(("ST", "*ST", "S*ST", "SST"))
            losses = [number(row[i]) for i in profits]
            loss_two_years = len(losses) == 2 and None not in losses and losses[0] < 0 and losses[1] < 0
            if st or loss_two_years or (roe is not None and roe < 5):
                risk = "高"
            elif roe is None:
                risk = "未知"
            elif roe < 15 or pe is None or pe <= 0 or pe > 50:
                risk = "中"
            else:
                risk = "低"
            score = ""
            if roe is not None:
                pe_used = pe if pe is not None and pe > 0 else 100.0
                raw = 100 - pe_used * (20 / 100) - (15 - roe) * 5
                score = math.floor(min(max(raw, 0.0), 100.0) + 0.5)
            writer.writerow([row[code], risk, score])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
