# expect: 1
# A 100 KB query's error shows a window of the line, not 100 KB plus a 100 KB caret line.
filler=$(head -c 100000 /dev/zero | tr '\0' x)
"$RQLC" check --class Dog "name == '$filler' AND agee > 2" 2> "$WORK/err"
status=$?
[ "$(wc -c < "$WORK/err")" -lt 1000 ] || { echo "stderr is $(wc -c < "$WORK/err") bytes"; exit 99; }
grep -q '…' "$WORK/err" || exit 98
exit $status
