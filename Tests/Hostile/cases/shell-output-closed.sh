# expect: 0
# An endless script whose reader stops reading (`| head`): the shell ends quietly, as cat does.
yes TRUEPREDICATE | "$RQLC" shell --class Dog 2>"$WORK/err" | head -c 100 >/dev/null
status=${PIPESTATUS[1]}
[ ! -s "$WORK/err" ] || { cat "$WORK/err"; exit 99; }
exit "$status"
