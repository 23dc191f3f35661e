"""s3connect: Confluent's Kafka Connect S3 sink and S3 source on Spark Structured Streaming.

Layers, each importing only from those below it (the contracts in ``pyproject.toml``)::

    app  >  spark  >  sink | source  >  config  >  storage | kafka  >  formats | transforms
         >  convert  >  connect  >  util  >  errors
"""
