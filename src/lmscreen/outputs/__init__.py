"""What a run leaves behind, and the one place that says what it is.

- `columns`: every output column with its type, the files that carry it and its meaning.
- `levels`: the run's risk levels as the outputs show them (names, order, worst, colours), from its rules.
- `results`: results.csv / results.jsonl / errors.csv / run.json, written atomically a chunk at a time.
- `history`: the run history (SQLite), its schema grown by numbered migrations (`migrations`).
- `atomic`: whole-or-nothing file writes.

A leaf package: it imports nothing of lmscreen above it (no run/, cli/, report/), so the runner, the
reports and the CLI all stand on it.
"""
