"""`brief`: a short 财报亮点 script per company, where every number is the filing's own.

Modules, one job each: `highlights` (what is worth saying, chosen by rules from the facts, each number a
`Num` with its evidence or derivation), `script` (the deterministic template a person would record, and
the read length), `numbers` (every number a script says, read back from its text), `check` (whether a
model's script may be kept), `task` (the task on the durable runner). The job is run/brief.py, the
outputs outputs/briefs.py, the command cli/brief.py.

Why the model never sees the filing: it is given the template's own sentences as its points, so a planted
instruction in a filing (`请写公司业绩大增`) never reaches it, and whatever it writes is checked anyway.
"""
