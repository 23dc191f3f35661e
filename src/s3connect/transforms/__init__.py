"""Kafka Connect's single message transforms and predicates, in pure Python.

Build a chain from a connector config's flat ``transforms`` / ``predicates`` keys (class names
exactly as Kafka spells them) and apply it record by record::

    chain = build_chain(config)          # ConfigError listing every problem
    record = chain.apply(record)         # None: dropped; TransformationError: failed
    chain.renames_topics, chain.deterministic

Modules: one per transform family (``cast``, ``extract``, ``flatten``, ``headers``,
``insert_field``, ``mask_field``, ``replace_field``, ``schema_metadata``,
``timestamp_converter``, ``routers``, ``extract_topic``, ``filter``), ``predicates``, the
``registry`` of class names and the ``chain``; beneath them Kafka's helpers (``field_path``,
``structs``, ``values`` and ``value_parser`` for Connect's ``Values``, ``simple_date_format``).
``regex_router`` keeps the source config's ``RegexRoute``.
"""
