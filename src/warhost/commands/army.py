"""``warhost army``: check `dnd4e-war` army lists against their battle's budget and limits
(W4-ARMY, W4-ITEM) and print what each unit costs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from warhost.commands._shared import EXIT_USAGE, out_console, print_json

if TYPE_CHECKING:
    from warhost.rulesets.dnd4e_war.army import Problem, Report
    from warhost.rulesets.dnd4e_war.model import ArmySpec

army_app = typer.Typer(help="dnd4e-war army lists: points, formation limits and magic items.",
                       no_args_is_help=True)

ArmyFiles = Annotated[list[Path], typer.Argument(metavar="ARMY.yaml...",
                                                 help="Army files (two: also compared).")]
ArmyFile = Annotated[Path, typer.Argument(metavar="ARMY.yaml", help="An army file.")]
LevelOption = Annotated[int | None, typer.Option(
    "--level", min=1, max=30, help="Battle level (default: the army's).")]
SizeOption = Annotated[Literal["small", "medium", "large", "huge"] | None, typer.Option(
    "--size", help="Battle size (default: the army's).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]


def _check(path: Path, level: int | None, size: str | None) -> tuple[ArmySpec, Report, Any]:
    from warhost.rulesets.dnd4e_war.army import check_army
    from warhost.rulesets.dnd4e_war.army_file import load_army
    from warhost.rulesets.dnd4e_war.model import BattleSpec

    army, _data, lines = load_army(path)
    battle = BattleSpec(level=level or army.level, size=size or army.size)  # type: ignore[arg-type]
    return army, check_army(army, battle), lines


def _where(path: Path, lines: Any, problem: Problem) -> str:
    from warhost.core.scenario import field_name

    line = None
    for cut in range(len(problem.where), -1, -1):
        line = lines.get(tuple(problem.where[:cut]))
        if line is not None:
            break
    field = field_name(problem.where)
    return f"{path}:{line or 1}: {field + ': ' if field else ''}{problem.message}"


def _as_json(path: Path, report: Report, lines: Any) -> dict[str, Any]:
    return {
        "file": str(path), "name": report.name, "level": report.level, "size": report.size,
        "budget": report.budget, "overage": report.overage, "total": report.total,
        "ok": not report.errors,
        "units": [{"id": u.id, "name": u.name, "category": u.category,
                   "companies": u.companies, "each": u.each, "cost": u.cost}
                  for u in report.units],
        "items": [{"name": n, "carrier": c, "cost": p} for n, c, p in report.items],
        "problems": [{"rule": p.rule, "error": p.error, "field": list(p.where),
                      "message": _where(path, lines, p)} for p in report.problems],
        "notes": list(report.notes),
    }


@army_app.command("validate")
def validate(files: ArmyFiles, level: LevelOption = None, size: SizeOption = None,
             as_json: JsonOption = False) -> None:
    """Check army lists: points against the budget, formation and item limits, item
    levels and carriers (errors: exit 2); "should"s are warnings."""
    from warhost.rulesets.dnd4e_war.army import compare_armies

    checked = [(path, *_check(path, level, size)) for path in files]
    failed = any(report.errors for _p, _a, report, _l in checked)
    extra: list[Problem] = []
    if len(checked) == 2:
        extra = compare_armies(checked[0][1], checked[1][1])
        failed = failed or any(p.error for p in extra)
    if as_json:
        print_json({"ok": not failed, "armies": [_as_json(p, r, ln) for p, _a, r, ln in checked],
                    "compared": [{"rule": p.rule, "error": p.error, "message": p.message}
                                 for p in extra]})
    else:
        for path, _army, report, lines in checked:
            _print_check(path, report, lines)
        for problem in extra:
            typer.echo(f"{'error' if problem.error else 'warning'}: {problem.message}")
    if failed:
        raise typer.Exit(EXIT_USAGE)


def _print_check(path: Path, report: Report, lines: Any) -> None:
    typer.echo(f"{path}: {report.name} (level {report.level} {report.size} battle)")
    wide = max([16, *(len(u.id) for u in report.units), *(len(i[0]) for i in report.items)])
    for u in report.units:
        typer.echo(f"  {u.id:<{wide}} {u.category:<8} {u.companies:>3} x {u.each:>7} = "
                   f"{u.cost:>8}")
    for name, carrier, cost in report.items:
        typer.echo(f"  {name:<{wide}} {'item':<8} {carrier:>13} = {cost:>8}")
    over = f" (+{report.overage} overage)" if report.overage else ""
    verdict = "ok" if not report.errors else "INVALID"
    typer.echo(f"  total {report.total} of {report.budget}{over}: {verdict}")
    for problem in report.problems:
        kind = "error" if problem.error else "warning"
        typer.echo(f"{kind}: {_where(path, lines, problem)}")
    for note in report.notes:
        typer.echo(f"note: {note}")


@army_app.command("cost")
def cost(file: ArmyFile, level: LevelOption = None, size: SizeOption = None,
         as_json: JsonOption = False) -> None:
    """Print what each unit, magic item and the battle banner cost, and the total against
    the budget (W4-ARMY-06/10, W4-ITEM-05/06)."""
    from rich.table import Table

    _army, report, lines = _check(file, level, size)
    if as_json:
        print_json(_as_json(file, report, lines))
        return
    table = Table(title=f"{report.name}: level {report.level} {report.size} battle")
    for column in ("Unit", "Name", "Category", "Companies", "Each", "Points"):
        table.add_column(column, justify="right" if column in ("Companies", "Each", "Points")
                         else "left")
    for u in report.units:
        table.add_row(u.id, u.name, u.category, str(u.companies), str(u.each), str(u.cost))
    for name, carrier, points in report.items:
        table.add_row(carrier, name, "item", "", "", str(points))
    over = f" + {report.overage}" if report.overage else ""
    table.add_row("", "Total", "", "", f"of {report.budget}{over}", str(report.total))
    console = out_console()
    console.print(table)
    for note in report.notes:
        console.print(f"note: {note}")


def register(app: typer.Typer) -> None:
    """Add the command group to ``app``."""
    app.add_typer(army_app, name="army")
