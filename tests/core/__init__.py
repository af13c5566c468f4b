"""Tests of the core kernels: shanten, is_win, waits, effective tiles, discards, advice."""
