#!/usr/bin/env bash
# Every benchmark (bench/*.ts) at its smoke size (--smoke), one after another; the first failure
# stops the run. `npm test` runs it after the journeys, which built the contracts and the web app.
# A benchmark whose PostgreSQL or Chromium is missing says so and is skipped (fails with CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build --silent -w contracts
if [ ! -f web/dist/index.html ]; then npm run build -w web; fi
cd bench
started=$SECONDS
for bench in *.ts; do
  printf '\n== bench %s --smoke\n' "$bench"
  at=$SECONDS
  node --import tsx "$bench" --smoke
  printf '== bench %s --smoke: %d s\n' "$bench" $((SECONDS - at))
done
printf '\n== benchmarks smoke run: %d s\n' $((SECONDS - started))
