# Production image: Bun on the official oven/bun base, migrations then the server, as the non-root `bun` user.
# Set DATABASE_URL to your PostgreSQL; the embedded database is meant for local development.
FROM oven/bun:1.4.4-slim AS deps
WORKDIR /app
COPY package.json package-lock.json bunfig.toml ./
# The image already has Bun, so the `bun` npm package's download script is not needed; no other
# lifecycle script is needed with DATABASE_URL set.
RUN bun install --production --ignore-scripts

FROM oven/bun:1.4.4-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/.data
COPY --from=deps /app/node_modules ./node_modules
COPY package.json bunfig.toml tsconfig.json ./
COPY src ./src
COPY sql ./sql
RUN mkdir -p /app/.data && chown -R bun:bun /app/.data
USER bun
EXPOSE 3000
# Migrations are also applied by the server at start (under an advisory lock); running them first makes
# a failed migration stop the container before it takes traffic.
CMD ["sh", "-c", "bun src/cli.ts migrate && exec bun src/index.ts"]
