"""What runs leave behind: result records, the run database, statistics over results."""
