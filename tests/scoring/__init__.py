"""Tests of fan scoring: the rules, the single-hand scorer and the batch fan kernels."""
