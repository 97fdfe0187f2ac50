"""Test-wide settings: Hypothesis has no per-example deadline here, since tests never assert
on time (the machine may be busy; how cost grows is checked by counting work instead)."""

from hypothesis import settings

settings.register_profile("warhost", deadline=None)
settings.load_profile("warhost")
