"""A modal text panel that any key closes: help pages, end-of-game notices. Game-agnostic."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static


class TextScreen(ModalScreen[None]):
    """`text` (Rich markup) in a bordered panel over the game; any key closes it and runs `on_close` (by
    default the panel is simply dismissed; pass `app.exit` to end the app instead)."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > Static { width: auto; max-width: 96; height: auto; border: round $accent; padding: 1 2;
                          background: $surface; }
    """

    def __init__(self, text: str, on_close: Callable[[], object] | None = None) -> None:
        super().__init__()
        self.text = text
        self.on_close = on_close

    def compose(self) -> ComposeResult:
        yield Static(self.text)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if self.on_close is None:
            self.dismiss()
        else:
            self.on_close()
