"""Connector configs: parsing (JSON, .properties), validation and masking; the sink's and the
source's configs."""
