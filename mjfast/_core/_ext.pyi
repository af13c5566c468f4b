"""Type stub of the one extension module (mjfast/_core/_ext.pyx): its names are typed where the
package imports them, in the stubs of its areas (_capi.pyi, _kernels.pyi, ...)."""

from typing import Any

def __getattr__(name: str) -> Any: ...
