"""Tests of mjfast.dask, Parquet in and out of ``mjfast batch`` and ``mjfast batch --dask``."""
