"""Running a study: the work of one item (in a worker) and the run over an executor."""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import hashlib
import json
import os
import random
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from importlib import metadata
from itertools import islice
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from urllib.parse import quote

from solver.api import solve
from solver.cells import CellsReport, read_cells, solve_by_cells
from solver.draft.solve import DraftSearch, DraftTick, solve_draft
from solver.errors import SolverError
from solver.study.spec import (
    EXECUTORS,
    ROWS,
    DealStudy,
    DraftStudy,
    Row,
    Study,
    StudyError,
    Task,
    optional_module,
)
from solver.study.store import Store
from take6.display.progress import clock, count
from take6.notation import format_position
from take6.play.bots import make_bot, policy
from take6.position import Position
from take6.rules import Rules
from take6.state import Phase, apply, new_game
from take6.text import excerpt

P = ParamSpec("P")
T = TypeVar("T")

# -- the work of one item (runs in a worker) ------------------------------------------------


def deal_position(hand_size: int, index: int, seed: int, players: int = 2) -> Position:
    """The ``index``-th random Logik deal of a study: deck ``1..players*hand_size + 4``
    shuffled by ``random.Random`` seeded with a string of ``(seed, players, hand_size, index)``
    (string seeds are hashed with SHA-512, the same in every process and Python version)."""
    size = players * hand_size + ROWS
    rng = random.Random(f"take6-study-deal seed={seed} players={players} k={hand_size} i={index}")
    deck = list(range(1, size + 1))
    rng.shuffle(deck)
    hands = [deck[p * hand_size : (p + 1) * hand_size] for p in range(players)]
    rows = sorted([c] for c in deck[players * hand_size :])
    return Position.create("logik", rows, hands, deck=size)


def drafted_position(
    hand_size: int,
    index: int,
    seed: int,
    players: int,
    bots: Sequence[str],
    first_picker: int = 0,
) -> tuple[Position, int]:
    """The ``index``-th deal of a study whose hands are drafted by bots: the Logik draft from
    the face-up deck ``1..players*hand_size + 4``, seat ``p`` picking by ``bots[p]`` (a name of
    :data:`take6.play.bots.BOTS`), in seat order from ``first_picker``, on the reference engine;
    the 4 cards left start the rows. A bot's random picks are drawn from one
    ``random.Random`` seeded with a string of ``(seed, players, hand_size, index)``. Returns the
    position and how many picks had more than one choice in the bot's policy (0: the draft is
    the same whatever the seed)."""
    rules = Rules.for_variant(
        "logik", players=players, hand_size=hand_size, first_picker=first_picker
    )
    rng = random.Random(f"take6-study-draft seed={seed} players={players} k={hand_size} i={index}")
    agents = [make_bot(name) for name in bots]
    state = new_game(rules)
    chance = 0
    while state.phase is Phase.DRAFT:
        p = state.picker
        chance += len(policy(agents[p], state, p)) > 1
        state = apply(state, agents[p].act(state, p, rng))
    after = state.position()
    rows = [list(r) for r in after.rows]
    size = players * hand_size + ROWS
    return Position.create("logik", rows, [list(h) for h in after.hands], deck=size), chance


def study_position(task: Task) -> Position:
    """The deal a deal item solves (shuffled, or drafted by the study's bots)."""
    assert task.deal is not None and task.seed is not None
    if not task.draft:
        return deal_position(task.hand_size, task.deal, task.seed, task.players)
    first = task.first_picker or 0
    pos, _ = drafted_position(task.hand_size, task.deal, task.seed, task.players, task.draft, first)
    return pos


def benchmark_deal(hand_size: int, seed: int) -> Position:
    """The 2-player Logik deal ``python bench/solve.py --deal K SEED`` prints, which the
    README's figures name: deck ``1..2k+4`` shuffled by ``random.Random(seed)``, the first ``k``
    cards to seat 0, the next ``k`` to seat 1, the last 4 start the rows (in that order)."""
    k = hand_size
    rng = random.Random(seed)
    cards = list(range(1, 2 * k + 5))
    rng.shuffle(cards)
    rows = [[c] for c in cards[2 * k :]]
    return Position.create("logik", rows, [cards[:k], cards[k : 2 * k]], deck=2 * k + 4)


