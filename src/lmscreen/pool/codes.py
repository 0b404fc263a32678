"""Normalise A-share codes from every vendor form to `600519.SH` / `000001.SZ` / `920819.BJ`, vectorised.

Accepted forms: bare `600519` (AkShare), `1` (Excel dropped the zeros of 000001), `600519.0` (a float cell),
`sh600519` / `SH600519` / `sh.600519` (Sina, qlib, BaoStock), `600519.SH` / `.SS` (Tushare, Yahoo),
`600519.XSHG` / `000001.XSHE` (JoinQuant), `bj830799`, `920819.BJ`, and Eastmoney secids `1.600519` /
`0.000001` (0 covers both SZ and BJ). `="000001"` and `'000001`, Excel's ways to keep zeros, are unwrapped.

The exchange comes from the 6-digit prefix; a vendor's own exchange tag must agree with it, because a
disagreement (`sz600519`) means the row is not what it claims to be. `92` is checked before anything else
starting with 9: 900xxx is a Shanghai B share, 92xxxx the Beijing exchange's new segment. A prefix outside
the stock table (funds 510300, bonds 123xxx, or a segment this table predates) is a row error when the cell
is bare, because the exchange is then unknowable; when the vendor tagged it (`510300.SH`) the tag is kept
and `exchange_from_tag` marks the row, so the loader can say how many such codes it kept.
"""

from __future__ import annotations

import polars as pl

from lmscreen.pool.text import fold_width, full_null

# Exchange by prefix, as 2- or 3-digit prefixes; BJ's 92 is its own entry, never caught by a rule about 9.
EXCHANGE_PREFIXES: dict[str, tuple[str, ...]] = {
    "BJ": ("92", "43", "83", "87", "88"),
    "SH": ("600", "601", "603", "605", "688", "689", "900"),
    # 302 is ChiNext's new segment (e.g. 302132 中航成飞, renamed 2025).
    "SZ": ("000", "001", "002", "003", "300", "301", "302", "200"),
}
# Exchanges as small integers (their index here), so the per-row checks compare numbers, not strings.
# "SZ/BJ" is only ever a vendor's tag (an Eastmoney secid starting 0), never a code's exchange.
_EXCHANGES = ("SH", "SZ", "BJ", "SZ/BJ")
_SH, _SZ, _BJ, _SZ_OR_BJ = range(len(_EXCHANGES))
# The prefix table as a lookup by the 3-digit prefix's value (000-999): one gather per column.
_BY_PREFIX3: list[int | None] = [None] * 1000
for _exchange, _prefixes in EXCHANGE_PREFIXES.items():
    for _prefix in _prefixes:
        for _next in range(10) if len(_prefix) == 2 else (None,):
            _BY_PREFIX3[int(_prefix if _next is None else f"{_prefix}{_next}")] = _EXCHANGES.index(_exchange)

# The forms that fill most files: `600519` and `600519.SH` (ASCII, so nothing to fold), cut by position.
_PLAIN = r"^[0-9]{6}(?:\.(?:SH|SZ|BJ))?$"

# One pass: optional Excel wrappers (="…", '…), then exactly one of the vendor forms.
_ANY_FORM = (
    r"(?i)^\s*=?[\"']?(?:"
    r"(SH|SZ|BJ)[.:]?(\d{1,6})"  # sh600519, SH600519, sh.600519, bj830799
    r"|(\d{1,6})\.(SH|SS|SZ|BJ|XSHG|XSHE|BSE)"  # 600519.SH, 600519.SS, 600519.XSHG, 000001.XSHE
    r"|([01])\.(\d{6})"  # Eastmoney secid: 1.600519, 0.000001
    r"|(\d{1,6})(?:\.0+)?"  # 600519, 1 (Excel dropped the zeros), 600519.0 (a float cell)
    r")[\"']?\s*$"
)
_VENDOR_EXCHANGE = {
    "SH": "SH",
    "SS": "SH",
    "XSHG": "SH",
    "SZ": "SZ",
    "XSHE": "SZ",
    "BJ": "BJ",
    "BSE": "BJ",
    "1": "SH",
    "0": "SZ/BJ",
}


def _quoted(expr: pl.Expr) -> pl.Expr:
    return pl.concat_str([pl.lit("'"), expr.str.slice(0, 40), pl.lit("'")])


