# Production image for the web server, the Celery worker and Celery beat (see docker-compose.yml).

# The pages' scripts bundled by esbuild (scripts/build_scripts.mjs), in a stage of their own: node stays
# out of the image, only static/dist/ comes across.
FROM node:20-slim AS scripts
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY scripts/build_scripts.mjs scripts/
COPY static static
RUN node scripts/build_scripts.mjs

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=dipserver.config.settings.production \
    DIPSERVER_VAR_DIR=/app/var \
    PYTHONPATH=/app

WORKDIR /app

# Dependencies only, first, so code changes do not reinstall them. The code itself runs from /app (on
# PYTHONPATH) rather than site-packages, because settings find templates/ and static/ beside it.
COPY pyproject.toml README.md ./
COPY dipserver/__init__.py dipserver/__init__.py
RUN pip install ".[native]" && pip uninstall -y dipserver

COPY . .
COPY --from=scripts /app/static/dist static/dist
# The engine's hot modules compiled with mypyc (dipserver/native.py); the C compiler is there for the build
# only. A failed build would leave the engine running from its sources: here it fails the image instead.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && python -c 'import sys; from dipserver import native; sys.exit(native.build())' \
    && python -c 'import sys; from dipserver import native; sys.exit(not native.up_to_date())' \
    && rm -rf var/native-build \
    && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/*
# Bytecode for the code in /app: PYTHONDONTWRITEBYTECODE keeps Python from writing it at run time, so
# without this step every process (each engine command, each worker) compiles every module it imports.
RUN python -m compileall -q dipserver \
    && mkdir -p /app/var \
    && SECRET_KEY=collectstatic-only-build-time-key-0123456789abcdef ALLOWED_HOSTS=build \
       python manage.py collectstatic --noinput \
    && useradd --system --home-dir /app dipserver \
    && chown -R dipserver /app/var

USER dipserver
EXPOSE 8000
# Bind address, workers and logs: dipserver/config/gunicorn.py, which the benchmarks run too.
CMD ["gunicorn", "-c", "dipserver/config/gunicorn.py", "dipserver.config.wsgi:application"]
