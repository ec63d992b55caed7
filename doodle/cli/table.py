"""`doodle table`: the table in the browser. A big screen deals; every player joins with a phone."""

from __future__ import annotations

import contextlib
import errno
import secrets
import socket
import threading
import webbrowser
from pathlib import Path

import click

from doodle.cli.common import SEED
from doodle.game.dealer import MAX_PLAYERS, MIN_PLAYERS
from doodle.game.deck import DeckError, load_deck
from doodle.table.save import SAVE_ENV, TableSave, TableSaveError, read_save
from doodle.table.session import Stage, TableError, TableSession

DEFAULT_PORT = 8765


@click.command()
@click.argument("names", nargs=-1)
@click.option("-p", "--players", type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS),
              help="Seats to lay (\"Player 1\"...), taken by the first phones to join; more can join in the lobby.")
@click.option("--seed", type=SEED, help="Deal this game again: the same seed gives the same game.")
@click.option("--deck", "deck_file", type=click.Path(path_type=Path, dir_okay=False),
              help="A deck file (TOML) to use instead of the bundled cards.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="The port to serve on (0: any free port).")
@click.option("--host", "bind_host", default="0.0.0.0", show_default=True,
              help="The address to listen on (0.0.0.0: every network, so phones on the Wi-Fi can join).")
@click.option("--no-browser", is_flag=True, help="Do not open the table's page in the browser.")
@click.option("--resume", is_flag=True,
              help="Continue the saved game, with the same seats and the photos read but not yet confirmed.")
@click.option("--new", "discard", is_flag=True, help="Start a new game even though one is saved (replacing it).")
@click.option("--save", "save_path", type=click.Path(path_type=Path, dir_okay=False), envvar=SAVE_ENV,
              help="The file the game is saved in after every step (default: in your data directory).")
@click.option("--check", "check_file", type=click.Path(path_type=Path, dir_okay=False), metavar="RECORD",
              help="Check a downloaded game record again instead of serving: the deal replayed, every quilt read "
                   "from a photo checked against the cards and its scores (exit 3 when something does not hold).")
def table(names: tuple[str, ...], players: int | None, seed: int | None, deck_file: Path | None, port: int,
          bind_host: str, no_browser: bool, resume: bool, discard: bool, save_path: Path | None,
          check_file: Path | None) -> None:
    """Serve the table on the local network: the big screen deals, every player joins with a phone.

    NAMES (or --players N) lay seats before anyone joins: a phone that joins with a seat's name takes it, and a
    seat nobody takes is played from the big screen (the host marks it done and types its scores).

    Prints the address and a QR code for the phones, and opens the table's page (the host) in the browser.
    The game is saved after every step, with each phone's photo read but not yet confirmed; `doodle table
    --resume` continues it after a crash or a closed laptop.
    """
    if check_file is not None:
        _check(check_file, deck_file)
        return
    import uvicorn  # the server and the web app are imported only when serving (doodle --help stays quick)

    from doodle.table.address import base_url, join_url, lan_address
    from doodle.table.app import TableServer, create_app
    from doodle.table.save import BackgroundSaver, default_save_path

    if resume and (names or players is not None or seed is not None or discard):
        raise click.UsageError("--resume continues the saved game as it was: leave out the names, --players, --seed "
                               "and --new")
    if names and players is not None:
        raise click.UsageError("give either player names or --players, not both")
    save_path = save_path or default_save_path()
    table = _open_table(names, players, seed, deck_file, resume, discard, save_path)
    session = table.session
    saver = BackgroundSaver(save_path, table.deck_path)
    try:
        saver.save(session, table.readings)  # the photos' readings kept as they were, until the table checks them
        saver.close()
    except OSError as error:
        raise click.ClickException(f"the game cannot be saved in {save_path}: {error.strerror or error}; "
                                   "choose another file with --save FILE") from None

    listener = _listen(bind_host, port)
    port = listener.getsockname()[1]
    address = lan_address(bind_host)
    host_key = secrets.token_urlsafe(18)
    local = "127.0.0.1" if bind_host in ("0.0.0.0", "") else "::1" if bind_host == "::" else bind_host
    host_url = f"{base_url(local, port)}/host#key={host_key}"
    phones = join_url(address, port, session.room_code)
    server = TableServer(session, host_key, phones, saver.save, table.readings)
    _announce(phones, base_url(address, port), session.room_code, host_url, save_path)
    if not no_browser:
        threading.Timer(0.8, webbrowser.open, args=(host_url,)).start()
    config = uvicorn.Config(create_app(server), log_level="warning", ws_max_size=4096, lifespan="off",
                            ws_ping_interval=15, ws_ping_timeout=20, limit_concurrency=200)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops gracefully on Ctrl-C, then raises it again
            uvicorn.Server(config).run(sockets=[listener])
    finally:
        server.photos.close()  # the photo readers' processes
        try:
            saver.close()
        except OSError as error:
            raise click.ClickException(f"the last step could not be saved in {save_path}: "
                                       f"{error.strerror or error}") from None
    click.echo(f"\nThe table is closed. The game is saved in {save_path}: `doodle table --resume` continues it.")


RECORD_LIMIT = 4 * 1024 * 1024  # a whole game's record is under 100 KB


def _check(path: Path, deck_file: Path | None) -> None:
    """`--check RECORD`: what holds and what does not in a table's game record; exit 3 when something does not."""
    import json

    from doodle.files import InputFileError, read_text_limited
    from doodle.table.recheck import record_findings

    try:
        deck = load_deck(deck_file) if deck_file is not None else load_deck()
        record = json.loads(read_text_limited(path, RECORD_LIMIT, str(path)))
        good, bad = record_findings(record, deck)
    except (InputFileError, DeckError) as error:
        raise click.ClickException(str(error)) from None
    except json.JSONDecodeError as error:
        raise click.ClickException(f"{path} is not JSON ({error.msg} at line {error.lineno}): give the record "
                                   "the table's end screen downloads") from None
    except ValueError as error:
        raise click.ClickException(f"{path}: {error}") from None
    click.echo(f"{path}: the deal replays through the engine")
    for line in good:
        click.echo(f"ok       {line}")
    for line in bad:
        click.echo(f"PROBLEM  {line}")
    if bad:
        raise SystemExit(3)


def _open_table(names: tuple[str, ...], players: int | None, seed: int | None, deck_file: Path | None,
                resume: bool, discard: bool, save_path: Path) -> TableSave:
    """The saved table (--resume) or a new one, with the deck file it is dealt from; a game in progress is never
    replaced without --new, and a save that cannot be read is named and left alone."""
    deck = None
    if deck_file is not None:
        try:
            deck = load_deck(deck_file)
        except DeckError as error:
            raise click.ClickException(str(error)) from None
    deck_path = str(deck_file.resolve()) if deck_file is not None else None
    try:
        saved = None if discard else read_save(save_path, deck)
    except TableSaveError as error:
        if resume:
            raise click.ClickException(str(error)) from None
        raise click.ClickException(f"{error}. Start a new game with --new (it replaces that file), or keep it and "
                                   "use another file with --save FILE") from None
    if resume:
        if saved is None:
            raise click.ClickException(f"there is no saved table game in {save_path}: start one with `doodle table`")
        return TableSave(saved.session, deck_path or saved.deck_path, saved.readings)
    if saved is not None and saved.session.started and saved.session.stage != Stage.OVER:
        raise click.ClickException(
            f"a table game is in progress in {save_path} (round {saved.session.round}): continue it with "
            "--resume, or start a new one with --new (which replaces it)")
    session = TableSession.new(deck or load_deck(), players or 0, seed)
    try:
        for name in names:
            session.add_player(name)
    except TableError as error:
        raise click.UsageError(str(error)) from None
    return TableSave(session, deck_path)


def _announce(phones: str, address: str, room_code: str, host_url: str, save_path: Path) -> None:
    from doodle.table.address import qr_terminal  # segno, only when serving

    click.echo(click.style("Patchwork Doodle · the table is open", bold=True))
    click.echo(qr_terminal(phones), nl=False)
    click.echo(f"Phones: scan the code, or open {address} and type the room code " + click.style(room_code, bold=True))
    if "//127." in address or "[::1]" in address:
        click.echo("Warning: this address is only reachable from this machine; for phones on the Wi-Fi use "
                   "--host 0.0.0.0 on a machine connected to the network.", err=True)
    click.echo(f"The table (big screen): {host_url}")
    click.echo(f"Saved after every step in {save_path}; after a stop, `doodle table --resume` continues. "
               "Ctrl-C stops.")


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket bound here, so a port in use is a clear message rather than a server's traceback."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        reason = "it is in use" if error.errno == errno.EADDRINUSE else (error.strerror or str(error))
        raise click.ClickException(f"cannot serve on {host}:{port}: {reason}; pick another port with --port "
                                   "(0 takes any free one)") from None
    listener.listen(64)
    listener.setblocking(False)
    return listener
