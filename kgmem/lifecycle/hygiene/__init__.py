"""The graph's upkeep: ``rules`` (pure) plans the entities step (entity merges, edge-confidence
decay, relation pruning); ``steps`` runs the entities step and the centrality step (PageRank
written back), both on throw-away GDS projections.
"""
