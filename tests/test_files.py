import os

from doodle.files import write_atomic


def test_write_atomic_writes_whole_files_with_ordinary_permissions(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    write_atomic(target, "hello")
    assert target.read_text() == "hello"
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask
    target.chmod(0o640)
    write_atomic(target, b"\x00bytes")
    assert target.read_bytes() == b"\x00bytes"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in target.parent.iterdir()] == ["out.txt"]  # no temporary file left behind


def test_read_limited_reads_streams_and_refuses_what_is_too_large(tmp_path):
    import pytest

    from doodle.files import InputFileError, read_limited, read_text_limited

    small = tmp_path / "small.txt"
    small.write_bytes(b"\xef\xbb\xbfhello")
    assert read_text_limited(small, 100, "file small.txt") == "hello"  # a UTF-8 byte-order mark is dropped
    small.write_bytes("héllo".encode("utf-16"))
    assert read_text_limited(small, 100, "file small.txt") == "héllo"
    with pytest.raises(InputFileError, match="larger than 5 bytes"):
        read_limited(small, 5, "file small.txt")
    with pytest.raises(InputFileError, match="larger than 1 KB"):
        read_limited("/dev/zero", 1024, "file /dev/zero")  # an endless stream stops at the cap
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = os.fork()
    if writer == 0:
        with open(fifo, "wb") as handle:
            handle.write(b"streamed")
        os._exit(0)
    assert read_limited(fifo, 100, "fifo") == b"streamed"  # stat says 0 bytes; reading says otherwise
    os.waitpid(writer, 0)
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    with pytest.raises(InputFileError, match="loop of symbolic links"):
        read_limited(loop, 100, "file loop")
    with pytest.raises(InputFileError, match="is a directory"):
        read_limited(tmp_path, 100, "folder")
    with pytest.raises(InputFileError, match="does not exist"):
        read_limited(tmp_path / "none", 100, "file none")
    small.write_bytes(b"\xff\xfe\xff")  # a UTF-16 mark and half a character
    with pytest.raises(InputFileError, match="not text"):
        read_text_limited(small, 100, "file small.txt")


def test_write_atomic_writes_through_a_symbolic_link(tmp_path):
    import pytest  # noqa: F401

    real = tmp_path / "kept" / "real.txt"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)  # the link stays a link ...
    assert real.read_text() == "new"  # ... and its file has the new content
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.txt"]


def test_write_atomic_refuses_a_read_only_file_even_as_root(tmp_path):
    import pytest

    from doodle.files import ReadOnlyFileError

    target = tmp_path / "locked.txt"
    target.write_text("keep me")
    target.chmod(0o444)
    with pytest.raises(ReadOnlyFileError, match="read-only"):
        write_atomic(target, "replaced")
    assert target.read_text() == "keep me"
    assert isinstance(ReadOnlyFileError(), PermissionError)  # callers catching OSError say it as before


def test_write_atomic_writes_into_a_device_or_fifo_and_never_replaces_it(tmp_path):
    import stat
    import threading

    import pytest

    write_atomic("/dev/null", "nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)  # still the device, not a file put in its place
    if os.path.exists("/dev/full"):
        with pytest.raises(OSError) as error:
            write_atomic("/dev/full", "x" * 100_000)
        assert error.value.errno == 28  # ENOSPC: said, and the device left as it is
        assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, b"through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no temporary file beside it


def test_write_atomic_writes_into_what_is_not_a_file_and_leaves_it_in_place(tmp_path):
    # before: the rename put a regular file where the named pipe was; run as root, `doodle deck --export
    # /dev/full` or `doodle score --annotate /dev/null` replaced the machine's device with a file
    import stat

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "out"  # as /dev/stdout is a link to /proc/self/fd/1
    link.symlink_to(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there, so opening to write does not wait
    try:
        write_atomic(link, "through the pipe")
        write_atomic(fifo, b" and again")
        assert os.read(reader, 1024) == b"through the pipe and again"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "pipe"]


def test_write_atomic_writes_into_a_fifo_and_leaves_it_a_fifo(tmp_path):
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_atomic(fifo, b"streamed")
    reader.join(10)
    assert received == [b"streamed"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # not replaced by a regular file


def test_write_atomic_never_replaces_a_device_such_as_dev_null(tmp_path):
    """`--record /dev/null`, `--save /dev/null`, `deck --export /dev/null --force`: the rename beside the target
    replaced the machine's /dev/null with a regular file. A device is written into, as a shell redirection does."""
    import stat

    import pytest

    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a second /dev/null, in the test's own folder
    link = tmp_path / "link"
    link.symlink_to(null)
    write_atomic(null, "gone")
    write_atomic(link, "gone too")
    assert stat.S_ISCHR(null.stat().st_mode) and null.read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "null"]


def test_write_atomic_refuses_a_block_device(tmp_path):
    import stat

    import pytest

    if os.geteuid() != 0:
        pytest.skip("making a device node needs root")
    disk = tmp_path / "disk"
    os.mknod(disk, stat.S_IFBLK | 0o600, os.makedev(7, 200))  # a loop device number nobody uses
    with pytest.raises(OSError, match="not a regular file"):
        write_atomic(disk, "a sheet")
    assert stat.S_ISBLK(disk.stat().st_mode)
