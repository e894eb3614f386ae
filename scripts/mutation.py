"""Mutation testing of one module with its own tests (mutmut 3): ``make mutation``.

Usage::

    python scripts/mutation.py MODULE TESTS... [--max-children N] [--fresh]

``MODULE`` is a file (``vision/evaluations/_voc.py``) or a package folder
(``vision/utils/bbox/``); ``TESTS`` are the test files or folders that mirror it. The rest of
the configuration is ``[tool.mutmut]`` in pyproject.toml; this script only narrows
``only_mutate`` and the test selection, which mutmut reads from no command line. mutmut copies
``framework/``, ``vision/`` and ``tests/`` into ``mutants/`` and mutates the copy; the working
tree is never changed. mutmut keeps earlier verdicts (in ``mutants/``) until the source of a
function changes; after adding tests, ``--fresh`` (``make mutation ... FRESH=1``) deletes
``mutants/`` so that every mutant is tested again. It ends with the score of the module
and its surviving mutants (see them with ``.venv/bin/mutmut show NAME``).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

# The status of each exit code, as mutmut's ``results`` prints them.
_CAUGHT = {'killed', 'timeout', 'caught by type check'}


def _pattern(module: str) -> str:
    path = Path(module)
    if path.is_dir():
        return f'{path.as_posix().rstrip("/")}/*'
    if path.suffix != '.py' or not path.is_file():
        sys.exit(f'mutation: MODULE must be a .py file or a folder, got {module!r}')
    return path.as_posix()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('module')
    parser.add_argument('tests', nargs='+')
    parser.add_argument('--max-children', type=int, default=1,
                        help='mutants tested at once (default 1: the tests are numerical)')
    parser.add_argument('--fresh', action='store_true',
                        help="forget the module's earlier verdicts and test every mutant again")
    args = parser.parse_args(argv)
    pattern = _pattern(args.module)
    for test in args.tests:
        if not Path(test).exists():
            sys.exit(f'mutation: no such test file or folder: {test!r}')

    if args.fresh:
        # mutmut keys its verdicts and its map of tests to functions on the mutated copies:
        # start from a new copy of the tree.
        shutil.rmtree('mutants', ignore_errors=True)

    # mutmut reads its configuration once, at import time of its main module: narrow it first.
    from mutmut.configuration import config

    cfg = config()
    cfg.only_mutate = [pattern]
    cfg.pytest_add_cli_args_test_selection = list(args.tests)

    from mutmut.__main__ import cli, status_by_exit_code
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.utils.file_utils import walk_mutatable_files

    try:
        cli.main(['run', '--max-children', str(args.max_children)], standalone_mode=False)
    except SystemExit as e:
        if e.code:
            return int(e.code)

    counts: dict[str, int] = {}
    survivors = []
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        for name, code in data.exit_code_by_key.items():
            status = status_by_exit_code[code]
            counts[status] = counts.get(status, 0) + 1
            if status not in _CAUGHT:
                survivors.append(f'{name}: {status}')
    total = sum(counts.values())
    caught = sum(n for s, n in counts.items() if s in _CAUGHT)
    print()
    print('\n'.join(sorted(survivors)))
    print(f'{pattern}: {caught}/{total} mutants caught'
          f' ({100 * caught / max(total, 1):.1f}%); ' +
          ', '.join(f'{n} {s}' for s, n in sorted(counts.items())))
    return 0


if __name__ == '__main__':
    sys.exit(main())
