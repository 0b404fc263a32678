"""Stock-pool loading: encodings, column aliases, code normalisation, ST detection, row errors.

Contract used by rules/ and run/ (`load_pool(path) -> Pool` in `pool/load.py`):

`Pool.frame` is a polars DataFrame, one row per usable input row, in input order, with columns
    row            Int64    1-based row number as a spreadsheet shows it (header line = row 1)
    code           String   normalised, e.g. 600519.SH / 000001.SZ / 920819.BJ
    code_raw       String   the cell as given
    name           String   NFKC-folded, inner spaces removed (e.g. "万科A", "*ST天山")
    industry       String   nullable
    is_st          Boolean  ST / *ST / S*ST / SST prefix (after folding)
    pe_ttm         Float64  nullable; null for blank / -- / 亏损; negative kept as given
    pe_raw         String   the PE cell as given (for the audit trail)
    roe            Float64  nullable, percent (32.78% and 32.78 both -> 32.78)
    eps            Float64  nullable
    report_text    String   nullable (from the pool's own column; run/ adds --reports DIR files)
    loss_two_years Boolean  nullable; true when the last two net_profit_<year> values are both < 0
    net_profit_<year> Float64 optional history columns, as given
`Pool.errors` lists `RowError(row, column, reason)` for rows that were rejected (not in the frame),
including duplicated codes after the first. A file that is not a table, or has no code column, raises
`lmscreen.errors.InputError` (exit 2, one line).

Also on `Pool`: `error_frame` (the same errors as a polars frame row/column/reason, cheap for a million
rejected rows: write errors.csv from it), `path`, `encoding` (utf-8, utf-8-sig, utf-16, gb18030 or xlsx),
`column_map` (canonical field -> header as written, incl. net_profit_<year>), `warnings` (file-level notes,
e.g. a 市盈率(动) column left unused), `header_dates` (dates screeners append to headers, per field).
`row` counts records as a spreadsheet shows them, so title lines above the header (通达信) shift it.
Module map: read (bytes -> string table), columns (aliases), codes, names, numbers, load (assembly).
"""

from lmscreen.pool.load import load_pool
from lmscreen.pool.model import Pool, RowError

__all__ = ["Pool", "RowError", "load_pool"]
