# Sourced by the setup scripts of venvs beside .venv (.venv-explore, .venv-inspect):
# side_venv VENV "PKGS" SCRIPT installs PKGS into VENV unless its stamp says they are there, then
# leaves `done_side_venv` to call once the caller has checked the install.
side_venv() {
  venv=$1 pkgs=$2 script=$3
  stamp=$venv/.iwr-setup
  want=$(echo "$pkgs" | cat - "$script" scripts/side_venv.sh | sha256sum | cut -c1-16)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
    return 1
  fi
  [ -x "$venv/bin/python" ] || "${PYTHON:-python3}" -m venv "$venv"
  log=$venv/setup.log
  : > "$log"
  started=$(date +%s)
  # shellcheck disable=SC2086
  "$venv/bin/pip" install -q --upgrade pip >>"$log" 2>&1 && "$venv/bin/pip" install -q $pkgs >>"$log" 2>&1 \
    || { tail -25 "$log" >&2; echo "$(basename "$script" .sh): pip install $pkgs failed (log: $log)" >&2; exit 1; }
}

done_side_venv() {
  echo "$want" > "$stamp"
  echo "$(basename "$script" .sh): ready ($venv, $(( $(date +%s) - started )) s)" >&2
}
