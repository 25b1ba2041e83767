"""The Braket stand-in used by byoc's tests (see tests/topology/README.md)."""