@cache
def code_version() -> str:
    """``take6`` package version, ``+``, the first 12 hex digits of a SHA-256 over the solver
    package's Python source files, subpackages included (path and content, sorted by path; the
    command-line package ``solver/cli`` excluded)."""
    try:
        version = metadata.version("take6")
    except metadata.PackageNotFoundError:
        version = "unknown"
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name.startswith("cli/"):
            continue
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{version}+{digest.hexdigest()[:12]}"


def run_task(task: Task) -> Row:
    """Solve one item and return its row (a dict of column values, ``study`` excluded)."""
    started = time.perf_counter()
    if task.kind == "deals":
        row = _solve_deal(task)
    elif task.kind == "drafts":
        row = _solve_draft(task)
    else:
        raise StudyError(f"unknown study kind {task.kind!r}")
    row.update(
        item=task.item,
        kind=task.kind,
        hand_size=task.hand_size,
        players=task.players,
        deal=task.deal,
        seed=task.seed,
        first_picker=task.first_picker,
        objective=task.objective.value,
        player=task.player,
        seconds=time.perf_counter() - started,
        version=code_version(),
    )
    return row


def _solve_deal(task: Task) -> Row:
    pos = study_position(task)
    if task.cells is not None:
        hook = ITEM_STATUS
        where = [""]  # (the double oracle's last word, shown beside the leaf search's progress)

        def status(secs: float, text: str) -> None:
            where[0] = f"{task.item}: {text}"
            if hook is not None:
                hook(where[0])

        def leaf(
            nodes: int, filled: int, cap: int, secs: float, lo: Fraction, hi: Fraction
        ) -> None:
            # (the compiled core calls this every half second of a leaf search: at k = 10 a leaf
            # takes minutes, and the line would stand still between the double oracle's words)
            if hook is not None:
                hook(f"{where[0]}  |  {leaf_progress(nodes, secs, lo, hi)}")

        result, by_cells = solve_by_cells(
            pos,
            task.cells,
            task.objective,
            task.player,
            memory=task.memory,
            threads=task.threads,
            status=status if hook is not None else None,
            progress=leaf if hook is not None else None,
        )
    else:
        result, _ = solve(
            pos,
            task.objective,
            task.player,
            node_limit=task.node_limit,
            memory=task.memory,
            threads=task.threads,
        )
    if result.interrupted:  # Ctrl-C: the item is not stored, so the next run solves it
        raise KeyboardInterrupt
    data = result.to_json()
    summary: dict[str, Any] = {
        "strategies": data["strategies"],
        "line": data["line"],
        "lps": data["lps"],
    }
    if task.cells is not None:  # the work its file holds, over every run that wrote it
        summary["cells"] = {
            "nodes": by_cells.file.nodes,
            "seconds": round(by_cells.file.seconds, 3),
        }
    return {
        "position": format_position(pos),
        "solved": int(result.solved),
        "value": data["value"],
        "value_float": data["value_float"],
        "lower": data["lower"],
        "upper": data["upper"],
        "summary": json.dumps(summary, sort_keys=True),
        "nodes": result.nodes,
    }


def leaf_progress(nodes: int, secs: float, lo: Fraction, hi: Fraction) -> str:
    """A leaf search under way, short: the run's nodes, the leaf's clock and its bounds (in the
    leaf's own terms), e.g. ``nodes 1.2G  leaf 0:03:10  in [-3, 2.5000]``."""

    def short(v: Fraction) -> str:
        return str(v.numerator) if v.denominator == 1 else f"{float(v):.4f}"

    return f"nodes {count(nodes)}  leaf {clock(secs)}  in [{short(lo)}, {short(hi)}]"


