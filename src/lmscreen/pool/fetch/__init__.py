"""`lmscreen pool fetch` / `pool enrich`: build or complete a stock pool from akshare, efinance, baostock or
tushare.

Module map: calls (rate limit, retries with backoff, the per-vendor circuit breaker, cache keyed by call and
date), frames (library DataFrames to polars, codes normalised), periods (which report periods a date calls
for), akshare_source, efinance_source, baostock_source and tushare_source (one job each: the calls and the
unit conversions of one library), failover (`--source auto`: the sources in turn, per field), build (the
pool file and its sidecar of per-column sources), enrich (fill a user's pool without touching their columns).

The libraries are optional (`pip install 'lmscreen[data]'`) and imported only here, when a command needs
them; their functions are looked up at call time so tests can replay recorded frames by patching them.
"""
