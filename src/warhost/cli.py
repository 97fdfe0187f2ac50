"""The ``warhost`` command line.

Commands: ``rulesets``, ``battle``, ``play``, ``replay``, ``validate``, ``schema``, ``map``.
Every problem with the user's input ends with one line on stderr, ``error: file:line: field:
message``, and exit code 2 (a traceback only with ``warhost --debug ...``). Output files
(replays, maps) are written only when the command succeeded, and atomically.

Exit codes: 0 success; 1 ``replay``: the battle does not come out the same; 2 bad input or
usage; 3 an internal error (a bug: please report it with ``--debug`` output); 130 interrupted.
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

try:  # typer carries its own copy of click since 0.2x
    from typer._click import exceptions as _click_errors
    from typer._click.core import Context as _Context
except ImportError:  # pragma: no cover - older typer on top of click
    from click import Context as _Context  # type: ignore[assignment, unused-ignore]
    from click import exceptions as _click_errors  # type: ignore[no-redef, unused-ignore]

from warhost import __version__
from warhost.core.commanders import Commander, HumanCommander, ScriptedCommander
from warhost.core.decisions import Decision
from warhost.core.dice import DiceSource, ManualDice, SeededDice
from warhost.core.engine import Battle, BattleResult, build_commanders, make_commander, run_battle
from warhost.core.errors import DiceExhaustedError, ReplayError, WarhostError
from warhost.core.registry import all_rulesets, get_ruleset
from warhost.core.replay import (
    RecordingDice,
    Replay,
    compare,
    load_replay,
    replay_commanders,
    replay_dice,
    replay_scenario,
    rerun,
    save_replay,
)
from warhost.core.scenario import Scenario, field_name, load_scenario
from warhost.render.narrative import Narrator

EXIT_DIFFERS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130
COMMANDER_KINDS = ("ai", "random", "first", "scripted")

_options: dict[str, bool] = {"debug": False}


class _Interrupted(Exception):
    """Ctrl-C during a command."""


class _InputEnded(Exception):
    """Standard input closed while a person was being asked something."""


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


def _fail(message: str) -> None:
    sys.stderr.write(f"error: {_one_line(message)}\n")
    sys.stderr.flush()


class WarhostGroup(typer.core.TyperGroup):
    """The top-level command group: turns every failure into one line and an exit code."""

    def invoke(self, ctx: _Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Interrupted() from None
        except EOFError:
            raise _InputEnded() from None

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> NoReturn:
        _options["debug"] = False
        code = self._run(args, prog_name or "warhost", complete_var, **extra)
        sys.exit(code)

    def _run(
        self, args: Sequence[str] | None, prog_name: str, complete_var: str | None, **extra: Any
    ) -> int:
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, **extra)
        except _click_errors.NoArgsIsHelpError as exc:
            typer.echo(exc.format_message())
            return 0
        except _click_errors.UsageError as exc:
            _fail(exc.format_message() + " (see warhost --help)")
            return EXIT_USAGE
        except _click_errors.ClickException as exc:
            _fail(exc.format_message())
            return EXIT_USAGE
        except (typer.Abort, _Interrupted, KeyboardInterrupt):
            if _options["debug"]:
                raise
            _fail("interrupted")
            return EXIT_INTERRUPTED
        except _InputEnded:
            _fail("input ended before the battle did")
            return EXIT_USAGE
        except WarhostError as exc:
            if _options["debug"]:
                raise
            _fail(str(exc))
            return EXIT_USAGE
        except Exception as exc:
            if _options["debug"]:
                raise
            _fail(f"internal error: {type(exc).__name__}: {exc} "
                  "(run warhost --debug ... for the traceback)")
            return EXIT_INTERNAL
        return rv if isinstance(rv, int) else 0


app = typer.Typer(
    cls=WarhostGroup,
    name="warhost",
    help="Play, adjudicate and simulate fantasy mass battles.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"warhost {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for errors.")] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
) -> None:
    """Play, adjudicate and simulate fantasy mass battles.

    Every problem with your input is reported in one line with its file, line and field,
    and exit code 2.
    """
    _options["debug"] = debug


# --------------------------------------------------------------------------- helpers


def _out() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _check_output(path: Path | None, option: str) -> None:
    """Fail before any work when an output file could not be written later."""
    if path is None:
        return
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise WarhostError("no such directory", file=str(parent), field=option)
    if path.is_dir():
        raise WarhostError("is a directory, not a file name", file=str(path), field=option)


def _side_specs(scenario: Scenario) -> dict[str, tuple[int, dict[str, Any]]]:
    """Each side's entry in the scenario data (index, mapping), by name."""
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    sides = scenario.data.get("sides")
    if isinstance(sides, list):
        for index, spec in enumerate(sides):
            if isinstance(spec, dict) and "name" in spec:
                out[str(spec["name"])] = (index, spec)
    return out


