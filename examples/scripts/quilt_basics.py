"""Shapes and quilts: orientations, straight cuts, placements and the best rectangle."""

from doodle import Polyomino, Quilt
from doodle.render import draw_polyomino, draw_quilt

u = Polyomino.from_text("#.#/###")
print(f"U pentomino: {len(u.orientations())} orientations, cut pieces: {[p.to_text() for p in u.cut_pieces()]}")
print(draw_polyomino(u))

quilt = Quilt.from_text("\n".join(["####....."] * 3 + ["........."] * 6))
print(f"{len(quilt.placements(u))} legal placements of the U on this quilt")
rect = quilt.best_rectangle()
print(draw_quilt(quilt, highlight=rect))
print(f"best rectangle {rect.width}x{rect.height} scores {rect.score}; {quilt.empty_count()} empty cells")
