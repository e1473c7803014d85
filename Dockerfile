# graphwiki's processes for docker-compose.yml: the query server (`graphwiki serve`) and the
# Dagster UI (`dg dev`), beside the neo4j service; with the `k8s` extra, the same image is the
# code location, webserver and daemon of the cluster profile and of the Helm chart (Postgres
# instance storage, the K8s run launcher and executor). PyTorch comes from its CPU index: the
# default wheel pulls several GB of CUDA libraries a CPU host never uses.
FROM python:3.11-slim
WORKDIR /app
RUN pip install --no-cache-dir torch --index-url https://download.pytorch.org/whl/cpu
COPY pyproject.toml README.md workspace.yaml ./
COPY graphwiki_assets ./graphwiki_assets
RUN pip install --no-cache-dir ".[k8s]"
ENV GRAPHWIKI_HOME=/data/graphwiki GRAPHWIKI_SOURCES_DIR=/data/sources DAGSTER_HOME=/data/dagster
RUN mkdir -p /data/graphwiki /data/sources /data/dagster
EXPOSE 8765 3000 4000
CMD ["graphwiki", "serve", "--host", "0.0.0.0", "--port", "8765"]
