"""Where one learner's events are kept, and every way that can go wrong:

- :class:`FileStore`: a JSON Lines file (``$TUTOR_PROGRESS_FILE``, default
  ``~/.wizard-tutor/progress.jsonl``), one event per line, appended with ``O_APPEND`` under an
  advisory lock, so two kernels of one learner (two open pages) both count. JupyterHub (the
  file sits in the learner's own home) and JupyterLab use it.
- the learner's browser (``localStorage``), for the plain app, classroom mode and the static
  site: a widget of the display layer (:mod:`tutor.display.browser_store`) talks to it, and
  reads its list with :func:`parse_list`.
- :class:`MemoryStore`: nothing is kept (tests, and "continue without saving").

``$TUTOR_PROGRESS_STORE`` (``browser`` or ``file``) chooses (:func:`store_setting`); the
launcher sets it. A store that cannot be read or written raises
:class:`ProgressStoreError`, which says what is wrong in the learner's language. The
events themselves are :mod:`tutor.teaching.progress_events`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from tutor.teaching.progress_events import Event, NewerEventError, parse_event
from tutor.teaching.text import DEFAULT_LANGUAGE, catalog, text

try:  # POSIX; elsewhere (Windows) appends rely on O_APPEND alone
    import fcntl
except ImportError:  # pragma: no cover - not on the machines the tests run on
    fcntl = None  # type: ignore[assignment]

PROGRESS_FILE_VARIABLE = "TUTOR_PROGRESS_FILE"
"""Environment variable naming the progress file (default :func:`default_progress_path`)."""

DEFAULT_PROGRESS_FILE = "~/.wizard-tutor/progress.jsonl"
"""The progress file unless told (:func:`default_progress_path`), in the learner's home."""

PROGRESS_STORE_VARIABLE = "TUTOR_PROGRESS_STORE"
"""Environment variable choosing where progress is kept: ``browser`` or ``file``."""

BROWSER_STORAGE_KEY = "wizard-tutor/progress/v1"
"""The browser's ``localStorage`` key: a JSON array of events."""
BROWSER_SOURCE = f"localStorage {BROWSER_STORAGE_KEY!r}"
"""How errors name the browser's store (a learner reads "this browser's storage")."""
MAX_LINE_BYTES = 4096
"""An event takes about 250 bytes; a longer line is not one the tutor wrote (and is not
parsed: no deep nesting or giant number reaches the JSON parser)."""
MAX_STORE_BYTES = 32 * 1024 * 1024
"""About 130,000 answers: more is not a progress store."""


class StoreProblem(StrEnum):
    """What is wrong with a progress store (its message in every language is
    ``progress.problem-<value>`` in the catalogs)."""

    UNREADABLE = "unreadable"
    FOLDER = "folder"
    TOO_BIG = "too-big"
    NOT_UTF8 = "not-utf8"
    DAMAGED = "damaged"
    NEWER = "newer"
    UNWRITABLE = "unwritable"
    BROWSER_BLOCKED = "browser-blocked"
    BROWSER_WRITE = "browser-write"


class ProgressStoreError(ValueError):
    """A progress store that cannot be read or written: which store, what is wrong, and
    where (a line of a file, an entry of the browser's list). ``message(lang)`` says it
    in the learner's language; ``str()`` in English with the technical detail."""

    def __init__(
        self, problem: StoreProblem, source: str, *, line: int | None = None, detail: str = ""
    ) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        self.detail = detail
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(
            f"progress store {where}: {problem.value}" + (f" ({detail})" if detail else "")
        )

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """What is wrong, for the learner (names the store, and the line if one is bad).

        >>> print(ProgressStoreError(StoreProblem.DAMAGED, "/h/p.jsonl", line=3).message())
        /h/p.jsonl is damaged at line 3: it is not an answer the tutor wrote.
        >>> print(ProgressStoreError(StoreProblem.DAMAGED, BROWSER_SOURCE).message("ja"))
        「このブラウザーの保存領域」は壊れています。チューターが書いた答えの一覧ではありません。
        """
        key = f"progress.problem-{self.problem.value}"
        if (
            self.line is not None
            and f"problem-{self.problem.value}-line" in catalog(lang)["progress"]
        ):
            key += "-line"
        source = (
            text("progress.browser-source", lang) if self.source == BROWSER_SOURCE else self.source
        )
        return text(key, lang, source=source, line=self.line if self.line is not None else "")


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number JSON allows")


