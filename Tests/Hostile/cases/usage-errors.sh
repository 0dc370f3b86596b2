# expect: 2
"$RQLC" run --class Dog --format xml "age > 2"
