"""s3connect."""
