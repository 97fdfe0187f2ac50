"""The registry finds rulesets by name and suggests near misses."""

from __future__ import annotations

import pytest

from warhost.core.errors import WarhostError
from warhost.core.registry import all_rulesets, get_ruleset


def test_fantasy_battle_is_registered() -> None:
    assert "fantasy-battle" in all_rulesets()
    assert get_ruleset("fantasy-battle").versioned_name == "fantasy-battle@1"


def test_unknown_name_suggests_the_nearest() -> None:
    with pytest.raises(WarhostError, match="did you mean 'fantasy-battle'"):
        get_ruleset("fantasy-batle")


def test_core_never_imports_a_ruleset_by_name() -> None:
    import ast
    from pathlib import Path

    from warhost import core

    for path in Path(core.__path__[0]).glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.startswith("warhost.rulesets.") for n in names), path


def test_threads_asking_at_once_all_see_every_ruleset() -> None:
    """The first look-up imports the rulesets; threads asking meanwhile wait for all of them
    (a web server's threads once saw only the first few)."""
    import subprocess
    import sys

    code = (
        "import threading\n"
        "from warhost.core import registry\n"
        "seen = []\n"
        "threads = [threading.Thread(target=lambda: seen.append(len(registry.all_rulesets())))"
        " for _ in range(8)]\n"
        "[t.start() for t in threads]\n"
        "[t.join() for t in threads]\n"
        "print(sorted(set(seen)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == f"[{len(all_rulesets())}]"
