"""Type stub of the C library module (mjfast/_core/_capi.pxi)."""

ABI_VERSION: int
CAPSULE: object
