"""Model planner: which model fits which GPU, and how to launch it.

arch/ reads what a model is made of, catalog/ holds the built-in models, memory/ plans GPU memory per engine,
launch/ prints engine commands, recommend/ ranks models for a card; names.py decodes model names,
hardware.py holds the GPUs, spec.py the ModelSpec they all share.
"""
