# Switchboard's image: `docker build -t switchboard .` Every setting comes from the environment (README:
# Configuration); migrations run once per release with `docker run … switchboard npm run db:migrate`.

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# The lock is written by npm 11; npm 10, which Node 20 ships, reads its optional peers differently and refuses it.
RUN npm install -g npm@11 --no-audit --no-fund
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build needs the development dependencies (TypeScript, Tailwind); the image keeps only what serving needs.
RUN NODE_ENV=production npx next build \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf .next/cache

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    DATA_DIR=/app/.data \
    SHUTDOWN_DRAIN_MS=5000
# The only folders the server writes: the embedded database (when DATABASE_URL is unset) and Next.js's cache.
RUN mkdir -p /app/.data /app/.next/cache && chown node:node /app/.data /app/.next/cache
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is process 1, so SIGTERM reaches the server, which drains (SHUTDOWN_DRAIN_MS) and finishes in flight.
CMD ["node", "scripts/serve.mjs"]
USER node
# Last, as the one large layer: the app, owned by root, so the server cannot change its own code.
COPY --from=build /app /app
