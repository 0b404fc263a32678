"""`compare`: how a metric moved across industries over periods, from the user's own filings.

Modules, one job each: `metrics` (the metrics a user may ask for, and their fact metric), `spans` (the
periods asked: `--periods 2021:2024 --period-kind FY`), `aggregate` (companies' series and industries'
trends, with honest gaps: missing periods, n<2, conflicts, forecasts apart), `narrative` (the written
comparison: deterministic, or a model's text kept only if every number is a table cell), `task` (the
document and narrative tasks on the durable runner). A document's points (every fact with its sentence,
cached across runs by file hash, and filled by `screen` too) are task/points.py. The job is
run/compare.py, the command cli/compare.py.
"""
