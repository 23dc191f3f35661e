"""The sink's logic, pure Python (no Spark): partitioners, rotation, the per topic-partition writer
and its context, dead letters, open-file state, the shuffle-free task and its output rows."""
