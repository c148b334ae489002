"""graphlint's Language Server (`graphlint server`); docs/editors.md says how to plug it into an editor.

pygls comes with the `lsp` extra (`pip install "torch-graphlint[lsp]"`). Nothing in the linter, the
pre-commit hook or the flake8 plugin imports this package, so a lint-only install never pays for it.
"""

from __future__ import annotations

LSP_EXTRA = 'pip install "torch-graphlint[lsp]"'


def serve() -> int:
    """Run the server on stdin/stdout until the client says exit. ImportError names the missing extra."""
    try:
        from graphlint.lsp.server import serve as run
    except ImportError as exc:
        package = (exc.name or "").split(".")[0]
        if package not in ("pygls", "lsprotocol"):
            raise
        raise ImportError(f"graphlint server needs pygls ({package} is not installed): {LSP_EXTRA}") from None
    return run()
