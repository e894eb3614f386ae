"""The spatial index of the greedy suppression (``vision.utils.bbox._greedy._Grid``): it must
offer every pair that can reach the threshold (a missed pair leaves a box alive that greedy
NMS suppresses), in layouts that reach the edge cells of the grid, several size buckets and
groups, with pairs exactly at the threshold; and its confirmation must find the same boxes
whatever the chunking."""

from __future__ import annotations

import warnings

import numpy
import pytest

import vision.utils.bbox._greedy as greedy
from vision.utils import bbox_iou


def _layout(seed, n=400, extent=1000., offset=0.):
    """Boxes of log-uniform sides (1 to 300) spread over ``[0, extent]^2`` (some exactly on
    its corners and edges), copies of some shrunk to an IoU of exactly 1/2 and 1/4, moved a
    little, and unchanged (IoU 1)."""
    rng = numpy.random.default_rng(seed)
    side = numpy.exp2(rng.uniform(0, 8.2, (n, 2)))
    corner = rng.uniform(0, extent, (n, 2))
    corner[:8] = [[0, 0], [0, extent], [extent, 0], [extent, extent],
                  [0, extent / 2], [extent / 2, 0], [extent, extent / 2], [extent / 2, extent]]
    corner[rng.choice(n, 20)] = 0
    corner[rng.choice(n, 20), 1] = extent
    box = numpy.concatenate((corner, corner + side), axis=1)
    half = box[rng.choice(n, 40)].copy()
    half[:, 2] = half[:, 0] + (half[:, 2] - half[:, 0]) / 2
    quarter = box[rng.choice(n, 40)].copy()
    quarter[:, 3] = quarter[:, 1] + (quarter[:, 3] - quarter[:, 1]) / 4
    near = box[rng.choice(n, 100)] + rng.uniform(-5, 5, (100, 4))
    near[:, 2:] = numpy.maximum(near[:, 2:], near[:, :2] + 0.5)
    same = box[rng.choice(n, 20)]
    box = numpy.concatenate((box, half, quarter, near, same)) + offset
    return box[rng.permutation(len(box))]


def _pairs_above(box, thresh, group):
    iou = bbox_iou(box, box)
    hit = iou >= thresh
    numpy.fill_diagonal(hit, False)
    if group is not None:
        hit &= group[:, None] == group[None]
    return {tuple(p) for p in numpy.argwhere(hit)}


def _offered(grid, query):
    slot = numpy.repeat(query.lo, query.count) + greedy._ranks(query.count)
    owner = numpy.repeat(query.kept, query.count)
    return set(zip(owner.tolist(), grid.position[slot].tolist()))


@pytest.mark.parametrize('thresh', [0.25, 0.5, 0.7, 0.95, 1.0])
@pytest.mark.parametrize('seed, n_group, offset, tall', [
    (0, None, 0., 1), (1, 3, 0., 1), (2, None, -5e4, 1), (3, 7, 1e6, 1), (4, None, 0., 12),
])
def test_every_pair_at_or_above_the_threshold_is_offered(thresh, seed, n_group, offset, tall):
    # ``tall``: the layout stretched in y, so that the grid has more rows than columns.
    box = _layout(seed, offset=offset) * [tall, 1, tall, 1]
    rng = numpy.random.default_rng(seed + 100)
    group = None if n_group is None else rng.integers(0, n_group, len(box))
    boxes = greedy._Boxes(box, group)
    grid = greedy._Grid(boxes, thresh)
    everything = numpy.arange(len(box))
    query = grid.query(everything, numpy.ones(len(box), bool), len(box))
    expected = _pairs_above(box, thresh, group)
    assert expected                                  # the layout has pairs to find
    missed = expected - _offered(grid, query)
    assert not missed
    # IoU >= t allows |dy_min| up to (1 - t) / t times the smaller height (a box at the bottom
    # of one 1 / t times taller): the band may not be narrower
    assert grid.band_scale >= (1 - thresh) / thresh


