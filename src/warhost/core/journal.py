"""The play file of ``warhost play``: a person's battle, written down as it goes.

The file is an unfinished replay (:func:`~warhost.core.replay.unfinished_replay_data`),
rewritten atomically after each of the person's decisions and each die they type, so at any
moment it is a whole, loadable file. Continuing it (``--resume``) or taking back a decision
(``undo``) plays the battle again from its seed: the person's recorded decisions answer for
them (:class:`~warhost.core.commanders.HumanCommander` ``recorded``), the faces they typed are
handed out again (:class:`PlaybackDice`), and every other commander, being deterministic from
the seed, decides as it did. When the battle ends the file becomes a normal, complete replay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from warhost.core.decisions import Decision
from warhost.core.dice import DiceSource
from warhost.core.errors import ReplayError, WarhostError
from warhost.core.orders import Order
from warhost.core.outcome import BattleResult
from warhost.core.replay import (
    dumps_replay,
    load_replay,
    replay_scenario,
    save_replay,
    unfinished_replay_data,
    write_text_atomically,
)
from warhost.core.scenario import Scenario

HUMAN = "human"
"""The commander kind that marks the person's side in a play file."""


def fresh_play_path(scenario_file: str | Path) -> Path:
    """A file name for a new play file beside the scenario that no file has yet:
    ``<stem>.play.json``, else ``<stem>.play-2.json``, ``<stem>.play-3.json`` ..."""
    scenario_path = Path(scenario_file)
    stem = scenario_path.stem
    candidate = scenario_path.with_name(f"{stem}.play.json")
    number = 2
    while candidate.exists():
        candidate = scenario_path.with_name(f"{stem}.play-{number}.json")
        number += 1
    return candidate


