# Databricks notebook source
# MAGIC %md
# MAGIC # S3 sink: Kafka → Amazon S3
# MAGIC
# MAGIC Reads Kafka topics with Spark Structured Streaming and writes them to S3 exactly as
# MAGIC Confluent's S3 sink connector does: same config keys, same object names
# MAGIC (`topics/<topic>/<encodedPartition>/<topic>+<partition>+<startOffset>.<ext>`), same
# MAGIC rotation (`flush.size`, `rotate.interval.ms`, `rotate.schedule.interval.ms`) and formats
# MAGIC (Avro, JSON, Parquet, ByteArray).
# MAGIC
# MAGIC **How to use it**
# MAGIC 1. Paste a whole Kafka Connect S3 sink config (JSON) into `connector.config`, or fill the
# MAGIC    widgets; a non-empty widget overrides the same key of the config.
# MAGIC 2. Set `checkpoint.location`: it holds the Kafka offsets *and* the records of files not yet
# MAGIC    rotated, so a restart resumes exactly where the sink stopped.
# MAGIC 3. `trigger=availableNow` processes what is in Kafka and stops with a summary; an interval
# MAGIC    (e.g. `30 seconds`) runs continuously.
# MAGIC
# MAGIC Credentials never go in widgets: on Databricks use the cluster's instance profile or a
# MAGIC secret scope; locally, environment variables or boto3's credential chain.

# COMMAND ----------

from s3connect.app.logs import configure_logging
from s3connect.app.secrets import connector_secrets, secret_lookup
from s3connect.app.sink_notebook import (
    declare_sink_widgets,
    show_effective_config,
    show_sink_result,
    sink_config_from_widgets,
)
from s3connect.app.widgets import notebook_widgets

configure_logging()
widgets = notebook_widgets(globals())
declare_sink_widgets(widgets)

# COMMAND ----------

# MAGIC %md
# MAGIC ## Effective config (secrets masked)

# COMMAND ----------

dbutils = globals().get("dbutils")
config = sink_config_from_widgets(widgets, connector_secrets(dbutils), secret_lookup(dbutils))
show_effective_config(config)

# COMMAND ----------

# MAGIC %md
# MAGIC ## Run the sink
# MAGIC Progress (records, objects, bytes, lag) is printed per micro-batch. A failure ends with
# MAGIC one message: what failed, where, what to change, and the log file with the whole trace
# MAGIC (the `verbose` widget prints Spark's own lines too).

# COMMAND ----------

from s3connect.app.notebook_run import run_in_notebook  # noqa: E402
from s3connect.spark.sink_query import run_sink  # noqa: E402

summary = run_in_notebook(
    "sink", lambda spark: run_sink(config, spark), verbose=widgets.get("verbose") == "true"
)

# COMMAND ----------

# MAGIC %md
# MAGIC ## Records/s and lag per micro-batch, the latest commit-log and dead-letter rows

# COMMAND ----------

from s3connect.spark.session import get_spark  # noqa: E402

show_sink_result(get_spark(), config, summary, globals().get("display"))
