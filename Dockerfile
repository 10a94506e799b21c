# Production image: Bun on the official oven/bun base, migrations then the server, as the non-root `bun` user.
# Set DATABASE_URL to your PostgreSQL, and the two signing secrets (README, "Running in production"); the
# embedded database is meant for local development.

# Dependencies exactly as package-lock.json pins them (`npm ci` refuses a lock that disagrees with
# package.json), runtime ones only. Lifecycle scripts are skipped: the image already has Bun, so the `bun`
# npm package's download is not needed, and nothing else builds at install. Our own postinstall step is run
# by hand: patches/ fixes postgres.js losing a connection mid-transaction (README "Database").
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npx patch-package --error-on-fail

FROM oven/bun:1.4.4-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/.data
COPY --from=deps /app/node_modules ./node_modules
COPY package.json bunfig.toml tsconfig.json LICENSE ./
COPY src ./src
COPY sql ./sql
RUN mkdir -p /app/.data && chown -R bun:bun /app/.data
USER bun
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["bun", "-e", "const r = await fetch(`http://127.0.0.1:${process.env.PORT}/api/v1/health`); process.exit(r.ok ? 0 : 1)"]
# Job workers run inside the server by default; for scale-out, run more containers of this image with the
# command `bun src/worker.ts` (what `npm run worker` runs; README "Jobs"), same environment.
# Migrations are also applied by the server at start (under an advisory lock); running them first makes
# a failed migration stop the container before it takes traffic.
CMD ["sh", "-c", "bun src/cli.ts migrate && exec bun src/index.ts"]