@contextmanager
def _items_heard_by(hook: Callable[[str], None] | None) -> Iterator[None]:
    """:data:`ITEM_STATUS` set to ``hook`` while the block runs."""
    global ITEM_STATUS
    ITEM_STATUS, previous = hook, ITEM_STATUS
    try:
        yield
    finally:
        ITEM_STATUS = previous


ITEM_STATUS: Callable[[str], None] | None = None
"""While :func:`run_study` runs items in its own process (one worker), where the item under
way is (``item_status`` of :func:`run_study`; a deal by cells says where its double oracle is).
Items in other processes report nothing until they end."""

_WARM: dict[tuple[object, ...], DraftSearch] = {}
"""The draft search of the last draft item this process solved, kept for the next item of the
same draft (one first pick after another: the picks share leaves and play positions; measured at
k = 7: first pick 9 alone 402 s, after the higher picks 136 s)."""


def _solve_draft(task: Task) -> Row:
    assert task.first_picker is not None
    settings = (task.players, task.hand_size, task.first_picker, task.objective, task.player)
    key = (*settings, task.memory, task.threads)
    warm = _WARM.pop(key, None) if task.first_pick is not None else None
    _WARM.clear()
    if warm is None and task.first_pick is not None:
        warm = DraftSearch(*settings, memory=task.memory, threads=task.threads)
    hook = ITEM_STATUS

    def progress(tick: DraftTick) -> None:
        # (a first pick at k = 8 takes hours: the study's line says how far it got)
        if hook is not None:
            hook(f"{task.label}: {tick.text()}  {clock(tick.seconds)}")

    result = solve_draft(
        *settings,
        only_pick=task.first_pick,
        memory=task.memory,
        search=warm,
        exact_picks=task.exact_picks,
        progress=progress if hook is not None else None,
        proofs=task.proofs,
        threads=task.threads,
        shared_proofs=_sibling_proofs(task.proofs),
    )
    if result.interrupted:  # Ctrl-C: not stored (see _solve_deal)
        raise KeyboardInterrupt
    if warm is not None and not warm.stopped:
        _WARM[key] = warm
    data = result.to_json()
    keys = ("picks", "best_picks", "line", "play", "leaves", "leaf_hits", "play_nodes")
    summary = {k: data[k] for k in keys}
    summary["draft_nodes"] = result.nodes
    return {
        "position": data["position"] or "",
        "solved": int(result.solved),
        "value": data["value"],
        "value_float": data["value_float"],
        "lower": data["lower"],
        "upper": data["upper"],
        "summary": json.dumps(summary, sort_keys=True),
        "nodes": result.nodes + result.play_nodes,
    }


# -- running --------------------------------------------------------------------------------


