"""The bots' shared driver: turn a game position into the actions of one decision (start card, turn, final
turn, intermediate scoring), choosing among every legal draw by `evaluate`, optionally looking one card ahead
(two in the last round's late turns).

The bots see what a player at the table sees: the quilt, the circle of cards with the token, the cards already
discarded; never the order of the deck. A card that is still to be dealt is any unseen card, equally likely.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from doodle.blas import one_blas_thread
from doodle.game.bots.evaluate import Horizon, Weights, best_rectangles, evaluate, final_values
from doodle.game.bots.options import (
    Candidates,
    Option,
    Uses,
    candidates,
    draw_options,
    row_uses,
    singles_left,
)
from doodle.game.bots.tables import mask_vector, rectangles
from doodle.game.dealer import NEW_CARDS_PER_ROUND, ROUNDS, Dealer, Offer, Phase
from doodle.game.deck import Deck
from doodle.game.game import DoodleGame
from doodle.game.sheet import Action, DrawPatch, EndTurn, Sheet, SingleSquare
from doodle.quilt import FULL, cells_of


@dataclass
class PlanningBot:
    """A bot that scores every legal draw with `weights`; with `lookahead`, the best `breadth` of them are
    re-scored by the expected value of the next card's best draw (the die makes it one of three cards)."""

    name: str
    weights: Weights = field(default_factory=Weights)
    lookahead: bool = False
    breadth: int = 12
    deep_from_turn: int = 4
    deep_breadth: int = 5

    # ----- the Bot protocol -----
    def act(self, game: DoodleGame, player: int) -> list[Action]:
        """The actions for `player`'s pending decision (an empty list when there is none)."""
        with one_blas_thread():
            return self._act(game, player)

    def _act(self, game: DoodleGame, player: int) -> list[Action]:
        sheet = game.sheets[player]
        if sheet.needs_start():
            return [self._start(game, sheet)]
        if player not in game.waiting_for():
            return []
        phase = game.phase
        if phase == Phase.SCORING:
            return [*self._scoring_singles(game, sheet), EndTurn()]
        if phase in (Phase.TURN, Phase.FINAL):
            draw = None if sheet.drew_this_turn else self._draw(game, sheet)
            return [draw, EndTurn()] if draw else [EndTurn()]
        return []

    # ----- decisions -----
    def _start(self, game: DoodleGame, sheet: Sheet) -> DrawPatch:
        uses = sheet.spent
        option = Option(sheet.start_card, game.deck.card(sheet.start_card).shape, uses)
        cands = candidates(sheet.quilt.bits, mask_vector(sheet.quilt.bits), [option], uses, with_pass=False)
        uses_by_row = row_uses(cands, uses)
        values = evaluate(cands.after, uses_by_row, Horizon.after_turn(1, 0), self.weights)
        if self.lookahead:
            values = self._refine(game, cands, values, uses_by_row, sheet.quilt.bits)
        best = int(np.argmax(values))
        return DrawPatch(option.card, cells_of(cands.masks[best]), False)

    def _draw(self, game: DoodleGame, sheet: Sheet) -> DrawPatch | None:
        offer = game.offer()
        uses = sheet.spent
        options = draw_options(offer, game.deck, uses)
        cands = candidates(sheet.quilt.bits, mask_vector(sheet.quilt.bits), options, uses)
        uses_by_row = row_uses(cands, uses)
        if offer.phase == Phase.FINAL:
            values = final_values(cands.after, uses_by_row)
        else:
            horizon = Horizon.after_turn(offer.round, offer.turn)
            values = evaluate(cands.after, uses_by_row, horizon, self.weights)
            if self.lookahead:
                values = self._refine(game, cands, values, uses_by_row, sheet.quilt.bits)
        # among equal values, prefer spending fewer special actions
        spent = np.array([sum(u) for u in uses_by_row], dtype=np.float32)
        best = int(np.argmax(values - 1e-3 * spent))
        option = cands.options[int(cands.option_index[best])]
        if option is None:
            return None
        return DrawPatch(option.card, cells_of(cands.masks[best]), option.cut)

    def _scoring_singles(self, game: DoodleGame, sheet: Sheet) -> list[SingleSquare]:
        """Single squares to draw before this scoring: those that raise the rectangle by more than a single
        square kept for later is worth; at the last scoring every one left (each one empty cell fewer)."""
        bits = sheet.quilt.bits
        available = singles_left(sheet.spent)
        if not available:
            return []
        last = game.dealer.round == ROUNDS
        best_by_count = [_best_rectangle_with_missing(bits, k) for k in range(available + 1)]
        if last:
            chosen = available
        else:
            gains = [best_by_count[k][0] - best_by_count[0][0] - k * self.weights.single for k in range(available + 1)]
            chosen = int(np.argmax(gains))
        if not chosen:
            return []
        _, mask = best_by_count[chosen]
        cells = sorted(cells_of(mask & ~bits))
        if last:
            spare = sorted(cells_of(~(bits | mask) & FULL))
            cells += spare[: chosen - len(cells)]
        return [SingleSquare(cell) for cell in cells[:chosen]]

    # ----- looking ahead -----
    def _refine(self, game: DoodleGame, cands: Candidates, values: np.ndarray, uses_by_row: list[Uses],
                base: int) -> np.ndarray:
        """Re-score the best `breadth` rows by the expected worth of the next card's best draw (deeper near the
        end of the game, where the last turns decide how many holes stay empty)."""
        order = np.argsort(-values)[: self.breadth]
        unseen = _unseen(game.dealer)
        depth = self._depth(game.dealer)
        refined = np.full(values.shape, -np.inf, dtype=np.float32)
        for row in order:
            refined[row] = self._expected(game.deck, game.dealer, unseen, base | cands.masks[row], cands.after[row],
                                          uses_by_row[row], depth)
        return refined

    def _depth(self, dealer: Dealer) -> int:
        """How many further draws to look at beyond the next card's: one in the last round's late turns."""
        return 1 if dealer.round == ROUNDS and dealer.turn >= self.deep_from_turn else 0

    def _expected(self, deck: Deck, dealer: Dealer, unseen: list[str], bits: int, vector: np.ndarray, uses: Uses,
                  depth: int) -> float:
        """The expected worth of a quilt once this decision is made, over the next card's chances."""
        outcomes, scoring_first = _next_offers(dealer, unseen)
        worth = 0.0
        if scoring_first:
            empty = (~vector).astype(np.float32).reshape(1, -1)
            worth += float(best_rectangles(empty, singles_left(uses), price=self.weights.single)[0])
        chances = sum(probability for _, _, probability in outcomes)
        for next_dealer, offer, probability in outcomes:
            worth += probability / chances * self._best_next(deck, next_dealer, unseen, offer, bits, vector, uses,
                                                             depth)
        return worth

    def _best_next(self, deck: Deck, dealer: Dealer | None, unseen: list[str], offer: Offer, bits: int,
                   vector: np.ndarray, uses: Uses, depth: int) -> float:
        final = offer.phase == Phase.FINAL
        options = draw_options(offer, deck, uses, neighbour=False, cut=final)
        cands = candidates(bits, vector, options, uses)
        uses_by_row = row_uses(cands, uses)
        if final:
            return float(final_values(cands.after, uses_by_row).max())
        values = evaluate(cands.after, uses_by_row, Horizon.after_turn(offer.round, offer.turn), self.weights)
        if depth <= 0 or dealer is None:
            return float(values.max())
        top = np.argsort(-values)[: self.deep_breadth]
        return max(self._expected(deck, dealer, unseen, bits | cands.masks[row], cands.after[row], uses_by_row[row],
                                  depth - 1) for row in top)


