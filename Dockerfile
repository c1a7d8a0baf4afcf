FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 COMMERCE_DB=/app/data/commerce.db
WORKDIR /app

# Pillow's wheels lay text out with raqm, which loads FriBiDi from the system: without
# it, Arabic and Hebrew names are drawn unjoined and left to right (bot/ui/fonts.py)
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

# every dependency at the version constraints.txt pins (scripts/pin makes it; scripts/test
# and so CI install with the same file)
COPY pyproject.toml README.md constraints.txt ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir --constraint constraints.txt . \
    && useradd --create-home --uid 10001 commerce \
    && mkdir -p /app/data/backups && chown -R commerce:commerce /app/data

USER commerce
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
