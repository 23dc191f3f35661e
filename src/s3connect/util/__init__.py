"""Java's arithmetic, Jackson's JSON text and Joda's time formatting, as the Java connectors
behave: the bottom layer, importing nothing of the package."""
