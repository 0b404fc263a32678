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
"""
