# PyInstaller runtime hook of Hexfray's bundle (packaging/hexfray.spec), run before
# PyInstaller's own (the PySide6 hook imports Qt): no cyclic garbage collection while
# the program starts. main.py turns it back on once the window and its panes are up,
# or at once for the command-line modes (docs/packaging.md).
import gc

gc.disable()
