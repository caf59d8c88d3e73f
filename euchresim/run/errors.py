"""The runner's one error type, apart from the runner so a backend can raise it without importing the runner."""


class SimError(RuntimeError):
    """A failure inside a run: an illegal action from a policy, a bad resume, a backend that cannot start."""
