"""One BLAS thread for a short piece of small linear algebra (the bots' move lists, a photo's reading)."""

from __future__ import annotations

import os
from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache


@lru_cache(maxsize=1)
def _threadpools():  # -> threadpoolctl.ThreadpoolController
    """Imported on first use: importing threadpoolctl sets an OpenMP variable in the environment, which a program
    that merely imports doodle should not get."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread() -> AbstractContextManager:
    """While it lasts, the BLAS libraries (numpy's, OpenCV's) use one thread, unless the user chose a number
    (OPENBLAS_NUM_THREADS or OMP_NUM_THREADS). Small matrices are multiplied and solved fastest by one thread;
    BLAS threads that spin while other processes want the cores made a bots' game many times slower, and the
    reader's page field twice as slow on a busy machine. Scoped, so the rest of the program keeps its own
    setting."""
    if "OPENBLAS_NUM_THREADS" in os.environ or "OMP_NUM_THREADS" in os.environ:
        return nullcontext()
    return _threadpools().limit(limits=1, user_api="blas")
