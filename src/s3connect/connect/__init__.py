"""Kafka Connect's data model: schemas, records (raw and converted), logical types, schemas and
values as JSON, and the SchemaProjector."""
