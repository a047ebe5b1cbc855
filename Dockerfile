# syntax=docker/dockerfile:1
# svc gateway: build with pnpm in a throw-away stage, then run the `pnpm deploy` bundle
# (apps/server/dist and its production node_modules, nothing else) as the non-root `node` user.
#   docker build -t svc-gateway .
#   docker run -p 8080:8080 -p 8081:8081 -e SVC_MASTER_KEY=... -v svc-data:/data svc-gateway
# docs/operations.md "Deploying" has the rest (compose.yaml, the Helm chart).
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# JavaScript only (the image needs no type declarations); the install's own build-and-migrate
# step is skipped, the next RUN builds explicitly.
ENV SVC_SKIP_DTS=1 \
    SVC_SKIP_INSTALL_BUILD=1
WORKDIR /src
# pnpm at the version package.json pins (packageManager).
RUN corepack enable
COPY . .
RUN pnpm install --frozen-lockfile \
 && pnpm exec turbo run build --filter=@svc/server... --output-logs=errors-only \
 && pnpm --filter @svc/server deploy --prod --legacy /out

FROM ${NODE_IMAGE} AS runtime
# The operator contract's defaults (README "Configuration"), set for a container: listen on every
# interface, keep the embedded store (used when DATABASE_URL is unset) on the /data volume.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    CONTROL_PORT=8081 \
    SVC_DATA_DIR=/data
# glibc malloc settings of the gateway process: the values of scripts/malloc.env (a test keeps
# them equal; docs/operations.md "Memory budget").
ENV MALLOC_ARENA_MAX=2 \
    MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /out /app
# node's GC flags for the CPUs the container gets (its CPU quota included), as `pnpm start`
# passes them: scripts/gc-flags.sh.
COPY --from=build /src/scripts/gc-flags.sh /app/scripts/gc-flags.sh
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080 8081
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains in-flight requests and streams, flushes the ledger, closes the stores.
STOPSIGNAL SIGTERM
# The shell becomes node (exec): node is PID 1 and gets the signals, as with a plain node CMD.
CMD ["sh", "-c", "exec node $(sh scripts/gc-flags.sh) dist/main.js"]
