"""A user's module that fails to load."""
raise RuntimeError("this module is broken on purpose")
