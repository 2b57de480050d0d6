"""The command line: `iwr` and its sub-commands."""
