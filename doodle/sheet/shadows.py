"""Hard shadows on a flattened sheet: find the light's steps and take them out before anything is measured.

A shadow multiplies everything under it (paper, print and pencil) by the same factor, so its edge is a step in
log brightness that runs on across paper and pencil alike, along a curve of any shape. Pencil also makes steps,
but a player shades whole cells, so the edges of pencil run along the printed grid lines. The steps that are not
grid-aligned are taken as the light's; integrating only those (a Poisson solve) outlines the shadows. Each
shadow region is measured by its step where its edge crosses bare paper, or the inside of a cell when too little
of it crosses paper (a region whose edge is seen on neither is not taken as a shadow, nor one whose step is
shallow or not the same in every colour, nor one that is almost all where the player draws). The bare paper then
has the last word: it is labelled shaded or lit by its brightness against a smooth light (the labels the paper
fits best, from several starts), one depth is fitted to all of it at once (the light is one lamp or window: two
shadows of different depth are taken out at one depth), a sheet whose paper shows no shadow has none, and a
shadow's part inside the grid stays only where the paper beside it is shaded too. The result is a map of gain,
flat with sharp edges, which the smooth flat-field cannot model; smooth light is left to the flat-field. Last, the
paper beside the edge says how wide it is: a hand or a phone held high under a broad lamp casts a shadow whose
edge is a penumbra as wide as a cell, and such a soft shadow is taken out with its penumbra (`fit_edge`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from doodle.sheet.measure import quadratic_terms, without_thin_print
from doodle.sheet.tuning import TUNING, ReaderTuning


@dataclass(frozen=True)
class ShadowMap:
    gain: np.ndarray  # float32, sheet image size: the shadow's share of the light (1 = no shadow)
    edge: np.ndarray  # bool, sheet image size: where the shadow taken out changes (its edge, widened)
    depth: float  # how much light the darkest shadow takes (0 = none)
    soft: bool = False  # its edge is a penumbra as wide as a cell's third or more (see `fit_edge`)
    # bool, sheet image size: where a hard shadow's outline in the grid shows no step (`unsupported_outline`)
    unsupported: np.ndarray | None = None


def find_shadows(
    bgr: np.ndarray, near_columns: np.ndarray, near_rows: np.ndarray, domain: np.ndarray, paper: np.ndarray,
    cells: np.ndarray | None = None, t: ReaderTuning = TUNING, opened: np.ndarray | None = None,
) -> ShadowMap:
    """The shadows on the sheet image `bgr`.

    `near_columns` / `near_rows` (bool, image size) mark where a step across x / across y is expected from the
    content (near a vertical / horizontal grid line); `domain` marks where steps are believed at all (paper and
    the grid; not markers, the QR code or printed boxes, whose black edges are not light); `paper` marks the
    known bare paper. A shadow must fall on some of it: a dark region seen only where the player draws is taken
    as pencil, never brightened away. `cells` (int, image size, optional) numbers the cells' interiors (0: not in
    a cell): a step measured inside one cell, away from its lines, is most often the light's too, since pencil
    mostly fills a cell evenly and changes at its lines (a false one is caught by the paper, which shows none).
    `opened`: `measure.without_thin_print(bgr)`, when made already.
    """
    height, width = bgr.shape[:2]
    small = (max(2, width // t.shadow_map_scale), max(2, height // t.shadow_map_scale))
    opened = without_thin_print(bgr, t) if opened is None else opened
    channels = cv2.resize(opened, small, interpolation=cv2.INTER_AREA).astype(np.float32)
    b, g, r = cv2.split(channels)
    log = np.log(np.maximum(cv2.max(cv2.max(b, g), r), 1.0))
    channel_logs = np.log(np.maximum(channels, 1.0))
    log = cv2.GaussianBlur(log, (0, 0), t.shadow_log_blur)
    gx = np.zeros_like(log)
    gy = np.zeros_like(log)
    gx[:, :-1] = log[:, 1:] - log[:, :-1]
    gy[:-1, :] = log[1:, :] - log[:-1, :]
    # A step shows over a few pixels: keep a difference where the neighbourhood's step is strong.
    sx = cv2.GaussianBlur(np.abs(gx), (0, 0), t.shadow_step_blur) * t.shadow_step_gain
    sy = cv2.GaussianBlur(np.abs(gy), (0, 0), t.shadow_step_blur) * t.shadow_step_gain
    strength = np.sqrt(sx * sx + sy * sy)

    cols, rows, inside, bare = (_nearest(mask, small) for mask in (near_columns, near_rows, domain, paper))
    cell_ids = np.zeros(log.shape, np.int32) if cells is None else _nearest(cells.astype(np.int32, copy=False), small)
    ratio = t.shadow_aligned_ratio
    aligned = (cols & (sx > ratio * sy)) | (rows & (sy > ratio * sx)) | (cols & rows)
    # A shadow's edge is one step, all its differences of one sign; pencil strokes and grain go up and down.
    blur = t.shadow_coherence_blur
    coherent = np.hypot(cv2.GaussianBlur(gx, (0, 0), blur), cv2.GaussianBlur(gy, (0, 0), blur)) > (
        t.shadow_coherence * cv2.GaussianBlur(np.hypot(gx, gy), (0, 0), blur))
    keep = (strength > t.shadow_step_min) & (strength < t.shadow_step_max) & ~aligned & inside & coherent
    keep = cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & keep
    kx = np.where(keep, gx, 0.0).astype(np.float32)
    ky = np.where(keep, gy, 0.0).astype(np.float32)
    shadow = _integrate(kx, ky)
    lowest, highest = t.shadow_level_percentiles
    top = float(np.percentile(shadow[inside], highest)) if inside.any() else float(shadow.max())
    shadow = np.minimum(shadow - top, 0.0)
    deepest = float(-np.percentile(shadow[inside], lowest)) if inside.any() else 0.0
    log_gain = np.zeros_like(shadow)
    soft = False
    unsupported = np.zeros(log.shape, bool)
    if deepest > t.shadow_min_depth:
        log_gain = _regions(shadow < -deepest / 2, keep, log, channel_logs, shadow, bare, cell_ids, t)
        if log_gain.min() < 0:
            log_gain = corrected_by_paper(log_gain, log, bare, inside & ~bare, t)
        if log_gain.min() < 0:
            edge = fit_edge(log, bare, log_gain < 0, t)
            soft = edge.width >= t.shadow_soft_width
            if soft:  # taken out with its penumbra, where and as deep as the paper shows it
                log_gain = -edge.depth * cv2.GaussianBlur(edge.shaded.astype(np.float32), (0, 0), edge.width)
            else:
                unsupported = unsupported_outline(log_gain, log, inside & ~bare, cols, rows, t)
    if not soft:
        log_gain = cv2.GaussianBlur(log_gain, (0, 0), t.shadow_gain_blur)
    depth = float(1.0 - np.exp(log_gain.min()))
    gain = cv2.resize(np.exp(log_gain), (width, height), interpolation=cv2.INTER_LINEAR)
    k = np.ones((3, 3), np.uint8)
    changing = ((cv2.dilate(log_gain, k) - cv2.erode(log_gain, k)) > t.shadow_edge).astype(np.uint8)
    changing = cv2.dilate(changing, np.ones((2 * t.shadow_edge_widen + 1,) * 2, np.uint8))
    edge = _nearest(changing > 0, (width, height))
    return ShadowMap(gain=gain, edge=edge, depth=depth, soft=soft, unsupported=_nearest(unsupported, (width, height)))


def _nearest(mask: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """cv2.resize(mask, size (width, height), interpolation=cv2.INTER_NEAREST) of a bool or int32 `mask`. When one
    size is a whole multiple of the other along each axis, that is every k-th pixel or each pixel repeated k times
    (the same pixels: OpenCV takes pixel floor(x * k) or floor(x / k)), got without an 8-bit copy resized."""
    height, width = mask.shape
    (fx, rx), (fy, ry) = divmod(width, size[0]), divmod(height, size[1])
    if min(fx, fy) >= 1 and rx == ry == 0:  # whole times smaller
        return np.ascontiguousarray(mask[::fy, ::fx])
    (gx, qx), (gy, qy) = divmod(size[0], width), divmod(size[1], height)
    if min(gx, gy) >= 1 and qx == qy == 0:  # whole times larger
        return np.repeat(np.repeat(mask, gy, axis=0), gx, axis=1)
    resized = cv2.resize(mask.astype(np.uint8) if mask.dtype == bool else mask, size, interpolation=cv2.INTER_NEAREST)
    return resized > 0 if mask.dtype == bool else resized


def unsupported_outline(
    log_gain: np.ndarray, log: np.ndarray, drawn: np.ndarray, near_columns: np.ndarray, near_rows: np.ndarray,
    t: ReaderTuning = TUNING,
) -> np.ndarray:
    """Where the outline of the shadows taken out runs through the grid with no step across it: stretches of
    t.shadow_unsupported_mm or more whose inside is not darker than their outside (t.shadow_across away) by half the
    shadow's depth. All on the shadow map: `log_gain` the shadows taken out, `log` the map's log brightness, `drawn`
    the grid, `near_columns` / `near_rows` near its vertical / horizontal lines.

    A shadow's edge is a step in the light wherever it runs. In the grid the outline is traced from steps that do
    not run along the printed lines and kept where the paper beside it shows the shadow too; it can still leak on
    from a real shadow over light fills, whose own edges run along the lines, and then it crosses them with no step
    (sharpened 280021: a shadow on the right margin traced on over the fills g1 to h2; h1 was taken for paper in
    shadow and read empty, sure). Where the outline runs along a printed line, a fill's edge there may hide its
    step (harsh 28: the shadow's edge along a fill's border, for half a cell): that part of a stretch is not
    counted, though the stretch runs on through it."""
    shaded = (log_gain < 0).astype(np.uint8)
    outline = (shaded > 0) & (cv2.erode(shaded, np.ones((3, 3), np.uint8)) == 0) & drawn
    ys, xs = np.nonzero(outline)
    if xs.size == 0:
        return outline
    (ix, iy), (ox, oy), (nx, ny) = _either_side(shaded, ys, xs, t)
    flat = log[iy, ix] - log[oy, ox] > float(log_gain.min()) / 2
    along = t.shadow_along_line
    along_line = (near_columns[ys, xs] & (np.abs(nx) > along)) | (near_rows[ys, xs] & (np.abs(ny) > along))
    # A stretch runs on along a line (where it is not counted) to where it leaves it.
    found = np.zeros(outline.shape, np.uint8)
    found[ys[flat], xs[flat]] = 1
    count, parts = cv2.connectedComponents(found, connectivity=8)
    counted = np.zeros_like(outline)
    counted[ys[flat & ~along_line], xs[flat & ~along_line]] = True
    length = np.bincount(parts[counted], minlength=count)
    long = np.flatnonzero(length >= t.shadow_unsupported_mm)
    return counted & np.isin(parts, long[long > 0])


def _regions(
    mask: np.ndarray, keep: np.ndarray, log: np.ndarray, channel_logs: np.ndarray, shadow: np.ndarray,
    bare: np.ndarray, cell_ids: np.ndarray, t: ReaderTuning
) -> np.ndarray:
    """Piecewise-flat log gain: each shadow region gets the median step measured across its detected edges
    (the integral alone underestimates a step whose edge was only partly seen)."""
    count, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    height, width = mask.shape
    gy, gx = np.gradient(cv2.GaussianBlur(shadow, (0, 0), t.shadow_normal_blur))
    log_gain = np.zeros_like(log)
    band = np.ones((t.shadow_edge_band_px,) * 2, np.uint8)
    edge = keep & (cv2.dilate(mask.astype(np.uint8), band) > 0) & (cv2.erode(mask.astype(np.uint8), band) == 0)
    ys, xs = np.nonzero(edge)
    norm = np.hypot(gx[ys, xs], gy[ys, xs]) + 1e-9
    nx, ny = gx[ys, xs] / norm, gy[ys, xs] / norm  # towards the light
    ox = np.clip(np.round(xs + t.shadow_across * nx).astype(int), 0, width - 1)
    oy = np.clip(np.round(ys + t.shadow_across * ny).astype(int), 0, height - 1)
    ix = np.clip(np.round(xs - t.shadow_across * nx).astype(int), 0, width - 1)
    iy = np.clip(np.round(ys - t.shadow_across * ny).astype(int), 0, height - 1)
    steps = log[iy, ix] - log[oy, ox]  # negative: darker inside
    channel_steps = channel_logs[iy, ix] - channel_logs[oy, ox]  # (points, 3)
    tint = channel_steps.max(axis=1) - channel_steps.min(axis=1)
    owner = labels[iy, ix]
    on_paper = bare[iy, ix] & bare[oy, ox]
    in_one_cell = (cell_ids[iy, ix] > 0) & (cell_ids[iy, ix] == cell_ids[oy, ox])
    for label in range(1, count):
        region = labels == label
        area = int(region.sum())
        if area < t.shadow_min_region or (region & bare).sum() < t.shadow_min_bare_share * area:
            continue
        # The step is measured where the edge crosses bare paper. Where too little of the edge crosses paper (it
        # runs along the printed boxes, say), also where it crosses the inside of a cell, away from its lines:
        # pencil mostly fills a cell evenly, so a step there is mostly the light's (a region traced from pencil
        # steps is dropped when the paper shows no shadow). A dark region whose edge is seen on neither is pencil,
        # not a shadow.
        ours = (owner == label) & (steps < 0)
        measured = ours & on_paper
        if np.count_nonzero(measured) < t.shadow_min_edge:
            measured = ours & (on_paper | in_one_cell)
        mine = steps[measured]
        if mine.size < t.shadow_min_edge:
            continue
        depth = float(np.median(mine))
        # A shadow dims every colour alike; a thumb or a coloured object over the paper does not. A region whose
        # step is shallow is left to the smooth flat-field, like a shallow shadow.
        if depth < -t.shadow_min_depth and float(np.median(tint[measured])) < t.shadow_max_tint * -depth:
            log_gain[region] = depth
    return log_gain


@dataclass(frozen=True)
class EdgeFit:
    """A shadow's outline as the paper shows it (`fit_edge`)."""

    width: float  # the blur of its edge (map pixels, about mm): 0 when the paper did not tell
    depth: float  # log: the light it takes, fitted with that blur
    shaded: np.ndarray  # bool, the shadow map's size: the outline, at half the depth


