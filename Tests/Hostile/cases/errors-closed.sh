# expect: 1
"$RQLC" check --class Dog "agee > 2" 2>&-
