"""Type stub of the C library module (mjfast/_core/_capi.pyx)."""

ABI_VERSION: int
CAPSULE: object
SHARED: object
