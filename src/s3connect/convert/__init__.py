"""Converters: Kafka record bytes to Connect data and back (JSON, String, ByteArray; the Schema
Registry's Avro, JSON Schema and Protobuf in :mod:`.registry`), made by one factory."""
