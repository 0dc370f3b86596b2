# expect: 2
"$RQLC" check --class Dog --schema "$WORK/none.json" "age > 2"
