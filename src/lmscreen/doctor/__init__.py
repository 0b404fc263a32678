"""`lmscreen doctor`: tell in seconds why an OpenAI-compatible endpoint does or does not work."""

from lmscreen.doctor.checks import run_doctor
from lmscreen.doctor.report import Check, DoctorReport, Status

__all__ = ["Check", "DoctorReport", "Status", "run_doctor"]
