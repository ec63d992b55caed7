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
