"""Lifecycle: retention, strength and state decisions (pure), and the consolidation job."""
