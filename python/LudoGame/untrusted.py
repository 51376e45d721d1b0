"""Text that comes from an untrusted party (a student's file, an AI, a saved game) made safe
to print on a terminal, in a log or (after ``html.escape``) on a page.

`visible` is the one place that decides how: every character that is not printable (the
control characters ESC, CR, BEL, backspace, DEL and the C1 range, the bidirectional
overrides and other format characters, line and paragraph separators) is shown as a Python
escape (``\\x1b``, ``\\r``, ``\\u202e``), so that no such text can clear a screen, move the
cursor, recolour a line or hide a part of itself. Printable Unicode is kept as it is.
Backslashes are kept too, which makes `visible` idempotent: applying it to text already
made visible changes nothing, so the layers of a report may each apply it.

Every command that prints such text uses it: ``ludo check`` (its text, table and HTML
reports), ``onitama match``, ``play`` and ``tournament`` (AI names and AI error messages),
and ``ludo serve`` (its error lines and the server's log, through `VisibleLogFilter`). JSON
output needs nothing more: ``json.dumps`` escapes control characters itself.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterable

_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(ch: str) -> str:
    short = _SHORT.get(ch)
    if short is not None:
        return short
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: object) -> str:
    """`text` (made a string with ``str`` first) on one line, with every character that is
    not printable shown as its Python escape: ``'\\x1b[2J'`` becomes the seven printable
    characters ``\\x1b[2J``, a newline ``\\n``. Printable text (any script) is unchanged."""
    s = text if isinstance(text, str) else str(text)
    if s.isprintable():
        return s
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in s)


def visible_lines(text: object) -> str:
    """`text` as `visible` shows it, except that its newlines stay newlines (a traceback,
    a block of several lines): each line is made visible on its own."""
    s = text if isinstance(text, str) else str(text)
    return "\n".join(visible(line) for line in s.split("\n"))


class VisibleLogFilter(logging.Filter):
    """A filter for a log handler that makes every record's text visible (`visible`) before
    it is formatted: the message, the traceback of its exception (line by line) and its
    stack. It never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite `record` in place (its message becomes the final, visible text)."""
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken format string is shown, not raised
            message = f"{record.msg!r} % {record.args!r}"
        record.msg = visible(message)
        record.args = None
        # uvicorn formats "color_message" (with the original arguments) when colours are on
        record.__dict__.pop("color_message", None)
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            record.exc_text = visible_lines(record.exc_text)
        if record.stack_info:
            record.stack_info = visible_lines(record.stack_info)
        return True


def log_visibly(loggers: Iterable[str]) -> None:
    """Add a `VisibleLogFilter` to every handler of the named loggers (and to the handler
    of last resort, which prints the records of loggers without one), once each."""
    handlers: list[logging.Handler] = []
    for name in loggers:
        handlers += logging.getLogger(name).handlers
    if logging.lastResort is not None:
        handlers.append(logging.lastResort)
    for handler in handlers:
        if not any(isinstance(f, VisibleLogFilter) for f in handler.filters):
            handler.addFilter(VisibleLogFilter())


__all__ = ["VisibleLogFilter", "log_visibly", "visible", "visible_lines"]
