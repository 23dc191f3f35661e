"""The source's logic, pure Python (no Spark): listing and reading objects, offsets,
destinations, the run summary."""
