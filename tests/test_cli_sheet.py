"""`doodle sheet -o FILE` where FILE is something a user would not want replaced blindly, and the sheet numbers."""

import pytest
from click.testing import CliRunner
from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel

from doodle.cli import main
from doodle.cli.sheet import MAX_SHEET_ID
from doodle.sheet import layout
from doodle.sheet.pdf import render_sheets, sheet_id


def run(*args):
    return CliRunner().invoke(main, ["sheet", *args])


def test_a_read_only_target_is_refused_and_left_alone(tmp_path):
    # before: the atomic rename replaced it
    target = tmp_path / "sheets.pdf"
    target.write_bytes(b"%PDF my annotated copy")
    target.chmod(0o444)
    result = run("-o", str(target))
    assert result.exit_code == 1
    assert f"{target} is read-only, so it was left as it is" in result.output
    assert target.read_bytes() == b"%PDF my annotated copy"


def test_a_symbolic_link_target_is_written_through(tmp_path):
    # before: the link was turned into a file and the file it named kept the old sheets
    real = tmp_path / "printer" / "queue.pdf"
    real.parent.mkdir()
    real.write_bytes(b"old")
    link = tmp_path / "sheets.pdf"
    link.symlink_to(real)
    result = run("-o", str(link), "--first-id", "5")
    assert result.exit_code == 0, result.output
    assert link.is_symlink()
    assert real.read_bytes() == render_sheets(1, "a4", 1, 5)


@pytest.mark.parametrize(("first", "count"), [("1" + "0" * 200, "1"), (str(MAX_SHEET_ID), "3")])
def test_sheet_numbers_stay_within_what_the_qr_code_and_footer_hold(tmp_path, first, count):
    # before: 10^200 was printed, overflowing the footer and the QR code
    out = tmp_path / "x.pdf"
    result = run("-o", str(out), "--first-id", first, "-n", count)
    assert result.exit_code == 2 and "Traceback" not in result.output
    start = MAX_SHEET_ID - int(count) + 1
    assert f"sheets are numbered up to {MAX_SHEET_ID}" in result.output
    assert f"start at {start} or lower" in result.output
    assert not out.exists()
    assert run("-o", str(out), "--first-id", str(start), "-n", count).exit_code == 0


def test_the_largest_sheet_number_keeps_the_qr_code_the_reader_was_made_for():
    def modules(number):
        code = QRCode(None, QRErrorCorrectLevel.M)
        code.addData(layout.qr_payload(sheet_id(number)))
        code.make()
        return code.getModuleCount()

    assert modules(MAX_SHEET_ID) == modules(1) == 21
