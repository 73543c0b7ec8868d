# Step helpers for .ci/run: each step is timed, and the times are printed when the run ends, passed or failed.
STEP_TIMES="$(mktemp)"
RUN_STARTED=$SECONDS

print_step_times() {
  local status=$? total=$((SECONDS - RUN_STARTED))
  echo
  echo "== step times (whole run: $((total / 60)) min $((total % 60)) s; side-by-side steps overlap)"
  cat "$STEP_TIMES"
  return $status
}
trap print_step_times EXIT

# step NAME COMMAND...: runs the command and records how long it took (in a file, so steps run in the background count).
step() {
  local name=$1 started=$SECONDS status=0
  shift
  echo "== $name"
  "$@" || status=$?
  printf '%6ss  %s%s\n' $((SECONDS - started)) "$name" "$([ $status -eq 0 ] || echo "  (failed: exit $status)")" \
    >>"$STEP_TIMES"
  return $status
}

# side_by_side NAME_A COMMAND_A... -- NAME_B COMMAND_B...: runs both steps at once, each one's output kept aside and
# printed whole once both have ended (so their lines never interleave); fails if either failed.
side_by_side() {
  local name_a=$1 name_b log_a log_b pid_a status_a=0 status_b=0
  local -a first=()
  shift
  while [ "$1" != "--" ]; do
    first+=("$1")
    shift
  done
  shift
  name_b=$1
  shift
  log_a="$(mktemp)"
  log_b="$(mktemp)"
  step "$name_a" "${first[@]}" >"$log_a" 2>&1 &
  pid_a=$!
  step "$name_b" "$@" >"$log_b" 2>&1 || status_b=$?
  wait "$pid_a" || status_a=$?
  cat "$log_a" "$log_b"
  [ "$status_a" -eq 0 ] && [ "$status_b" -eq 0 ]
}