def fit_edge(log: np.ndarray, bare: np.ndarray, shaded: np.ndarray, t: ReaderTuning = TUNING) -> EdgeFit:
    """How wide the shadows' edge is on the bare paper near it, and where it lies.

    A shadow cast by a hand or a phone far above the page, under a broad lamp, has a penumbra as wide as a cell:
    its edge taken out as a step leaves the paper on either side of it wrong by up to half the depth. Each blur of
    t.shadow_edge_widths is tried on the outline `shaded`, with a smooth light and a depth fitted to the paper within
    t.shadow_width_reach of it; the one with the least misfit (`_misfit`) is the edge's width.

    Paper labelled against a smooth light that bent into a soft shadow leaves parts of a shadow where there is none
    (light 22: a corner of the margin, far from the hand's shadow; two such corners bend the light alike, so they
    go together): the outline is also tried without each combination of its parts but the largest (of the
    t.shadow_parts_tried largest). When the best fit is a soft edge, its outline (labelled at a step's depth, it
    lies out in the penumbra) is moved in or out by t.shadow_outline_shifts to fit too, and the width fitted again.
    A hard edge keeps the outline as it was."""
    mask = shaded.astype(np.uint8)
    inside = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    outside = cv2.distanceTransform(1 - mask, cv2.DIST_L2, 5)
    near = bare & (np.maximum(inside, outside) <= t.shadow_width_reach)
    count = int(np.count_nonzero(near))
    if count < t.shadow_min_region:
        return EdgeFit(0.0, 0.0, shaded)
    # The fit is made on a lattice of about t.shadow_fit_points of the paper points, the outlines blurred on it.
    stride = max(1, int(np.ceil(np.sqrt(count / t.shadow_fit_points))))
    lattice_ys, lattice_xs = np.nonzero(near[::stride, ::stride])
    ys, xs = lattice_ys * stride, lattice_xs * stride
    smooth = quadratic_terms(*log.shape)[ys, xs]
    target = log[ys, xs].astype(np.float64)

    def blur(outline: np.ndarray, sigma: float) -> np.ndarray:
        lattice = outline[::stride, ::stride].astype(np.float32)
        return cv2.GaussianBlur(lattice, (0, 0), sigma / stride)[lattice_ys, lattice_xs]

    def fit(step: np.ndarray, sigma: float, kept: tuple[int, ...] = ()) -> tuple[float, float, float, tuple]:
        """(misfit, depth, sigma, kept) of the blurred outline `step` at the paper points."""
        design = np.column_stack([smooth, -step])
        coefficients = _robust_least_squares(design, target, t)
        return float(np.mean(_misfit(target - design @ coefficients, t))), float(coefficients[-1]), sigma, kept

    # A blur is linear: the blurred outline without some parts is the sum of the other parts blurred.
    _, parts, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    order = np.argsort(-stats[1:, cv2.CC_STAT_AREA]) + 1
    tried, rest = list(order[: t.shadow_parts_tried]), np.isin(parts, order[t.shadow_parts_tried :])
    whole = tuple(range(len(tried)))
    kept_sets = [whole] + [(0, *kept) for n in range(len(tried) - 1)
                           for kept in itertools.combinations(range(1, len(tried)), n)]
    masks = [parts == label for label in tried] + [rest]  # the parts tried, then the rest of the outline
    fits = []
    for sigma in t.shadow_edge_widths:
        *blurred, rest_blurred = (blur(part, sigma) for part in masks)
        fits += [fit(rest_blurred + sum(blurred[k] for k in kept), sigma, kept) for kept in kept_sets]
    _, depth, sigma, kept = min(fits, key=lambda found: found[0])
    if sigma < t.shadow_soft_width:
        _, depth, sigma, _ = min((found for found in fits if found[3] == whole), key=lambda found: found[0])
        return EdgeFit(sigma, depth, shaded)
    outline = rest | np.isin(parts, [tried[k] for k in kept])
    mask = outline.astype(np.uint8)
    signed = cv2.distanceTransform(mask, cv2.DIST_L2, 5) - cv2.distanceTransform(1 - mask, cv2.DIST_L2, 5)
    shift = min(t.shadow_outline_shifts, key=lambda mm: fit(blur(signed > mm, sigma), sigma)[0])
    outline = signed > shift
    _, depth, sigma, _ = min((fit(blur(outline, sigma), sigma) for sigma in t.shadow_edge_widths),
                             key=lambda found: found[0])
    return EdgeFit(sigma, depth, outline)


