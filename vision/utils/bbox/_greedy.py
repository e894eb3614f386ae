"""Greedy suppression of boxes in priority order, vectorised: the engine of the NMS functions.

The boxes arrive sorted, highest priority first. They are taken a block at a time:

1. the next block of boxes that are still alive (neither processed nor suppressed);
2. greedy NMS inside the block, solved with matrix products: ``keep[j]`` is true when no kept
   box before ``j`` in the block overlaps it. Starting from all true and iterating that rule
   settles on the greedy answer, because the first ``m`` entries are final after ``m`` rounds;
   it usually takes a handful of rounds;
3. the kept boxes of the block suppress every later alive box they overlap, so a box is
   compared only with kept boxes, and only until it is suppressed (torchvision's order of work).

For step 3, ``IoU >= t > 0`` implies ``|a.y_min - b.y_min| <= (1 - t) / t * min(h_a, h_b)``,
the same for ``x``, and ``t <= area_a / area_b <= 1 / t``, so the candidates of a kept box lie
near it and are of a similar size. Alive boxes sit in a grid of cells keyed by
``(group, log area, y_min, x_min)``; a kept box looks only at the cells its bands cover, and the
pairs found are confirmed with the exact IoU. When the bands cover most of the alive boxes
anyway (large overlapping boxes), or ``t <= 0``, a dense comparison is cheaper and is used.
"""

from __future__ import annotations

import numpy

from vision.utils.bbox.bbox_iou import box_area, iou_of_pairs

_BLOCK = 128
# Pairs compared at once: small enough for the temporaries to stay in the CPU cache.
_PAIR_CHUNK = 1 << 16
# Pairs cost about this many times more through the grid (gathers) than densely.
_GATHER_COST = 3
# The grid drops its dead boxes once they outnumber the alive ones by this many.
_COMPACT_SLACK = 1024
# Relative and absolute widening of the bands, far above rounding errors of the IoU.
_SLACK = 1e-3
_ABS_SLACK = 1e-5


class _Boxes:
    """Boxes in priority order as contiguous columns, with their areas and groups."""

    def __init__(self, box: numpy.ndarray, group: numpy.ndarray | None):
        self.columns = tuple(numpy.ascontiguousarray(box[:, i]) for i in range(4))
        self.area = box_area(*self.columns)
        self.group = group

    def __len__(self):
        return len(self.area)

    def take(self, index):
        """Columns and areas of the boxes at ``index``."""
        return tuple(c.take(index) for c in self.columns), self.area.take(index)


def greedy_suppression(box: numpy.ndarray, thresh: float, group: numpy.ndarray | None = None,
                       limit: int | None = None) -> numpy.ndarray:
    """Positions of the boxes that greedy NMS keeps, ascending.

    Args:
        box (~numpy.ndarray): Floating-point boxes ``(R, 4)``, highest priority first.
        thresh (float): A box is suppressed by a kept box when their IoU is at least this.
        group (~numpy.ndarray): Optional ``(R,)`` labels; boxes of different labels never
            suppress each other.
        limit (int): Stop after this many kept boxes.

    Returns:
        ~numpy.ndarray: int64 positions into ``box``.
    """
    boxes = _Boxes(box, group)
    n_alive = len(boxes)
    alive = numpy.ones(n_alive, dtype=bool)
    # Boxes that fit in one block need no grid.
    grid = _Grid(boxes, thresh) if thresh > 0 and n_alive > _BLOCK else None
    kept_parts = []
    n_kept = 0
    start = 0
    while n_alive and (limit is None or n_kept < limit):
        block = _next_block(alive, start, _BLOCK)
        kept = block[_resolve_block(boxes, block, thresh)]
        alive[block] = False
        n_alive -= block.size
        kept_parts.append(kept)
        n_kept += kept.size
        start = block[-1] + 1
        if n_alive and kept.size:
            n_alive -= _suppress(boxes, kept, start, n_alive, thresh, alive, grid)
    kept = numpy.concatenate(kept_parts) if kept_parts else numpy.zeros(0, dtype=numpy.int64)
    return kept[:limit]


def _next_block(alive: numpy.ndarray, start: int, size: int) -> numpy.ndarray:
    """The first ``size`` alive positions from ``start`` on (all alive ones lie there)."""
    window = 4 * size
    while True:
        found = numpy.flatnonzero(alive[start:start + window])
        if found.size >= size or start + window >= len(alive):
            return found[:size] + start
        window *= 4


