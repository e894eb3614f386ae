"""ADE20K, as distributed by the MIT Scene Parsing Benchmark."""