def _load_json(text_value: str) -> object:
    """JSON that must be small and plain: no NaN/Infinity; nesting and huge numbers are
    refused by the callers' size limits and reported as damage, not as a crash."""
    return json.loads(text_value, parse_constant=_refuse_constant)


def _entry_problem(
    error: ValueError | RecursionError, source: str, line: int
) -> ProgressStoreError:
    """What an entry that is not an event means for its store (a line of a file, an entry
    of the browser's list): written by a newer tutor, or damaged."""
    if isinstance(error, NewerEventError):
        return ProgressStoreError(StoreProblem.NEWER, source, line=line, detail=str(error))
    return ProgressStoreError(StoreProblem.DAMAGED, source, line=line, detail=str(error)[:200])


def parse_lines(raw: bytes, source: str) -> list[Event]:
    """The events of a JSON Lines file's bytes (blank lines are skipped). A line that is
    not an event the tutor wrote is reported (its number and the file), never dropped.

    >>> parse_lines(b'{"v": 1}\\n', "p.jsonl")
    Traceback (most recent call last):
    ...
    tutor.teaching.progress_stores.ProgressStoreError: progress store p.jsonl, line 1: damaged (event field 'id' is missing; it must be 32 lower-case hexadecimal digits (a uuid4))
    """
    if len(raw) > MAX_STORE_BYTES:
        raise ProgressStoreError(StoreProblem.TOO_BIG, source, detail=f"{len(raw)} bytes")
    events: list[Event] = []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE_BYTES:
            raise ProgressStoreError(
                StoreProblem.DAMAGED, source, line=number, detail=f"a line of {len(line)} bytes"
            )
        try:
            decoded = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ProgressStoreError(
                StoreProblem.NOT_UTF8, source, line=number, detail=str(error)
            ) from None
        try:
            events.append(parse_event(_load_json(decoded)))
        except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
            raise _entry_problem(error, source, number) from None
    return events


def parse_list(raw: str, source: str) -> list[Event]:
    """The events of the browser's form: one JSON array. ``line`` in a problem is the
    position (from 1) of the bad entry.

    >>> parse_list('[{"v": 1, "id": "%s", "time": "2026-12-01T10:00:00Z", "kind": "reset"}]'
    ...            % ("a" * 32), "this browser")[0].id == "a" * 32
    True
    >>> parse_list("{}", "this browser")
    Traceback (most recent call last):
    ...
    tutor.teaching.progress_stores.ProgressStoreError: progress store this browser: damaged (not a list of events)
    """
    if len(raw) > MAX_STORE_BYTES:
        raise ProgressStoreError(StoreProblem.TOO_BIG, source, detail=f"{len(raw)} characters")
    try:
        # The entries are checked one by one below: the list itself must parse, and a
        # deep nesting or a giant number is damage, not a crash.
        data = _load_json(raw)
    except (ValueError, RecursionError) as error:
        raise ProgressStoreError(StoreProblem.DAMAGED, source, detail=str(error)[:200]) from None
    if not isinstance(data, list):
        raise ProgressStoreError(StoreProblem.DAMAGED, source, detail="not a list of events")
    events: list[Event] = []
    for number, entry in enumerate(data, start=1):
        try:
            events.append(parse_event(entry))
        except (ValueError, RecursionError) as error:
            raise _entry_problem(error, source, number) from None
    return events


