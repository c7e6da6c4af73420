#!/usr/bin/env bash
# Server tests run on PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== server tests on PGlite"
TEST_DB=pglite npx vitest run --coverage
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== server tests on PostgreSQL (TEST_DATABASE_URL is set)"
  TEST_DB=postgres npx vitest run
else
  echo "== server tests on PostgreSQL: SKIPPED (set TEST_DATABASE_URL to run them)"
fi
