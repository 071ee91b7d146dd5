"""What every benchmark shares: ``harness`` (a private local Neo4j + GDS, the machine, the run
header, ``write_result``), ``paths`` (where the data is read and the results are written),
``progress`` (the progress bar) and ``synth`` (stores of N memories built from real LoCoMo text).
"""
