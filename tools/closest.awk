# tools/closest.awk — the candidate nearest to a mistyped word, for make's
# "did you mean" lines: awk -f tools/closest.awk -v w=WORD CANDIDATE...
# Prints the candidate nearest to WORD within two edits (insert, delete,
# change, or swap of neighbours; one edit for a word of four letters or
# fewer), or nothing when none is that near.
function dist(a, b,    i, j, la, lb, d, c, x) {
    la = length(a); lb = length(b)
    for (i = 0; i <= la; i++) d[i, 0] = i
    for (j = 0; j <= lb; j++) d[0, j] = j
    for (i = 1; i <= la; i++)
        for (j = 1; j <= lb; j++) {
            c = substr(a, i, 1) != substr(b, j, 1)
            x = d[i-1, j] + 1
            if (d[i, j-1] + 1 < x) x = d[i, j-1] + 1
            if (d[i-1, j-1] + c < x) x = d[i-1, j-1] + c
            if (i > 1 && j > 1 && substr(a, i, 1) == substr(b, j-1, 1) && substr(a, i-1, 1) == substr(b, j, 1) && d[i-2, j-2] + 1 < x)
                x = d[i-2, j-2] + 1
            d[i, j] = x
        }
    return d[la, lb]
}
BEGIN {
    best = ""; bd = length(w) <= 4 ? 2 : 3
    for (k = 1; k < ARGC; k++) { e = dist(tolower(w), tolower(ARGV[k])); if (e < bd) { bd = e; best = ARGV[k] } }
    if (best != "") print best
    exit
}
