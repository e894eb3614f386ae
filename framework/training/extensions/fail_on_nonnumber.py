"""FailOnNonNumber: stops the training when a parameter (or gradient) is not finite."""

from __future__ import annotations

from framework.training import extension


class FailOnNonNumber(extension.Extension):
    """Raises when a parameter of a target link of the updater's optimizers holds NaN or an
    infinity, so that a diverged training stops at once.

    Args:
        check_grad (bool): whether to check the gradients too.
    """

    def __init__(self, *, check_grad: bool = True):
        self._check_grad = check_grad

    def __call__(self, trainer) -> None:
        """Raises:
            RuntimeError: naming the optimizer and the parameter that diverged.
        """
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            for path, param in optimizer.target.namedparams(include_uninit=False):
                xp = param.xp
                if not bool(xp.isfinite(param.array).all()):
                    raise RuntimeError(f"FailOnNonNumber: the parameter {path} of the target of "
                                       f"optimizer '{name}' diverged (it holds NaN or inf); "
                                       'the training is stopped')
                if (self._check_grad and param.grad is not None
                        and not bool(xp.isfinite(param.grad).all())):
                    raise RuntimeError(f"FailOnNonNumber: the gradient of {path} in optimizer "
                                       f"'{name}' diverged (it holds NaN or inf); the training "
                                       'is stopped')
