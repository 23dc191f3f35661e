"""Confluent's Schema Registry converters: the registry client and wire format, the shared base,
and one module per schema type."""