def _resolve_block(boxes: _Boxes, block: numpy.ndarray, thresh: float) -> numpy.ndarray:
    """Greedy NMS among the boxes of one block (priority order): the mask of kept ones."""
    columns, area = boxes.take(block)
    overlap = iou_of_pairs([c[:, None] for c in columns], area[:, None],
                           [c[None] for c in columns], area[None]) >= thresh
    if boxes.group is not None:
        group = boxes.group[block]
        overlap &= group[:, None] == group[None]
    suppresses = numpy.triu(overlap, 1).astype(numpy.float32)
    keep = numpy.ones(block.size, dtype=numpy.float32)
    while True:
        settled = (keep @ suppresses == 0).astype(numpy.float32)
        if numpy.array_equal(settled, keep):
            return settled.astype(bool)
        keep = settled


def _suppress(boxes, kept, start, n_alive, thresh, alive, grid) -> int:
    """Marks dead the alive boxes that ``kept`` suppress; returns how many died."""
    if grid is not None:
        query = grid.query(kept, alive, n_alive)
        if query is not None and query.n_pairs * _GATHER_COST < kept.size * n_alive:
            return grid.suppress(query, boxes, thresh, alive)
        if query is None:
            return 0
    return _suppress_dense(boxes, kept, start, thresh, alive)


