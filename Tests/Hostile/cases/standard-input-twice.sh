# expect: 2
echo '{}' | "$RQLC" run --class Dog --data - --query-file - 
