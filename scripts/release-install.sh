#!/bin/sh
# Installs a built release's npm packages in the directory given (default: here), the one way both
# the Dockerfile's runtime image and scripts/production-smoke.sh do it (docs/operations.md
# "Container image"): `npm ci --omit=dev` from dist/package.json and its lock, the server's runtime
# dependencies only. better-sqlite3, an optional peer, is installed only with SQLITE=1 (a deployment
# on a SQLite file; `--build-arg SQLITE=1`), at the version dist/package.json's optionalPackages pins: its native module
# is built here unless a prebuilt one is found. NPM_FLAGS adds options to both commands
# (e.g. --prefer-offline). POSIX sh: the runtime image has no bash.
set -eu
cd "${1:-.}"
# shellcheck disable=SC2086 # NPM_FLAGS is a list of options
npm ci --omit=dev --no-audit --no-fund --loglevel=error ${NPM_FLAGS:-}
if [ "${SQLITE:-0}" = 1 ]; then
  version=$(node -p "require('./package.json').optionalPackages['better-sqlite3']")
  # shellcheck disable=SC2086
  npm install --omit=dev --no-save --no-audit --no-fund --loglevel=error ${NPM_FLAGS:-} "better-sqlite3@$version"
fi
