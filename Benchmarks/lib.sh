# What the benchmark scripts share; each sources it from the repository's root.

# Builds fetcher for release and sets $fetcher to it (or takes $FETCHER).
build_fetcher() {
  # FETCHER=BINARY measures that build (another commit's, for a comparison) instead.
  if [ -n "${FETCHER:-}" ]; then
    fetcher=$FETCHER
    return
  fi
  swift build -c release --product fetcher >/dev/null
  fetcher=$(swift build -c release --show-bin-path)/fetcher
}

# Sets $work to a new folder on the tmpfs named after $1, removed when the script ends.
make_work() {
  work=$(mktemp -d "/dev/shm/fetcher-$1.XXXXXX")
  trap 'rm -rf "$work"' EXIT
}

# Runs the command, its output left out, and prints the seconds it took.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}
