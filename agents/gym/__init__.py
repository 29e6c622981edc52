"""Single-agent Gymnasium envs (documented below)."""
