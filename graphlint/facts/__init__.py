"""What a value is: tensor or host, device, dtype, 0-d, pinned; torch API tables and annotations."""
