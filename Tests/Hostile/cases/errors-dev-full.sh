# expect: 1
# A failed write to standard error still leaves the exit code of the error.
"$RQLC" check --class Dog "agee > 2" 2>/dev/full
