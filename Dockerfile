# syntax=docker/dockerfile:1
# The production image (docs/operations.md "Container image"; decision 0023's dist/): Node 24 LTS,
# only dist/ and its production dependencies, a non-root user, a health check.
#
#   docker build -t member-sso .                          PostgreSQL deployments (no better-sqlite3)
#   docker build --build-arg SQLITE=1 -t member-sso .     also better-sqlite3, for DATABASE_URL=sqlite:…
#
# scripts/production-smoke.sh runs these stages' commands on a fresh clone where no Docker daemon is.

# 1. The build: the SPA, the operator console and the server bundle into dist/, with its package.json,
#    lock and SBOM. No install script runs (vite, esbuild and tsx need none), so no compiler is needed.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
RUN npm run build

# 2. The release: dist/ and `npm ci --omit=dev` there (scripts/release-install.sh). With SQLITE=1
#    better-sqlite3 is added and its native module built: the compiler stays in this stage.
FROM node:24-bookworm-slim AS release
ARG SQLITE=0
RUN if [ "$SQLITE" = 1 ]; then apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*; fi
WORKDIR /release
COPY --from=build /src/scripts/release-install.sh /usr/local/bin/release-install.sh
COPY --from=build /src/dist/ ./
RUN SQLITE="$SQLITE" JOBS=max sh /usr/local/bin/release-install.sh /release

# 3. The runtime: the release alone, owned by root and read-only to the service's user.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=release /release/ ./
# A SQLite file (SQLITE=1 images, DATABASE_URL=sqlite:/var/lib/sso/sso.db) lives on a volume the user may write.
RUN mkdir -p /var/lib/sso && chown node:node /var/lib/sso
USER node
# 8080: the service. 9464: the metrics of the management listener (docs/operations.md "Metrics"; it binds loopback unless configured).
EXPOSE 8080 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "server/main.js"]
