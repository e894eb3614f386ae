import os
import subprocess
import sys

import pytest

from vision.visualizations import _matplotlib

SCRIPT = """
import numpy
from vision.visualizations import vis_bbox
import matplotlib
vis_bbox(numpy.zeros((3, 4, 4)), numpy.array([[0, 0, 2, 2]])).figure.savefig('{out}')
print(matplotlib.get_backend().lower())
"""


def _run(tmp_path, env_update, prelude=''):
    env = {k: v for k, v in os.environ.items()
           if k not in ('DISPLAY', 'WAYLAND_DISPLAY', 'MPLBACKEND')}
    env.update(env_update)
    out = tmp_path / 'fig.png'
    result = subprocess.run([sys.executable, '-c', prelude + SCRIPT.format(out=out)], env=env,
                            capture_output=True, text=True, check=True)
    assert out.stat().st_size > 0
    return result.stdout.strip()


@pytest.mark.skipif(sys.platform in ('darwin', 'win32'), reason='always has a display')
def test_agg_without_display(tmp_path):
    assert _run(tmp_path, {}) == 'agg'


def test_backend_from_the_environment_is_kept(tmp_path):
    assert _run(tmp_path, {'MPLBACKEND': 'svg'}) == 'svg'


def test_backend_from_matplotlib_use_is_kept(tmp_path):
    assert _run(tmp_path, {}, prelude="import matplotlib\nmatplotlib.use('pdf')\n") == 'pdf'


@pytest.mark.parametrize('env, platform, headless', [
    ({}, 'linux', True),
    ({'DISPLAY': ':0'}, 'linux', False),
    ({'WAYLAND_DISPLAY': 'wayland-0'}, 'linux', False),
    ({}, 'darwin', False),
    ({}, 'win32', False),
])
def test_headless(monkeypatch, env, platform, headless):
    monkeypatch.delenv('DISPLAY', raising=False)
    monkeypatch.delenv('WAYLAND_DISPLAY', raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sys, 'platform', platform)
    assert _matplotlib._headless() is headless
