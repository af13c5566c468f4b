"""Tests of settlement: the draw, the ledger of a hand and its log."""
