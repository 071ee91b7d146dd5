"""What a new memory is tied to, as pure functions over records: links to other memories
(``linking``), the entities its mentions name (``entities``), its session box and the trace
that threads sealed boxes (``boxes``, ``traces``), and synaptic tags (``tagging``).
"""
