"""One BLAS thread for a short piece of small linear algebra (the bots' move lists, a photo's reading)."""

from __future__ import annotations

import os
import sys
from contextlib import AbstractContextManager, nullcontext
from functools import lru_cache


@lru_cache(maxsize=2)
def _threadpools(opencv_loaded: bool):  # -> threadpoolctl.ThreadpoolController
    """The BLAS libraries loaded, found once, and again once OpenCV is loaded: it brings an OpenBLAS of its own,
    which a controller made before it (by a bot's move) would leave at its threads. Imported on first use:
    importing threadpoolctl sets an OpenMP variable in the environment, which a program that merely imports
    doodle should not get."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread() -> AbstractContextManager:
    """While it lasts, the BLAS libraries (numpy's, OpenCV's) use one thread, unless the user chose a number
    (OPENBLAS_NUM_THREADS or OMP_NUM_THREADS). Small matrices are multiplied and solved fastest by one thread;
    BLAS threads that spin while other processes want the cores made a bots' game many times slower, and a photo's
    reading several times slower on a busy machine. Scoped, so the rest of the program keeps its own setting. (The
    limit is the process's: photos are read one at a time in a process, the table's in worker processes.)"""
    if "OPENBLAS_NUM_THREADS" in os.environ or "OMP_NUM_THREADS" in os.environ:
        return nullcontext()
    return _threadpools("cv2" in sys.modules).limit(limits=1, user_api="blas")
