"""The designer window: the only package that imports PySide6.

Work-around for a PySide6 6.12 defect on Python 3.11: each call of a Qt method that returns
nothing takes one reference from ``None`` without giving it back, so after some ten thousand
calls CPython aborts with "none_dealloc: deallocating None". Python 3.12+ made ``None``
immortal (PEP 683) and is not affected; on older versions we give ``None`` a reference count
no session can exhaust. Remove this once PySide6 is fixed or Python 3.11 is dropped.
"""

import sys

if sys.version_info < (3, 12) and sys.implementation.name == "cpython":
    import ctypes

    _refcnt = ctypes.c_ssize_t.from_address(id(None))
    if _refcnt.value < 1 << 40:
        _refcnt.value += 1 << 50
