"""Running, storing, reporting and checking: run/, judging/, records/, report/, quality/, workspace/, recording/, cli/."""
