# The sandbox as a service container: `docker build -t commerce-sandbox . && docker run -p 4010:4010 commerce-sandbox`
# Node 24: the current LTS (package.json engines: ^22.13 || ^24 || >=26).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: no dependency's install script is needed (esbuild's binary comes as an optional dependency).
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json openapi.yaml ./
COPY src ./src
COPY fixtures ./fixtures
COPY bin ./bin
# The ESM build in dist/src (what the package ships), then the dev dependencies go.
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4010 DATA_FILE=/data/sandbox.json
WORKDIR /app
COPY --from=build /app/package.json /app/openapi.yaml ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/fixtures ./fixtures
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/_sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The bin, as `npx commerce-operations-sandbox` and `npm start` run it: one process, node as PID 1, which stops on
# SIGTERM (docker stop) after flushing the store and freeing its lock.
CMD ["node", "bin/commerce-operations-sandbox.js"]
