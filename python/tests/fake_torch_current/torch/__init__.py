"""A stand-in for a current PyTorch (see ../README.md)."""
__version__ = "0.0.0+fake.current"
