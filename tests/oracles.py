"""Slow, obviously right answers that the fast code is checked against (tests) and timed against (benchmarks)."""

from doodle.quilt import Quilt, rectangle_score


def brute_force_best_score(quilt: Quilt) -> int:
    """Every rectangle of the grid, every cell of it checked one by one."""
    best = 0
    for top in range(9):
        for left in range(9):
            for bottom in range(top, 9):
                for right in range(left, 9):
                    if all(quilt.is_covered(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)):
                        best = max(best, rectangle_score(bottom - top + 1, right - left + 1))
    return best
