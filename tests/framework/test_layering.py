"""The layering of ``framework``: no import circle among its modules at module level.

Every module of the package is imported in a fresh interpreter that records the imports each
module's body runs (``import_graph.py``). A circle among them, or a module that cannot be
imported, fails the test with the modules that close the circle. Imports written inside
functions and run later (Chainer's ``Variable`` operators calling ``basic_math``) are not
module-level and may close a loop. The lower layers are also checked not to load the upper
ones: the device layer loads nothing, the autodiff core and the ops load no scheduler, layer
or training loop.
"""

from __future__ import annotations

import collections
import json
import os
import pathlib
import subprocess
import sys

import pytest

_ROOT = pathlib.Path(__file__).resolve().parents[2]
_RECORDER = pathlib.Path(__file__).with_name('import_graph.py')


def module_level_imports(package: str, path: pathlib.Path = _ROOT) -> dict:
    """Runs the recorder on ``package``, found in ``path``, in a fresh interpreter.

    Returns:
        dict: ``edges``, the ``[importer, imported]`` pairs, and ``errors``, the
        ``[module, message]`` pairs of the modules that could not be imported.
    """
    paths = [str(path)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    result = subprocess.run([sys.executable, str(_RECORDER), package], cwd=path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f'the import recorder failed:\n{result.stderr}'
    return json.loads(result.stdout)


def circles(edges) -> list[list[str]]:
    """Returns one shortest circle ``[a, b, ..., a]`` through each module that is on one,
    without repeating a circle already found."""
    successors = collections.defaultdict(set)
    for importer, imported in edges:
        successors[importer].add(imported)
    found, seen = [], set()
    for start in sorted(successors):
        parents = {module: start for module in successors[start]}
        frontier = collections.deque(sorted(successors[start]))
        while frontier and start not in parents:
            module = frontier.popleft()
            for imported in sorted(successors[module]):
                if imported not in parents:
                    parents[imported] = module
                    frontier.append(imported)
        if start not in parents:
            continue
        circle, module = [start], parents[start]
        while module != start:
            circle.append(module)
            module = parents[module]
        circle.append(start)
        circle.reverse()
        if frozenset(circle) not in seen:
            seen.add(frozenset(circle))
            found.append(circle)
    return found


@pytest.fixture(scope='module')
def framework_imports() -> dict:
    return module_level_imports('framework')


def test_framework_has_no_module_level_import_circle(framework_imports):
    assert not framework_imports['errors'], 'modules that cannot be imported first:\n' + \
        '\n'.join(f'  {module}: {message}' for module, message in framework_imports['errors'])
    assert len({importer for importer, _ in framework_imports['edges']}) > 100
    found = circles(framework_imports['edges'])
    assert not found, 'module-level import circles:\n' + '\n'.join(
        '  ' + ' -> '.join(circle) for circle in found)


def _loaded_by(edges, module: str) -> set[str]:
    """The modules that importing ``module`` loads through module-level imports."""
    successors = collections.defaultdict(set)
    for importer, imported in edges:
        successors[importer].add(imported)
    loaded, todo = set(), [module]
    while todo:
        for imported in successors[todo.pop()] - loaded:
            loaded.add(imported)
            todo.append(imported)
    return loaded


_LOWER = ('framework.variable', 'framework.function_node', 'framework.functions',
          'framework.resources', 'framework.initializers')
_UPPER = ('framework.engine', 'framework.links', 'framework.optimizer', 'framework.training')


def _within(module: str, packages) -> bool:
    return any(module == package or module.startswith(package + '.') for package in packages)


def test_the_lower_layers_do_not_load_the_upper_ones(framework_imports):
    edges = framework_imports['edges']
    assert _loaded_by(edges, 'framework.backend') == set()
    lower = sorted({module for edge in edges for module in edge if _within(module, _LOWER)})
    assert len(lower) > 50
    wrong = {module: sorted(m for m in _loaded_by(edges, module) if _within(m, _UPPER))
             for module in lower}
    wrong = {module: upper for module, upper in wrong.items() if upper}
    assert not wrong, 'lower modules that load upper ones at module level:\n' + '\n'.join(
        f'  {module}: {", ".join(upper)}' for module, upper in wrong.items())


def _write_package(root: pathlib.Path, modules: dict[str, str]) -> None:
    package = root / 'circular'
    package.mkdir()
    (package / '__init__.py').write_text('')
    for name, text in modules.items():
        (package / f'{name}.py').write_text(text)


def test_a_module_level_circle_is_found(tmp_path):
    _write_package(tmp_path, {
        'a': 'from circular import b\n',
        'b': 'import circular.c\n',
        'c': 'from circular.a import *\n',
        'd': 'def late():\n    from circular import a\n',
        'e': 'from circular import d\n',
    })
    graph = module_level_imports('circular', tmp_path)
    assert graph['errors'] == []
    assert sorted(map(tuple, graph['edges'])) == [
        ('circular.a', 'circular.b'), ('circular.b', 'circular.c'), ('circular.c', 'circular.a'),
        ('circular.e', 'circular.d')]
    assert circles(graph['edges']) == [['circular.a', 'circular.b', 'circular.c', 'circular.a']]


def test_an_import_of_a_partly_initialised_module_is_an_error(tmp_path):
    _write_package(tmp_path, {
        'a': 'from circular.b import g\n\n\ndef f():\n    pass\n',
        'b': 'from circular.a import f\n\n\ndef g():\n    pass\n',
    })
    graph = module_level_imports('circular', tmp_path)
    assert [module for module, _ in graph['errors']] == ['circular.a', 'circular.b']
    assert all('partially initialized' in message for _, message in graph['errors'])
