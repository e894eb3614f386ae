"""What the scripts that record the peers' fixtures share (run in a peer's environment, where
the project is not installed; this folder is on their ``sys.path``): loading a module of the
project by its path (the weight rule of ``vision/utils/testing/parity.py``) and writing a
state dict's parameter list."""

from __future__ import annotations

import importlib.util


def load_module(path: str, name: str):
    """The module of the Python file ``path``, imported under ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_params_tsv(state: dict, path: str) -> None:
    """Writes the keys, shapes and dtypes of the tensors of ``state`` to ``path``, a line each
    after the header ``name shape dtype`` (tab-separated, shapes comma-separated)."""
    with open(path, 'w', encoding='utf-8') as f:
        f.write('name\tshape\tdtype\n')
        for key, value in state.items():
            shape = ','.join(str(n) for n in value.shape)
            f.write(f'{key}\t{shape}\t{str(value.dtype).replace("torch.", "")}\n')