@pytest.mark.parametrize('thresh', [0.3, 0.5, 0.7])
def test_pairs_across_a_cell_border_are_offered_both_ways(thresh):
    # Twins a little apart, of one size: where a border of the cells falls between them, the
    # later twin lies in the last cell of the first one's band (the end of the run of keys of
    # each row of the band is inclusive) and the first in the first cell of the later's band.
    rng = numpy.random.default_rng(14)
    side = numpy.float64(20.)
    corner = rng.uniform(0, 2000, (400, 2))
    box = numpy.concatenate((corner, corner + side), axis=1)
    shift = rng.uniform(0.1, 1, (400, 2)) * side * (1 - thresh) / 4
    box = numpy.concatenate((box, box + numpy.tile(shift, 2)))
    grid = greedy._Grid(greedy._Boxes(box, None), thresh)
    query = grid.query(numpy.arange(len(box)), numpy.ones(len(box), bool), len(box))
    expected = _pairs_above(box, thresh, None)
    assert len(expected) >= 800                      # each twin finds the other
    assert not expected - _offered(grid, query)


def test_offered_pairs_stay_near_in_place_and_size():
    # The index is worth its cost only if it offers few pairs: here a tenth of all of them.
    box = _layout(5)
    grid = greedy._Grid(greedy._Boxes(box, None), 0.7)
    query = grid.query(numpy.arange(len(box)), numpy.ones(len(box), bool), len(box))
    assert query.n_pairs < len(box) ** 2 / 10


@pytest.mark.parametrize('thresh', [0.25, 0.5, 0.7, 0.95])
@pytest.mark.parametrize('seed, n_group', [(15, None), (16, 3)])
def test_offered_pairs_lie_within_the_bands_and_a_cell(thresh, seed, n_group):
    # What the index promises, pair by pair: a box is offered to a kept box only if their
    # groups are equal, their areas are within the ratio t..1/t widened by one size bucket, and
    # their corners are within the kept box's band, (1 - t) / t times its side, widened by one
    # cell of the offered box's bucket, two bands of the largest box of that bucket (its side
    # at most sqrt(2^bucket width) times the offered box's). A wider band, coarser cells or
    # buckets, or another group's keys would offer more than this.
    box = _layout(seed, n=1500, extent=600.)
    rng = numpy.random.default_rng(seed)
    group = None if n_group is None else rng.integers(0, n_group, len(box))
    grid = greedy._Grid(greedy._Boxes(box, group), thresh)
    query = grid.query(numpy.arange(len(box)), numpy.ones(len(box), bool), len(box))
    kept = numpy.repeat(query.kept, query.count)
    other = grid.position[numpy.repeat(query.lo, query.count) + greedy._ranks(query.count)]
    if group is not None:
        assert (group[kept] == group[other]).all()
    size = box[:, 2:] - box[:, :2]
    log_area = numpy.log2(size.prod(axis=1))
    log_ratio = -numpy.log2(thresh)
    width = max(log_ratio, 0.05)                      # of a size bucket
    assert (numpy.abs(log_area[other] - log_area[kept]) <= log_ratio + width + 2e-3).all()
    band_scale = (1 - thresh) / thresh * (1 + 1e-3)
    band = band_scale * size[kept] + 1e-5 * (numpy.abs(box[kept, :2]) + size[kept])
    cell = 2 * band_scale * numpy.sqrt(size[other].prod(axis=1) * 2 ** width)
    distance = numpy.abs(box[other, :2] - box[kept, :2])
    assert (distance <= band + cell[:, None] * (1 + 1e-9)).all()
    # and it offers something on both sides of every bound
    assert (distance > band).any()


@pytest.mark.parametrize('n_box, compacted', [(1150, True), (1124, False)])
def test_dead_boxes_leave_the_index_but_not_its_answers(n_box, compacted):
    # With 50 boxes alive, the index drops the dead ones once they outnumber the alive ones by
    # more than _COMPACT_SLACK (1150 - 50 > 50 + 1024), and not at exactly that many.
    box = _layout(6, n=n_box - 200)
    assert len(box) == n_box
    grid = greedy._Grid(greedy._Boxes(box, None), 0.5)
    pairs = sorted(_pairs_above(box, 0.5, None))
    alive = numpy.zeros(n_box, bool)
    alive[list(pairs[0])] = True                      # a pair, and 48 others
    alive[numpy.random.default_rng(6).choice(numpy.flatnonzero(~alive), 48, replace=False)] = True
    kept = numpy.flatnonzero(alive)[::2]
    expected = {p for p in pairs if p[0] in kept and alive[p[1]]}
    query = grid.query(kept, alive, 50)
    assert grid.position.size == (50 if compacted else n_box)
    assert expected and expected <= _offered(grid, query)


