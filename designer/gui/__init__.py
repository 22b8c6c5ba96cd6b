"""The designer window: the only package that imports PySide6.

Work-around for a PySide6 6.12 defect on Python 3.11: some calls (a Qt method that returns
nothing, a signal carrying a bool) take one reference from a shared singleton (``None``,
``True``, ``False``) without giving it back, so after enough calls CPython aborts with
"none_dealloc: deallocating None" (or "bool_dealloc"). Python 3.12+ made these objects
immortal (PEP 683) and is not affected; on older versions we give them a reference count no
session can exhaust. Remove this once PySide6 is fixed or Python 3.11 is dropped.
"""

import sys


def _immortalize_singletons() -> None:
    import ctypes
    for obj in (None, True, False, Ellipsis, NotImplemented, (), "", *range(-5, 257)):
        refcnt = ctypes.c_ssize_t.from_address(id(obj))
        if refcnt.value < 1 << 40:
            refcnt.value += 1 << 50


if sys.version_info < (3, 12) and sys.implementation.name == "cpython":
    _immortalize_singletons()
