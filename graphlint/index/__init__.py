"""Phase 1: the per-file index of every module, name resolution across files and the hot path."""
