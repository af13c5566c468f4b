"""Tests of the tile notation: parsing and formatting hands, tiles and melds."""
