"""Kafka clients beside Spark's: admin calls (topic metadata and creation)."""
