"""From a batch's gated facts to the rows of one write transaction. ``planner`` reads the
graph (neighbours, entity candidates, open boxes) and never writes; ``reconcile`` gates the batch
in the order things were said; ``rows``, ``entity_rows`` and ``box_rows`` decide the rows into
the plan ``records``; ``scoring`` and ``resolution`` supply the scores and resolved entities.
"""
