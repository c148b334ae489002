"""The run: discover files, index them, find the hot path, check, suppress; plus the cache and config."""
