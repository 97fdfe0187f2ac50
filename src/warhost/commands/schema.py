"""``warhost schema``: the JSON Schema of a ruleset's scenario files."""

from __future__ import annotations

from typing import Annotated

import typer

from warhost.commands._shared import print_json


def schema(
    ruleset: Annotated[str, typer.Argument(metavar="RULESET", help="A registered ruleset name.")],
) -> None:
    """Print the JSON Schema of the ruleset's scenario files."""
    from warhost.core.registry import get_ruleset

    found = get_ruleset(ruleset)
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                **found.scenario_model.model_json_schema()}
    print_json(document)


def register(app: typer.Typer) -> None:
    """Add the command to ``app``."""
    app.command("schema")(schema)
