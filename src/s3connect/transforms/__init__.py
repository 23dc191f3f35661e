"""Kafka Connect's single message transforms (RegexRouter, for the source's topic renaming)."""
