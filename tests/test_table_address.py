"""The join address and its QR codes: the code printed in the terminal reads back as the phones' address."""

import ipaddress

import cv2
import numpy as np

from doodle.table.address import join_url, lan_address, qr_terminal

HALVES = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}


def read_terminal_qr(text: str) -> str:
    """Draw the block characters as pixels (each character is two modules, one above the other) and decode."""
    rows = []
    for line in text.splitlines():
        pairs = [HALVES[char] for char in line]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    width = max(len(row) for row in rows)
    modules = np.array([row + [0] * (width - len(row)) for row in rows], dtype=np.uint8)
    for image in (modules * 255, (1 - modules) * 255):  # light on dark (a dark terminal) or dark on light
        big = cv2.resize(image, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
        big = cv2.copyMakeBorder(big, 32, 32, 32, 32, cv2.BORDER_CONSTANT, value=int(big[0, 0]))
        text, _, _ = cv2.QRCodeDetector().detectAndDecode(big)
        if text:
            return text
    return ""


def test_the_terminal_qr_code_holds_the_join_address():
    url = join_url("192.168.1.20", 8765, "KGQB")
    assert url == "http://192.168.1.20:8765/#room=KGQB"
    assert read_terminal_qr(qr_terminal(url)) == url


def test_the_lan_address_is_an_ip_address_never_a_name():
    assert lan_address("192.168.7.3") == "192.168.7.3"  # an address given with --host is the one to join
    assert lan_address("localhost") == "127.0.0.1"  # a name given with --host is resolved
    found = ipaddress.ip_address(lan_address("0.0.0.0"))  # the interface a LAN packet would leave by, or loopback
    assert found.version == 4 and not found.is_unspecified
    assert join_url("::1", 80, "ABCD") == "http://[::1]:80/#room=ABCD"
