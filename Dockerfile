# pgload's container image: the package's files and its production dependencies on a Node.js
# base, run as a non-root user, `pgload` as the entrypoint.
#
#   docker build -t REGISTRY/pgload:VERSION .
#   docker run --rm REGISTRY/pgload:VERSION run tpcb -T 10s          # the embedded server, for a try
#   docker run --rm -e PGPASSWORD REGISTRY/pgload:VERSION run tpcb --url postgres://bench@db:5432/bench
#
# BASE is any image with Node.js 20 or later, /bin/sh and a non-root user `node` (uid 1000), as
# the official node images have; .ci/image builds one locally where no registry is reachable.
ARG BASE=node:22-bookworm-slim

FROM ${BASE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# production dependencies only, exactly as locked; the embedded server's binaries come with them
# (node, not mkdir and ln: a base needs nothing but Node.js, npm and /bin/sh)
RUN npm ci --omit=dev --no-audit --no-fund --no-update-notifier && npm cache clean --force --loglevel=error && \
    node -e "const fs = require('fs'); fs.mkdirSync('/out/bin', { recursive: true }); fs.mkdirSync('/out/results'); fs.symlinkSync('/app/bin/pgload.js', '/out/bin/pgload')"

FROM ${BASE}
ENV NODE_ENV=production \
    PGLOAD_HOME=/home/node/.cache/pgload
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json README.md ./
COPY bin ./bin
COPY lib ./lib
COPY workloads ./workloads
COPY reports ./reports
COPY --from=deps /out/bin/ /usr/local/bin/
# results go to the working directory by default: mount a volume on /results
COPY --from=deps --chown=node:node /out/results /results
WORKDIR /results
USER node
ENTRYPOINT ["pgload"]
CMD ["--help"]
