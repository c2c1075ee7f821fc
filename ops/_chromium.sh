# Sourced by ops/test: the browser tests drive Debian's chromium package
# (tests/test_browser.py). Install it where it is missing and we may
# (root with apt-get); otherwise say so, and those tests skip with the reason
# (under CI=true they fail instead, because CI must run them).
ensure_chromium() {
  if command -v chromium >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ops: installing Debian's chromium for the browser tests (apt-get install -y chromium)" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium </dev/null >&2; then
      DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium </dev/null >&2
    fi
  else
    echo "ops: chromium is missing and this user cannot apt-get install it; the browser tests will skip" >&2
  fi
}
