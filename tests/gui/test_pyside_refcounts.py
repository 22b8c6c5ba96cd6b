"""Guard against the PySide6 build whose calls drop references to None until CPython aborts.

PySide6-Essentials 6.12.0 on Python 3.11 loses one reference to None on every call of a Qt
method that returns nothing; after ~10,000 calls the interpreter dies with "none_dealloc".
pyproject.toml keeps PySide6 below 6.12; this test fails if an installed build loses references.
"""

import sys

from PySide6.QtWidgets import QLabel


def test_void_qt_calls_do_not_drop_references_to_none(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(200):
        label.setText("x")
        label.setVisible(False)
    assert sys.getrefcount(None) >= before - 5
