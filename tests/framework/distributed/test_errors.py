"""The errors of framework.distributed that need no MPI job: a communicator name that does not
exist, mpi4py missing, CuPy missing for 'pure_nccl'."""

from __future__ import annotations

import sys

import pytest

from framework import backend, distributed


def test_an_unknown_communicator_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="communicator_name must be one of 'naive', 'flat', "
                                         "'non_cuda_aware', 'pure_nccl', but got 'hierarchical'"):
        distributed.create_communicator('hierarchical')


def test_without_mpi4py_the_error_names_the_dist_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, 'mpi4py', None)
    with pytest.raises(ImportError, match=r"needs mpi4py.*pip install '\.\[dist\]'"):
        distributed.create_communicator('flat')


@pytest.mark.skipif(backend.is_cupy_available(), reason='CuPy is installed')
def test_pure_nccl_without_cupy_names_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, 'cupy', None)
    with pytest.raises(RuntimeError, match=r"needs CuPy with NCCL.*pip install '\.\[gpu\]'"):
        distributed.create_communicator('pure_nccl', mpi_comm=object())
