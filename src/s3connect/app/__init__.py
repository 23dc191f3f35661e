"""What users run: the console script, the notebooks' helpers and widgets, secrets, logging."""
