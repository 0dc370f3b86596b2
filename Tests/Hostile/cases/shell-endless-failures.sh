# expect: 1
# An endless script of bad lines: --bail stops at the first (without it the shell would go on
# as sqlite3 does, one diagnostic a line).
err=$(yes 'age >' | "$RQLC" shell --class Dog --bail 2>&1 >/dev/null)
status=$?
[[ "$err" == *"line 1: error: expected a value after '>'"* ]] || { echo "stderr: $err"; exit 99; }
exit $status
