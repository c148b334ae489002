"""Phase 2: the walk over hot functions and the Context that rules ask."""
