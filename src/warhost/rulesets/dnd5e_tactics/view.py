"""What `dnd5e-tactics` shows: map data for :mod:`warhost.render.maps` and narrative lines."""

from __future__ import annotations

from typing import Any

from warhost.rulesets.dnd5e_tactics.state import T5State, Unit


def _outline(shape: Any) -> list[list[float]]:
    return [[round(x, 3), round(y, 3)] for x, y in list(shape.exterior.coords)[:-1]]


def map_view(state: T5State) -> dict[str, Any]:
    """The table: terrain areas and every body's footprint, in inches."""
    from warhost.rulesets.dnd5e_tactics.end_of_round import side_scores

    units = []
    for body_id in state.order:
        body = state.bodies[body_id]
        if isinstance(body, Unit):
            label = f"{body.name} {body.members}"
            stance: str | None = body.stance
        else:
            label = f"{body.name} {body.character.hp}hp"
            stance = None
        units.append({
            "id": body.id, "side": body.side, "label": label,
            "polygon": _outline(body.footprint), "status": body.status,
            "stance": stance, "facing": body.facing,
        })
    return {
        "geometry": "table",
        "width": state.board.width,
        "height": state.board.height,
        "areas": [{"name": r.name, "kind": r.kind, "polygon": _outline(r.polygon)}
                  for r in state.regions],
        "units": units,
        "sides": list(state.sides),
        "round": state.round,
        "scores": side_scores(state),
    }


def _at(point: Any) -> str:
    return f"({point[0]:g}, {point[1]:g})" if point else "?"


def describe_event(event: dict[str, Any]) -> str | None:
    """One line of narrative per event (None: the generic text)."""
    t = event["type"]
    g = event.get
    if t == "round_start":
        return f"=== Round {g('round')} ==="
    if t == "initiative":
        return "Turn order: " + ", ".join(f"{e['id']} ({e['initiative']:+d})" for e in g("order") or [])
    if t == "deploy":
        extra = f", {g('members')} members, {g('stance')} stance, {g('track')}" \
            if g("kind") == "unit" else ""
        return f"{g('id')} ({g('side')}) deploys at {_at(g('at'))}{extra}"
    if t == "stance":
        return f"  {g('unit')} changes to {g('after')} stance"
    if t == "tactics":
        return f"  {g('unit')}: {g('choice', '')} {g('track', '')}".rstrip()
    if t == "rank":
        return f"  {g('unit')} rank {g('before'):+d} -> {g('after'):+d} ({g('why')})"
    if t == "turn":
        return f"- {g('body')}'s turn"
    if t == "move":
        return f"  {g('body')} {g('kind', 'moves')} {_at(g('from'))} -> {_at(g('to'))}"
    if t == "unit_attack":
        return (f"  {g('attacker')} attack {g('target')} with {g('attack')}: needs {g('needed')}, "
                f"d6 {g('d6')} -> {g('eligible')} / {g('divisor')} = {g('hits')} hits, "
                f"{g('damage')} damage")
    if t == "commander_attack":
        verdict = f"hits for {g('damage')}" if g("hit") else "misses"
        return f"  {g('owner')}'s {g('attack')} at {g('target')}: {g('total')} vs AC {g('ac')}, {verdict}"
    if t == "area":
        return (f"  {g('user')} uses {g('area')} on {g('target')}: {g('covered')} caught, "
                f"{g('successes')} save, {g('damage')} damage")
    if t == "commander_slain":
        return f"  The commander of {g('unit')} is slain"
    if t == "single_slain":
        return f"  {g('body', g('single'))} is slain"
    if t in ("duel_called", "duel_start", "duel_declined", "duel_end"):
        return f"  {t.replace('_', ' ')}: " + ", ".join(
            f"{k}={v}" for k, v in event.items() if k not in ("type", "seq"))
    if t == "encourage":
        verdict = "succeeds" if g("success") else "fails"
        return f"  {g('unit')}'s commander encourages ({g('skill')}, DC {g('dc')}): {verdict}"
    if t == "casualties":
        return (f"  {g('unit')} took {g('tdr')} damage: {g('killed')} killed, "
                f"{g('members')} left")
    if t == "morale":
        return (f"  {g('unit')} morale: {g('total')} vs DC {g('dc')} -> {g('result')}")
    if t == "flee":
        return f"  {g('unit')} flees {_at(g('from'))} -> {_at(g('to'))}"
    if t == "rout":
        return f"  {g('unit')} routs"
    if t == "score":
        return f"  {g('side')} score {g('total')}"
    if t == "battle_end":
        return f"*** {g('reason')} ***"
    return None
