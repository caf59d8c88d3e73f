"""numba kernels only: no I/O, no pandas, no Rules objects (see STYLE.md)."""
