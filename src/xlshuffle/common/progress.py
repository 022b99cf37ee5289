"""A small progress bar for long work: drawn on a terminal, silent when piped."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import IO

__all__ = ["Progress"]


class Progress:
    """Progress of ``total`` steps, drawn on ``stream`` (stderr) only if it is a terminal.

    Use as a context manager and call :meth:`advance` after each step::

        with Progress(len(files), "shuffling") as bar:
            for f in files:
                ...
                bar.advance()

    Parameters
    ----------
    total : int
        Number of steps.
    label : str
        Shown before the bar.
    stream : text stream, optional
        Where to draw; ``sys.stderr`` by default.
    enabled : bool, optional
        Force the bar on or off; by default it is on when ``stream`` is a terminal.
    """

    _WIDTH = 28
    _INTERVAL = 0.1  # seconds between redraws

    def __init__(
        self,
        total: int,
        label: str = "",
        *,
        stream: IO[str] | None = None,
        enabled: bool | None = None,
    ) -> None:
        self.total = max(total, 0)
        self.label = label
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self._start = time.monotonic()
        self._last = 0.0

    def __enter__(self) -> Progress:
        self._draw(force=True)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.enabled:
            self._draw(force=True)
            self.stream.write("\n")
            self.stream.flush()

    def advance(self, steps: int = 1) -> None:
        """Record ``steps`` more steps done and redraw if enough time has passed."""
        self.done = min(self.done + steps, self.total)
        self._draw(force=self.done == self.total)

    def _draw(self, *, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < self._INTERVAL:
            return
        self._last = now
        frac = self.done / self.total if self.total else 1.0
        filled = int(frac * self._WIDTH)
        bar = "#" * filled + "-" * (self._WIDTH - filled)
        elapsed = now - self._start
        eta = ""
        if 0 < self.done < self.total:
            eta = f" ETA {elapsed / self.done * (self.total - self.done):.0f}s"
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}{eta}   ")
        self.stream.flush()
