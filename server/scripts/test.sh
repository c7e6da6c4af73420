#!/usr/bin/env bash
# Server tests on PGlite always, and on PostgreSQL too when TEST_DATABASE_URL is set: one vitest run
# with a project per database (vitest.config.ts), with coverage and its floor.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== server tests on PGlite and on PostgreSQL (TEST_DATABASE_URL is set)"
else
  echo "== server tests on PGlite; on PostgreSQL: SKIPPED (set TEST_DATABASE_URL to run them too)"
fi
exec npx vitest run --coverage