def _require_side(sides: Sequence[str], side: str, option: str) -> None:
    if side not in sides:
        raise WarhostError(f"no side named {side!r} (sides: {', '.join(sides)})", field=option)


def _parse_overrides(scenario: Scenario, overrides: Sequence[str]) -> dict[str, str]:
    """``SIDE=KIND`` options, checked against the scenario's sides and the known kinds."""
    sides = scenario.ruleset.side_names(scenario.model)
    out: dict[str, str] = {}
    for text in overrides:
        side, sep, kind = text.partition("=")
        side, kind = side.strip(), kind.strip()
        if not sep or not side or not kind:
            raise WarhostError(f"expected SIDE=KIND, got {text!r}", field="commander")
        _require_side(sides, side, "commander")
        if kind not in COMMANDER_KINDS:
            raise WarhostError(
                f"unknown commander kind {kind!r} for {side} (use {', '.join(COMMANDER_KINDS)};"
                " a person plays with warhost play --side)", field="commander")
        out[side] = kind
    return out


def _scripted(scenario: Scenario, side: str) -> ScriptedCommander:
    """The scripted commander of ``side``: orders from the file the scenario names."""
    index, spec = _side_specs(scenario).get(side, (0, {}))
    orders = spec.get("orders")
    where = ("sides", index, "orders") if orders else ("sides", index, "commander")
    if not orders:
        raise WarhostError(f"side {side!r} is scripted but names no orders file",
                           file=scenario.source, line=scenario.line_of(where),
                           field=field_name(("sides", index, "orders")))
    path = Path(str(orders))
    if not path.is_absolute():
        path = Path(scenario.source).parent / path
    if not path.is_file():
        raise WarhostError(f"no such orders file {str(path)!r}", file=scenario.source,
                           line=scenario.line_of(where), field=field_name(where))
    return ScriptedCommander.from_file(path, fallback=scenario.ruleset.make_ai())


def make_commanders(
    scenario: Scenario,
    overrides: Mapping[str, str] | None = None,
    people: Mapping[str, Commander] | None = None,
) -> dict[str, Commander]:
    """One commander per side: a person where ``people`` names one, else the override kind,
    else the scenario's kind. Scripted sides read their orders file; ``human`` sides not
    played by a person here are played by the AI."""
    ruleset = scenario.ruleset
    kinds = ruleset.commander_kinds(scenario.model)
    chosen: dict[str, Commander | str] = {}
    for side in ruleset.side_names(scenario.model):
        if people and side in people:
            chosen[side] = people[side]
            continue
        kind = (overrides or {}).get(side, kinds.get(side, "ai"))
        if kind == "scripted":
            chosen[side] = _scripted(scenario, side)
        elif kind == "human":
            chosen[side] = make_commander("ai", ruleset)
        else:
            chosen[side] = make_commander(kind, ruleset)
    return build_commanders(scenario, chosen)


def _kinds(commanders: Mapping[str, Commander]) -> dict[str, str]:
    return {side: c.kind for side, c in commanders.items()}


def _seed(seed: int | None) -> int:
    return seed if seed is not None else secrets.randbelow(2**31)


def _print_narrative(console: Console, result: BattleResult, narrator: Narrator) -> None:
    for text, style in narrator.lines(result.log.events):
        console.print(Text(text, style=style))