class InlineExecutor(cf.Executor):
    """Runs each call at once in the calling process (``--workers 1``): no pickling, and the
    store sees every result as soon as it is computed."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> cf.Future[T]:
        future: cf.Future[T] = cf.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


WORKERS_PER_CPU = 4
"""``--workers`` may ask for at most this many processes per CPU this process may use: more
only costs memory and start-up (the solver is CPU-bound)."""


def max_workers() -> int:
    """The most worker processes :func:`make_executor` starts on this machine."""
    return WORKERS_PER_CPU * max(1, len(_cpus()))


def check_executor(kind: str, workers: int | None = None, scheduler: str | None = None) -> None:
    """Raise :class:`StudyError` for executor settings :func:`make_executor` cannot use."""
    if kind not in EXECUTORS:
        raise StudyError(f"unknown executor {excerpt(kind)} (known: {', '.join(EXECUTORS)})")
    if workers is not None and workers < 1:
        raise StudyError(f"workers must be at least 1, got {workers}")
    if workers is not None and workers > max_workers():
        raise StudyError(
            f"workers must be at most {max_workers()} ({WORKERS_PER_CPU} per CPU, "
            f"{len(_cpus())} CPUs here), got {excerpt(workers)}"
        )
    if kind == "process" and scheduler is not None:
        raise StudyError("a scheduler address needs the dask executor (--executor dask)")
    if kind == "dask" and scheduler is None:
        raise StudyError("the dask executor needs a scheduler address (--scheduler ADDRESS)")
    if kind == "dask" and workers is not None:
        raise StudyError("--workers is for the process executor; a Dask cluster has its own")


_PR_SET_PDEATHSIG = 1
"""``prctl(2)`` option: the signal a process gets when its parent dies (Linux)."""

WATCH_SECONDS = 0.5
"""How often a pool worker checks that the process that started it is still alive."""


def _worker_init(parent: int) -> None:
    """Run first in every pool worker: Ctrl-C is the parent's to handle (it stops the pool, so
    a worker ignores SIGINT), and the worker dies with the parent, even after ``kill -9``: by
    the parent-death signal on Linux, and everywhere by a thread that polls the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the watchdog below still works
            pass
    ppid = os.getppid()
    if not _alive(parent):  # died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent, ppid), daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else (a reused pid): treat as gone
        return False
    return True


def _watch_parent(parent: int, ppid: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != ppid or not _alive(parent):
            os._exit(1)


def _stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Stop a pool now (Ctrl-C, an error): cancel the queued work and end the workers instead
    of waiting for the items they are solving."""
    processes = list(pool._processes.values()) if pool._processes else []
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + 5
    for proc in processes:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join(1)


@contextmanager
def make_executor(
    kind: str = "process",
    workers: int | None = None,
    scheduler: str | None = None,
    *,
    items: int | None = None,
) -> Iterator[tuple[cf.Executor, int]]:
    """An executor and how many items to keep in flight.

    ``process``: a local process pool of ``workers`` processes (default: the CPU count; at
    most :func:`max_workers`, and no more than ``items`` when the number of items to solve is
    given), or an :class:`InlineExecutor` for one. Its workers ignore Ctrl-C and die with this
    process; an exception in the ``with`` block (``KeyboardInterrupt`` included) ends them at
    once instead of waiting for their items. ``dask``: a ``dask.distributed`` client on the
    scheduler at ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``), through its concurrent.futures
    interface ``Client.get_executor()`` (extra ``dist``)."""
    check_executor(kind, workers, scheduler)
    if kind == "process":
        n = workers if workers is not None else max(1, len(_cpus()))
        if items is not None:
            n = max(1, min(n, items))
        if n == 1:
            yield InlineExecutor(), 1
            return
        pool = cf.ProcessPoolExecutor(
            max_workers=n, initializer=_worker_init, initargs=(os.getpid(),)
        )
        try:
            yield pool, 4 * n
        except BaseException:
            _stop_pool(pool)
            raise
        pool.shutdown(wait=True)
        return
    distributed = optional_module("distributed", "the dask executor", "dist")
    with distributed.Client(scheduler, timeout=30) as client:
        threads = sum(client.nthreads().values()) or 1
        executor: cf.Executor = client.get_executor()
        yield executor, 4 * threads


def _cpus() -> list[int]:
    try:
        return list(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return list(range(os.cpu_count() or 1))


@dataclass(frozen=True)
class RunReport:
    """What a run did: items in the study, found done, solved now, and the time it took."""

    study: str
    items: int
    skipped: int
    solved: int
    seconds: float

    @property
    def rate(self) -> float:
        """Items solved per second in this run."""
        return self.solved / self.seconds if self.seconds > 0 else 0.0


Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each stored item (and once at the start)."""


