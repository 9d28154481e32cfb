#!/usr/bin/env bash
# Installs what the project needs on a fresh machine: pnpm and the workspace's dependencies.
set -euo pipefail
if ! command -v pnpm >/dev/null 2>&1; then
  echo "Installing pnpm" >&2
  npm install -g pnpm@12 >/dev/null 2>&1 || npm install -g pnpm
fi
if [ "${CI:-}" = "true" ]; then
  pnpm install --frozen-lockfile --reporter=append-only
else
  pnpm install --reporter=append-only
fi