def corrected_by_paper(
    log_gain: np.ndarray, log: np.ndarray, bare: np.ndarray, drawn: np.ndarray, t: ReaderTuning = TUNING
) -> np.ndarray:
    """The traced shadows corrected by what the bare paper shows, which is plain: paper in shadow is darker than
    the smooth light by the shadow's depth. All on the shadow map (1 pixel per `t.shadow_map_scale` sheet pixels):
    `log_gain` the traced shadows (log gain, 0 where lit, negative in shadow), `log` the map's log brightness,
    `bare` the known bare paper, `drawn` where the player draws (the grid). Returns the corrected log gain: one
    depth, fitted to the paper, wherever the shadow is.

    On bare paper the paper decides. Where the player draws (`drawn`, the grid), an outline traced from the edges
    can leak from a real shadow along pencil edges into cells it never reaches; a shadow comes from outside the
    drawing area, so a part of it there is kept only where the paper beside it is in shadow too.
    """
    traced = log_gain < 0
    shaded, depth = _shadow_on_paper(log, bare, traced, np.unique(-log_gain[traced]), t)
    if np.count_nonzero(shaded) < t.shadow_min_shaded_paper:  # a shadow falls on the paper: none does, none traced
        return np.zeros_like(log_gain)
    result = np.where(bare, shaded, traced)
    reach = np.ones((2 * t.shadow_paper_reach + 1,) * 2, np.uint8)
    # Each part of the grid the trace put in shadow, or left in the light, is so only where the paper beside it is.
    # A lit part with no paper beside it is a hole in what surrounds it: silhouettes have no holes.
    for in_shadow in (True, False):
        count, parts = cv2.connectedComponents(((traced == in_shadow) & drawn).astype(np.uint8), connectivity=8)
        for label in range(1, count):
            part = parts == label
            paper_beside = (cv2.dilate(part.astype(np.uint8), reach) > 0) & bare
            if in_shadow:
                if not paper_beside.any() or float(shaded[paper_beside].mean()) < 0.5:
                    result[part] = False
            elif paper_beside.any():
                result[part] = float(shaded[paper_beside].mean()) > 0.5
            else:
                ring = (cv2.dilate(part.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0) & ~part
                result[part] = bool(ring.any() and float(result[ring].mean()) > 0.5)
    # A silhouette's outline is smooth: in the grid, spurs and bumps narrower than about 5 mm (1.35
    # shadow_outline_smoothing), where the trace followed pencil edges on from the shadow's, are taken off. (The
    # paper shows where the shadow is, to the millimetre, even in a narrow margin: it is kept as it is.)
    smoothed = cv2.GaussianBlur(result.astype(np.float32), (0, 0), t.shadow_outline_smoothing) > 0.5
    result = np.where(drawn, smoothed, result)
    return np.where(result, -depth, 0.0).astype(np.float32)


def _shadow_on_paper(
    log: np.ndarray, bare: np.ndarray, traced: np.ndarray, depths: np.ndarray, t: ReaderTuning,
) -> tuple[np.ndarray, float]:
    """Where the bare paper is in shadow, and how deep the shadow is.

    The smooth light is fitted to the paper with the shadow's depth put back where it is labelled in shadow: where
    a label is wrong the paper stands out of the fit by the whole depth, and is labelled again by what it shows,
    until the labels settle. They can settle far from the truth (a trace that leaked far stays where it started;
    from no shadow at all, the smooth light bends into a large shadow), so they are settled from three starts:
    the traced shadow, no shadow, and the best of many lights fitted to samples of the paper. The depth is then
    fitted to the paper so labelled, and the labels settled again with it (up to shadow_depth_rounds times). Each traced
    region's depth is tried as the start (one traced from pencil or print has a false one): the labels and depth
    the paper fits best are kept. With no paper at all, nothing is in shadow.
    """
    ys, xs = np.nonzero(bare)
    if xs.size == 0:
        return np.zeros_like(traced), 0.0
    smooth = quadratic_terms(*log.shape)[ys, xs]
    paper_log = log[ys, xs]
    traced_labels = traced[ys, xs]
    samples = _PaperSamples.of(xs, ys, paper_log, smooth, t)
    lights = _PaperLights(smooth, paper_log, t)

    def judged(labels: np.ndarray, cost: float) -> tuple[tuple[float, float], np.ndarray]:
        """How well the labels fit, those whose outline steps the wrong way last (the less of it the better), and
        the shaded paper.

        A lone shaded point of paper is a mark, not a shadow: opened away. What joins a shaded area as large as a
        shadow belongs to it, however thin: a strip of paper between two printed boxes, opened away, came out lit
        inside a shadow, and the light beside the boxes looked steep (moderate 4017; harsh 631, 613)."""
        shaded = np.zeros_like(bare)
        shaded[ys, xs] = labels
        shaded = _without_lone_points(shaded, t) & bare
        return (max(_steps_the_wrong_way(log, bare, shaded, t), t.shadow_wrong_way_share), cost), shaded

    best: tuple[tuple[float, float], np.ndarray, float] = ((np.inf, np.inf), np.zeros_like(traced), 0.0)
    for depth in map(float, depths):
        for _ in range(t.shadow_depth_rounds):
            starts = (traced_labels, None, samples.labels(depth))
            key, shaded = min((judged(*_settled_labels(lights, start, depth)) for start in starts),
                              key=lambda found: found[0])
            fitted = _paper_depth(paper_log, shaded, smooth, ys, xs, depth, t)
            settled = abs(fitted - depth) <= t.shadow_depth_settled * depth
            depth = fitted
            if settled:
                break
        if key < best[0]:
            best = (key, shaded, depth)
    return best[1], best[2]


def _steps_the_wrong_way(log: np.ndarray, bare: np.ndarray, shaded: np.ndarray, t: ReaderTuning) -> float:
    """The share of the outline of the `shaded` paper, where the paper shows on both sides of it, whose shaded side
    is the brighter (`log` the map's log brightness, t.shadow_across either side).

    However smooth the light and however soft the edge, the paper is darker on a shadow's side of its outline.
    Labels settled against a smooth light can fit a soft shadow's paper better the wrong way round: its penumbra
    labelled lit and the light bent down into it, the lit paper around labelled shaded (light 100017: 69% of the
    paper in shadow, the hand's shadow in one corner; 73 cells in doubt). Their outline steps up into the shadow."""
    mask = shaded.astype(np.uint8)
    ys, xs = np.nonzero(shaded & (cv2.erode(mask, np.ones((3, 3), np.uint8)) == 0))
    if xs.size == 0:
        return 0.0
    (ix, iy), (ox, oy), _ = _either_side(mask, ys, xs, t)
    seen = shaded[iy, ix] & bare[oy, ox] & ~shaded[oy, ox]
    return float(np.mean(log[iy[seen], ix[seen]] > log[oy[seen], ox[seen]])) if seen.any() else 0.0


def _either_side(
    mask: np.ndarray, ys: np.ndarray, xs: np.ndarray, t: ReaderTuning
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """For the points (`ys`, `xs`) of the outline of `mask` (uint8): the points t.shadow_across inside it and
    outside it along its normal, as (x, y) index arrays on the mask, and the normal (x, y) pointing in."""
    gy, gx = np.gradient(cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 2 * t.shadow_normal_blur))
    norm = np.hypot(gx[ys, xs], gy[ys, xs]) + 1e-9
    nx, ny = gx[ys, xs] / norm, gy[ys, xs] / norm
    height, width = mask.shape

    def at(distance: float) -> tuple[np.ndarray, np.ndarray]:
        return (np.clip(np.round(xs + distance * nx).astype(int), 0, width - 1),
                np.clip(np.round(ys + distance * ny).astype(int), 0, height - 1))

    return at(t.shadow_across), at(-t.shadow_across), (nx, ny)


def _without_lone_points(shaded: np.ndarray, t: ReaderTuning) -> np.ndarray:
    """`shaded` (bool) opened by a 3x3 square, except for the parts of a shaded area of t.shadow_min_region or more."""
    mask = shaded.astype(np.uint8)
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
    _, parts, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    large = stats[:, cv2.CC_STAT_AREA] >= t.shadow_min_region
    large[0] = False  # the background
    return opened | large[parts]


def _paper_depth(
    paper_log: np.ndarray, shaded: np.ndarray, smooth: np.ndarray, ys: np.ndarray, xs: np.ndarray, depth: float,
    t: ReaderTuning,
) -> float:
    """The shadow's depth fitted to all the paper (`paper_log`, at `ys`, `xs`) at once: the smooth light and one
    step where it is labelled in shadow, away from the shadow's blurred edge. Steadier than the steps measured
    across the edge, which a blurred photo makes shallower. `depth` as it was when the paper shows too little of
    the shadow or of the light to tell, or no step."""
    k = np.ones((2 * t.shadow_edge_widen + 1,) * 2, np.uint8)
    edge = cv2.dilate(shaded.astype(np.uint8), k) != cv2.erode(shaded.astype(np.uint8), k)
    clear = ~edge[ys, xs]
    in_shadow = shaded[ys, xs]
    if min(np.count_nonzero(clear & in_shadow), np.count_nonzero(clear & ~in_shadow)) < t.shadow_min_region:
        return depth
    design = np.column_stack([smooth, -in_shadow.astype(np.float64)])[clear]
    fitted = float(_robust_least_squares(design, paper_log[clear], t)[-1])
    return fitted if fitted > t.shadow_min_depth else depth


@dataclass(frozen=True)
class _PaperSamples:
    """The paper in blocks, and many lights fitted to random samples of them (RANSAC, seeded: the same photo reads
    the same). A sample drawn from the lit paper alone gives the light itself, which no refit from a wrong start
    reaches when a shadow is large. Built once per photo: only the labelling depends on the depth tried."""

    owner: np.ndarray  # each paper point's block
    usable: np.ndarray  # the blocks holding enough paper to sample
    level: np.ndarray  # their median log brightness
    where: np.ndarray  # their smooth-light design rows
    weight: np.ndarray
    lights: np.ndarray  # (trials, coefficients): the light fitted to each sample
    refit: np.ndarray  # weighted least squares over all usable blocks, the same for every sample
    t: ReaderTuning

    @classmethod
    def of(
        cls, xs: np.ndarray, ys: np.ndarray, paper_log: np.ndarray, smooth: np.ndarray, t: ReaderTuning
    ) -> _PaperSamples:
        blocks_across = int(xs.max()) // t.shadow_sample_block + 1
        block = (ys // t.shadow_sample_block) * blocks_across + xs // t.shadow_sample_block
        _, owner, counts = np.unique(block, return_inverse=True, return_counts=True)
        groups = np.split(np.argsort(owner, kind="stable"), np.cumsum(counts)[:-1])
        usable = np.array([k for k, group in enumerate(groups) if group.size >= t.shadow_sample_min_points], int)
        level = _group_medians(paper_log, owner, counts)[usable]
        where = np.array([smooth[groups[k]].mean(axis=0) for k in usable]).reshape(len(usable), smooth.shape[1])
        weight = np.sqrt(counts[usable]).astype(np.float64)
        lights = refit = np.zeros((0, smooth.shape[1]))
        if len(usable) >= 2 * t.shadow_sample_size:
            rng = np.random.default_rng(0)
            picks = np.argsort(rng.random((t.shadow_sample_trials, len(usable))), axis=1)[:, : t.shadow_sample_size]
            lights = np.einsum("tij,tj->ti", np.linalg.pinv(where[picks]), level[picks])
            refit = np.linalg.pinv(where * weight[:, None])
        return cls(owner, usable, level, where, weight, lights, refit, t)

    def labels(self, depth: float) -> np.ndarray:
        """Shaded / lit labels of the paper points, from the sampled light that fits the paper best at `depth`
        (all lit when there are too few blocks to sample)."""
        in_shadow = np.zeros(int(self.owner.max()) + 1, bool)
        if len(self.lights):
            lights, level, where, weight = self.lights, self.level, self.where, self.weight
            for _ in range(self.t.shadow_label_rounds):
                shaded = level - lights @ where.T < -depth / 2
                lights = ((level + depth * shaded) * weight) @ self.refit.T
            residual = level + depth * shaded - lights @ where.T
            in_shadow[self.usable] = shaded[int(np.argmin((weight * _misfit(residual, self.t)).sum(axis=1)))]
        return in_shadow[self.owner]


def _group_medians(values: np.ndarray, group: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """np.median of the `values` of each group (`group`: each value's, numbered from 0; `counts`: each group's
    size, none empty), all at once: the middle one or two of each group's sorted values, averaged as np.median does
    (in the values' own type: halving is exact)."""
    ordered = values[np.lexsort((values, group))]
    starts = np.cumsum(counts) - counts
    return (ordered[starts + (counts - 1) // 2] + ordered[starts + counts // 2]) / values.dtype.type(2)


class _PaperLights:
    """The smooth light fitted to the paper points (`_robust_least_squares` over `smooth`) for the labels and the
    depth tried: the design's normal matrix is made once, and a fit asked for again (starts that settle alike, a
    depth tried again) is not redone."""

    def __init__(self, smooth: np.ndarray, paper_log: np.ndarray, t: ReaderTuning) -> None:
        self.smooth, self.paper_log, self.t = smooth, paper_log, t
        self.gram = smooth.T @ smooth
        self._fitted: dict[tuple[float, bytes], np.ndarray] = {}

    def fit(self, labels: np.ndarray, depth: float) -> np.ndarray:
        """The light of the paper with `depth` put back where `labels` (bool, per point) say it is in shadow."""
        key = (depth, np.packbits(labels).tobytes())
        if key not in self._fitted:
            self._fitted[key] = _robust_least_squares(self.smooth, self.paper_log + depth * labels, self.t,
                                                      self.gram)
        return self._fitted[key]


def _settled_labels(lights: _PaperLights, start: np.ndarray | None, depth: float) -> tuple[np.ndarray, float]:
    """Shaded / lit labels of the paper points refitted from `start` (None: all lit) until they settle, and how
    badly the paper fits them (the mean `_misfit`)."""
    smooth, paper_log, t = lights.smooth, lights.paper_log, lights.t
    labels = np.zeros(paper_log.shape, bool) if start is None else start
    for _ in range(t.shadow_label_rounds):
        light = lights.fit(labels, depth)
        new_labels = paper_log - smooth @ light < -depth / 2
        if np.array_equal(new_labels, labels):
            break  # `light` is the fit of the labels kept
        labels = new_labels
    else:
        light = lights.fit(labels, depth)
    residual = paper_log + depth * labels - smooth @ light
    return labels, float(np.mean(_misfit(residual, t)))


def _misfit(residual: np.ndarray, t: ReaderTuning) -> np.ndarray:
    """How badly paper fits its light, point by point: capped, so a point that fits neither level (a stray mark)
    costs the same however far off it is, whatever the depth."""
    return np.minimum(np.abs(residual), t.shadow_label_noise)


def _robust_least_squares(design: np.ndarray, target: np.ndarray, t: ReaderTuning,
                          gram: np.ndarray | None = None) -> np.ndarray:
    """Least squares, refitted once without the points far off the first fit (handwriting, a stray mark), when
    enough points are left (4 per coefficient). `gram`: design.T @ design, when made already."""
    coefficients = _least_squares(design, target, gram)
    residual = target - design @ coefficients
    # the median absolute deviation, scaled to a normal distribution's standard deviation
    spread = 1.4826 * float(np.median(np.abs(residual - np.median(residual)))) + 1e-6
    keep = np.abs(residual) < t.shadow_outlier_spreads * spread
    if keep.sum() > design.shape[1] * 4:
        coefficients = _least_squares(design[keep], target[keep])
    return coefficients


def _least_squares(design: np.ndarray, target: np.ndarray, gram: np.ndarray | None = None) -> np.ndarray:
    """By the normal equations: a few well-scaled columns over many thousand points, where they are accurate
    and many times faster than a decomposition of the whole design. `gram`: design.T @ design, when made
    already."""
    return np.linalg.lstsq(design.T @ design if gram is None else gram, design.T @ target, rcond=None)[0]


def _integrate(gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """The surface whose forward differences best match (gx, gy) in least squares (Neumann borders, via DCT)."""
    height, width = gx.shape
    div = gx.copy()
    div[:, 1:] -= gx[:, :-1]
    div += gy
    div[1:, :] -= gy[:-1, :]
    # cv2.dct wants even sizes: pad by reflection (keeps the Neumann condition).
    ph, pw = height + height % 2, width + width % 2
    padded = cv2.copyMakeBorder(div, 0, ph - height, 0, pw - width, cv2.BORDER_REFLECT)
    if (ph, pw) != (height, width):
        padded[height:, :] = 0
        padded[:, width:] = 0
    spectrum = cv2.dct(padded.astype(np.float64))
    ky = 2 * np.cos(np.pi * np.arange(ph) / ph) - 2
    kx = 2 * np.cos(np.pi * np.arange(pw) / pw) - 2
    denominator = ky[:, None] + kx[None, :]
    denominator[0, 0] = 1.0
    spectrum /= denominator
    spectrum[0, 0] = 0.0
    return cv2.idct(spectrum)[:height, :width].astype(np.float32)
