"""The table's address on the local network and its join QR code (segno: a well-kept, pure-Python encoder).

The QR code holds the machine's LAN IP address, never a `.local` name: many phones cannot resolve those."""

from __future__ import annotations

import io
import ipaddress
import socket

import segno

WILDCARDS = {"0.0.0.0", "::", ""}
PROBE = "192.0.2.1"  # TEST-NET-1 (RFC 5737): only asks the routing table which interface a LAN packet would use


def lan_address(bind_host: str) -> str:
    """The IPv4 address phones on the same network reach this machine at. A UDP socket's connect() sends nothing:
    it only picks the outgoing interface. Falls back to the loopback address when there is no network."""
    if bind_host not in WILDCARDS:
        try:
            return str(ipaddress.ip_address(bind_host))
        except ValueError:  # a name given with --host: the phones get its address, not the name
            try:
                return socket.getaddrinfo(bind_host, None, socket.AF_INET)[0][4][0]
            except OSError:
                return bind_host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((PROBE, 9))
            address = probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    return address if not ipaddress.ip_address(address).is_unspecified else "127.0.0.1"


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def join_url(host: str, port: int, room_code: str) -> str:
    """The phones' address, with the room code after '#' (kept in the browser, never sent in a request line)."""
    return f"{base_url(host, port)}/#room={room_code}"


def qr_svg_data_uri(text: str) -> str:
    """The QR code as an SVG data: URI, for an <img> on the host page (no markup inserted into the page)."""
    return segno.make(text, error="m").svg_data_uri(scale=8, dark="#1b1b1b", light="#ffffff")


def qr_terminal(text: str) -> str:
    """The QR code drawn with block characters, for the terminal that runs `doodle table`."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