def _suppress_dense(boxes, kept, start, thresh, alive) -> int:
    candidates = numpy.flatnonzero(alive[start:]) + start
    columns, area = boxes.take(kept)
    kept_columns = [c[:, None] for c in columns]
    kept_area = area[:, None]
    kept_group = None if boxes.group is None else boxes.group[kept][:, None]
    step = max(1, _PAIR_CHUNK // kept.size)
    n_dead = 0
    for chunk_start in range(0, candidates.size, step):
        chunk = candidates[chunk_start:chunk_start + step]
        columns, area = boxes.take(chunk)
        hit = iou_of_pairs(kept_columns, kept_area, [c[None] for c in columns],
                           area[None]) >= thresh
        if kept_group is not None:
            hit &= kept_group == boxes.group[chunk][None]
        dead = chunk[hit.any(axis=0)]
        alive[dead] = False
        n_dead += dead.size
    return n_dead


class _Query:
    """The cell ranges that the bands of some kept boxes cover."""

    def __init__(self, kept, lo, hi):
        self.kept = kept  # for each range, the kept box it belongs to
        self.lo = lo
        self.count = hi - lo
        self.n_pairs = int(self.count.sum())


class _Grid:
    """Boxes that can overlap others, bucketed by ``(group, log area, y_min, x_min)``.

    Only boxes with finite coordinates and positive height and width can reach an IoU above
    0; the others are left out, and never suppress or get suppressed when ``thresh > 0``.
    ``IoU >= t`` also implies ``t <= area_a / area_b <= 1 / t``, so areas are bucketed on a log
    scale, each bucket with its own cell size, proportional to the band of its boxes. The
    columns of the boxes are stored in key order, so the candidates of a kept box are read
    from a few contiguous runs.
    """

    def __init__(self, boxes: _Boxes, thresh: float):
        y_min, x_min, y_max, x_max = (c.astype(numpy.float64) for c in boxes.columns)
        self.corner = numpy.stack([y_min, x_min], axis=1)
        with numpy.errstate(divide='ignore', invalid='ignore', over='ignore'):
            self.size = numpy.stack([y_max - y_min, x_max - x_min], axis=1)
            self.log_area = numpy.log2(self.size[:, 0] * self.size[:, 1])
            self.valid = ((self.size > 0).all(axis=1) & numpy.isfinite(self.corner).all(axis=1)
                          & numpy.isfinite(self.log_area))
        position = numpy.flatnonzero(self.valid)
        self.thresh = thresh
        self.band_scale = max((1 - thresh) / thresh, 0.0) * (1 + _SLACK)
        self.group_id = numpy.zeros(len(boxes), dtype=numpy.int64)
        if boxes.group is not None:
            self.group_id[position] = numpy.unique(boxes.group[position],
                                                   return_inverse=True)[1]
        self.bucket_width = max(-numpy.log2(min(thresh, 1.0)), 0.05)
        if position.size:
            self.origin = self.corner[position].min(axis=0)
            extent = self.corner[position].max(axis=0) - self.origin
            self.log_area_origin = self.log_area[position].min()
        else:
            self.origin = numpy.zeros(2)
            extent = numpy.zeros(2)
            self.log_area_origin = 0.0
        bucket = self._bucket(self.log_area[position])
        n_buckets = int(bucket.max()) + 1 if position.size else 1
        n_groups = int(self.group_id.max(initial=0)) + 1
        self.cell = self._cell_sizes(extent, n_buckets, n_groups)
        self.n_cells = (extent // self.cell[:, None]).astype(numpy.int64) + 1
        self.strides = (n_buckets, self.n_cells[:, 0].max(), self.n_cells[:, 1].max())
        cell = self._cell_of(self.corner[position], bucket)
        key = self._key(self.group_id[position], bucket, cell[:, 0], cell[:, 1])
        order = numpy.argsort(key, kind='stable')
        self.keys = key[order]
        self.position = position[order]
        self.columns, self.area = boxes.take(self.position)

    def _bucket(self, log_area):
        return numpy.floor((log_area - self.log_area_origin) / self.bucket_width).astype(
            numpy.int64)

    def _cell_sizes(self, extent, n_buckets, n_groups) -> numpy.ndarray:
        top = self.log_area_origin + (numpy.arange(n_buckets) + 1) * self.bucket_width
        cell = numpy.maximum(2 * self.band_scale * numpy.exp2(top / 2), extent.max() / 2 ** 20)
        cell[~(cell > 0)] = 1.0
        # Keys must fit in int64: n_groups * n_buckets * n_cells_y * n_cells_x < 2 ** 62.
        while n_groups * n_buckets * numpy.prod((extent // cell.min()) + 1) >= 2.0 ** 62:
            cell *= 2
        return cell

    def _cell_of(self, corner, bucket):
        cell = numpy.floor((corner - self.origin) / self.cell[bucket, None])
        return numpy.clip(cell, 0, self.n_cells[bucket] - 1).astype(numpy.int64)

    def _key(self, group_id, bucket, cell_y, cell_x):
        n_buckets, n_y, n_x = self.strides
        return ((group_id * n_buckets + bucket) * n_y + cell_y) * n_x + cell_x

    def query(self, kept, alive, n_alive) -> _Query | None:
        """The cell ranges that may hold boxes the ``kept`` boxes overlap; None if none may."""
        if self.position.size > 2 * n_alive + _COMPACT_SLACK:
            live = alive[self.position]
            self.keys = self.keys[live]
            self.position = self.position[live]
            self.columns = tuple(c[live] for c in self.columns)
            self.area = self.area[live]
        kept = kept[self.valid[kept]]
        if not kept.size:
            return None
        # Buckets of the areas within [t, 1 / t] times the area of each kept box.
        margin = -numpy.log2(min(self.thresh, 1.0)) + _SLACK
        log_area = self.log_area[kept]
        last_bucket = self.strides[0] - 1
        first = numpy.clip(self._bucket(log_area - margin), 0, last_bucket)
        n_buckets = numpy.clip(self._bucket(log_area + margin), 0, last_bucket) - first + 1
        owner = numpy.repeat(numpy.arange(kept.size), n_buckets)
        bucket = first[owner] + _ranks(n_buckets)
        # Cells within the band of each kept box, row by row.
        corner = self.corner[kept][owner]
        size = self.size[kept][owner]
        band = self.band_scale * size + _ABS_SLACK * (numpy.abs(corner) + size)
        first = self._cell_of(corner - band, bucket)
        last = self._cell_of(corner + band, bucket)
        n_rows = last[:, 0] - first[:, 0] + 1
        row_owner = numpy.repeat(numpy.arange(owner.size), n_rows)
        row = first[row_owner, 0] + _ranks(n_rows)
        group_id = self.group_id[kept][owner][row_owner]
        bucket = bucket[row_owner]
        lo = numpy.searchsorted(self.keys, self._key(group_id, bucket, row,
                                                     first[row_owner, 1]), 'left')
        hi = numpy.searchsorted(self.keys, self._key(group_id, bucket, row,
                                                     last[row_owner, 1]), 'right')
        return _Query(kept[owner[row_owner]], lo, hi)

    def suppress(self, query: _Query, boxes: _Boxes, thresh, alive) -> int:
        """Confirms the pairs of ``query`` with the exact IoU and marks the hits dead."""
        ends = numpy.cumsum(query.count)
        kept_columns, kept_area = boxes.take(query.kept)
        dead_parts = []
        first = 0
        while first < query.count.size:
            offset = ends[first - 1] if first else 0
            stop = max(int(numpy.searchsorted(ends, offset + _PAIR_CHUNK, 'right')), first + 1)
            count = query.count[first:stop]
            slot = numpy.repeat(query.lo[first:stop], count) + _ranks(count)
            mine = [numpy.repeat(c[first:stop], count) for c in kept_columns]
            other = [c.take(slot) for c in self.columns]
            hit = iou_of_pairs(mine, numpy.repeat(kept_area[first:stop], count),
                               other, self.area.take(slot)) >= thresh
            dead_parts.append(self.position.take(slot[hit]))
            first = stop
        dead = numpy.unique(numpy.concatenate(dead_parts))
        dead = dead[alive[dead]]
        alive[dead] = False
        return dead.size


def _ranks(counts: numpy.ndarray) -> numpy.ndarray:
    """``concatenate([arange(c) for c in counts])``, vectorised."""
    total = int(counts.sum())
    starts = numpy.cumsum(counts) - counts
    return numpy.arange(total) - numpy.repeat(starts, counts)
