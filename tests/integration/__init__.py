"""Integration tests: the built core under the MPI launcher (see conftest.py)."""
