"""The static HTML report of runs: leaderboard, plots, a page per task."""
