"""``warhost serve``: play and watch battles in the browser (FastAPI + uvicorn).

:func:`warhost.web.app.create_app` builds the application; ``docs/web.md`` describes the
HTTP API. Each battle is a session of its own (:mod:`warhost.web.sessions`); uploads are
read by :mod:`warhost.web.uploads`; Monte Carlo runs by :mod:`warhost.web.simulations`.
"""

from __future__ import annotations

__all__: list[str] = []
