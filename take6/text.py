"""Wording helpers shared by every message and report: plurals, cut-down echoes of long
inputs, and the one integer syntax of every number a user types. No I/O, no rules."""

from __future__ import annotations

import re
import reprlib

from take6.errors import InputError

EXCERPT = 80
"""Characters of an input an error message echoes before it is cut."""

MAX_DIGITS = 40
"""The most digits an integer typed on the command line or read from a file may have: every
count, seat, seed or card in take6 fits, and a bigger number is refused up front instead of
turning into seconds of arithmetic (or a 100 KB error line)."""

_INT = re.compile(r"[+-]?[0-9]+")
_BOM = "\ufeff"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``"1 head"``, ``"2 heads"``: ``count`` and ``word``, plural unless ``count`` is 1
    (``many`` is the plural when it is not ``word + "s"``)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


class _Repr(reprlib.Repr):
    """``reprlib`` with limits for error messages; a huge integer is named by its size (its
    full ``repr`` would be slow, or refused beyond 4300 digits)."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4 * self.maxlong:
            return f"<integer of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)


_REPR = _Repr()
_REPR.maxlevel = 3
_REPR.maxtuple = _REPR.maxlist = _REPR.maxset = _REPR.maxfrozenset = 8
_REPR.maxdict = 6
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = EXCERPT


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """``repr(value)`` cut to a readable length (strings to about ``limit`` characters, lists to
    8 items, 3 levels of nesting, ``2 * limit`` characters in all), so an error message names a
    long input without echoing all of it; a cut string says how long it was."""
    if isinstance(value, str) and len(value) > limit:
        half = (limit - 5) // 2
        return f"{value[:half] + '...' + value[-half:]!r} ({len(value)} characters)"
    text = _REPR.repr(value)
    if len(text) > 2 * limit:
        text = text[: 2 * limit - 3] + "..."
    return text


def parse_int(text: str, what: str) -> int:
    """``text`` as an integer: ASCII digits with an optional sign and at most
    :data:`MAX_DIGITS` digits (no Unicode digits, underscores, spaces inside or exponents).
    Raises :class:`~take6.errors.InputError` with one line naming ``what`` and the text."""
    t = text.strip() if isinstance(text, str) else text
    if not isinstance(t, str) or not _INT.fullmatch(t):
        raise InputError(f"{what}: {excerpt(text)} is not a number (ASCII digits only)")
    if len(t.lstrip("+-")) > MAX_DIGITS:
        raise InputError(
            f"{what}: a {len(t.lstrip('+-'))}-digit number is too long (at most {MAX_DIGITS} "
            f"digits): {excerpt(text)}"
        )
    return int(t)


_FLOAT = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")


def parse_float(text: str, what: str) -> float:
    """``text`` as a finite number: ASCII digits with an optional sign, decimal point and short
    exponent (no Unicode digits, underscores, ``nan`` or ``inf``). Raises
    :class:`~take6.errors.InputError` with one line naming ``what`` and the text."""
    t = text.strip() if isinstance(text, str) else text
    if not isinstance(t, str) or len(t) > MAX_DIGITS or not _FLOAT.fullmatch(t):
        raise InputError(f"{what}: {excerpt(text)} is not a number (ASCII digits only)")
    return float(t)


def strip_bom(text: str) -> str:
    """``text`` without a leading UTF-8 byte-order mark (editors on Windows write one)."""
    return text[1:] if text.startswith(_BOM) else text


def decode(data: bytes, what: str) -> str:
    """UTF-8 ``data`` as text (a leading byte-order mark dropped);
    :class:`~take6.errors.InputError` naming ``what`` when it is not UTF-8."""
    try:
        return strip_bom(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} is not UTF-8 text (byte {exc.start})") from None
