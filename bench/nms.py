"""Non-maximum suppression benchmark: ``vision.utils.non_maximum_suppression`` on random boxes.

Prints our time beside ``torchvision.ops.nms``, measured in the same run, when torchvision is
importable (it is not a dependency of the project; install it in a separate venv)::

    python bench/nms.py [--sizes 10000 50000 200000] [--repeat 3]

Two scenes are timed, each at several numbers of boxes and at IoU thresholds 0.5 and 0.7, with
uniform random scores:

* ``detector``: sides of 16 to 256 pixels in a 600 x 800 image, like the proposals of a
  detector: they overlap heavily, and most are suppressed by the first few hundred kept;
* ``crowd``: sides of 8 to 64 pixels in a 4000 x 4000 image: few overlaps, most boxes kept.

The ratio column is torchvision's time / our time (above 1: we are faster). torchvision
suppresses at ``IoU > thresh`` and ChainerCV (and we) at ``IoU >= thresh``; with random
coordinates no IoU equals the threshold, so the kept boxes must agree, which is checked.
"""

from __future__ import annotations

import argparse
import time

import numpy

from vision.utils import generate_random_bbox, non_maximum_suppression

try:
    import torch
    import torchvision
except ImportError:
    torchvision = None

SCENES = {'detector': ((600, 800), 16, 256), 'crowd': ((4000, 4000), 8, 64)}


def _best_of(repeat: int, fn, *args) -> tuple[float, object]:
    """The best time of ``fn(*args)`` over ``repeat`` calls, in seconds, and its result."""
    best = float('inf')
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def _torchvision_nms(boxes, scores, thresh):
    return torchvision.ops.nms(boxes, scores, thresh).numpy()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', type=int, nargs='+', default=[10000, 50000, 200000])
    parser.add_argument('--repeat', type=int, default=3)
    args = parser.parse_args()

    if torchvision is None:
        print('torchvision is not importable here: our times only. Install torch and '
              'torchvision in a separate venv to compare.')
    header = f'{"scene":>9} {"boxes":>7} {"thresh":>6} {"kept":>7} {"ours ms":>9}'
    if torchvision is not None:
        header += f' {"torchvision ms":>14} {"ratio":>6}'
    print(header)
    rng = numpy.random.default_rng(0)
    for scene, (img_size, min_length, max_length) in SCENES.items():
        for n in args.sizes:
            bbox = generate_random_bbox(n, img_size, min_length, max_length, rng=rng)
            score = rng.uniform(size=n).astype(numpy.float32)
            for thresh in (0.5, 0.7):
                ours, kept = _best_of(args.repeat, non_maximum_suppression, bbox, thresh, score)
                line = (f'{scene:>9} {n:>7} {thresh:>6} {len(kept):>7} '
                        f'{ours * 1e3:>9.1f}')
                if torchvision is not None:
                    # torchvision takes (x_min, y_min, x_max, y_max).
                    boxes = torch.from_numpy(numpy.ascontiguousarray(bbox[:, [1, 0, 3, 2]]))
                    theirs, their_kept = _best_of(args.repeat, _torchvision_nms, boxes,
                                                  torch.from_numpy(score), thresh)
                    agree = '' if numpy.array_equal(kept, their_kept) else '  (DISAGREE)'
                    line += f' {theirs * 1e3:>14.1f} {theirs / ours:>6.2f}{agree}'
                print(line, flush=True)


if __name__ == '__main__':
    main()
