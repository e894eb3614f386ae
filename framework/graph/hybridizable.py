"""Hybridizable: a link that can run its inference as a static graph (MXNet Gluon's
``HybridBlock.hybridize``).

A model's ``predict`` prepares arrays, runs a network on them through :meth:`Hybridizable.infer`
and post-processes the outputs. ``model.hybridize()`` makes that network run as a static graph
(:func:`framework.graph.compile`); the preparation and post-processing stay as they are. A model
made of several networks that it runs separately (say, the stages of a cascade) makes each of
them a :class:`Hybridizable` and hybridizes them together: :meth:`Hybridizable.hybridize`
reaches every :class:`Hybridizable` link below the one it is called on.
"""

from __future__ import annotations

import framework
from framework.graph.compile import compile  # noqa: A004


class Hybridizable:
    """Adds :meth:`hybridize` and :meth:`infer` to a link.

    :meth:`infer` runs :meth:`hybridized_link` (the link itself unless overridden) in inference
    (``train`` off, no backpropagation), eagerly until :meth:`hybridize` is called and through
    its static graph afterwards.
    """

    _static_graph = None
    #: Whether running as a static graph pays for this link in general (tools such as the
    #: ``vision`` command hybridize by default where it does). A graph is traced per input
    #: shape, so it does not pay where the shapes seldom repeat.
    hybridize_by_default = True
    #: How many input signatures keep their graph (and its memory) once hybridized: see
    #: :class:`~framework.graph.CompiledFunction`.
    max_graphs = 8

    def hybridize(self, active: bool = True) -> None:
        """Makes :meth:`infer` (and so ``predict``) run as a static graph, here and in every
        :class:`Hybridizable` link below this one.

        The graph is traced at the first call for each input signature with the parameters as
        they are then, folded into it: call ``hybridize()`` again after changing them (training,
        loading weights). ``hybridize(False)`` goes back to running eagerly. Calling the link
        itself stays define-by-run.

        Args:
            active (bool): True to run as a static graph, False to run eagerly.
        """
        links = self.links() if hasattr(self, 'links') else (self,)
        for link in links:
            if isinstance(link, Hybridizable):
                link._static_graph = (compile(link.hybridized_link(), link.max_graphs) if active
                                      else None)

    def hybridized_link(self):
        """The link that :meth:`infer` runs (``self``; a wrapper returns what it wraps)."""
        return self

    def infer(self, *inputs):
        """Runs :meth:`hybridized_link` on ``inputs`` with ``train`` off and without
        backpropagation, as a static graph after :meth:`hybridize`.

        Returns:
            What the link returns (Variables, or a tuple, list or dict of them).
        """
        with framework.using_config('train', False), framework.no_backprop_mode():
            return (self._static_graph or self.hybridized_link())(*inputs)
