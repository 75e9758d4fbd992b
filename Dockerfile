# One image per service, chosen with the SERVICE build arg:
#   docker build --build-arg SERVICE=data-plane -t raffle/data-plane .
#   docker build --build-arg SERVICE=management -t raffle/management .
#   docker build --build-arg SERVICE=webhook-dispatcher -t raffle/webhook-dispatcher .
#   docker build --build-arg SERVICE=console -t raffle/console .
# The console's image serves its built app (services/console/dist/public, its STATIC_DIR by
# default) and proxies the APIs to MANAGEMENT_URL and DATA_PLANE_URL.
# The same image applies database migrations when run with
#   node node_modules/@raffle/db/dist/cli/migrate.js
# (see the `migrate` service in docker-compose.yml and infra/k8s/setup/migrate-job.yaml), and the
# dispatcher's image creates the JetStream stream and consumer with
#   node dist/cli/setup-stream.js
# (infra/k8s/setup/jetstream-setup-job.yaml).

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
ENV CI=true \
    TURBO_TELEMETRY_DISABLED=1 \
    DO_NOT_TRACK=1
RUN npm i -g pnpm@10.34.8
WORKDIR /repo

# `pnpm fetch` reads only the lockfile (plus workspace settings), so this layer stays cached
# until a dependency changes, whatever else is edited.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
# The patched postgres.js (docs/decisions/0012): the lockfile names the patch by its hash.
COPY patches ./patches
RUN pnpm fetch

COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm build

FROM build AS deploy
ARG SERVICE
# Production dependencies only, from the lockfile alone: a fresh virtual store holding what the
# workspace's packages need at run time, installed offline from the store `pnpm fetch` filled.
# (`pnpm deploy --legacy` resolved versions again against the registry; its lockfile-based mode
# needs inject-workspace-packages, which would change how this workspace links its packages.)
# Every service's dist stays; the image runs the one SERVICE names. The console has no database,
# so its image is not one to run migrations from.
RUN case "${SERVICE}" in \
      console|data-plane|management|webhook-dispatcher) ;; \
      *) echo "SERVICE must be console, data-plane, management or webhook-dispatcher (got '${SERVICE}')" >&2; exit 1 ;; \
    esac \
 && rm -rf node_modules packages/*/node_modules services/*/node_modules bench/node_modules \
 && pnpm install --prod --frozen-lockfile --offline \
 && test -f "services/${SERVICE}/dist/server.js" \
 && { [ "${SERVICE}" = console ] || test -f "services/${SERVICE}/node_modules/@raffle/db/dist/cli/migrate.js"; } \
 && test -d packages/db/migrations \
 && test -f services/webhook-dispatcher/dist/cli/setup-stream.js \
 && test -f services/console/dist/public/index.html

FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
LABEL org.opencontainers.image.title="raffle-${SERVICE}"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
# Owned by root: the `node` user can read the app but not change it. The workspace keeps its
# layout (packages are linked from services/*/node_modules), so the service runs from its folder.
COPY --from=deploy /repo /app
WORKDIR /app/services/${SERVICE}
USER node
EXPOSE 3000
# Slim images have no curl; Node 20's global fetch does the probe.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js"]
