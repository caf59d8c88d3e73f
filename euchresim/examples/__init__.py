"""Worked examples of users' own policies (docs/policies.md, "Your own policy")."""