def _print_summary(console: Console, result: BattleResult) -> None:
    outcome = result.outcome
    table = Table(title=f"{result.scenario} ({result.ruleset}, seed {result.seed})")
    for name, justify in (("Side", "left"), ("Unit", "left"), ("Name", "left"),
                          ("Start", "right"), ("Survivors", "right"), ("Fate", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for unit in outcome.units:
        table.add_row(unit.side, unit.id, unit.name, str(unit.start), str(unit.survivors),
                      unit.fate)
    console.print(table)
    scores = ", ".join(f"{side} {points}" for side, points in outcome.scores.items())
    winner = f"{outcome.winner} wins" if outcome.winner else "Draw"
    reason = f" ({outcome.reason})" if outcome.reason else ""
    console.print(Text(f"{winner}{reason}", style="bold"))
    console.print(Text(f"Scores: {scores}    Rounds: {outcome.rounds}    "
                       f"Events: {len(result.log)}"))


# --------------------------------------------------------------------------- commands


@app.command()
def rulesets(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """List the registered rule systems."""
    found = all_rulesets()
    rows: list[dict[str, Any]] = []
    for ruleset in found.values():
        examples = [_relative(p) for p in ruleset.examples()]
        rows.append({"name": ruleset.name, "version": ruleset.version, "title": ruleset.title,
                     "summary": ruleset.summary, "examples": examples})
    if as_json:
        _print_json(rows)
        return
    table = Table(title="Registered rulesets")
    for column in ("Name", "Version", "Title", "Summary", "Examples"):
        table.add_column(column, no_wrap=column in ("Name", "Examples"))
    for row in rows:
        names = [Path(p).name for p in row["examples"]]
        table.add_row(str(row["name"]), str(row["version"]), str(row["title"]),
                      str(row["summary"]), "\n".join(names) or "-")
    console = Console(highlight=False)
    console.print(table)
    if any(row["examples"] for row in rows):
        console.print(Text("Examples live in examples/<ruleset>/ (rulesets --json gives paths)."))


def _relative(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@app.command()
def battle(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
    seed: Annotated[int | None, typer.Option(help="Seed (default: a random one, shown).")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print only the result as one JSON document.")
    ] = False,
    replay: Annotated[
        Path | None, typer.Option("--replay", metavar="FILE", help="Save a replay file.")
    ] = None,
    commander: Annotated[
        list[str] | None,
        typer.Option("--commander", metavar="SIDE=KIND",
                     help="Who commands a side: ai, random, first or scripted. Repeatable."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the final summary.")] = False,
) -> None:
    """Fight one battle and narrate it turn by turn, dice shown."""
    _check_output(replay, "replay")
    scenario = load_scenario(scenario_file)
    commanders = make_commanders(scenario, _parse_overrides(scenario, commander or []))
    kinds = _kinds(commanders)
    result = run_battle(scenario, _seed(seed), commanders)
    if replay is not None:
        save_replay(result, scenario, replay, kinds)
    if as_json:
        _print_json(result.summary())
        return
    console = _out()
    if not quiet:
        _print_narrative(console, result, Narrator(scenario.ruleset))
        console.print()
    _print_summary(console, result)
    if replay is not None:
        console.print(Text(f"Replay saved to {replay}"))


@app.command()
def play(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
    side: Annotated[str, typer.Option("--side", help="The side you command.")],
    seed: Annotated[int | None, typer.Option(help="Seed (default: a random one, shown).")] = None,
    manual_dice: Annotated[
        bool, typer.Option("--manual-dice", help="Type in the faces of real dice.")
    ] = False,
    replay: Annotated[
        Path | None, typer.Option("--replay", metavar="FILE", help="Save a replay file.")
    ] = None,
) -> None:
    """Command one side yourself; the other keeps the scenario's commander."""
    _check_output(replay, "replay")
    scenario = load_scenario(scenario_file)
    ruleset = scenario.ruleset
    _require_side(ruleset.side_names(scenario.model), side, "side")
    console = _out()
    narrator = Narrator(ruleset)
    seed = _seed(seed)

    def ask(prompt: str) -> str:
        return console.input(Text(prompt, style="bold"))

    # The dice object is the battle's; after the battle is built its ``log`` is the event
    # log, which lets the narrative run live between the person's decisions.
    manual: RecordingDice | None = None
    dice: DiceSource
    if manual_dice:
        def ask_dice(prompt: str) -> str:
            flush()
            return ask(prompt)

        dice = manual = RecordingDice(ManualDice(ask_dice))
    else:
        dice = SeededDice(_battle_dice_seed(seed))

    def flush() -> None:
        if dice.log is not None:
            for text, style in narrator.new_lines(dice.log.events):
                console.print(Text(text, style=style))

    shown_round = [-1]

    def describe(decision: Decision, state: Any) -> str:
        flush()
        view = _map_view_or_none(ruleset, state)
        if view is not None and view.get("round") != shown_round[0]:
            from warhost.render.maps import map_title, text_map

            shown_round[0] = int(view.get("round", 0))
            picture = text_map(view)
            if picture:
                console.print(Text(map_title(view, scenario.name), style="bold"))
                console.print(Text(picture))
        subject = f" ({decision.subject})" if decision.subject else ""
        return f"{side}: {decision.prompt or decision.kind}{subject}"

    human = HumanCommander(ask=ask, show=lambda text: console.print(Text(text)),
                           describe=describe)
    commanders = make_commanders(scenario, people={side: human})
    console.print(Text(f"You command {side}. Seed {seed}. Type the number of an order, "
                       "its text, or ? for the list.", style="bold"))
    result = run_battle(scenario, seed, commanders, dice=dice,
                        observers=[lambda _round, _state: flush()])
    flush()
    if replay is not None:
        save_replay(result, scenario, replay, _kinds(commanders),
                    dice=manual.faces if manual is not None else None)
    console.print()
    _print_summary(console, result)
    if replay is not None:
        console.print(Text(f"Replay saved to {replay}"))


def _battle_dice_seed(seed: int) -> Any:
    """The seed sequence :class:`Battle` gives its own dice (the first spawned child), so a
    battle played with explicit seeded dice equals one played with the default dice."""
    import numpy as np

    return np.random.SeedSequence(seed).spawn(1)[0]


def _map_view_or_none(ruleset: Any, state: Any) -> dict[str, Any] | None:
    try:
        view: dict[str, Any] = ruleset.map_view(state)
    except NotImplementedError:
        return None
    return view


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="Replay file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Re-run a saved battle and check that it comes out the same (exit 0; else exit 1)."""
    loaded = load_replay(file)
    result: BattleResult | None = None
    try:
        result, _ = rerun(loaded)
        difference = compare(loaded, result)
        message = f"{file}: {difference.message}" if difference else ""
        index = difference.index if difference else None
        matches = difference is None
    except (ReplayError, DiceExhaustedError) as exc:
        # the recorded decisions or dice no longer fit the battle: it does not come out the same
        if isinstance(exc, ReplayError) and exc.field not in ("decisions", None):
            raise
        exc.located(file=loaded.path)
        matches, message, index = False, str(exc), None
    if as_json:
        _print_json({
            "file": str(file),
            "matches": matches,
            "difference": None if matches else {"message": message, "event": index},
            "result": result.summary() if result is not None else None,
        })
    elif matches:
        assert result is not None
        typer.echo(f"matches: {file} ({len(result.log)} events, sha256 "
                   f"{result.log.digest()[:16]})")
    else:
        typer.echo(f"DIFFERS: {_one_line(message)}")
    if not matches:
        raise typer.Exit(EXIT_DIFFERS)


@app.command()
def validate(
    scenario_file: Annotated[Path, typer.Argument(metavar="SCENARIO", help="Scenario YAML.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """Check a scenario; list every problem with its file, line and field (exit 2)."""
    problems: list[WarhostError] = []
    scenario: Scenario | None = None
    try:
        scenario = load_scenario(scenario_file)
    except WarhostError as exc:
        problems = list(getattr(exc, "problems", None) or [exc])
    if scenario is not None:
        kinds = scenario.ruleset.commander_kinds(scenario.model)
        for side, kind in kinds.items():
            if kind == "scripted":
                try:
                    _scripted(scenario, side)
                except WarhostError as exc:
                    problems.append(exc)
    if as_json:
        _print_json({
            "file": str(scenario_file),
            "ok": not problems,
            "name": scenario.name if scenario is not None else None,
            "ruleset": scenario.ruleset.name if scenario is not None else None,
            "problems": [{"file": p.file, "line": p.line, "field": p.field,
                          "message": p.message} for p in problems],
        })
    elif not problems and scenario is not None:
        typer.echo(f"ok: {scenario.name} ({scenario.ruleset.name})")
    else:
        for problem in problems:
            typer.echo(_one_line(str(problem)))
    if problems:
        raise typer.Exit(EXIT_USAGE)


@app.command()
def schema(
    ruleset: Annotated[str, typer.Argument(metavar="RULESET", help="A registered ruleset name.")],
) -> None:
    """Print the JSON Schema of the ruleset's scenario files."""
    found = get_ruleset(ruleset)
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                **found.scenario_model.model_json_schema()}
    _print_json(document)


@app.command("map")
def map_command(
    source: Annotated[
        Path, typer.Argument(metavar="SCENARIO_OR_REPLAY", help="Scenario YAML or replay file.")
    ],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="Image: .png or .svg.")],
    round_: Annotated[
        int | None,
        typer.Option("--round", min=0,
                     help="Draw the end of this round (0: after deployment; default: the end "
                          "of the battle)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed for a scenario (default: a random one, shown).")
    ] = None,
    commander: Annotated[
        list[str] | None,
        typer.Option("--commander", metavar="SIDE=KIND", help="As for battle. Repeatable."),
    ] = None,
) -> None:
    """Draw the battlefield at the end of a round, from a scenario or a replay."""
    from warhost.render.maps import draw_map, map_title, output_format

    output_format(out)
    _check_output(out, "out")
    loaded = _replay_or_none(source)
    if loaded is not None:
        if seed is not None or commander:
            raise WarhostError("--seed and --commander do not apply to a replay", field="seed")
        scenario = replay_scenario(loaded)
        used_seed = loaded.seed

        def commanders_() -> dict[str, Commander]:
            return replay_commanders(loaded, scenario)

        def dice_() -> DiceSource | None:
            return replay_dice(loaded)
    else:
        scenario = load_scenario(source)
        overrides = _parse_overrides(scenario, commander or [])
        used_seed = _seed(seed)
        make_commanders(scenario, overrides)  # fail early on a bad orders file

        def commanders_() -> dict[str, Commander]:
            return make_commanders(scenario, overrides)

        def dice_() -> DiceSource | None:
            return None

    view, when = _view_at(scenario, used_seed, commanders_, dice_, round_)
    draw_map(view, out, title=map_title(view, scenario.name, when))
    typer.echo(f"map written to {out}: {when} (seed {used_seed})")


def _replay_or_none(path: Path) -> Replay | None:
    """The replay in ``path``, or None when ``path`` is not a replay file."""
    try:
        head = path.read_text(encoding="utf-8")[:4096]
    except (OSError, UnicodeDecodeError):
        return None  # load_scenario reports it
    if '"warhost-replay"' not in head:
        return None
    return load_replay(path)


def _view_at(
    scenario: Scenario,
    seed: int,
    commanders: Callable[[], dict[str, Commander]],
    dice: Callable[[], DiceSource | None],
    round_: int | None,
) -> tuple[dict[str, Any], str]:
    """The map view at the end of ``round_`` (0: after deployment; None: end of battle).

    This plays the battle on a :class:`Battle` of its own rather than through ``run_battle``,
    because the end of the battle needs the state object itself (``run_battle`` returns only
    the result, and the last round may end the battle before its round observers run).
    The dice and decisions are the same, so the battle is the same.
    """
    ruleset = scenario.ruleset
    battle = Battle(ruleset, scenario, seed, build_commanders(scenario, commanders()), dice())
    state = ruleset.new_state(scenario, battle)
    battle.state = state
    if round_ == 0:
        return ruleset.map_view(state), "after deployment"
    views: dict[int, dict[str, Any]] = {}

    def observe(number: int, at_end: Any) -> None:
        if number == round_:
            views[number] = ruleset.map_view(at_end)

    battle.round_observers.append(observe)
    ruleset.play(state, battle)
    rounds = ruleset.outcome(state).rounds
    if round_ is None or (round_ == rounds and round_ not in views):
        return ruleset.map_view(state), f"end of the battle (round {rounds})"
    if round_ not in views:
        raise WarhostError(f"the battle lasted {rounds} round(s); there is no round {round_}",
                           field="round")
    return views[round_], f"end of round {round_}"


def _register_commands() -> None:
    from warhost.commands import register_all

    register_all(app)


_register_commands()


def main() -> None:
    """Console entry point (``warhost``)."""
    app(prog_name="warhost")


if __name__ == "__main__":
    main()