@pytest.mark.parametrize('chunk', [1, 7, 300, 1 << 16])
@pytest.mark.parametrize('n_group', [None, 4])
def test_confirmation_finds_the_same_boxes_whatever_the_chunks(monkeypatch, chunk, n_group):
    monkeypatch.setattr(greedy, '_PAIR_CHUNK', chunk)
    box = _layout(7, n=300)
    rng = numpy.random.default_rng(8)
    group = None if n_group is None else rng.integers(0, n_group, len(box))
    boxes = greedy._Boxes(box, group)
    grid = greedy._Grid(boxes, 0.5)
    kept = rng.choice(len(box), 60, replace=False)
    alive = numpy.ones(len(box), bool)
    alive[kept] = False
    alive[rng.choice(len(box), 40)] = False
    iou = bbox_iou(box[kept], box) >= 0.5
    if group is not None:
        iou &= group[kept][:, None] == group[None]
    expected = alive & ~iou.any(axis=0)
    n_alive = int(alive.sum())
    n_dead = grid.suppress(grid.query(kept, alive, n_alive), boxes, 0.5, alive)
    numpy.testing.assert_array_equal(alive, expected)
    assert n_dead == n_alive - int(expected.sum()) > 0


def test_degenerate_infinite_and_huge_boxes_warn_nothing_and_change_nothing(monkeypatch):
    # The index takes logs of areas (0 for a flat box), differences of infinite corners and
    # products of huge sides: none may warn, and the answer is the one without the index.
    rng = numpy.random.default_rng(9)
    box = _layout(9, n=200)
    box[:20, 2] = box[:20, 0]                        # flat: log2(0)
    box[20:30, 3] = numpy.inf                        # inf - inf, inf * 0
    box[30:40, :2] = -numpy.inf
    box[40:50] = box[40:50] * 1e200                  # the area overflows
    box[50:55, 0::2] = numpy.inf                     # inf - inf
    score = rng.permutation(len(box))
    box = box[numpy.argsort(-score, kind='stable')]
    with_index = greedy.greedy_suppression(box, 0.5)
    monkeypatch.setattr(greedy, '_BLOCK', len(box))  # one block: no index
    without = greedy.greedy_suppression(box, 0.5)
    monkeypatch.undo()
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        numpy.testing.assert_array_equal(greedy.greedy_suppression(box, 0.5), without)
    numpy.testing.assert_array_equal(with_index, without)


def test_many_boxes_without_area_are_all_kept():
    # More boxes than a block, none with an area: the index holds nothing, and nothing is
    # suppressed (their IoUs are NaN or 0).
    rng = numpy.random.default_rng(12)
    corner = rng.uniform(0, 50, (300, 2))
    box = numpy.concatenate((corner, corner), axis=1)
    box[::2, 3] += 5                                  # flat boxes and points
    numpy.testing.assert_array_equal(greedy.greedy_suppression(box, 0.5), numpy.arange(300))


@pytest.mark.parametrize('thresh', [0.3, 0.7])
def test_sparse_boxes_are_compared_with_few_others(monkeypatch, thresh):
    # The module's promise: a kept box is compared only with nearby boxes of a similar size.
    # For 3000 small boxes spread wide, the IoUs computed are a small share of all pairs, and
    # the answer is the dense one's.
    box = _layout(13, n=2500, extent=20000.)
    box = box[numpy.random.default_rng(13).permutation(len(box))]
    counted, iou_of_pairs = [], greedy.iou_of_pairs

    def counting(*args):
        iou = iou_of_pairs(*args)
        counted.append(iou.size)
        return iou

    expected = greedy.greedy_suppression(box, thresh)
    monkeypatch.setattr(greedy, 'iou_of_pairs', counting)
    numpy.testing.assert_array_equal(greedy.greedy_suppression(box, thresh), expected)
    assert sum(counted) < len(box) ** 2 / 20


