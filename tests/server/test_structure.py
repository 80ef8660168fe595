"""The server's core stays in rooms a newcomer can find (issue 43): no module of
server/ over 600 lines, no class over 400; a part grown past that is split by concern,
not left to grow into the one class that kept everything."""

from __future__ import annotations

import ast
from pathlib import Path

import tavernkeep.server

SERVER = Path(tavernkeep.server.__file__).parent
MODULE_LINES = 600
CLASS_LINES = 400


def test_no_server_module_or_class_is_too_long_to_read() -> None:
    too_long = []
    for path in sorted(SERVER.rglob("*.py")):
        text = path.read_text()
        lines = len(text.splitlines())
        if lines > MODULE_LINES:
            too_long.append(f"{path.relative_to(SERVER)}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                size = node.end_lineno - node.lineno + 1
                if size > CLASS_LINES:
                    too_long.append(f"{path.relative_to(SERVER)}: class {node.name}, {size} lines")
    assert not too_long, too_long
    assert len(list(SERVER.rglob("*.py"))) > 20  # the modules were found at all
