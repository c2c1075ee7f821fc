# Sourced by ops/serve and ops/test: make .venv if missing, (re)install when
# pyproject.toml or the lock file (constraints.txt, made by ops/lock) changed
# since the last install. Every install is pinned by the lock file.
ensure_venv() {
  local extras="$1"
  local stamp=".venv/.installed${extras}"
  if [ ! -x .venv/bin/python ]; then
    echo "ops: creating .venv" >&2
    python3 -m venv .venv
  fi
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ constraints.txt -nt "$stamp" ]; then
    echo "ops: installing cgledger${extras} into .venv" >&2
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip </dev/null
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e ".${extras}" </dev/null
    touch "$stamp"
  fi
}
