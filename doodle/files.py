"""Writing users' files safely: a file is either its old content or the whole new one, never half written."""

from __future__ import annotations

import codecs
import errno
import os
import stat
import tempfile
from pathlib import Path


class ReadOnlyFileError(PermissionError):
    """The file to write exists and is read-only: an atomic rename would replace it anyway, so it is refused."""


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write to a temporary file beside `path`, flush it to disk, then rename it over `path`.

    The file gets the permissions an ordinary write would give it (the old file's, or 0666 less the umask), not
    the owner-only ones of a temporary file. A symbolic link is written through: the file it points to is
    replaced and the link stays a link. A read-only file (no write permission, even for root) raises
    ReadOnlyFileError rather than being replaced, as an ordinary write would refuse it. A character device or a
    FIFO (`/dev/null`, `/dev/stdout`, a named pipe) is written into, as a shell redirection would, and never
    replaced: a rename beside it would put a regular file in place of the machine's /dev/null. Any other kind
    of file that is not a regular one (a block device, a socket) is refused."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if _is_stream(path):  # before following links: /dev/stdout on a pipe resolves to no path at all
        with open(path, "wb") as handle:
            handle.write(payload)
        return
    path = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    _refuse_read_only(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), _mode_for(path))
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _is_stream(path: str | Path) -> bool:
    """True for a character device or FIFO (after every link, /proc's too); raises for other non-regular files."""
    try:
        mode = os.stat(path).st_mode
    except OSError:  # not there yet (or not reachable: the write says why)
        return False
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return True
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):  # a directory: the rename says "is a directory"
        return False
    raise OSError(errno.EINVAL, "not a regular file (a device or socket): give a file name", str(path))


def _refuse_read_only(path: Path) -> None:
    try:
        mode = path.stat().st_mode
    except OSError:  # not there yet (or not reachable: the write says why)
        return
    if stat.S_ISREG(mode) and (not mode & 0o222 or not os.access(path, os.W_OK)):
        raise ReadOnlyFileError(errno.EACCES, "the file is read-only", str(path))


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


class InputFileError(ValueError):
    """A user's file cannot be read as what it should be; the message names the file and the problem."""


def read_limited(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of `path`, read in one pass and never more than `limit` of them.

    Works for anything that can be opened and read (a regular file, a FIFO, /dev/stdin, a /proc file): the size
    is learnt by reading, not from stat, which says 0 for a stream. `what` names the file in messages, e.g.
    "deck file cards.toml"."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise InputFileError(f"{what} does not exist") from None
    except IsADirectoryError:
        raise InputFileError(f"{what} is a directory, not a file") from None
    except PermissionError:
        raise InputFileError(f"{what} cannot be read: permission denied") from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise InputFileError(f"{what} is a loop of symbolic links") from None
        raise InputFileError(f"{what} cannot be read: {error.strerror or error}") from None
    if len(data) > limit:
        raise InputFileError(f"{what} is larger than {_size(limit)}, too large for what it should be")
    return data


def decode_text(data: bytes, what: str) -> str:
    """Text in UTF-8 (a byte-order mark is dropped) or UTF-16 with its byte-order mark, as editors write them."""
    encoding = "utf-16" if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8-sig"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise InputFileError(f"{what} is not text in UTF-8 or UTF-16: save it as UTF-8 and try again") from None


def read_text_limited(path: str | Path, limit: int, what: str) -> str:
    """`read_limited` then `decode_text`."""
    return decode_text(read_limited(path, limit, what), what)


def _size(limit: int) -> str:
    for unit, factor in (("MB", 1 << 20), ("KB", 1 << 10)):
        if limit >= factor:
            return f"{limit / factor:g} {unit}"
    return f"{limit} bytes"
