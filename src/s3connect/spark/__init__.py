"""The only layer importing Spark: the session, the sink and source queries, the stateful
processor, the source's data source, the dead letter queue and the commit log."""
