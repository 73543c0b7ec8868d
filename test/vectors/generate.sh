#!/usr/bin/env bash
# Regenerates vectors.json: known-answer signatures computed by OpenSSL, independently of our code.
# Each body is given as base64, or (for the large one) as a byte pattern repeated to a length.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

hmac() { # secret timestamp bodyfile -> lowercase hex
  { printf '%s.' "$2"; cat "$3"; } | openssl dgst -sha256 -hmac "$1" -r | cut -d' ' -f1
}

entries=()
add_base64_case() { # name secret timestamp bodyfile
  local sig b64
  sig=$(hmac "$2" "$3" "$4")
  b64=$(base64 -w0 <"$4")
  entries+=("{\"name\":\"$1\",\"secret\":\"$2\",\"timestamp\":$3,\"bodyBase64\":\"$b64\",\"signature\":\"$sig\"}")
}

printf '%s' '{"type":"message.delivered","id":"evt_1","data":{"id":"msg_4f2a","status":"delivered","channel":"sms"}}' >"$work/ascii"
add_base64_case "ascii-json" "whsec_test_secret" 1700000000 "$work/ascii"

printf '%s' '{"type":"message.sent","data":{"body":"Grüße, 你好, 🚀","channel":"push"}}' >"$work/utf8"
add_base64_case "multibyte-utf8-json" "sécret-ключ" 1735689600 "$work/utf8"

: >"$work/empty"
add_base64_case "empty-body" "s" 0 "$work/empty"

printf '\xef\xbb\xbf{"a":"\xff\xfe\xc3\x28"}\x00\x80' >"$work/invalid"
add_base64_case "bom-and-invalid-utf8" "whsec_binary" 1999999999 "$work/invalid"

pattern='tidings-0123456789-'
length=1048576
head -c "$length" < <(yes "$pattern" | tr -d '\n') >"$work/large"
sig=$(hmac "whsec_large" 1700000300 "$work/large")
entries+=("{\"name\":\"one-mebibyte\",\"secret\":\"whsec_large\",\"timestamp\":1700000300,\"bodyPattern\":\"$pattern\",\"bodyLength\":$length,\"signature\":\"$sig\"}")

{
  echo "["
  for i in "${!entries[@]}"; do
    sep=","; [ "$i" -eq $((${#entries[@]} - 1)) ] && sep=""
    echo "  ${entries[$i]}$sep"
  done
  echo "]"
} >vectors.json
echo "wrote $(pwd)/vectors.json (${#entries[@]} vectors, $(openssl version))"