class Store(Protocol):
    """Where one learner's events are kept. ``load`` gives every event, or ``None`` while
    the store has not answered yet (the browser's store then calls
    :meth:`tutor.teaching.progress.Progress.reload` once it has); both methods raise
    :class:`ProgressStoreError` when the store cannot be read or the event could not be
    kept."""

    def load(self) -> list[Event] | None: ...

    def append(self, event: Event) -> None: ...

    def start_afresh(self) -> str | None:
        """Put a broken store aside (never delete it) and start an empty one; the name
        of where the old one went, if anywhere."""
        ...

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """A sentence for the learner: where the progress is kept."""
        ...


class MemoryStore:
    """Events kept by this page only (nothing survives it).

    >>> from tutor.teaching.progress_events import ResetEvent
    >>> store = MemoryStore()
    >>> store.append(ResetEvent()); len(store.load())
    1
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.events = list(events)

    def load(self) -> list[Event]:
        return list(self.events)

    def append(self, event: Event) -> None:
        self.events.append(event)

    def start_afresh(self) -> str | None:
        self.events.clear()
        return None

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return text("progress.where-nowhere", lang)


def aside_name(name: str) -> str:
    """The name a broken store ``name`` is kept under when the learner starts afresh (it
    is put aside, never deleted): ``<name>.broken-<UTC time>``.

    >>> aside_name("progress.jsonl").startswith("progress.jsonl.broken-20")
    True
    """
    return f"{name}.broken-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"


def default_progress_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the progress file is: ``$TUTOR_PROGRESS_FILE`` if set (in ``environ``,
    default the process's environment), else ``~/.wizard-tutor/progress.jsonl`` in the
    learner's home folder.

    >>> default_progress_path({"TUTOR_PROGRESS_FILE": "/tmp/p.jsonl"})
    PosixPath('/tmp/p.jsonl')
    >>> default_progress_path({}).relative_to(Path.home())
    PosixPath('.wizard-tutor/progress.jsonl')
    """
    env = os.environ if environ is None else environ
    return Path(env.get(PROGRESS_FILE_VARIABLE) or DEFAULT_PROGRESS_FILE).expanduser()