def normalise_codes(raw: pl.Series) -> pl.DataFrame:
    """Return columns `code` (normalised or null), `code_error` (why not, or null) and `exchange_from_tag`
    (true where the exchange came from the vendor's tag because the prefix is not in the stock table)."""
    digits, given, tagged = _split_codes(raw)
    # `digits` is null or 6 digits; a non-ASCII digit fails the cast, and no prefix in the table has one.
    prefix = digits.str.head(3).cast(pl.UInt16, strict=False)
    inferred = pl.Series("inferred", _BY_PREFIX3, dtype=pl.UInt8).gather(prefix)
    frame = pl.DataFrame([digits, given, inferred])
    given_, inferred_ = pl.col("given"), pl.col("inferred")
    agrees = given_.is_null() | (given_ == inferred_) | ((given_ == _SZ_OR_BJ) & inferred_.is_in([_SZ, _BJ]))
    from_tag = (inferred_.is_null() & (given_ != _SZ_OR_BJ)).fill_null(False)
    frame = frame.with_columns(
        ((inferred_.is_not_null() & agrees) | from_tag).fill_null(False).alias("ok"),
        from_tag.alias("from_tag"),
    )
    ok = frame.get_column("ok")
    if (ok & tagged).all():  # every cell is already `600519.SH` and right: the cell is the code
        codes = raw.alias("code")
    else:
        exchange = pl.coalesce(inferred_, given_).replace_strict(
            dict(enumerate(_EXCHANGES)), return_dtype=pl.String
        )
        codes = frame.select(
            pl.when("ok").then(pl.concat_str([pl.col("digits"), pl.lit("."), exchange])).alias("code")
        ).to_series()
    errors = full_null("code_error", raw.len(), pl.String)
    if not ok.all():
        bad = ~ok
        names = pl.Series(_EXCHANGES, dtype=pl.String)
        rejected = frame.filter(bad).with_columns(
            names.gather(frame.get_column("given").filter(bad)).alias("given"),
            names.gather(frame.get_column("inferred").filter(bad)).alias("inferred"),
            raw.filter(bad).alias("raw"),
        )
        errors = errors.scatter(bad.arg_true(), _reasons(rejected))
    return pl.DataFrame([codes, errors, frame.get_column("from_tag").alias("exchange_from_tag")])


def _split_codes(raw: pl.Series) -> tuple[pl.Series, pl.Series, pl.Series]:
    """Per cell: the 6-digit code and the vendor's exchange tag (index into `_EXCHANGES`), null if
    unreadable, and whether the cell is exactly `<6 digits>.<SH|SZ|BJ>`.

    The two forms that fill most files (`600519`, `600519.SH`) are ASCII and cut by position after one
    anchored check; only the other cells are width-folded and pay for the full regex.
    """
    plain = raw.str.contains(_PLAIN).fill_null(False)
    cell = pl.col("raw")
    last = cell.str.tail(1)  # the tag of a plain cell is told by its last letter: H, Z or J
    cut = pl.DataFrame([raw.alias("raw"), plain.alias("plain")]).select(
        pl.when("plain").then(cell.str.head(6)).alias("digits"),
        pl.when(pl.col("plain") & (cell.str.len_bytes() == 9))
        .then(pl.when(last == "H").then(_SH).when(last == "Z").then(_SZ).otherwise(_BJ))
        .cast(pl.UInt8)
        .alias("given"),
    )
    digits, given = cut.get_column("digits"), cut.get_column("given")
    if not plain.all():
        rest = ~plain
        parts = fold_width(raw.filter(rest)).str.extract_groups(_ANY_FORM).struct.unnest()
        g = [pl.col(str(i)) for i in range(1, 8)]
        vendor = {tag: _EXCHANGES.index(exchange) for tag, exchange in _VENDOR_EXCHANGE.items()}
        slow = parts.select(
            pl.coalesce(g[1], g[2], g[5], g[6]).str.zfill(6).alias("digits"),
            pl.coalesce(g[0], g[3], g[4])
            .str.to_uppercase()
            .replace_strict(vendor, default=None, return_dtype=pl.UInt8)
            .alias("given"),
        )
        index = rest.arg_true()
        digits = digits.scatter(index, slow.get_column("digits"))
        given = given.scatter(index, slow.get_column("given"))
    return digits, given, given.is_not_null() & plain


def _reasons(bad: pl.DataFrame) -> pl.Series:
    """Why each rejected code was rejected (computed for the rejected rows only)."""
    raw = pl.col("raw")
    return bad.select(
        pl.when(raw.is_null() | (raw.str.strip_chars() == ""))
        .then(pl.lit("empty code"))
        .when(pl.col("digits").is_null())
        .then(pl.concat_str([pl.lit("not a stock code: "), _quoted(raw)]))
        .when(pl.col("inferred").is_null())
        .then(
            pl.concat_str(
                [
                    pl.lit("unknown exchange for code "),
                    _quoted(pl.col("digits")),
                    pl.lit(" (not an A-share stock prefix; tag it .SH/.SZ/.BJ if it is listed)"),
                ]
            )
        )
        .otherwise(
            pl.concat_str(
                [
                    _quoted(raw),
                    pl.lit(" is marked "),
                    pl.col("given"),
                    pl.lit(" but "),
                    pl.col("digits"),
                    pl.lit(" is listed on "),
                    pl.col("inferred"),
                ]
            )
        )
        .alias("code_error")
    ).to_series()
