"""Launch commands per engine, with the family's parsers, chat template and sampling preset."""

from lmscreen.model.launch.command import ENGINES, LaunchCommand, launch_command
from lmscreen.model.launch.families import TASKS, Family, family_for, sampling_preset

__all__ = ["ENGINES", "TASKS", "Family", "LaunchCommand", "family_for", "launch_command", "sampling_preset"]