class PlaybackDice(DiceSource):
    """Hands out the faces in ``faces`` first, then asks ``inner`` (a person) and appends what
    they typed to ``faces``, so ``faces`` always holds every face of the battle so far.

    ``before_asking()`` is called before ``inner`` is asked, ``typed()`` after each answer.
    """

    def __init__(
        self,
        faces: list[int],
        inner: DiceSource,
        before_asking: Callable[[], None] | None = None,
        typed: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.faces = faces
        self.used = 0
        self.inner = inner
        self.before_asking = before_asking
        self.typed = typed

    @property
    def replaying(self) -> bool:
        """Whether recorded faces are still to be handed out."""
        return self.used < len(self.faces)

    def _faces(self, count: int, sides: int, why: str) -> list[int]:
        if self.replaying:
            if self.used + count > len(self.faces):
                raise ReplayError(f"the recorded dice end in the middle of a roll of "
                                  f"{count}d{sides} ({why})", field="dice")
            out = self.faces[self.used:self.used + count]
            for face in out:
                if not 1 <= face <= sides:
                    raise ReplayError(f"recorded face {face} is not on a d{sides} ({why})",
                                      field="dice")
            self.used += count
            return out
        if self.before_asking is not None:
            self.before_asking()
        out = self.inner._faces(count, sides, why)
        self.faces.extend(out)
        self.used += count
        if self.typed is not None:
            self.typed()
        return out


class PlayJournal:
    """What a person's battle needs to go on: the scenario, the seed, their decisions and the
    dice they typed; it keeps its file up to date.

    One journal lives through several runs of the battle (each ``undo`` re-runs it): a run
    begins with :meth:`start_run`; while it re-plays what was recorded it is *replaying*; when
    it reaches the person (their next decision or die) :meth:`go_live` is called, and from then
    on every answer (:meth:`answered`) and typed die (:meth:`dice_typed`) rewrites the file.
    """

    def __init__(
        self,
        path: Path,
        scenario: Scenario,
        seed: int,
        side: str,
        *,
        manual: bool,
        commanders: Mapping[str, str] | None = None,
        orders: Sequence[str] = (),
        faces: Sequence[int] = (),
        expected: Sequence[Mapping[str, Any]] | None = None,
    ) -> None:
        self.path = path
        self.scenario = scenario
        self.seed = seed
        self.side = side
        self.manual = manual
        self.commanders = dict(commanders or {})
        """Each side's commander kind (the person's side: ``human``)."""
        self.orders = list(orders)
        """The texts of the person's decisions so far, in order."""
        self.faces = list(faces)
        """Every die face typed so far (with ``--manual-dice``)."""
        self.expected = list(expected) if expected is not None else None
        """The decisions of a resumed file, checked against the re-run once it reaches the
        person."""
        self.live = False
        """Whether the current run has reached the person (set by :meth:`start_run` and
        :meth:`go_live`); only then is the file rewritten."""
        self.marks: list[int] = []
        """How many faces had been rolled when each of this run's decisions was answered."""
        self._dice: DiceSource | None = None

    @classmethod
    def resume(cls, path: Path) -> PlayJournal:
        """The journal of the unfinished play file at ``path``."""
        loaded = load_replay(path, unfinished=True)
        source = str(path)
        if loaded.finished:
            raise ReplayError("this battle is finished: there is nothing to resume (watch it "
                              f"again with warhost replay {source})", file=source,
                              field="finished")
        people = [side for side, kind in loaded.commanders.items() if kind == HUMAN]
        if len(people) != 1:
            raise ReplayError("not a play file: it names no side (or several) played by a "
                              "person", file=source, line=loaded.line_of("commanders"),
                              field="commanders")
        side = people[0]
        return cls(
            path,
            replay_scenario(loaded),
            loaded.seed,
            side,
            manual=loaded.dice is not None,
            commanders=loaded.commanders,
            orders=[str(d["order"]) for d in loaded.decisions if d["side"] == side],
            faces=loaded.dice or [],
            expected=loaded.decisions,
        )

    @property
    def others(self) -> dict[str, str]:
        """The commander kinds of the sides the person does not play."""
        return {side: kind for side, kind in self.commanders.items() if side != self.side}

    # ------------------------------------------------------------------ one run

    def start_run(self, dice: DiceSource, commanders: Mapping[str, str]) -> None:
        """A run of the battle begins with ``dice`` (whose ``log`` will be the battle's). With
        nothing to re-play it is live at once, and the file is written."""
        self._dice = dice
        self.commanders = dict(commanders)
        self.marks = []
        self.live = not self.orders and not self.faces
        if self.live:
            self.write()

    def go_live(self) -> None:
        """The run has reached the person: check it re-played the file faithfully, then keep
        the file up to date from now on."""
        dice = self._dice
        if len(self.marks) < len(self.orders):
            raise ReplayError(f"the recorded dice ran out with {len(self.orders) - len(self.marks)}"
                              " recorded decision(s) still to re-play", file=str(self.path),
                              field="dice")
        if isinstance(dice, PlaybackDice) and dice.replaying:
            raise ReplayError(f"{len(dice.faces) - dice.used} recorded dice were not used "
                              "before the person's next decision", file=str(self.path),
                              field="dice")
        self._check_expected()
        self.live = True
        self.write()

    def answered(self, decision: Decision, order: Order) -> None:
        """The person's side answered ``decision`` (re-played or typed): a typed answer is
        recorded and written at once."""
        dice = self._dice
        self.marks.append(dice.used if isinstance(dice, PlaybackDice) else 0)
        if len(self.marks) > len(self.orders):
            self.orders.append(str(order))
            self.write(pending={"side": decision.side, "kind": decision.kind,
                                "order": str(order)})

    def dice_typed(self) -> None:
        """The person typed dice: write them down."""
        self.write()

    def undo(self) -> str:
        """Take back the person's last decision (and the dice typed after it); returns its
        text. The battle must then be run again."""
        if not self.orders:
            raise WarhostError("there is no decision to take back")
        count = len(self.orders)
        if len(self.marks) != count:  # pragma: no cover - undo is only asked when live
            raise RuntimeError("undo before the battle reached the person")
        taken = self.orders.pop()
        del self.faces[self.marks[count - 1]:]
        self.expected = None
        return taken

    # ------------------------------------------------------------------ the file

    def decisions(self) -> list[dict[str, Any]]:
        """Every side's decisions in this run so far (from the battle's event log)."""
        log = self._dice.log if self._dice is not None else None
        if log is None:
            return []
        return [{"side": e["side"], "kind": e["kind"], "order": e["order"]}
                for e in log.events if e["type"] == "decision"]

    def write(self, pending: Mapping[str, Any] | None = None) -> None:
        """Rewrite the play file (atomically) with the battle so far; ``pending`` is a
        decision just taken that the battle has not recorded yet."""
        decisions = self.decisions() + ([dict(pending)] if pending is not None else [])
        data = unfinished_replay_data(self.scenario, self.seed, self.commanders, decisions,
                                      dice=self.faces if self.manual else None)
        write_text_atomically(self.path, dumps_replay(data))

    def save(self) -> None:
        """Write the file once more before stopping (a run still re-playing leaves the file
        as it is: it already holds more than the run has reached)."""
        if self.live:
            self.write()

    def finish(self, result: BattleResult) -> None:
        """The battle is over: the file becomes a complete replay."""
        self._check_expected()
        save_replay(result, self.scenario, self.path, self.commanders,
                    dice=self.faces if self.manual else None)

    def _check_expected(self) -> None:
        expected, self.expected = self.expected, None
        if expected is None:
            return
        for index, (was, now) in enumerate(zip(expected, self.decisions())):
            if (was["side"], was["kind"], str(was["order"])) != \
                    (now["side"], now["kind"], now["order"]):
                raise ReplayError(
                    f"decision {index + 1} differs on re-running: the file has {was['side']} "
                    f"{was['kind']} {str(was['order'])!r}, the battle now gives {now['side']} "
                    f"{now['kind']} {now['order']!r}", file=str(self.path), field="decisions")
