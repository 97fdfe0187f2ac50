"""``warhost campaign new|fight|show|replay``: a `warband` campaign kept in one SQLite file
(see docs/campaign.md)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from warhost.commands._shared import (
    EXIT_DIFFERS,
    Force,
    Seed,
    check_output,
    commander_kinds,
    make_commanders,
    one_line,
    out_console,
    parse_overrides,
    pick_seed,
    print_summary,
)
from warhost.core.errors import WarhostError

if TYPE_CHECKING:
    from warhost.core.scenario import Scenario
    from warhost.rulesets.warband.campaign import Member, Record

campaign_app = typer.Typer(help="A warband campaign: rosters, lasting injuries and Fate kept "
                                "in one SQLite file.", no_args_is_help=True)

CampaignFile = Annotated[Path, typer.Argument(metavar="FILE.db", help="The campaign file.")]
ScenarioOption = Annotated[
    Path, typer.Option("--scenario", metavar="S.yaml", help="A warband scenario.")
]


def _warband_scenario(path: Path) -> Scenario:
    from warhost.core.scenario import load_scenario

    scenario = load_scenario(path)
    if scenario.ruleset.name != "warband":
        raise WarhostError(f"campaigns are for warband scenarios, not {scenario.ruleset.name}",
                           file=str(path), field="ruleset")
    return scenario


@campaign_app.command("new")
def new(file: CampaignFile, scenario_file: ScenarioOption, force: Force = False) -> None:
    """Start a campaign: store the warbands of a scenario as its rosters."""
    from warhost.core.replay import atomic_output
    from warhost.rulesets.warband.campaign import create

    check_output(file, "campaign file", force)
    scenario = _warband_scenario(scenario_file)
    warbands = {str(side["name"]): list(side["characters"]) for side in scenario.data["sides"]}
    with atomic_output(file) as temp:
        temp.unlink()  # SQLite makes its own file
        create(temp, warbands)
    count = sum(len(v) for v in warbands.values())
    typer.echo(f"campaign {file}: {len(warbands)} warbands, {count} characters")


def battle_data(record: Record, scenario: Scenario, cycle: int) -> dict[str, Any]:
    """The scenario a campaign fights: each side's characters as the roster has them now,
    standing where the scenario puts them; those unable to fight are left out."""
    from warhost.rulesets.warband.campaign import fielded as entry
    from warhost.rulesets.warband.campaign import recruit

    data = copy.deepcopy(scenario.data)
    data.setdefault("options", {})["campaign_mode"] = True
    for index, side in enumerate(data["sides"]):
        name = str(side["name"])
        if name not in record.warbands:
            raise WarhostError(f"warband {name!r} is not in this campaign (it has "
                               f"{', '.join(record.warbands)})", file=scenario.source,
                               field=f"sides[{index}].name")
        fielded = []
        for spec in side["characters"]:
            member = record.members.get(str(spec["id"]))
            if member is None:
                fielded.append(spec)  # a new recruit: on the roster once the fight is saved
                continue
            if member.warband != name:
                raise WarhostError(f"{member.id} fights for {member.warband} in this campaign",
                                   file=scenario.source, field=f"sides[{index}].characters")
            if member.available(cycle):
                fielded.append(entry(member, cycle, spec))
        if not fielded:
            raise WarhostError(f"warband {name!r} has nobody able to fight in Cycle {cycle}",
                               file=scenario.source, field=f"sides[{index}].characters")
        heroes = [c for c in fielded if c["kind"] == "hero"]
        if heroes and not any(c.get("captain") for c in heroes):
            heroes[0]["captain"] = True  # the Captain is gone: the first Hero leads (WB-AMB-55)
        side["characters"] = fielded
        for spec in fielded:
            if str(spec["id"]) not in record.members:
                record.members[str(spec["id"])] = recruit(spec, name)
    return data


@campaign_app.command("fight")
def fight(
    file: CampaignFile,
    scenario_file: ScenarioOption,
    seed: Seed = None,
    commander: Annotated[
        list[str] | None,
        typer.Option("--commander", metavar="SIDE=KIND",
                     help="Who commands a side: ai, random, first or scripted. Repeatable."),
    ] = None,
    same_cycle: Annotated[
        bool, typer.Option("--same-cycle", help="Fight in the same Cycle as the last battle.")
    ] = False,
    replay: Annotated[
        Path | None, typer.Option("--replay", metavar="FILE", help="Also save a replay file.")
    ] = None,
    force: Force = False,
) -> None:
    """Fight a battle with the stored rosters and record what it leaves behind."""
    from warhost.core.engine import run_battle
    from warhost.core.errors import read_user_file
    from warhost.core.replay import dumps_replay, replay_data, write_text_atomically
    from warhost.core.scenario import scenario_from_data
    from warhost.rulesets.warband import campaign

    check_output(replay, "replay", force)
    with campaign.connect(file) as conn:
        record = campaign.load(conn, str(file))
        scenario = _warband_scenario(scenario_file)
        text = read_user_file(scenario_file, WarhostError, "scenario")
        cycle = record.cycle if same_cycle and record.cycle > 0 else record.cycle + 1
        fought_in = scenario_from_data(battle_data(record, scenario, cycle), str(scenario_file),
                                       scenario.lines)
        commanders = make_commanders(fought_in, parse_overrides(fought_in, commander or []))
        kinds = commander_kinds(commanders)
        chosen = pick_seed(seed)
        result = run_battle(fought_in, chosen, commanders)
        incidents = [{k: v for k, v in e.items() if k not in ("seq", "type")}
                     for e in result.log.of_type("incident")]
        campaign.apply_incidents(record, incidents, cycle, result.winner)
        document = dumps_replay(replay_data(result, fought_in, kinds))
        number = campaign.save_battle(conn, record, campaign.Fought(
            cycle, str(scenario_file), text, chosen, kinds, list(result.decisions),
            result.winner, document, incidents))
    if replay is not None:
        write_text_atomically(replay, document)
    console = out_console()
    print_summary(console, result)
    from warhost.rulesets.warband.view import describe_event

    for event in result.log.of_type("incident"):
        console.print(describe_event(event) or "", markup=False)
    typer.echo(f"battle {number} of {file} recorded (Cycle {cycle}, seed {chosen})")


def _changes(member: Member, cycle: int) -> str:
    from warhost.rulesets.warband.campaign import DEFAULTS, current_stats

    now = current_stats(member, cycle)
    was = {k: int(member.spec["stats"].get(k, DEFAULTS.get(k, 0))) for k in now}
    return ", ".join(f"{k} {was[k]}→{now[k]}" for k in now
                     if k != "fate" and now[k] != was[k]) or "-"


def _injuries(member: Member, cycle: int) -> str:
    from warhost.rulesets.warband.campaign import active
    from warhost.rulesets.warband.incidents import TITLES

    parts = []
    for effect in member.effects:
        until = effect["until"]
        if until is not None and until < cycle:
            continue  # over
        title = TITLES.get(effect["name"], "Totally blind")
        if effect.get("limb"):
            title += f" ({effect['limb']})"
        if effect.get("hatred_of"):
            title += f" (Hatred of {' and '.join(effect['hatred_of'])})"
        if until is None:
            when = "permanent"
        elif active(effect, cycle) or effect["from"] <= cycle:
            when = f"to end of Cycle {until}"
        else:
            when = f"Cycles {effect['from']}-{until}"
        parts.append(f"{title}: {when}")
    return "; ".join(parts) or "-"


def _status(member: Member, cycle: int) -> str:
    if member.status != "ready":
        return member.status
    if member.out_until >= cycle:
        return f"recovering (ready in Cycle {member.out_until + 1})"
    return "ready"


@campaign_app.command("show")
def show(file: CampaignFile) -> None:
    """Print each warband's roster with its injuries, Fate and status."""
    from rich.table import Table
    from rich.text import Text

    from warhost.rulesets.warband import campaign

    with campaign.connect(file) as conn:
        record = campaign.load(conn, str(file))
        battles = campaign.battle_rows(conn)
    console = out_console()
    now = record.cycle
    console.print(Text(f"Campaign {file}: {len(battles)} battle(s), last Cycle {now}",
                       style="bold"))
    for number, cycle, source, seed, winner in battles:
        console.print(Text(f"  battle {number}: Cycle {cycle}, {source}, seed {seed}, "
                           f"winner {winner or 'none (draw)'}"))
    for name, stash in record.warbands.items():
        table = Table(title=name)
        for column in ("Character", "Kind", "Scores changed", "Injuries", "Fate", "Status"):
            table.add_column(column)
        for m in record.roster(name):
            label = str(m.spec.get("name") or m.id)
            label = label if label == m.id else f"{label} ({m.id})"
            table.add_row(label, m.kind, _changes(m, now), _injuries(m, now), str(m.fate),
                          _status(m, now))
        console.print(table)
        if stash:
            console.print(Text("  stash: " + ", ".join(p["name"] for p in stash)))