def prepare(store: str | Path, study: Study, name: str | None = None) -> str:
    """Record ``study`` in ``store`` under ``name`` (default: its kind), or check that the
    recorded study has the same parameters; returns the name. :func:`run_study` does this
    too; call it first to fail before starting workers."""
    label = name if name is not None else study.kind
    if not label or not label.strip():
        raise StudyError("a study name must not be empty")
    if isinstance(study, DealStudy) and study.draft and study.deals > 1:
        for k in study.hand_sizes:
            _, chance = drafted_position(
                k, 0, study.seed, study.players, study.draft, study.first_picker
            )
            if not chance:
                raise StudyError(
                    f"a draft by {','.join(study.draft)} picks nothing at random at hand size "
                    f"{k}: all {study.deals} deals would be the same one (give --deals 1)"
                )
    with Store(store) as db:
        db.register(label, study)
    return label


def cells_folder(cells: str | Path, study: Study, label: str) -> Path:
    """The folder of a study's cells files, ``cells/<study name>`` (made when missing); a
    :class:`StudyError` when the study cannot be solved by cells or the folder not made."""
    if not isinstance(study, DealStudy):
        raise StudyError("cells files are for deal studies (a draft is not one position)")
    if study.node_limit is not None:
        raise StudyError(
            "a study by cells solves every deal to the end, resumably: give no node limit"
        )
    return _study_folder(cells, label, "--cells")


def proofs_folder(proofs: str | Path, study: Study, label: str) -> Path:
    """The folder of a draft study's proofs files, ``proofs/<study name>`` (made when missing);
    a :class:`StudyError` when the study is not of drafts or the folder cannot be made."""
    if not isinstance(study, DraftStudy):
        raise StudyError("proofs files are for draft studies (--cells keeps a deal's proofs)")
    return _study_folder(proofs, label, "--proofs")


def _study_folder(root_name: str | Path, label: str, flag: str) -> Path:
    """``root/<study name>``, made when missing (``flag`` names the option in errors)."""
    root = Path(root_name)
    if root.exists() and not root.is_dir():
        raise StudyError(f"{flag} {excerpt(str(root))} is a file, not a folder")
    folder = root / quote(label, safe="")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StudyError(f"{flag} {excerpt(str(root))}: {e.strerror or e}") from None
    return folder


def proofs_path(folder: Path, task: Task) -> Path:
    """The proofs file of a draft item, named as its key in the store (seats from 0):
    ``k<K>-first<F>.proofs.jsonl``, or ``k<K>-first<F>-pick<C>.proofs.jsonl`` by first pick."""
    pick = "" if task.first_pick is None else f"-pick{task.first_pick}"
    return folder / f"k{task.hand_size}-first{task.first_picker}{pick}.proofs.jsonl"


def _sibling_proofs(path: str | None) -> list[Path]:
    """The other proofs files in the folder of a draft item's (those of the same draft are
    read, the others passed over: :func:`solver.draft.proofs.read_shared`)."""
    if path is None:
        return []
    own = Path(path)
    try:
        return sorted(p for p in own.parent.glob("*.proofs.jsonl") if p.name != own.name)
    except OSError:
        return []


def cells_path(folder: Path, task: Task) -> Path:
    """The cells file of a deal item: ``k<K>-deal<I>.cells.jsonl`` in the study's folder."""
    return folder / f"k{task.hand_size}-deal{task.deal}.cells.jsonl"


def deal_study(params: dict[str, Any]) -> DealStudy:
    """The deal study a store recorded with these parameters."""
    return DealStudy(
        hand_sizes=tuple(params["hand_sizes"]),
        deals=params["deals"],
        seed=params["seed"],
        players=params["players"],
        objective=params["objective"],
        player=params["player"],
        node_limit=params.get("node_limit"),
        draft=tuple(params.get("draft", ())),
        first_picker=params.get("first_picker", 0),
    )


_CELLS_NAME = re.compile(r"k(\d+)-deal(\d+)\.cells\.jsonl")


