"""Outside agents: a prepared workspace, and judging what an agent left in it."""
