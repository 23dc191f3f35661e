"""File formats: one module per format, holding its writer and its reader (Confluent's
``RecordWriterProvider`` and the source's reading side)."""
