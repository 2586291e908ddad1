# The sandbox as a service container: `docker build -t commerce-sandbox . && docker run -p 4010:4010 commerce-sandbox`
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json openapi.yaml ./
COPY src ./src
COPY fixtures ./fixtures
# Build, drop dev dependencies, and keep the contract's parsed JSON copy (node_modules/.cache) so the non-root
# runtime never has to parse the YAML at start-up.
RUN npm run build && npm prune --omit=dev \
  && node -e "import('./dist/src/contract/load-contract.js').then((m) => m.loadContract())"

FROM node:22-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4010 DATA_FILE=/data/sandbox.json
WORKDIR /app
COPY --from=build /app/package.json /app/openapi.yaml ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/fixtures ./fixtures
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||4010)+'/_sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/server.js"]
