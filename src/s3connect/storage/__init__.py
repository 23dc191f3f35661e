"""Object storage: the Storage protocol, S3, a local folder, and object naming."""
