"""Write path: one pure module per stage (signals, observer, buffer, ...) and an orchestrator."""
