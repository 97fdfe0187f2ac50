"""The README's second command is exactly what CI runs (`.ci/run`), and it installs the browser
the browser tests need when it is missing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_readme_second_command_is_what_ci_runs() -> None:
    block = re.search(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    assert block is not None
    second = block.group(1).splitlines()[1]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert ci[-1] == second
    assert "apt-get install -y -qq chromium" in second
