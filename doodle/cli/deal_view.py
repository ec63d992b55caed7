"""What `doodle deal` shows at the table: large patch drawings, the circle with the token, round banners."""

from __future__ import annotations

import click

from doodle.game.deck import Deck
from doodle.render import draw_polyomino, draw_side_by_side, plural

DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂"}


class View:
    def __init__(self, deck: Deck, color: bool) -> None:
        self.deck = deck
        self.color = color

    def style(self, text: str, **styles) -> str:
        return click.style(text, **styles) if self.color else text

    def patch(self, card_id: str, scale: int = 1, fg: str | None = None) -> str:
        shape = self.deck.card(card_id).shape
        drawing = draw_polyomino(shape, scale)
        if self.color and fg:
            drawing = "\n".join(click.style(line, fg=fg) for line in drawing.split("\n"))
        return drawing

    def labelled(self, title: str, drawing: str) -> str:
        return f"{title}\n{drawing}"

    def banner(self, text: str) -> str:
        line = f"━━ {text} " + "━" * max(0, 60 - len(text))
        return self.style(line, bold=True)

    def circle(self, circle: list[str], current: str | None = None) -> str:
        """The circle clockwise from the token: the token (▶) stands before the first card, or on the current one."""
        parts = []
        for card in circle:
            if card == current:
                parts.append(self.style(f"▶{card}◀", bold=True, fg="yellow"))
            else:
                parts.append(card)
        prefix = "" if current else "▶ "
        return prefix + "  ".join(parts)

    def start_cards(self, names: list[str], cards: list[str]) -> str:
        pairs = zip(names, cards, strict=True)
        blocks = [self.labelled(f"{name}: {card}", self.patch(card, 2, "cyan")) for name, card in pairs]
        rows = [draw_side_by_side(blocks[i : i + 3], gap=6) for i in range(0, len(blocks), 3)]
        return "\n\n".join(rows)

    def turn(self, event: dict) -> str:
        card = event["card"]
        shape = self.deck.card(card).shape
        roll = event["roll"]
        head = self.banner(f"Round {event['round']} · Turn {event['turn']}") + "   " + self.style(
            f"rolled {roll} {DIE_FACES[roll]}", bold=True, fg="yellow"
        )
        large = draw_side_by_side(
            [
                self.labelled(f"Current patch {card} ({plural(shape.size, 'cell')})", self.patch(card, 2, "green")),
                self.labelled("its mirror image", draw_polyomino(shape.mirrored(), 2)),
            ],
            gap=8,
        )
        before, after = event["neighbours"]
        small = draw_side_by_side(
            [
                self.labelled(f"before: {before}", self.patch(before)),
                self.labelled(f"after: {after}", self.patch(after)),
            ],
            gap=6,
        )
        return "\n".join(
            [
                head,
                large,
                "",
                "Neighbours (Neighbour special):",
                small,
                "",
                "Circle, clockwise: " + self.circle(event["circle"], current=card),
            ]
        )

    def final_turn(self, event: dict) -> str:
        head = self.banner(f"Round {event['round']} · Turn {event['turn']} · final turn, no roll")
        size = {card: self.deck.card(card).shape.size for card in event["choices"]}
        blocks = [self.labelled(f"{card} ({plural(size[card], 'cell')})", self.patch(card, 2, "green"))
                  for card in event["choices"]]
        return "\n".join([head, "Each player draws any ONE of these three (several may take the same):",
                          draw_side_by_side(blocks, gap=6)])
