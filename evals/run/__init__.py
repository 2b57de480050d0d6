"""Running many tasks: the coder registry, one task's attempt, the local and Ray executors, logs."""
