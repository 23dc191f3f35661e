# Databricks notebook source
# MAGIC %md
# MAGIC # S3 source: Amazon S3 → Kafka
# MAGIC
# MAGIC Reads the objects Confluent's S3 sink (or this project's sink) wrote and publishes their
# MAGIC records back to Kafka, as Confluent's S3 source connector does: same config keys as the
# MAGIC sink, each record to the **same partition number**, in the **original order** per
# MAGIC topic-partition (objects by start offset, records in file order).
# MAGIC
# MAGIC **How to use it**
# MAGIC 1. Paste the sink's config (JSON) into `connector.config`; add `value.converter` for how
# MAGIC    records are serialized back (the sink's converter gives the original bytes).
# MAGIC 2. Topics are renamed to avoid a feedback loop with the sink: `copy_of_<topic>` by
# MAGIC    default, or Kafka Connect's RegexRouter keys (`transforms.*`). Missing destination
# MAGIC    topics are created with the source's partition count; a destination with fewer
# MAGIC    partitions fails before anything is published.
# MAGIC 3. `checkpoint.location` keeps how far each source topic-partition was published (down
# MAGIC    to the record inside an object): a restart resumes there (at-least-once).
# MAGIC 4. `trigger=availableNow` publishes what is in S3 and stops with a summary; an interval
# MAGIC    keeps polling and picks up new objects, partitions and time folders.
# MAGIC
# MAGIC With the FieldPartitioner the records of one Kafka partition are spread over folders:
# MAGIC they are published by start offset of their object, which does not restore the original
# MAGIC interleaving (as with Confluent's source).

# COMMAND ----------

from s3connect.app.logs import configure_logging
from s3connect.app.secrets import connector_secrets, secret_lookup
from s3connect.app.source_notebook import (
    declare_source_widgets,
    show_source_config,
    source_config_from_widgets,
)
from s3connect.app.widgets import notebook_widgets

configure_logging()
widgets = notebook_widgets(globals())
declare_source_widgets(widgets)

# COMMAND ----------

# MAGIC %md
# MAGIC ## Effective config (secrets masked)

# COMMAND ----------

dbutils = globals().get("dbutils")
config = source_config_from_widgets(widgets, connector_secrets(dbutils), secret_lookup(dbutils))
show_source_config(config)

# COMMAND ----------

# MAGIC %md
# MAGIC ## Run the source
# MAGIC Progress (records per batch) is printed per micro-batch, then records per destination
# MAGIC topic-partition.

# COMMAND ----------

from s3connect.app.notebook_run import run_in_notebook  # noqa: E402
from s3connect.spark.source_query import run_source  # noqa: E402

summary = run_in_notebook(
    "source", lambda spark: run_source(config, spark), verbose=widgets.get("verbose") == "true"
)

# COMMAND ----------

# MAGIC %md
# MAGIC ## Records/s per micro-batch

# COMMAND ----------

from s3connect.app.source_notebook import show_source_result  # noqa: E402

show_source_result(summary, globals().get("display"))