class FileStore:
    """Events in a JSON Lines file, one per line. Appending opens the file with
    ``O_APPEND`` and holds an exclusive ``flock`` while it writes the whole line at once,
    so two kernels (two pages of one learner) both count; reading holds a shared lock.
    The file and its folder are the learner's only (modes 600 and 700).

    >>> import tempfile
    >>> from tutor.teaching.progress_events import ResetEvent
    >>> store = FileStore(Path(tempfile.mkdtemp()) / "progress.jsonl")
    >>> store.append(ResetEvent()); store.append(ResetEvent()); len(store.load())
    2
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_progress_path()

    def _problem(self, problem: StoreProblem, error: OSError | None = None) -> ProgressStoreError:
        detail = error.strerror or str(error) if error is not None else ""
        return ProgressStoreError(problem, str(self.path), detail=detail)

    def load(self) -> list[Event]:
        """Every event in the file (none if there is no file yet)."""
        try:
            with self.path.open("rb") as stream:
                if fcntl is not None:
                    fcntl.flock(stream.fileno(), fcntl.LOCK_SH)
                raw = stream.read(MAX_STORE_BYTES + 1)
        except FileNotFoundError:
            return []
        except IsADirectoryError as error:
            raise self._problem(StoreProblem.FOLDER, error) from None
        except OSError as error:
            raise self._problem(StoreProblem.UNREADABLE, error) from None
        return parse_lines(raw, str(self.path))

    def append(self, event: Event) -> None:
        """Add ``event`` as one line at the end of the file (creating it if needed)."""
        line = json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n"
        data = line.encode("utf-8")
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        except IsADirectoryError as error:
            raise self._problem(StoreProblem.FOLDER, error) from None
        except OSError as error:
            raise self._problem(StoreProblem.UNWRITABLE, error) from None
        try:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_EX)
            size = os.fstat(handle).st_size
            # A line cut short (a crash while writing) must not swallow this one: it stays
            # on a line of its own, and loading reports it.
            if size and os.pread(handle, 1, size - 1) != b"\n":
                data = b"\n" + data
            written = 0
            while written < len(data):
                written += os.write(handle, data[written:])
            os.fsync(handle)
        except OSError as error:
            raise self._problem(StoreProblem.UNWRITABLE, error) from None
        finally:
            os.close(handle)  # closing releases the lock

    def verify_writable(self) -> None:
        """Raise :class:`ProgressStoreError` if an answer could not be kept in the file: a
        folder in its place, or no permission to write it (or, while it does not exist, to
        make it where it goes). Changes nothing: the first answer makes the file.

        >>> import tempfile
        >>> FileStore(Path(tempfile.mkdtemp()) / "new" / "progress.jsonl").verify_writable()
        >>> FileStore(tempfile.mkdtemp()).verify_writable()
        Traceback (most recent call last):
        ...
        tutor.teaching.progress_stores.ProgressStoreError: progress store /...: folder (it is a folder)
        """
        if self.path.is_dir():
            raise ProgressStoreError(StoreProblem.FOLDER, str(self.path), detail="it is a folder")
        if self.path.exists():
            if not os.access(self.path, os.W_OK):
                raise self._cannot_write("no permission to write it")
            return
        folder = self.path.parent  # the first folder there is: append makes the rest
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if not folder.is_dir():
            raise self._cannot_write(f"{folder} is a file, not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise self._cannot_write(f"no permission to write in the folder {folder}")

    def _cannot_write(self, why: str) -> ProgressStoreError:
        return ProgressStoreError(StoreProblem.UNWRITABLE, str(self.path), detail=why)

    def start_afresh(self) -> str | None:
        """Move the file (or whatever is in its place) aside (:func:`aside_name`); the
        next answer starts a new file."""
        if not self.path.exists() and not self.path.is_symlink():
            return None
        aside = self.path.with_name(aside_name(self.path.name))
        try:
            self.path.rename(aside)
        except OSError as error:
            raise self._problem(StoreProblem.UNWRITABLE, error) from None
        return str(aside)

    def where(self, lang: str = DEFAULT_LANGUAGE) -> str:
        user = os.environ.get("JUPYTERHUB_USER")
        if user:
            return text("progress.where-hub", lang, user=user, file=str(self.path))
        return text("progress.where-file", lang, file=str(self.path))


class StoreSetting(StrEnum):
    """The values of ``$TUTOR_PROGRESS_STORE``."""

    BROWSER = "browser"
    FILE = "file"


class UnknownStoreError(ValueError):
    """A ``TUTOR_PROGRESS_STORE`` naming no store."""


def store_setting(environ: Mapping[str, str] | None = None) -> StoreSetting | None:
    """The store ``$TUTOR_PROGRESS_STORE`` asks for (``None`` when unset: the page's kind
    decides). A typo is refused loudly, naming the known values.

    >>> store_setting({"TUTOR_PROGRESS_STORE": "file"})
    <StoreSetting.FILE: 'file'>
    >>> store_setting({"TUTOR_PROGRESS_STORE": "cloud"})
    Traceback (most recent call last):
    ...
    tutor.teaching.progress_stores.UnknownStoreError: TUTOR_PROGRESS_STORE='cloud' names no progress store; known: 'browser', 'file'
    """
    value = (os.environ if environ is None else environ).get(PROGRESS_STORE_VARIABLE, "")
    if not value.strip():
        return None
    try:
        return StoreSetting(value.strip().lower())
    except ValueError:
        known = ", ".join(repr(setting.value) for setting in StoreSetting)
        raise UnknownStoreError(
            f"{PROGRESS_STORE_VARIABLE}={value!r} names no progress store; known: {known}"
        ) from None
