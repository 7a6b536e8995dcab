"""The one-sided and nonblocking suites under both MPIs (see conftest.py)."""