@campaign_app.command("replay")
def replay_battle(
    file: CampaignFile,
    number: Annotated[int, typer.Argument(metavar="N", help="The battle's number.", min=1)],
    out: Annotated[
        Path | None, typer.Option("--out", metavar="FILE", help="Also write the replay file.")
    ] = None,
    force: Force = False,
) -> None:
    """Fight battle N again from the record and check it comes out the same (else exit 1)."""
    import tempfile

    from warhost.core.errors import DiceExhaustedError, ReplayError
    from warhost.core.replay import compare, load_replay, rerun, write_text_atomically
    from warhost.rulesets.warband import campaign

    check_output(out, "out", force)
    with campaign.connect(file) as conn:
        campaign.load(conn, str(file))
        text = campaign.stored_replay(conn, str(file), number)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"battle-{number}.json"
        path.write_text(text, encoding="utf-8")
        loaded = load_replay(path)
        loaded.path = f"{file} battle {number}"
        try:
            result, _ = rerun(loaded)
            difference = compare(loaded, result)
            message = "" if difference is None else difference.message
        except (ReplayError, DiceExhaustedError) as exc:
            if isinstance(exc, ReplayError) and exc.field not in ("decisions", None):
                raise
            message = str(exc)
    if out is not None:
        write_text_atomically(out, text)
    if message:
        typer.echo(f"DIFFERS: battle {number} of {file}: {one_line(message)}")
        raise typer.Exit(EXIT_DIFFERS)
    typer.echo(f"matches: battle {number} of {file} ({len(result.log)} events, sha256 "
               f"{result.log.digest()[:16]})")
    incidents = result.log.of_type("incident")
    typer.echo(json.dumps([e["result"] for e in incidents]))


def register(app: typer.Typer) -> None:
    """Add the command group to ``app``."""
    app.add_typer(campaign_app, name="campaign")
