# expect: 2
# A FIFO where a store is expected is refused at once (naming what it is), never waited on.
mkfifo "$WORK/fifo"
for command in info verify export; do
    err=$("$RQLC" $command "$WORK/fifo" 2>&1)
    status=$?
    [ $status -eq 2 ] || { echo "$command: exit $status"; exit 98; }
    [[ "$err" == *"not a regular file: it is a FIFO"* ]] || { echo "$command stderr: $err"; exit 99; }
done
[ ! -e "$WORK/fifo.lock" ] || { echo "a lock file beside the FIFO"; exit 97; }
exit 2