def _best_rectangle_with_missing(bits: int, missing: int) -> tuple[int, int]:
    """The best (score, mask) over all rectangles with at most `missing` empty cells."""
    table = rectangles(False)
    best = (0, 0, 0)
    for mask, score, area in zip(table.masks, table.scores, table.areas, strict=True):
        if (mask & ~bits).bit_count() <= missing and (score, area) > best[:2]:
            best = (int(score), int(area), mask)
    return best[0], best[2]


def _next_offers(dealer: Dealer, unseen: list[str]) -> tuple[list[tuple[Dealer | None, Offer, float]], bool]:
    """The offers of the next decision with their chances, as the player knows them (with the table as it
    would then be, when it is known), and whether an intermediate scoring comes first. A card still to be dealt
    is any unseen card, equally likely."""
    dealer = dealer.clone()
    if dealer.phase == Phase.TURN:
        dealer.end_turn()
    scoring = dealer.phase == Phase.SCORING
    if scoring:
        if dealer.round == ROUNDS:
            return [], True
        dealer.round += 1
        dealer.turn = 1
        dealer.circle = dealer.circle + [None] * NEW_CARDS_PER_ROUND  # type: ignore[list-item]
        dealer.draw_pile = []
        dealer.phase = Phase.ROLL
    if dealer.phase == Phase.FINAL:
        return [(dealer, dealer.offer(), 1.0)], scoring
    outcomes: list[tuple[Dealer | None, Offer, float]] = []
    for face, chance in dealer.chance_outcomes():
        rolled = dealer.clone()
        rolled.roll(face)
        if rolled.current_card is None:  # a card dealt after the scoring: any unseen card
            for card in unseen:
                outcomes.append((None, Offer(Phase.TURN, rolled.round, rolled.turn, card, ()),
                                 float(chance) / len(unseen)))
        else:
            outcomes.append((None if scoring else rolled, rolled.offer(), float(chance)))
    return outcomes, scoring


def _unseen(dealer: Dealer) -> list[str]:
    seen = set(dealer.circle) | set(dealer.discarded)
    return [card.id for card in dealer.deck.patch_cards if card.id not in seen]