def test_the_work_stops_with_the_limit_and_the_last_block(monkeypatch):
    # Disjoint boxes are all kept: a block of them reaches any limit up to its size, after
    # which no block is resolved; the last block suppresses nothing (nothing is left); boxes
    # that fit in one block need no index.
    calls = {'resolve': 0, 'suppress': 0, 'grid': 0}

    def counting(name, function):
        def counted(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)
        monkeypatch.setattr(greedy, {'resolve': '_resolve_block', 'suppress': '_suppress',
                                     'grid': '_Grid'}[name], counted)

    counting('resolve', greedy._resolve_block)
    counting('suppress', greedy._suppress)
    counting('grid', greedy._Grid)
    corner = numpy.arange(300, dtype=numpy.float64)[:, None] * 20
    box = numpy.concatenate((corner, corner, corner + 10, corner + 10), axis=1)
    for limit, n_block in ((5, 1), (greedy._BLOCK, 1), (200, 2)):
        calls.update(resolve=0)
        assert greedy.greedy_suppression(box, 0.5, limit=limit).tolist() == list(range(limit))
        assert calls['resolve'] == n_block
    calls.update(resolve=0, suppress=0, grid=0)
    assert len(greedy.greedy_suppression(box[:200], 0.5)) == 200
    assert calls == {'resolve': 2, 'suppress': 1, 'grid': 1}
    calls.update(grid=0)
    assert len(greedy.greedy_suppression(box[:greedy._BLOCK], 0.5)) == greedy._BLOCK
    assert calls['grid'] == 0


def test_keys_of_a_huge_index_do_not_overflow(monkeypatch):
    # 8000 labels, areas from 2^12 to 2^90 and coordinates spread over 1e15: groups x
    # buckets x cells would pass 2^63, so the cells grow until the keys fit in int64. Each box
    # has a copy of its label at IoU ~0.998; the answer is the one without the index.
    rng = numpy.random.default_rng(17)
    n = 8000
    side = numpy.exp2(rng.uniform(6, 45, (n, 1))).repeat(2, axis=1)
    corner = rng.uniform(0, 1e15, (n, 2))
    box = numpy.concatenate((corner, corner + side), axis=1)
    box = numpy.concatenate((box, box + numpy.tile(side, 2) * 1e-3))
    group = numpy.tile(rng.permutation(n), 2)
    order = rng.permutation(len(box))
    box, group = box[order], group[order]
    grid = greedy._Grid(greedy._Boxes(box, group), 0.99)
    n_groups, n_buckets = int(grid.group_id.max()) + 1, grid.strides[0]
    assert n_groups * n_buckets * (2 ** 20) ** 2 > 2 ** 63      # before the cells grow
    assert n_groups * float(numpy.prod(grid.strides)) < 2 ** 63
    with_index = greedy.greedy_suppression(box, 0.99, group)
    monkeypatch.setattr(greedy, '_Grid', lambda *args: None)
    numpy.testing.assert_array_equal(with_index, greedy.greedy_suppression(box, 0.99, group))
    assert len(with_index) == n


def test_boxes_of_one_corner_at_a_threshold_of_one():
    # No band (t = 1) and no extent (one corner): the cells would have no size; duplicates
    # are still found, only they are suppressed, and nothing warns (no 0 / 0).
    rng = numpy.random.default_rng(18)
    side = rng.integers(1, 50, (300, 2)).astype(numpy.float64)
    box = numpy.concatenate((numpy.zeros((300, 2)), side), axis=1)
    first_of_each = numpy.sort(numpy.unique(side, axis=0, return_index=True)[1])
    assert len(first_of_each) < 300
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        kept = greedy.greedy_suppression(box, 1.0)
    numpy.testing.assert_array_equal(kept, first_of_each)
