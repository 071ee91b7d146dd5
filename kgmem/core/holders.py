"""Who holds a lease: a process's holder id.

Contract: :func:`new_holder` names this host and process plus a random suffix, unique per run;
both leases (consolidation's and extraction's) take their holder from it, so a log line names
the same process whichever lease it holds. Reads the host name and pid only.
"""

from __future__ import annotations

import os
import socket
import uuid


def new_holder() -> str:
    """A holder id naming this process, unique per run."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
