# The sandbox as a service container: `docker build -t commerce-sandbox . && docker run -p 4010:4010 commerce-sandbox`
# (released images: `docker run -p 4010:4010 ghcr.io/commerce-operations/sandbox`).
# The image is the package: the first stage packs the tarball `npm publish` would publish, the second installs that
# tarball as a user does, so it runs the same files, the bundled patched validator included, with no install script.
# Node 24: the current LTS (package.json engines: ^22.13 || ^24 || >=26).
FROM node:24-bookworm-slim AS pack
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: no dependency's install script is needed (esbuild's binary comes as an optional dependency); the
# validator's patch is applied by `prepack` below, before the tarball bundles it.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json openapi.yaml README.md LICENSE ./
COPY patches ./patches
COPY src ./src
COPY fixtures ./fixtures
COPY bin ./bin
COPY docs ./docs
RUN npm pack --pack-destination /pack

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4010 DATA_FILE=/data/sandbox.json
WORKDIR /app
COPY --from=pack /pack /pack
RUN npm install --no-save --omit=dev --ignore-scripts --no-audit --no-fund /pack/commerce-operations-sandbox-*.tgz \
  && rm -rf /pack /root/.npm
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/_sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The installed package's bin, as `npx commerce-operations-sandbox` runs it: one process, node as PID 1, which stops
# on SIGTERM (docker stop) after flushing the store and freeing its lock.
CMD ["node", "node_modules/commerce-operations-sandbox/bin/commerce-operations-sandbox.js"]