def cells_in_progress(store: str | Path, cells: str | Path) -> list[tuple[str, str, CellsReport]]:
    """The deal items of ``store`` being solved by cells in the folder ``cells`` (a file there,
    no row in the store yet): ``(study, item, what its file proves)``, read as the files stand
    (a run may be writing them). Raises :class:`StudyError` for a file that is not its item's."""
    root = Path(cells)
    if not root.is_dir():
        raise StudyError(f"--cells {excerpt(str(root))}: no such folder")
    out: list[tuple[str, str, CellsReport]] = []
    with Store(store, create=False) as db:
        infos = [(i, db.done_items(i.study)) for i in db.studies() if i.kind == "deals"]
    for info, done in infos:
        folder = root / quote(info.study, safe="")
        if not folder.is_dir():
            continue
        study = deal_study(info.params)
        for path in sorted(folder.iterdir()):
            m = _CELLS_NAME.fullmatch(path.name)
            if m is None:
                continue
            k, i = int(m.group(1)), int(m.group(2))
            if k not in study.hand_sizes or not 0 <= i < study.deals:
                continue
            task = study.task(k, i)
            if task.item in done:
                continue
            try:
                report = read_cells(study_position(task), path, task.objective, task.player)
            except SolverError as exc:
                raise StudyError(f"study {info.study!r}, {task.item}: {exc}") from None
            out.append((info.study, task.item, report))
    return out


HEARTBEAT = 10.0
"""Seconds between two looks at the items under way on workers (:func:`run_study`): the
progress line's clock moves on, and items solved by cells show what their files prove."""

CELLS_EVERY = 30.0
"""Seconds between two readings of the cells files of the items under way on workers."""


class _Heartbeat:
    """While items run on workers and none has come back: ``progress`` again (the time goes on),
    and, for items solved by cells, ``item_status`` with what each one's file proves so far,
    read at most every :data:`CELLS_EVERY` seconds (a worker may be writing it)."""

    def __init__(
        self,
        progress: Progress | None,
        item_status: Callable[[str], None] | None,
        cells: bool,
    ) -> None:
        self.progress = progress
        self.item_status = item_status if cells else None
        self.wanted = progress is not None or self.item_status is not None
        self.read_at: float | None = None
        self.text = ""

    def __call__(self, done: int, total: int, running: Sequence[Task]) -> None:
        if self.item_status is not None:
            now = time.monotonic()
            if self.read_at is None or now - self.read_at >= CELLS_EVERY:
                self.read_at = now
                self.text = _cells_briefs([t for t in running if t.cells is not None])
            if self.text:
                self.item_status(self.text)  # (the line it draws has the clock too)
                return
        if self.progress is not None:
            self.progress(done, total)


def _cells_briefs(tasks: Sequence[Task]) -> str:
    """``item: what its cells file proves; ...``, then how many have no file yet (begun this
    instant, or waiting for a worker)."""
    out, waiting = [], 0
    for task in tasks:
        assert task.cells is not None
        path = Path(task.cells)
        if not path.exists() or path.stat().st_size == 0:
            waiting += 1
            continue
        try:
            report = read_cells(study_position(task), path, task.objective, task.player)
        except (SolverError, OSError) as exc:
            out.append(f"{task.item}: cells file not readable now ({exc})")
        else:
            out.append(f"{task.item}: {report.brief()}")
    if waiting:
        out.append(f"{waiting} not begun")
    return "; ".join(out)


def run_tasks(tasks: Sequence[Task]) -> list[Row]:
    """Solve a batch of items (one round trip to a worker for many small items)."""
    return [run_task(t) for t in tasks]


MAX_BATCH = 64


