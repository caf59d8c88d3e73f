"""A ``@user_policy`` that does not compile for the policy signature: loading this module is refused in one line."""
from euchresim.policies import user_policy


@user_policy
def wrong_arguments(st, hand):
    return 0
