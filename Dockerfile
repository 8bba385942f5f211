# The standalone mock with its docs: docker build -t clm-mock . && docker run -p 8443:8443 -p 8080:8080 clm-mock
ARG NODE_VERSION=22

# Build: every dev tool, to render the docs and pack the mock exactly as npm would ship it.
FROM node:${NODE_VERSION}-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN CLM_REPORTS_DIR=/tmp/site npm run docs \
  && npm pack --pack-destination /tmp \
  && mv /tmp/clm-conformance-*.tgz /tmp/clm-mock.tgz

# Run: the packed mock and its runtime dependencies only, as the unprivileged node user.
FROM node:${NODE_VERSION}-slim
ENV NODE_ENV=production
WORKDIR /app
RUN chown node:node /app
USER node
COPY --from=build --chown=node:node /tmp/clm-mock.tgz /tmp/clm-mock.tgz
# The mock caches the bundled contract inside its own folder: the node user must own it.
RUN echo '{ "name": "clm-mock-image", "private": true }' > package.json \
  && npm install /tmp/clm-mock.tgz --omit=dev --no-audit --no-fund \
  && npm cache clean --force \
  && rm /tmp/clm-mock.tgz
COPY --from=build --chown=node:node /tmp/site/docs /app/docs
EXPOSE 8443 8080
# The docs page answers 200 without a key; the contract's endpoints all want one.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/docs/').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Options given to docker run are added to these (a later --port or --log wins).
ENTRYPOINT ["/app/node_modules/.bin/clm-mock", \
  "--host", "0.0.0.0", "--port", "8443", "--http-port", "8080", "--docs", "/app/docs", "--log", "-"]