def run_study(
    store: str | Path,
    study: Study,
    *,
    name: str | None = None,
    executor: cf.Executor | None = None,
    window: int = 8,
    batch_seconds: float = 0.2,
    progress: Progress | None = None,
    memory: int | None = None,
    threads: int = 1,
    cells: str | Path | None = None,
    item_status: Callable[[str], None] | None = None,
    proofs: str | Path | None = None,
) -> RunReport:
    """Solve every item of ``study`` not yet in ``store`` and write each result as it arrives.

    ``name`` is the study's name in the store (default: its kind). ``executor`` runs the items
    (default: in this process); ``window`` is how many batches are in flight at once. Items go
    out one at a time until the first results show how long an item takes; then small items
    go in batches of about ``batch_seconds`` of work (at most :data:`MAX_BATCH` items), so the
    cost of a round trip to a worker does not dominate. Each row is still written in its own
    transaction as soon as its batch returns. Raises :class:`StudyError` when the store holds
    a study of that name with other parameters. ``memory`` is each item's table budget on
    the compiled core, in bytes (default :func:`solver.native.default_memory`; a worker holds
    one table at a time), ``threads`` its search threads. ``cells`` (a folder; deal studies
    only) solves each deal by cells (:func:`solver.cells.solve_by_cells`), its proofs kept in
    :func:`cells_path`: an item stopped part-way (Ctrl-C, ``kill -9``, a lost machine) goes on
    from its file in the next run instead of starting again. ``proofs`` (a folder; draft studies
    only) does the same for drafts: each item's draft search keeps its proofs in
    :func:`proofs_path` (:mod:`solver.draft.proofs`). ``item_status(text)`` hears where the item
    under way is, when the items run in this process (:data:`ITEM_STATUS`)."""
    if threads < 1:
        raise StudyError(f"threads must be at least 1, got {excerpt(threads)}")
    label = prepare(store, study, name)
    if window < 1:
        raise StudyError(f"window must be at least 1, got {window}")
    folder: Path | None = None
    if cells is not None:
        folder = cells_folder(cells, study, label)
    kept = None if proofs is None else proofs_folder(proofs, study, label)
    run = executor if executor is not None else InlineExecutor()
    inline = isinstance(run, InlineExecutor)
    if inline:
        batch_seconds = 0.0  # no round trip to save
    with _items_heard_by(item_status if inline else None):
        started = time.perf_counter()
        total = study.items()
        with Store(store) as db:
            done = db.done_items(label)
            # Generated lazily: only the batches in flight exist at any time.
            pending = (
                replace(
                    t,
                    memory=memory,
                    threads=threads,
                    cells=None if folder is None else str(cells_path(folder, t)),
                    proofs=None if kept is None else str(proofs_path(kept, t)),
                )
                for t in study.tasks()
                if t.item not in done
            )
            skipped = len(done)
            count = skipped
            if progress is not None:
                progress(count, total)
            solved_seconds = 0.0
            more = True
            inflight: set[cf.Future[list[Row]]] = set()
            batches: dict[cf.Future[list[Row]], list[Task]] = {}
            beat = _Heartbeat(progress, item_status, folder is not None)
            try:
                while True:
                    while len(inflight) < window and more:
                        mean = solved_seconds / (count - skipped) if count > skipped else None
                        size = 1
                        if mean is not None and batch_seconds > 0:
                            size = max(1, min(MAX_BATCH, int(batch_seconds / max(mean, 1e-6))))
                        batch = list(islice(pending, size))
                        if not batch:
                            more = False
                            break
                        future = run.submit(run_tasks, batch)
                        inflight.add(future)
                        batches[future] = batch
                    if not inflight:
                        break
                    finished, inflight = cf.wait(
                        inflight,
                        timeout=None if inline or not beat.wanted else HEARTBEAT,
                        return_when=cf.FIRST_COMPLETED,
                    )
                    if not finished:  # items running on workers: the clock, and where they are
                        running = [t for f, b in batches.items() if f in inflight for t in b]
                        beat(count, total, running)
                        continue
                    for future in finished:
                        del batches[future]
                        for row in future.result():
                            db.insert(label, row)
                            count += 1
                            solved_seconds += row["seconds"]
                            if progress is not None:
                                progress(count, total)
            finally:
                for future in inflight:
                    future.cancel()
        return RunReport(label, total, skipped, count - skipped, time.perf_counter() - started)
