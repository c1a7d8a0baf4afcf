FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 COMMERCE_DB=/app/data/commerce.db
WORKDIR /app

# Pillow's wheels lay text out with raqm, which loads FriBiDi from the system: without
# it, Arabic and Hebrew names are drawn unjoined and left to right (bot/ui/fonts.py)
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 commerce \
    && mkdir -p /app/data && chown commerce:commerce /app/data

USER commerce
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
