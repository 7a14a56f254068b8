"""tracewise on a Dask cluster: `python3 -m cluster (--scheduler ADDRESS | --local N) PATH...` (docs/cluster.md)."""
